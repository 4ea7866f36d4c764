import { z } from "zod";
import { requiredName } from "./text";
import { counts, id, listPage, rowTimestamps, stored, timestamp } from "./common";
import { assignmentStatuses, teamFormStatuses, teamStatuses } from "./enums";
import { editMsg } from "./messages/edit";
import { teamsMsg } from "./messages/teams";
import { usersMsg } from "./messages/users";
import { skillSchema } from "./skills";
import { describesRows } from "./table-rows";
export { teamSortKeys } from "./enums";

/** A row of `teams` with its derived customer_name, user_count, skills_count and directory_managed (SPEC.md §3). */
export const teamListItemSchema = z.object({
  team_id: id,
  customer_id: id,
  customer_name: z.string().nullable(),
  team_name: z.string(),
  status: stored(teamStatuses),
  ...rowTimestamps,
  user_count: z.number().int(),
  /** Active team-skill assignments only. */
  skills_count: z.number().int(),
  /**
   * The customer's directory provisioned the team as a group (docs/onboarding.md): its next sync
   * overwrites the name.
   */
  directory_managed: z.boolean(),
});
export type TeamListItem = z.infer<typeof teamListItemSchema>;
/** A row of `teams` with the customer's name, the counts and the directory mark the list joins. */
export const teamListRows = describesRows("teams", teamListItemSchema, {
  derived: ["customer_name", "user_count", "skills_count", "directory_managed"],
});

/** /teams cards, computed on the filtered set. */
export const teamSummarySchema = counts("total", "active", "inactive");
export const teamPageSchema = listPage(teamListItemSchema, teamSummarySchema);
export type TeamPage = z.infer<typeof teamPageSchema>;

/**
 * One team (GET /api/teams/{teamId}): a list item (its customer's name, counts and
 * `directory_managed`) with its cards.
 */
export const teamDetailSchema = teamListItemSchema.extend({
  stats: counts("total_users", "active_users"),
});
export type TeamDetail = z.infer<typeof teamDetailSchema>;

/** A skill the team can be given: active, and not actively assigned to the team. */
export const assignableSkillSchema = skillSchema.pick({
  skill_id: true,
  skill_name: true,
  skill_description: true,
  type: true,
  is_global: true,
});
export const assignableSkillPageSchema = listPage(assignableSkillSchema, z.object({}));

/** A skill as listed on a team: the active assignment joined to the skill. */
export const teamSkillSchema = assignableSkillSchema.extend({
  status: stored(assignmentStatuses),
  assigned_at: timestamp,
  score: z.number().nullable(),
  last_used: timestamp.nullable(),
});
export type TeamSkill = z.infer<typeof teamSkillSchema>;
export const teamSkillsSchema = z.object({ items: z.array(teamSkillSchema), total: z.number().int() });

const teamName = requiredName({ required: teamsMsg.nameRequired, field: "Team name" }, 200);
const teamStatus = z.enum(teamFormStatuses, { error: teamsMsg.statusInvalid });

/** Add team (SPEC.md §5). */
export const createTeamSchema = z.strictObject({
  customer_id: z.guid({ error: teamsMsg.customerIdMissing }),
  team_name: teamName,
  status: teamStatus.default("active"),
});
export type CreateTeamInput = z.input<typeof createTeamSchema>;

/** Edit a team (name, status with the add rules), and Archive / Unarchive (`{ status }` alone); at least one field. */
export const updateTeamSchema = z
  .strictObject({ team_name: teamName.optional(), status: teamStatus.optional() })
  .refine((v) => v.team_name !== undefined || v.status !== undefined, { message: editMsg.nothingToUpdate });
export type UpdateTeamInput = z.input<typeof updateTeamSchema>;

/** Add Member from the team page: a user of the team's customer. */
export const addMemberSchema = z.strictObject({ user_id: z.guid({ error: usersMsg.notFound }) });
/** Answer of Add Member: the new (or existing) membership. */
export const addedMemberSchema = z.object({ user_id: id, team_id: id, customer_id: id });
/** A row of `teams_users` is a membership as Add Member answers it. */
export const teamMemberRows = describesRows("teams_users", addedMemberSchema);

/** A user the team can take: active, of the team's customer, and not a member yet. */
export const availableUserSchema = z.object({
  user_id: id,
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  job_title: z.string().nullable(),
});
export type AvailableUser = z.infer<typeof availableUserSchema>;
export const availableUserPageSchema = listPage(availableUserSchema, z.object({}));
export const assignSkillSchema = z.strictObject({ skill_id: z.guid({ error: teamsMsg.chooseSkill }) });
export const createdTeamSchema = z.object({
  team_id: id,
  customer_id: id,
  team_name: z.string(),
  status: stored(teamStatuses),
});
/** A row of `teams` (the answer of an edit, and the current record of a stale one). */
export const teamSchema = createdTeamSchema.extend(rowTimestamps);
/** A row of `teams` is `teamSchema`. */
export const teamRows = describesRows("teams", teamSchema);
