import { z } from "zod";
import { id, listPage, noSummary, okSchema, timestamp } from "./common";
import { deletePlatformResultSchema } from "./platforms";
import { skillAssignmentResultSchema } from "./skills";

/**
 * What a deletion can be (docs/undo-and-restore.md): a record (team, skill, prompt, platform) with
 * its cascade, or one link between two records (a team membership, a skill's assignment to a team,
 * a prompt's platform). A link's id is its two ids joined by ":" (team:user, team:skill,
 * prompt:platform).
 */
export const deletedEntities = [
  "team",
  "skill",
  "prompt",
  "platform",
  "team_member",
  "skill_assignment",
  "prompt_platform",
] as const;
export type DeletedEntity = (typeof deletedEntities)[number];

/** The kinds of part a restore reports: the record itself, and each row of its cascade. */
export const restorePartKinds = [...deletedEntities, "prompt_version"] as const;
export type RestorePartKind = (typeof restorePartKinds)[number];

/** One row of "Recently deleted": what was deleted, when and by whom (GET /api/deleted). */
export const deletedRecordSchema = z.object({
  deletion_id: id,
  entity: z.enum(deletedEntities),
  entity_id: z.string(),
  label: z.string(),
  /** How many rows of its cascade went with it (memberships, assignments, versions). */
  cascade_count: z.number().int(),
  deleted_by_email: z.string().nullable(),
  deleted_at: timestamp,
});
export type DeletedRecord = z.infer<typeof deletedRecordSchema>;
export const deletedPageSchema = listPage(deletedRecordSchema, noSummary);

/** The sort keys of GET /api/deleted. */
export const deletedSortKeys = ["deleted_at", "label", "entity"] as const;

/** One part of a restore: which record or link, and its name as it was when deleted. */
export const restorePartSchema = z.object({ kind: z.enum(restorePartKinds), id: z.string(), label: z.string() });
export type RestorePart = z.infer<typeof restorePartSchema>;

/**
 * The answer of POST /api/deleted/{deletion_id}/restore: what came back (the record first, then its
 * cascade), and each part that could not, with the reason in the console's words.
 */
export const restoreReportSchema = z.object({
  deletion_id: id,
  entity: z.enum(deletedEntities),
  entity_id: z.string(),
  label: z.string(),
  restored: z.array(restorePartSchema),
  not_restored: z.array(restorePartSchema.extend({ reason: z.string() })),
});
export type RestoreReport = z.infer<typeof restoreReportSchema>;

/** A delete's answer with the id of its snapshot (`deletion_id`), which Undo restores. */
export const deletedResultSchema = okSchema.extend({ deletion_id: id });
/** DELETE /api/platforms/{id}: the removed assignments' count and the snapshot's id. */
export const deletedPlatformResultSchema = deletePlatformResultSchema.extend({ deletion_id: id });
/** PATCH /api/skills/{id}/teams/{teamId}: an Unassign that changed something also names its snapshot. */
export const assignmentChangeResultSchema = skillAssignmentResultSchema.extend({ deletion_id: id.optional() });

/** How long a confirmation toast offers Undo (issue 33: 10 s). */
export const undoWindowMs = 10_000;
