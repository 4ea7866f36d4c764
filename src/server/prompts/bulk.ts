/**
 * Bulk actions on prompts (docs/bulk-actions.md): Activate, Archive, and Assign Platform (an
 * active platform, as the prompt page's Assign; an assigned prompt is skipped).
 */
import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { msg } from "../../domain/messages";
import { defineBulkAction, uuidArray, type BulkContext } from "../bulk/engine";
import { statusActions } from "../bulk/kinds";
import { queryRows, type Database } from "../db/client";
import { HttpError } from "../http/errors";
import { platformAssignmentAudit, unassignPlatforms } from "../links";
import { recordNameSql } from "../record-names";
import { promptList } from "./queries";
import { reviewRequiredSql } from "./changes-queries";

/**
 * Under PROMPT_REVIEW a prompt whose change waits for review is skipped, by the action and by its
 * undo: a bulk action applies changes at once, and a change to such a prompt is proposed from its
 * own page (docs/prompt-review.md; the database's gate refuses it anyway: ./served.ts).
 */
const underReview = (context: BulkContext, platformId?: string) =>
  context.promptReview === "off"
    ? []
    : [{ reason: msg.bulk.needsReview, when: reviewRequiredSql(context.promptReview, sql`p.prompt_id`, platformId) }];

const prompt = {
  entity: "prompts",
  list: promptList,
  table: "pedal_prompts",
  alias: "p",
  id: "prompt_id",
  name: "prompt_title",
  // Prompts of different skills share titles: the report names each with its skill.
  label: recordNameSql.prompt("p"),
  auditEntity: "prompt",
  guard: (_p: unknown, context: BulkContext) => underReview(context),
} as const;

/**
 * The platform a prompt is assigned to must exist and be active (Assign Platform, one prompt or
 * many); `lock` share-locks it until the transaction ends. @throws HttpError 422 on platform_id.
 */
export async function activePlatform(db: Database, platformId: string, lock = false) {
  const [platform] = await queryRows<{ status: string; platform_name: string }>(
    db,
    sql`select status, platform_name from platforms where platform_id = ${platformId} ${lock ? sql`for share` : sql``}`,
  );
  if (!platform)
    throw new HttpError(422, "validation_failed", msg.platforms.notFound, { platform_id: msg.platforms.notFound });
  if (platform.status !== "active")
    throw new HttpError(422, "validation_failed", msg.platforms.notActive, { platform_id: msg.platforms.notActive });
  return platform;
}

export const promptBulkActions = [
  ...statusActions(prompt, [
    { action: "activate", summary: "Activate prompts" },
    { action: "archive", summary: "Archive prompts" },
  ]),
  defineBulkAction<{ platform_id: string }>({
    ...prompt,
    action: "assign_platform",
    summary: "Assign prompts to a platform",
    params: z.strictObject({ platform_id: z.guid({ error: msg.platforms.notFound }) }),
    label: prompt.label,
    before: sql`null::jsonb`,
    check: async (db, p) => void (await activePlatform(db, p.platform_id)),
    guard: (p, context) => underReview(context, p.platform_id),
    skips: (p) => [
      {
        reason: msg.bulk.alreadyAssigned,
        when: sql`exists (select 1 from platform_prompts pp where pp.platform_id = ${p.platform_id} and pp.prompt_id = p.prompt_id)`,
      },
    ],
    apply: async (tx, p, rows) => {
      const db: Database = tx;
      const platform = await activePlatform(db, p.platform_id, true);
      const added = await queryRows<{ prompt_id: string }>(
        db,
        sql`insert into platform_prompts (platform_id, prompt_id, is_active, assigned_at)
          select ${p.platform_id}, x.id, true, now() from unnest(${uuidArray(rows.map((r) => r.id))}) as x(id)
          on conflict do nothing returning prompt_id::text`,
      );
      return added.flatMap((a) =>
        platformAssignmentAudit(
          "assign_platform",
          { prompt_id: a.prompt_id, platform_id: p.platform_id },
          { platform_name: platform.platform_name, is_active: true },
        ),
      );
    },
    // Undo: the assignment it made is removed, as Unassign removes it, unless it was removed or made again since.
    undo: {
      skips: (p, u) => [
        {
          reason: msg.bulk.undoNoLongerAssigned,
          when: sql`not exists (select 1 from platform_prompts pp where pp.platform_id = ${p.platform_id}
            and pp.prompt_id = p.prompt_id and pp.assigned_at <= ${u.ended})`,
        },
      ],
      apply: (tx, p, rows, run) =>
        unassignPlatforms(
          tx,
          rows.map((r) => ({ prompt_id: r.id, platform_id: p.platform_id })),
          run,
        ),
    },
  }),
];
