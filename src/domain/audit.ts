import { z } from "zod";
import { id, listPage, noSummary, timestamp } from "./common";
import { describesRows } from "./table-rows";

/** One audit row: who did what to which record, with the changed fields before and after. */
export const auditEntrySchema = z.object({
  audit_id: id,
  operator_id: z.string().nullable(),
  operator_email: z.string().nullable(),
  action: z.string(),
  entity: z.string(),
  entity_id: z.string().nullable(),
  changes: z
    .object({
      before: z.record(z.string(), z.unknown()).optional(),
      after: z.record(z.string(), z.unknown()).optional(),
    })
    .nullable(),
  request_id: z.string().nullable(),
  ip_address: z.string().nullable(),
  /** The personal API token the change was made with (null: a signed-in session or the server). */
  api_token_id: z.string().nullable(),
  created_at: timestamp,
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
/** A row of `audit_log` is an audit entry as the API answers it. */
export const auditRows = describesRows("audit_log", auditEntrySchema);
export const auditPageSchema = listPage(auditEntrySchema, noSummary);

/** Filters of the Audit log screen, as URL and API query parameters. */
export const auditFilterSchema = z.object({
  operator_id: z.string().max(100).optional(),
  entity: z.string().max(50).optional(),
  entity_id: z.string().max(100).optional(),
  action: z.string().max(50).optional(),
  /** Inclusive start, ISO date or date-time. */
  from: z.iso
    .date()
    .or(z.iso.datetime({ offset: true }))
    .optional(),
  /** Inclusive end date (the whole day), or an exact date-time. */
  to: z.iso
    .date()
    .or(z.iso.datetime({ offset: true }))
    .optional(),
});
/**
 * Every action the audit log records, each with where it is written. Audit rows are typed from
 * this list (`AuditAction`), the Audit log screen offers exactly these as filters, and
 * tests/api/audit-coverage.test.ts checks that every mutation route writes only these.
 */
export const auditActions = [
  "create", // any record created (customer, team, user, operator: API and `npm run operator:create`)
  "update", // fields of a record changed
  "delete", // a record deleted
  "assign_skill", // a skill assigned to a team: one row against the team and one against the skill
  "reassign_skill", // an unassigned skill assigned again: against the team and the skill
  "unassign_skill", // a skill unassigned from a team: against the team and the skill
  "assign_platform", // a prompt assigned to a platform: one row against the prompt and one against the platform
  "unassign_platform", // a prompt unassigned from a platform: against the prompt and the platform
  "restore_version", // a prompt's title and content restored from one of its versions
  "add_member", // a user joined a team: one row against the team and one against the user
  "remove_member", // a user left or was removed from a team: against the team and the user
  "sign_in", // an operator signed in
  "sign_in_failed", // wrong email or password (unknown emails are not recorded)
  "sign_in_blocked", // refused by the sign-in limits or the lock
  "sign_in_refused", // a deactivated operator tried to sign in (answered like a wrong password)
  "sign_out", // an operator signed out
  "change_password", // an operator changed their own password
  "change_password_failed", // wrong current password, or a refused new one
  "change_password_blocked", // refused by the limits or the lock
  "revoke_sessions", // an admin or the operator ended their sessions
  "end_session", // an admin or the operator ended one session (`session_id`)
  "reset_password", // an admin set an operator's password
  "unlock", // an admin (or `npm run operator:unlock` on the server) released a lock
  "two_factor_enabled", // an operator confirmed an authenticator app (docs/identity.md)
  "two_factor_disabled", // an operator turned their own two-factor sign-in off (password and a current code)
  "two_factor_reset", // an admin removed another operator's second factor (their sessions ended)
  "reauthenticate", // an operator confirmed it is them (password or code) before acting on operators' credentials
  "reauthenticate_failed", // a wrong password or code there (the fifth in a row ends the session)
  "moderate", // a comment's status changed by a reviewer (one row per comment, bulk included)
  "export", // a list was exported as CSV (entity: the list's name)
  "bulk_cancel", // a running bulk action asked to stop after its current batch (entity: the list's name, entity_id its bulk_id)
  "bulk", // a bulk action started (entity: the list's name, entity_id its bulk_id; with its selection and parameters)
  "bulk_undo", // the undo of a bulk action started (entity: the list's name, entity_id its own bulk_id; `undo_of` the original's)
  "restore", // a deleted record or link restored from its snapshot (docs/undo-and-restore.md): against it and each record its cascade linked again
  "api_token_created", // an operator created a personal API token (entity api_token: its name, prefix, role and expiry, never the token)
  "api_token_revoked", // a token revoked by its operator or an admin, or ended because its operator was deactivated
  "api_token_lowered", // a token's role lowered because its operator was demoted below it
  "propose_change", // a prompt change saved for review under PROMPT_REVIEW (entity prompt_change; its prompt, kind and proposed fields)
  "approve_change", // a reviewer approved a proposed change (entity prompt_change; the change itself is audited against the prompt as usual)
  "reject_change", // a reviewer refused a proposed change (entity prompt_change, with the reason)
  "withdraw_change", // the author took their proposed change back (entity prompt_change)
  "directory_token_created", // an admin turned on a customer's directory sync or added a token for a rotation (entity directory_token: its name and prefix, never the token)
  "directory_token_revoked", // an admin revoked a customer's directory token
] as const;
export type AuditAction = (typeof auditActions)[number];

/**
 * Every kind of record audit rows are written against, registered once: its label (the Record
 * filter and column) and the lists of it whose CSV exports are recorded (action `export`, entity
 * the list's name), each with its label. A new entity adds one entry here.
 */
const auditRegistry = {
  customer: { label: "Customer", lists: { customers: "Customers list" } },
  team: {
    label: "Team",
    lists: {
      teams: "Teams list",
      team_assignable_skills: "Skills to assign to a team",
      team_available_users: "Users to add to a team",
    },
  },
  user: { label: "User", lists: { users: "Users list", user_teams: "A user's teams" } },
  skill: {
    label: "Skill",
    lists: {
      skills: "Skills list",
      skill_teams: "A skill's team assignments",
      skill_assignable_teams: "Teams to assign a skill to",
      skill_prompts: "A skill's prompts",
      skill_comments: "A skill's comments",
    },
  },
  prompt: {
    label: "Prompt",
    lists: {
      prompts: "Prompts list",
      prompt_platforms: "A prompt's platforms",
      prompt_assignable_platforms: "Platforms to assign a prompt to",
      prompt_versions: "A prompt's versions",
      prompt_review_history: "A prompt's review history",
    },
  },
  platform: { label: "Platform", lists: { platforms: "Platforms list", platform_prompts: "A platform's prompts" } },
  comment: { label: "Comment", lists: { comments: "Comments list" } },
  operator: { label: "Operator", lists: { operators: "Operators list" } },
  customer_config: { label: "Customer configuration", lists: { config_changes: "Configuration changes" } },
  api_token: { label: "API token", lists: { api_tokens: "API tokens list" } },
  prompt_change: { label: "Prompt change", lists: { prompt_changes: "Reviews" } },
  /** A saved view (docs/saved-views.md): created, renamed, changed, shared, deleted. */
  saved_view: { label: "Saved view", lists: { saved_views: "Saved views list" } },
  /** An operator's columns or default view of one list (entity_id: the list). */
  list_preference: { label: "List preferences", lists: {} },
  /** A customer's SCIM directory token (docs/onboarding.md). */
  directory_token: { label: "Directory token", lists: {} },
  /** A CSV import of users (docs/onboarding.md): created, its file read, previewed, a row fixed, applied. */
  import: { label: "Import", lists: { import_rows: "An import's rows" } },
} as const;

/** Exported lists that are no kind of record's. */
const otherAuditLists = { audit_log: "Audit log", deleted_records: "Recently deleted" } as const;

type AuditRegistry = typeof auditRegistry;

/** The kinds of record audit rows are written against. */
export type AuditRecordEntity = keyof AuditRegistry;
// Object.keys answers string[]: the registry's keys are exactly its type's.
export const auditRecordEntities = Object.keys(auditRegistry) as AuditRecordEntity[];

/** The lists whose CSV exports are recorded (action `export`, entity the list's name). */
export type AuditListName =
  { [E in AuditRecordEntity]: keyof AuditRegistry[E]["lists"] }[AuditRecordEntity] | keyof typeof otherAuditLists;
// Object.fromEntries answers string keys: these are exactly the registry's list names.
const listLabels = Object.fromEntries([
  ...Object.values(auditRegistry).flatMap((entry) => Object.entries<string>(entry.lists)),
  ...Object.entries(otherAuditLists),
]) as Record<AuditListName, string>;
// As above: the labels' keys are the list names.
export const auditListNames = Object.keys(listLabels) as AuditListName[];

export const auditEntities = [...auditRecordEntities, ...auditListNames];
export type AuditEntityName = AuditRecordEntity | AuditListName;

/** Each kind of record and exported list, in the console's words (the Record filter and column). */
export const auditEntityLabels: Record<AuditEntityName, string> = {
  // As above: the entries' keys are the registry's.
  ...(Object.fromEntries(Object.entries(auditRegistry).map(([entity, entry]) => [entity, entry.label])) as Record<
    AuditRecordEntity,
    string
  >),
  ...listLabels,
};

/** Each action in the console's words (the Action filter and column). */
export const auditActionLabels: Record<AuditAction, string> = {
  create: "Created",
  update: "Updated",
  delete: "Deleted",
  assign_skill: "Skill assigned",
  reassign_skill: "Skill reassigned",
  unassign_skill: "Skill unassigned",
  assign_platform: "Platform assigned",
  unassign_platform: "Platform unassigned",
  restore_version: "Version restored",
  add_member: "Member added",
  remove_member: "Member removed",
  sign_in: "Signed in",
  sign_in_failed: "Sign-in failed",
  sign_in_blocked: "Sign-in blocked",
  sign_in_refused: "Sign-in refused",
  sign_out: "Signed out",
  change_password: "Password changed",
  change_password_failed: "Password change failed",
  change_password_blocked: "Password change blocked",
  revoke_sessions: "Sessions ended",
  reset_password: "Password reset",
  unlock: "Unlocked",
  end_session: "Session ended",
  two_factor_enabled: "Two-factor turned on",
  two_factor_disabled: "Two-factor turned off",
  two_factor_reset: "Two-factor reset",
  reauthenticate: "Identity confirmed",
  reauthenticate_failed: "Identity confirmation failed",
  moderate: "Moderated",
  export: "Exported",
  bulk: "Bulk action",
  bulk_cancel: "Bulk action cancelled",
  bulk_undo: "Bulk action undone",
  restore: "Restored",
  api_token_created: "API token created",
  api_token_revoked: "API token revoked",
  api_token_lowered: "API token role lowered",
  propose_change: "Change proposed",
  approve_change: "Change approved",
  reject_change: "Change rejected",
  withdraw_change: "Change withdrawn",
  directory_token_created: "Directory token created",
  directory_token_revoked: "Directory token revoked",
};

/** The tone of an action's badge: what failed or was refused in red, removals in amber, the rest neutral. */
export function auditActionTone(action: string): "error" | "warning" | "success" | "neutral" {
  if (/_(failed|blocked|refused)$/.test(action)) return "error";
  if (
    action === "delete" ||
    action.startsWith("unassign") ||
    action === "remove_member" ||
    action === "revoke_sessions" ||
    action === "end_session" ||
    action === "api_token_revoked" ||
    action === "directory_token_revoked" ||
    action === "api_token_lowered" ||
    action === "reject_change" ||
    action === "withdraw_change"
  )
    return "warning";
  if (
    action === "create" ||
    action === "restore" ||
    action.startsWith("assign") ||
    action === "add_member" ||
    action === "sign_in" ||
    action === "approve_change"
  )
    return "success";
  return "neutral";
}
