import { z } from "@hono/zod-openapi";
import { and, eq, isNull, sql } from "drizzle-orm";
import {
  apiTokenListSchema,
  createApiTokenSchema,
  createdApiTokenSchema,
  operatorApiTokenSchema,
} from "../../domain/api-tokens";
import { noSummary, okSchema } from "../../domain/common";
import { roleAtLeast } from "../../domain/enums";
import { msg } from "../../domain/messages";
import { mutate, type Tx } from "../audit";
import { queryRows } from "../db/client";
import { operator_api_token, platforms } from "../db/schema";
import { errorBodySchema, HttpError, notFound } from "../http/errors";
import { mountList } from "../http/list-routes";
import { defineList } from "../http/lists";
import { apiRoute, createRouter, invalidResponse, jsonBody, jsonResponse, notFoundResponse } from "../http/route";
import { newApiToken, tokenColumns, tokenFacts, tokenJson } from "../tokens";

/** The signed-in operator's own tokens. */
export const accountTokensBase = "/api/account/tokens";
/** Every operator's tokens (admin). */
export const apiTokensBase = "/api/api-tokens";

const params = z.object({ tokenId: z.guid(msg.apiTokens.notFound) });
const notFound404 = notFoundResponse(msg.apiTokens.notFound);

/**
 * GET /api/account/tokens → `{ items }`: the caller's tokens, live ones first, each newest first
 * (never the tokens themselves), each with its platform (platform_id, platform_name) when it is a
 * delivery token; revoked ones (`revoked_at`) for DELETED_RETENTION_DAYS after their revocation.
 */
const listOwn = apiRoute(accountTokensBase, "viewer", {
  method: "get",
  path: "/",
  tags: ["API tokens"],
  summary: "List my API tokens",
  responses: { 200: jsonResponse(apiTokenListSchema, "The caller's tokens, newest first") },
});

/**
 * POST /api/account/tokens `{ name, role, expires_in_days?, platform_id? }` → 201 the token with,
 * this once, `token` itself. `name` 1–100 characters; `role` at most the caller's own (422
 * otherwise); `expires_in_days` 1–365, default 90; `platform_id` makes a delivery token, which may
 * only read that platform's prompts (GET /api/delivery/platforms/{platform_id}/prompts, 403 on
 * every other route; 422 when the platform does not exist). Only from a signed-in session: an API token cannot create
 * tokens (403), so that a leaked token cannot mint others that outlive its revocation. Audited
 * `api_token_created` (name, prefix, role, expiry).
 */
const createOwn = apiRoute(accountTokensBase, "viewer", {
  method: "post",
  path: "/",
  tags: ["API tokens"],
  summary: "Create an API token",
  // A role any caller may give (at most the caller's own).
  request: { body: jsonBody(createApiTokenSchema, { name: "Nightly export", role: "viewer", expires_in_days: 30 }) },
  responses: {
    201: jsonResponse(createdApiTokenSchema, "Created: the token is in `token`, shown only this once"),
    403: jsonResponse(errorBodySchema, "Called with an API token (create tokens from a signed-in session)"),
    ...invalidResponse,
  },
});

/**
 * DELETE `{base}/{tokenId}` → `{ ok }`: revokes a token at once (it stays listed, marked revoked, for
 * DELETED_RETENTION_DAYS); 404 for a token the caller may not revoke or one already revoked.
 */
const revokeRoute = (base: string, access: "viewer" | "admin", summary: string) =>
  apiRoute(base, access, {
    method: "delete",
    path: "/{tokenId}",
    tags: ["API tokens"],
    summary,
    request: { params },
    responses: { 200: jsonResponse(okSchema, "Revoked"), ...notFound404 },
  });

/** DELETE /api/account/tokens/{tokenId} → `{ ok }`: revokes one of the caller's tokens at once; 404 for any other. */
const revokeOwn = revokeRoute(accountTokensBase, "viewer", "Revoke one of my API tokens");

/** DELETE /api/api-tokens/{tokenId} → `{ ok }` (admin): revokes any operator's token at once. */
const revokeAny = revokeRoute(apiTokensBase, "admin", "Revoke an operator's API token");

/** Revokes a live token (of `operatorId` only, when given) at `now` and audits it; 404 when there is none. */
async function revoke(tx: Tx, tokenId: string, now: Date, operatorId?: string) {
  const where = and(
    eq(operator_api_token.token_id, tokenId),
    isNull(operator_api_token.revoked_at),
    operatorId ? eq(operator_api_token.operator_id, operatorId) : undefined,
  );
  const [gone] = await tx.update(operator_api_token).set({ revoked_at: now }).where(where).returning({
    name: operator_api_token.name,
    prefix: operator_api_token.prefix,
    role: operator_api_token.role,
    operator_id: operator_api_token.operator_id,
  });
  if (!gone) throw notFound(msg.apiTokens.notFound);
  return {
    result: null,
    audit: [
      {
        action: "api_token_revoked" as const,
        entity: "api_token" as const,
        entity_id: tokenId,
        before: { ...tokenFacts(gone), operator_id: gone.operator_id },
      },
    ],
  };
}

export const accountTokensRouter = createRouter()
  .openapi(listOwn, async (c) => {
    const rows = await queryRows<Record<string, unknown>>(
      c.get("db"),
      sql`select ${tokenColumns} from operator_api_token t
        where t.operator_id = ${c.get("session")!.user.id}
        order by t.revoked_at is not null, t.created_at desc, t.token_id`,
    );
    return c.json({ items: rows.map(tokenJson) }, 200);
  })
  .openapi(createOwn, async (c) => {
    const input = c.req.valid("json");
    const me = c.get("session")!.user as { id: string; role?: string };
    if (!roleAtLeast(me.role, input.role))
      throw new HttpError(422, "validation_failed", msg.apiTokens.roleTooHigh, { role: msg.apiTokens.roleTooHigh });
    const { token, prefix, hash } = newApiToken();
    const now = c.get("lists").now();
    const expiresAt = new Date(now + input.expires_in_days * 86_400_000);
    const row = await mutate(c, async (tx) => {
      // A delivery token's platform must exist; locked against deletion until the token is written.
      let platformName: string | null = null;
      if (input.platform_id) {
        const [platform] = await tx
          .select({ name: platforms.platform_name })
          .from(platforms)
          .where(eq(platforms.platform_id, input.platform_id))
          .for("share");
        if (!platform)
          throw new HttpError(422, "validation_failed", msg.delivery.platformNotFound, {
            platform_id: msg.delivery.platformNotFound,
          });
        platformName = platform.name;
      }
      const [inserted] = await tx
        .insert(operator_api_token)
        .values({
          operator_id: me.id,
          name: input.name,
          prefix,
          token_hash: hash,
          role: input.role,
          expires_at: expiresAt,
          created_at: new Date(now),
          platform_id: input.platform_id,
        })
        .returning();
      const created = { ...inserted, platform_name: platformName };
      return {
        result: created,
        audit: [
          {
            action: "api_token_created",
            entity: "api_token",
            entity_id: created.token_id,
            after: {
              ...tokenFacts(created),
              expires_at: expiresAt.toISOString(),
              ...(created.platform_id ? { platform_id: created.platform_id, platform_name: platformName } : {}),
            },
          },
        ],
      };
    });
    return c.json({ ...tokenJson(row), token }, 201);
  })
  .openapi(revokeOwn, async (c) => {
    const { tokenId } = c.req.valid("param");
    await mutate(c, (tx) => revoke(tx, tokenId, new Date(c.get("lists").now()), c.get("session")!.user.id));
    return c.json({ ok: true as const }, 200);
  });

/** Every operator's tokens with the operator's email (admin): newest first; `q` matches email, name and prefix. */
export const apiTokenList = defineList({
  name: "api_tokens",
  item: operatorApiTokenSchema,
  summarySchema: noSummary,
  from: sql`operator_api_token t join operator o on o.id = t.operator_id`,
  select: sql`${tokenColumns}, t.operator_id, o.email as operator_email`,
  id: { expr: sql`t.token_id`, type: "uuid" },
  sorts: {
    created_at: [{ expr: sql`t.created_at`, type: "timestamptz" }],
    expires_at: [{ expr: sql`t.expires_at`, type: "timestamptz" }],
  },
  unindexedSorts: {
    sorts: ["created_at", "expires_at"],
    reason: "A few personal tokens per operator, and tens of operators: the list is sorted whole.",
  },
  defaultSort: "created_at",
  defaultOrder: "desc",
  filters: {
    operator_id: {
      schema: z.string().max(100).optional(),
      where: (id: string) => sql`t.operator_id = ${id}`,
      description: "Only this operator's tokens",
    },
  },
  search: (m) => sql`(o.email ilike ${m.pattern} or t.name ilike ${m.pattern} or t.prefix ilike ${m.pattern})`,
  csv: [
    { header: "Operator", value: (t) => t.operator_email },
    { header: "Name", value: (t) => t.name },
    { header: "Token", value: (t) => t.prefix },
    { header: "Role", value: (t) => t.role },
    { header: "Created", value: (t) => t.created_at },
    { header: "Expires", value: (t) => t.expires_at },
    { header: "Last Used", value: (t) => t.last_used_at },
    { header: "Platform", value: (t) => t.platform_name },
  ],
});

export const apiTokensRouter = createRouter();

/** GET /api/api-tokens (admin) and its CSV export: every operator's tokens, paged (docs/lists.md). */
mountList(apiTokensRouter, {
  base: apiTokensBase,
  path: "/",
  access: "admin",
  tags: ["API tokens"],
  summary: "List every operator's API tokens",
  description: "Every operator's tokens with the operator's email, newest first; `q` searches email, name and prefix.",
  list: apiTokenList,
});

apiTokensRouter.openapi(revokeAny, async (c) => {
  const { tokenId } = c.req.valid("param");
  await mutate(c, (tx) => revoke(tx, tokenId, new Date(c.get("lists").now())));
  return c.json({ ok: true as const }, 200);
});
