/** Status and type vocabularies of SPEC.md sections 3 and 4; the database CHECK constraints use the same lists. */
export const customerStatuses = ["active", "inactive", "trial"] as const;
export type CustomerStatus = (typeof customerStatuses)[number];

export const teamStatuses = ["active", "inactive", "pending"] as const;
export type TeamStatus = (typeof teamStatuses)[number];
/** The statuses a team can be given in the add-team form and by Archive / Unarchive (SPEC.md §5). */
export const teamFormStatuses = ["active", "inactive"] as const;

export const userStatuses = ["active", "inactive", "pending"] as const;
export type UserStatus = (typeof userStatuses)[number];

export const userRoles = ["admin", "manager", "member"] as const;
export type UserRole = (typeof userRoles)[number];

export const assignmentStatuses = ["active", "inactive"] as const;
export type AssignmentStatus = (typeof assignmentStatuses)[number];

export const skillTypes = ["manual", "agent", "detected"] as const;
export type SkillType = (typeof skillTypes)[number];

export const skillStatuses = ["active", "inactive"] as const;
export type SkillStatus = (typeof skillStatuses)[number];

export const commentStatuses = ["pending", "active", "inactive", "rejected"] as const;
export type CommentStatus = (typeof commentStatuses)[number];

export const promptStatuses = ["active", "inactive", "draft"] as const;
export type PromptStatus = (typeof promptStatuses)[number];

export const platformStatuses = ["active", "inactive", "draft"] as const;
export type PlatformStatus = (typeof platformStatuses)[number];

/** Roles of the staff who sign in to the console (not the customers' users). */
export const operatorRoles = ["admin", "editor", "viewer"] as const;
export type OperatorRole = (typeof operatorRoles)[number];

const roleRank: Record<OperatorRole, number> = { viewer: 1, editor: 2, admin: 3 };

/**
 * Whether an operator of `role` may do what needs `need` (viewer < editor < admin): the one rule
 * the server's route guard enforces and the screens follow. An unknown or missing role may nothing.
 */
export function roleAtLeast(role: string | null | undefined, need: OperatorRole): boolean {
  return typeof role === "string" && Object.hasOwn(roleRank, role) && roleRank[role as OperatorRole] >= roleRank[need];
}

/**
 * `value` when it is one of `values`, else undefined: a stored status or type read from an adopted
 * database may lie outside the spec's lists (docs/adopting.md); a form or a
 * request that must send one of the list leaves such a value out instead of sending it.
 */
export function known<const T extends readonly string[]>(
  values: T,
  value: string | null | undefined,
): T[number] | undefined {
  return (values as readonly string[]).includes(value ?? "") ? (value as T[number]) : undefined;
}

/** The values of `given` that are among `values`, in the order of `values` (a set of roles as a form shows it). */
export function knownSet<const T extends readonly string[]>(values: T, given: unknown): Array<T[number]> {
  return values.filter((v) => Array.isArray(given) && (given as unknown[]).includes(v));
}

/** States of a bulk action (the CHECK of bulk_actions.status, migration 0018). */
export const bulkActionStatuses = ["running", "done", "cancelled", "failed", "interrupted"] as const;
export type BulkActionStatus = (typeof bulkActionStatuses)[number];
/** What a bulk action did to one selected record (the CHECK of bulk_action_rows.outcome). */
export const bulkOutcomes = ["changed", "skipped", "failed"] as const;

/** A proposed prompt change's kind (docs/prompt-review.md): the prompt's new state, its deletion, or a platform link. */
export const promptChangeKinds = ["update", "delete", "assign", "unassign"] as const;
export type PromptChangeKind = (typeof promptChangeKinds)[number];

/** A proposed prompt change's state: waiting, applied, refused by a reviewer, or taken back by its author. */
export const promptChangeStatuses = ["pending", "approved", "rejected", "withdrawn", "superseded"] as const;
export type PromptChangeStatus = (typeof promptChangeStatuses)[number];

/** PROMPT_REVIEW (docs/prompt-review.md): no review, review for prompts on reviewed platforms, or for every prompt. */
export const promptReviewModes = ["off", "protected", "all"] as const;
export type PromptReviewMode = (typeof promptReviewModes)[number];

/**
 * The sort keys of each list (the API's `sort` values and the screens' sortable columns), kept
 * here with the statuses, apart from the zod schemas, so that the web app's route table can
 * validate `?sort=` without loading zod before the first screen.
 */
export const customerSortKeys = [
  "customer_name",
  "user_count",
  "team_count",
  "status",
  "created_at",
  "updated_at",
] as const;
export const teamSortKeys = [
  "team_name",
  "customer_name",
  "user_count",
  "skills_count",
  "status",
  "created_at",
] as const;
export const userSortKeys = [
  "name",
  "email",
  "customer_name",
  "job_title",
  "status",
  "last_login",
  "created_at",
] as const;
export const membershipSortKeys = ["team_name", "customer_name", "status", "user_count", "created_at"] as const;
export const skillSortKeys = ["skill_name", "status", "type", "is_global", "team_count", "created_at"] as const;

/** The Scope filter of /skills: global skills, or the others (local to the customers they are assigned to). */
export const skillScopes = ["global", "local"] as const;
export type SkillScope = (typeof skillScopes)[number];
export const commentSortKeys = ["user", "skill_name", "customer_name", "status", "created_at"] as const;
export const promptSortKeys = ["prompt_title", "status", "created_at", "updated_at"] as const;
export const platformSortKeys = ["platform_name", "status", "created_at", "updated_at"] as const;
