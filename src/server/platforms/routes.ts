import { z } from "@hono/zod-openapi";
import { eq, sql } from "drizzle-orm";
import { msg } from "../../domain/messages";
import {
  createPlatformSchema,
  deletePlatformQuerySchema,
  platformDetailSchema,
  platformSchema,
  updatePlatformSchema,
} from "../../domain/platforms";
import { deletedPlatformResultSchema } from "../../domain/deleted";
import { mutate } from "../audit";
import { recordsOf } from "../db/records";
import { recordDeletion, takeRows } from "../deleted";
import { platform_prompts, platforms } from "../db/schema";
import { errorBodySchema, HttpError, notFound } from "../http/errors";
import { toJson } from "../http/list";
import { mountList } from "../http/list-routes";
import {
  apiRoute,
  conflictResponse,
  ifMatchOf,
  versionHeaders,
  createRouter,
  invalidResponse,
  jsonBody,
  jsonResponse,
  notFoundResponse,
} from "../http/route";
import { getPlatform, platformList, platformPromptList } from "./queries";

export const platformsBase = "/api/platforms";
const json = jsonResponse;
const platformNotFound = notFoundResponse(msg.platforms.notFound);
const invalid = invalidResponse;
const params = z.object({ platformId: z.guid({ error: msg.platforms.notFound }) });
const platformExists = (p: { platformId: string }) =>
  sql`exists (select 1 from platforms where platform_id = ${p.platformId})`;

/** GET /api/platforms/{platformId} → the platform with prompt_count (docs/decisions.md: the platform screens); 404 "Platform not found". */
const detail = apiRoute(platformsBase, "viewer", {
  method: "get",
  path: "/{platformId}",
  tags: ["Platforms"],
  summary: "One platform",
  request: { params },
  responses: { 200: json(platformDetailSchema, "The platform"), ...platformNotFound },
});

/** POST /api/platforms `{ platform_name, platform_description?, status? }` → 201 the platform (default active); 422 with field messages. */
const create = apiRoute(platformsBase, "editor", {
  method: "post",
  path: "/",
  tags: ["Platforms"],
  summary: "Add a platform",
  request: { body: jsonBody(createPlatformSchema) },
  responses: { 201: json(platformSchema, "Created"), ...invalid },
});

/**
 * PATCH /api/platforms/{platformId} `{ platform_name?, platform_description?, status? }` → the
 * platform: Edit, Archive (`{ status: "inactive" }`) and Activate; sets updated_at when something
 * changes, writes nothing otherwise. 404; 422.
 */
const update = apiRoute(platformsBase, "editor", {
  method: "patch",
  path: "/{platformId}",
  tags: ["Platforms"],
  summary: "Edit, archive or activate a platform",
  request: { params, headers: versionHeaders, body: jsonBody(updatePlatformSchema) },
  responses: {
    200: json(platformSchema, "Updated"),
    ...platformNotFound,
    ...invalid,
    ...conflictResponse("stale: the platform changed since If-Match"),
  },
});

/**
 * DELETE /api/platforms/{platformId}?cascade=true → `{ ok, removed_assignments, deletion_id }`. A
 * platform assigned to prompts is refused (409, saying how many) unless `cascade=true`, which
 * removes its assignments in the same transaction (docs/decisions.md); the platform and those
 * assignments are kept as one snapshot for Undo and restore (docs/undo-and-restore.md). 404.
 */
const remove = apiRoute(platformsBase, "editor", {
  method: "delete",
  path: "/{platformId}",
  tags: ["Platforms"],
  summary: "Delete a platform",
  request: { params, query: deletePlatformQuerySchema },
  responses: {
    200: json(deletedPlatformResultSchema, "Deleted"),
    ...platformNotFound,
    ...invalid,
    409: json(errorBodySchema, "Prompts are assigned to it"),
  },
});

export const platformsRouter = createRouter();

/** GET /api/platforms (SPEC.md §2 "/platforms") and its CSV export: docs/lists.md. */
mountList(platformsRouter, {
  base: platformsBase,
  path: "/",
  access: "viewer",
  tags: ["Platforms"],
  summary: "List platforms",
  description:
    "Platforms with prompt_count; filter status; `q` searches name, description and status; cards over all platforms.",
  list: platformList,
});

/** GET /api/platforms/{platformId}/prompts: the prompts assigned to the platform; 404 "Platform not found". */
mountList(platformsRouter, {
  base: platformsBase,
  path: "/{platformId}/prompts",
  access: "viewer",
  tags: ["Platforms"],
  summary: "Prompts assigned to a platform",
  description:
    "The platform's prompts with title, status and is_active, newest assignment first; `q` searches title and status.",
  list: platformPromptList,
  params,
  scope: {
    where: (p: { platformId: string }) => sql`pp.platform_id = ${p.platformId}`,
    exists: platformExists,
    notFound: msg.platforms.notFound,
  },
});

const platformRecords = recordsOf({
  table: platforms,
  id: platforms.platform_id,
  entity: "platform",
  notFound: msg.platforms.notFound,
});

platformsRouter
  .openapi(detail, async (c) => {
    const platform = await getPlatform(c.var.db, c.req.valid("param").platformId);
    if (!platform) throw notFound(msg.platforms.notFound);
    return c.json(platform, 200);
  })
  .openapi(create, async (c) => {
    const input = c.req.valid("json");
    const created = await mutate(c, (tx) => platformRecords.create(tx, input));
    return c.json(toJson(created), 201);
  })
  .openapi(update, async (c) => {
    const { platformId } = c.req.valid("param");
    const input = c.req.valid("json");
    const ifMatch = ifMatchOf(c.req.valid("header"));
    const updated = await mutate(c, async (tx) =>
      platformRecords.update(tx, await platformRecords.lock(tx, platformId, { ifMatch }), input),
    );
    return c.json(toJson(updated), 200);
  })
  .openapi(remove, async (c) => {
    const { platformId } = c.req.valid("param");
    const { cascade } = c.req.valid("query");
    const removed = await mutate(c, async (tx) => {
      const before = await platformRecords.lock(tx, platformId);
      const assignments = await tx
        .select({ prompt_id: platform_prompts.prompt_id })
        .from(platform_prompts)
        .where(eq(platform_prompts.platform_id, platformId))
        .for("update");
      if (assignments.length > 0 && cascade !== "true")
        throw new HttpError(409, "conflict", msg.platforms.deleteBlocked(assignments.length));
      // Taken whole (every column), so that a restore puts back exactly what was there.
      const taken = await takeRows(tx, "platform_prompts", sql`platform_id = ${platformId}`);
      const [row] = await takeRows(tx, "platforms", sql`platform_id = ${platformId}`);
      const deletion = await recordDeletion(tx, c, {
        entity: "platform",
        entityId: platformId,
        label: before.platform_name,
        row,
        cascade: { platform_prompts: taken },
      });
      return {
        result: { removed: assignments.length, deletion },
        audit: [
          {
            action: "delete",
            entity: "platform",
            entity_id: platformId,
            before: { ...toJson(before), prompt_ids: assignments.map((a) => a.prompt_id) },
          },
        ],
      };
    });
    return c.json({ ok: true as const, removed_assignments: removed.removed, deletion_id: removed.deletion }, 200);
  });
