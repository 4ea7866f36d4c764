import { sql } from "drizzle-orm";
import { deletedPlatformResultSchema } from "../../domain/deleted";
import { msg } from "../../domain/messages";
import {
  deletePlatformQuerySchema,
  platformOptionSchema,
  platformOptionsSchema,
  platformRecords,
  platformSchema,
} from "../../domain/platforms";
import { statusActions } from "../bulk/kinds";
import { recordsOf } from "../db/records";
import { platforms } from "../db/schema";
import { errorBodySchema, HttpError } from "../http/errors";
import { mountRecordRoutes } from "../http/record-routes";
import { createRouter, jsonResponse } from "../http/route";
import { platformList, platformPicker, platformPromptList } from "./queries";

export const platformsBase = "/api/platforms";

export const platformsRouter = createRouter();

/**
 * GET /api/platforms/options?q&active&limit&after → `{ items: [{ platform_id, platform_name,
 * status }], more, next }` for pickers (the API token form's delivery platform), GET
 * /api/platforms/{platformId}/option one of them.
 * GET /api/platforms (SPEC.md §2 "/platforms") and GET /api/platforms/{platformId}/prompts (the
 * prompts assigned to it), with their CSV exports: docs/lists.md. GET /api/platforms/{platformId} → the platform with prompt_count (docs/decisions.md: the platform
 * screens). POST /api/platforms `{ platform_name, platform_description?, status? }` → 201 the
 * platform (default active). PATCH /api/platforms/{platformId} `{ platform_name?,
 * platform_description?, status? }` → the platform: Edit, Archive (`{ status: "inactive" }`) and
 * Activate. DELETE /api/platforms/{platformId}?cascade=true → `{ ok, removed_assignments,
 * deletion_id }`: a platform assigned to prompts is refused (409, saying how many) unless
 * `cascade=true`, which removes its assignments with it (docs/decisions.md).
 */
mountRecordRoutes(platformsRouter, {
  base: platformsBase,
  tag: "Platforms",
  records: recordsOf({
    table: platforms,
    id: platforms.platform_id,
    entity: "platform",
    notFound: msg.platforms.notFound,
  }),
  options: { schema: platformOptionsSchema, item: platformOptionSchema, ...platformPicker },
  create: { body: platformRecords.create, schema: platformSchema },
  update: { summary: "Edit, archive or activate a platform", body: platformRecords.update, schema: platformSchema },
  remove: {
    schema: deletedPlatformResultSchema,
    query: deletePlatformQuerySchema,
    responses: { 409: jsonResponse(errorBodySchema, "Prompts are assigned to it") },
    label: (p) => p.platform_name,
    cascade: ["platform_prompts"],
    check: (_tx, _id, taken, { cascade }) => {
      const assigned = taken.platform_prompts?.length ?? 0;
      if (assigned > 0 && !cascade) throw new HttpError(409, "conflict", msg.platforms.deleteBlocked(assigned));
    },
    audit: (taken) => ({ prompt_ids: taken.platform_prompts?.map((a) => a.prompt_id) }),
    answer: (taken) => ({ removed_assignments: taken.platform_prompts?.length ?? 0 }),
  },
  list: {
    description:
      "Platforms with prompt_count; filter status; `q` searches name, description and status; cards over all platforms.",
    list: platformList,
  },
  lists: [
    {
      path: "/prompts",
      summary: "Prompts assigned to a platform",
      description:
        "The platform's prompts with title, status and is_active, newest assignment first; `q` searches title and status.",
      list: platformPromptList,
      where: (id) => sql`pp.platform_id = ${id}`,
    },
  ],
});

/** Bulk actions on platforms (docs/bulk-actions.md): Activate and Deactivate (Archive), as the detail page's buttons. */
export const platformBulkActions = statusActions(
  {
    entity: "platforms",
    list: platformList,
    table: "platforms",
    alias: "pl",
    id: "platform_id",
    name: "platform_name",
    auditEntity: "platform",
  },
  [
    { action: "activate", summary: "Activate platforms" },
    { action: "deactivate", summary: "Deactivate platforms" },
  ],
);
