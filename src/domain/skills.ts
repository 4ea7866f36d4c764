import { z } from "zod";
import { counts, id, listPage, stored, recordSchemas, rowTimestamps, timestamp, optionsPage } from "./common";
import { assignmentStatuses, commentStatuses, promptStatuses, skillStatuses, skillTypes, teamStatuses } from "./enums";
import { skillsMsg } from "./messages/skills";
import { optionalText, requiredName } from "./text";

/** A row of `skills` (SPEC.md §3). */
export const skillSchema = z.object({
  skill_id: id,
  skill_name: z.string(),
  skill_description: z.string().nullable(),
  type: stored(skillTypes),
  is_global: z.boolean(),
  status: stored(skillStatuses),
  ...rowTimestamps,
});
export type Skill = z.infer<typeof skillSchema>;

/** /skills cards (SPEC.md §2: Total, Active, Inactive, Global), over all skills. */
export const skillSummarySchema = counts("total", "active", "inactive", "global");
export { skillScopes, skillSortKeys } from "./enums";
export type { SkillScope } from "./enums";

/** A row of the skill's Team Assignments table: the assignment joined to its team and customer. */
export const skillAssignmentSchema = z.object({
  team_id: id,
  team_name: z.string().nullable(),
  team_status: stored(teamStatuses).nullable(),
  customer_id: id,
  customer_name: z.string().nullable(),
  status: stored(assignmentStatuses),
  assigned_at: timestamp,
  /** Percent, 0 to 100; null until measured ("N/A"). */
  score: z.number().nullable(),
  last_used: timestamp.nullable(),
});
export type SkillAssignment = z.infer<typeof skillAssignmentSchema>;
export const skillAssignmentPageSchema = listPage(skillAssignmentSchema, z.object({}));
export const skillAssignmentSortKeys = ["assigned_at", "team_name", "customer_name", "status"] as const;

/** A team the skill can be assigned to: active, with no assignment record for the skill (SPEC.md §4). */
export const assignableTeamSchema = z.object({
  team_id: id,
  team_name: z.string(),
  customer_id: id,
  customer_name: z.string().nullable(),
});
export type AssignableTeam = z.infer<typeof assignableTeamSchema>;
export const assignableTeamPageSchema = listPage(assignableTeamSchema, z.object({}));

/** A prompt of the skill's Prompts panel (newest first). */
export const skillPromptSchema = z.object({
  prompt_id: id,
  prompt_title: z.string(),
  prompt_value: z.string().nullable(),
  skill_id: id,
  status: stored(promptStatuses),
  ...rowTimestamps,
});
export type SkillPrompt = z.infer<typeof skillPromptSchema>;
export const skillPromptPageSchema = listPage(skillPromptSchema, z.object({}));

/** A row of the skill's Comments table: the comment with its commenter's name (SPEC.md §3 "enriched"). */
export const skillCommentSchema = z.object({
  comment_id: id,
  user_id: id,
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  email: z.string().nullable(),
  customer_id: id,
  comment_value: z.string(),
  status: stored(commentStatuses),
  ...rowTimestamps,
});
export type SkillComment = z.infer<typeof skillCommentSchema>;
export const skillCommentPageSchema = listPage(skillCommentSchema, z.object({}));

/** An option of a skill picker (the prompt forms, SPEC.md §2 "/prompts/add"). */
export const skillOptionSchema = skillSchema.pick({ skill_id: true, skill_name: true, status: true, is_global: true });
export type SkillOption = z.infer<typeof skillOptionSchema>;
export const skillOptionsSchema = optionsPage(skillOptionSchema);

const skillFields = {
  /** SPEC.md §5 "Skill name is required", with the one required-name rule of src/domain/text.ts. */
  skill_name: requiredName({ required: skillsMsg.nameRequired, field: "Skill name" }, 200),
  skill_description: optionalText("Skill description", 5000, skillsMsg.descriptionInvalid),
  type: z.enum(skillTypes, { error: skillsMsg.typeInvalid }),
  status: z.enum(skillStatuses, { error: skillsMsg.statusInvalid }),
  is_global: z.boolean({ error: skillsMsg.globalInvalid }),
};

/**
 * The skill's schemas (`recordSchemas`): a /skills row adds its number of active team assignments
 * (the Teams column); /skills/{id} its statistics (SPEC.md §2: total teams, active and inactive
 * assignments). Create (SPEC.md §5): name required and trimmed; description trimmed, null when
 * empty; defaults active, manual, not global (§4). Edit (§5), and Archive / Unarchive (`{ status }`
 * alone): the fields given change, with the create rules; at least one field.
 */
export const skillRecords = recordSchemas({
  table: "skills",
  row: skillSchema,
  item: skillSchema.extend({ team_count: z.number().int() }),
  detail: skillSchema.extend({
    stats: counts("total_teams", "active_assignments", "inactive_assignments", "prompts", "comments"),
  }),
  summary: skillSummarySchema,
  fields: skillFields,
  defaults: { type: "manual", status: "active", is_global: false },
  nothingToUpdate: skillsMsg.nothingToUpdate,
});
export type SkillListItem = z.infer<typeof skillRecords.item>;
export type SkillPage = z.infer<typeof skillRecords.list>;
export type SkillDetail = z.infer<typeof skillRecords.detail>;
export type CreateSkillInput = z.input<typeof skillRecords.create>;
export type SkillFormValues = z.output<typeof skillRecords.create>;
export type UpdateSkillInput = z.input<typeof skillRecords.update>;

/** Assign to Team (from the skill page). */
export const assignTeamSchema = z.strictObject({ team_id: z.guid({ error: skillsMsg.chooseTeam }) });
/** Assign to many teams at once: 1 to 200 distinct teams, all or none. */
export const bulkAssignSchema = z.strictObject({
  team_ids: z
    .array(z.guid({ error: skillsMsg.chooseTeam }), { error: skillsMsg.chooseTeams })
    .min(1, skillsMsg.chooseTeams)
    .max(200, skillsMsg.tooManyTeams)
    .refine((ids) => new Set(ids).size === ids.length, skillsMsg.duplicateTeams),
});
/** Unassign (inactive) or Reassign (active) one assignment; the row is kept (SPEC.md §4). */
export const assignmentStatusSchema = z.strictObject({
  status: z.enum(assignmentStatuses, { error: skillsMsg.assignmentStatusInvalid }),
});

export const skillAssignmentResultSchema = z.object({ team_id: id, skill_id: id, status: stored(assignmentStatuses) });
export const bulkAssignResultSchema = z.object({ created: z.number().int() });
