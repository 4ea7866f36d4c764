import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { msg } from "../../domain/messages";
import { deliverySchema, promptVariables, type Delivery } from "../../domain/prompt-changes";
import { preparedPerDatabase, type Database } from "../db/client";
import { notFound } from "../http/errors";
import { idParams } from "../http/record-routes";
import { apiRoute, createRouter, jsonResponse, notFoundResponse } from "../http/route";

export const deliveryBase = "/api/delivery";

const params = idParams("platformId", msg.delivery.platformNotFound);

/**
 * Mixed into every tag: a new rule for what is served beyond the database's text (today the
 * `variables` found in each content) changes it, so that no client keeps an answer made by the
 * rule before through 304s.
 */
const answerFormat = "delivery-1";

/** How many entity tags of an If-None-Match header are compared; the rest are ignored. */
const maxClientTags = 20;

const cacheControl = "private, no-cache";

const headers = z.object({
  "if-none-match": z.string().optional().openapi({
    description:
      "The ETag of the answer the client holds (or several, comma-separated, or `*`); compared weakly (RFC 9110): `W/` is ignored. When one matches, the answer is 304 with no body.",
    example: '"5d41402abc4b2a76b9719d911017c592"',
  }),
});

const etagHeader = {
  ETag: {
    description: "A strong tag of this answer: the MD5 of its content. Send it back in If-None-Match.",
    schema: { type: "string" as const, example: '"5d41402abc4b2a76b9719d911017c592"' },
  },
  "Cache-Control": {
    description: "`private, no-cache`: a cache may keep the answer but must ask again (If-None-Match) before using it.",
    schema: { type: "string" as const, example: cacheControl },
  },
};

/**
 * GET /api/delivery/platforms/{platformId}/prompts → `deliverySchema`: the platform (platform_id,
 * platform_name, status, provided_variables) and its live prompts, the ones the platform should
 * use now (docs/prompt-review.md, "Read API for platforms"): every active assignment
 * (`platform_prompts.is_active`) of a prompt whose status is `active`, none for a platform whose own
 * status is not `active` (it has nothing to serve), with the prompt's title,
 * content, version (the highest in prompt_versions, 1 for a prompt without versions), the
 * `{{variables}}` its content uses (`promptVariables`), its skill (id and name) and the
 * assignment's time; ordered by assigned_at, then prompt_id. Only approved state is served:
 * pending proposals live in prompt_changes, never in the tables read here.
 *
 * ETag: the MD5, computed by PostgreSQL in the same statement, of the answer's content as the
 * database composes it, so it changes whoever writes the tables (another writer of an adopted
 * database included) and only when the answer does. If-None-Match (a list of tags, `*`, `W/`
 * compared weakly) matching it → 304 with the ETag and no body; then the statement returns the
 * tag alone. Cache-Control `private, no-cache` on both.
 *
 * Errors: 404 `msg.delivery.platformNotFound` for an unknown or malformed platform id. A delivery
 * token (an API token with a platform) may call this route for its own platform only (403
 * elsewhere: src/server/app.ts).
 */
const platformPrompts = apiRoute(deliveryBase, "viewer", {
  method: "get",
  path: "/platforms/{platformId}/prompts",
  tags: ["Delivery"],
  summary: "A platform's live prompts",
  description:
    "The platform and its live prompts: its active assignments of active prompts, each with title, content, version, the `{{variables}}` the content uses, its skill and the assignment's time, ordered by assigned_at then prompt_id. Pending review proposals are never served. The answer carries a strong ETag; send it in If-None-Match to get 304 (no body) while nothing changed.",
  request: { params, headers },
  responses: {
    200: { ...jsonResponse(deliverySchema, "The platform and its live prompts"), headers: etagHeader },
    304: { description: "Not modified: the If-None-Match tag is the current one (no body)", headers: etagHeader },
    ...notFoundResponse(msg.delivery.platformNotFound),
  },
});

/**
 * The entity tags of an If-None-Match header (RFC 9110 §13.1.2), opaque parts only (weak
 * comparison: `W/` dropped), keeping those that can be one of ours; `"*"` for any.
 */
export function clientTags(header: string | undefined): string[] | "*" {
  if (!header) return [];
  if (header.trim() === "*") return "*";
  const tags: string[] = [];
  for (const m of header.matchAll(/(?:W\/)?"([^"]*)"/g)) {
    if (/^[0-9a-f]{32}$/.test(m[1])) tags.push(m[1]);
    if (tags.length >= maxClientTags) break;
  }
  return tags;
}

/**
 * The one statement of the route, prepared once per database (it is planned once per connection,
 * not per request): the platform, its live prompts as JSON text, and the text's MD5; the text
 * only when the MD5 is not one of the client's tags (a 304 gets the tag alone). `offset 0` keeps
 * each subquery as it is written, so that the JSON and its MD5 are computed once. Versions are
 * read per prompt from prompt_versions' primary key, the assignments from
 * platform_prompts_platform_assigned_idx.
 */
function prepare(db: Database) {
  return db
    .select({
      tag: sql<string>`t.tag`,
      body: sql<string | null>`case when ${sql.placeholder("any")}::boolean
        or t.tag = any(${sql.placeholder("tags")}::text[]) then null else d.text end`,
    })
    .from(
      sql`(
      select ${answerFormat} || json_build_object(
        'platform_id', pl.platform_id,
        'platform_name', pl.platform_name,
        'status', pl.status,
        'provided_variables', pl.provided_variables,
        'prompts', coalesce((
          select json_agg(json_build_object(
            'prompt_id', pr.prompt_id,
            'prompt_title', pr.prompt_title,
            'prompt_value', pr.prompt_value,
            'version', coalesce((select max(v.version) from prompt_versions v where v.prompt_id = pr.prompt_id), 1),
            'variables', null,
            'skill_id', pr.skill_id,
            'skill_name', s.skill_name,
            'assigned_at', to_char(pp.assigned_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
          ) order by pp.assigned_at, pp.prompt_id)
          from platform_prompts pp
          join pedal_prompts pr on pr.prompt_id = pp.prompt_id
          join skills s on s.skill_id = pr.skill_id
          where pp.platform_id = pl.platform_id and pp.is_active is true and pr.status = 'active'
            and pl.status = 'active'
        ), '[]'::json)
      )::text as text
      from platforms pl where pl.platform_id = ${sql.placeholder("platformId")}::uuid
      offset 0
    ) d cross join lateral (select md5(d.text) as tag offset 0) t`,
    )
    .prepare("pedal_delivery_read");
}

const statementOf = preparedPerDatabase(prepare);

export const deliveryRouter = createRouter().openapi(platformPrompts, async (c) => {
  const { platformId } = c.req.valid("param");
  const given = clientTags(c.req.valid("header")["if-none-match"]);
  const [row] = await statementOf(c.get("db")).execute({
    platformId,
    any: given === "*",
    // Tags are 32 hexadecimal digits (clientTags): an array literal needs no quoting.
    tags: `{${given === "*" ? "" : given.join(",")}}`,
  });
  if (!row) throw notFound(msg.delivery.platformNotFound);
  c.header("ETag", `"${row.tag}"`);
  c.header("Cache-Control", cacheControl);
  if (row.body === null) return c.body(null, 304);
  const answer = JSON.parse(row.body.slice(answerFormat.length)) as Delivery;
  for (const p of answer.prompts) p.variables = promptVariables(p.prompt_value);
  return c.json(answer, 200);
});
