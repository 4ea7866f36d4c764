/**
 * The sort keys of each list (the API's `sort` values and the screens' sortable columns), kept
 * apart from the zod schemas so that the web app's route table can validate `?sort=` without
 * loading zod before the first screen. Re-exported by each entity's module.
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
