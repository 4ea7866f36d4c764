import { z } from "zod";
import { emailAddress, optionalName } from "./text";
import { counts, id, listPage, noSummary, rowTimestamps, stored, timestamp } from "./common";
import { teamStatuses, userRoles, userStatuses } from "./enums";
import { editMsg } from "./messages/edit";
import { usersMsg } from "./messages/users";
import { describesRows } from "./table-rows";
export { membershipSortKeys, userSortKeys } from "./enums";

/** A row of `users_data` with its customer's name, its roles and whether the directory manages it (SPEC.md §3). */
export const userListItemSchema = z.object({
  user_id: id,
  customer_id: id,
  customer_name: z.string().nullable(),
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  job_title: z.string().nullable(),
  status: stored(userStatuses),
  last_login: timestamp.nullable(),
  ...rowTimestamps,
  /** Ordered admin, manager, member. */
  roles: z.array(stored(userRoles)),
  /**
   * The customer's directory provisioned the user (docs/onboarding.md): its next sync overwrites
   * the e-mail, name, job title and status.
   */
  directory_managed: z.boolean(),
});
export type UserListItem = z.infer<typeof userListItemSchema>;
/** A row of `users_data` with the customer's name, the roles and the directory mark the list joins. */
export const userListRows = describesRows("users_data", userListItemSchema, {
  derived: ["customer_name", "roles", "directory_managed"],
});

/** /users cards: Total, Active, Inactive, Recent Logins (24h), over the filtered set. */
export const userSummarySchema = counts("total", "active", "inactive", "recent_logins");
export const userPageSchema = listPage(userListItemSchema, userSummarySchema);
export type UserPage = z.infer<typeof userPageSchema>;

/**
 * One user (GET /api/users/{userId}): a list item (its customer's name, roles and
 * `directory_managed`) with its cards: Total Teams (the teams the user is a member of) and Active
 * Teams (of those, the teams whose status is active).
 */
export const userDetailSchema = userListItemSchema.extend({
  stats: counts("total_teams", "active_teams"),
});
export type UserDetail = z.infer<typeof userDetailSchema>;

/** A row of the Team Memberships table: the `teams_users` row joined to its team and the team's customer. */
export const userMembershipSchema = z.object({
  team_id: id,
  team_name: z.string(),
  status: stored(teamStatuses),
  customer_id: id,
  customer_name: z.string().nullable(),
  /** Members of the team, this user included. */
  user_count: z.number().int(),
  created_at: timestamp,
});
export type UserMembership = z.infer<typeof userMembershipSchema>;
export const userMembershipsSchema = listPage(userMembershipSchema, noSummary);

/** A team the user can join: active, of the user's customer, and not one of the user's teams. */
export const availableTeamSchema = z.object({
  team_id: id,
  team_name: z.string(),
  user_count: z.number().int(),
  created_at: timestamp,
});
export type AvailableTeam = z.infer<typeof availableTeamSchema>;
export const availableTeamsSchema = z.object({ items: z.array(availableTeamSchema), total: z.number().int() });

/**
 * Add user (SPEC.md §5): email required, trimmed and lowercased, then shape-checked; customer
 * required; status Active, Inactive or Pending, default Active. Unknown fields are refused. The
 * form and POST /api/users both validate with this schema.
 */
const userStatus = z.enum(userStatuses, { error: usersMsg.statusInvalid });
/** Save even when the e-mail's domain is not one of the customer's domains (docs/editing.md). */
const confirmDomain = z.boolean({ error: usersMsg.emailInvalid }).optional();

export const createUserSchema = z.strictObject({
  email: emailAddress({ required: usersMsg.emailRequired, invalid: usersMsg.emailInvalid }),
  customer_id: z.guid({ error: usersMsg.customerRequired }),
  status: userStatus.default("active"),
  confirm_domain: confirmDomain,
});
export type CreateUserInput = z.input<typeof createUserSchema>;

/**
 * Edit a user: names and job title (trimmed, empty saved null), status, and roles (any of admin,
 * manager, member, each once; [] for none), the fields given change; at least one.
 */
export const updateUserSchema = z
  .strictObject({
    first_name: optionalName("First name", 100, usersMsg.nameInvalid),
    last_name: optionalName("Last name", 100, usersMsg.nameInvalid),
    job_title: optionalName("Job title", 200, usersMsg.jobTitleInvalid),
    status: userStatus.optional(),
    roles: z
      .array(z.enum(userRoles, { error: usersMsg.rolesInvalid }), { error: usersMsg.rolesInvalid })
      .max(userRoles.length, usersMsg.rolesInvalid)
      .refine((r) => new Set(r).size === r.length, usersMsg.rolesInvalid)
      .optional(),
    confirm_domain: confirmDomain,
  })
  .refine((v) => [v.first_name, v.last_name, v.job_title, v.status, v.roles].some((x) => x !== undefined), {
    message: editMsg.nothingToUpdate,
  });
export type UpdateUserInput = z.input<typeof updateUserSchema>;

/** Add to Team: the team to join; the membership's customer is the user's own. */
export const joinTeamSchema = z.strictObject({ team_id: z.guid({ error: usersMsg.chooseTeam }) });
/** Answer of Add to Team: the new (or existing) membership. */
export const joinedTeamSchema = z.object({ user_id: id, team_id: id, customer_id: id });
