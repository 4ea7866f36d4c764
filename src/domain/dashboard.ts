import { z } from "zod";

/** GET /api/dashboard response (SPEC.md §2 "/ Dashboard"). Counts of rows. */
export const dashboardStatsSchema = z.object({
  total_customers: z.number().int(),
  total_users: z.number().int(),
  total_teams: z.number().int(),
  /** Users who have signed in at least once. */
  active_users: z.number().int(),
});
export type DashboardStats = z.infer<typeof dashboardStatsSchema>;

/**
 * GET /api/dashboard/attention (docs/dashboard.md "Needs attention"): counts of records a staff
 * member acts on, each equal to the `total` of the list its link opens with the same filters.
 */
export const dashboardAttentionSchema = z.object({
  /** Comments with status `pending` (/comments?status=pending). */
  pending_comments: z.number().int(),
  /**
   * Proposed prompt changes with status `pending` (/reviews); null when PROMPT_REVIEW is off and
   * none waits (changes proposed before it was turned off are counted until decided, as the
   * sidebar's Reviews entry counts them; docs/prompt-review.md).
   */
  pending_prompt_changes: z.number().int().nullable(),
  /** Customers with status `trial` (/customers?status=trial), and the one created first (null: none). */
  trial_customers: z.object({
    count: z.number().int(),
    oldest: z.object({ customer_id: z.string(), customer_name: z.string(), created_at: z.string() }).nullable(),
  }),
  /** Active teams with no active skill assignment (/teams?status=active&skills=none). */
  teams_without_skills: z.number().int(),
  /** Users who never signed in, `last_login` null (/users?signed_in=false). */
  users_never_signed_in: z.number().int(),
  /** Skills no prompt belongs to (/skills?prompts=none). */
  skills_without_prompts: z.number().int(),
  /** Active prompts with no platform assignment, active or not (/prompts?status=active&platforms=none). */
  prompts_without_platforms: z.number().int(),
  /**
   * When the three joined counts (teams, skills, prompts) were computed (ISO 8601): they come from
   * a snapshot at most ANALYTICS_REFRESH_SECONDS old; the other counts are live.
   */
  as_of: z.string(),
});
export type DashboardAttention = z.infer<typeof dashboardAttentionSchema>;

/** One trend: a row per day or week (`label`, YYYY-MM-DD, its first day) and its count of users. */
export const dashboardTrendSchema = z.object({
  rows: z.array(z.object({ label: z.string(), users: z.number().int() })),
  /** When the figure was computed (ISO 8601): it may be a snapshot (docs/dashboard.md "Trends"). */
  as_of: z.string(),
});
export type DashboardTrend = z.infer<typeof dashboardTrendSchema>;

/** GET /api/dashboard/trends (docs/dashboard.md "Trends"): the last `days` days (7, 30 or 90). */
export const dashboardTrendsSchema = z.object({
  /** The days the trends cover, today included. */
  days: z.number().int(),
  /** Users by day of their last sign-in, one row per day, oldest first (the analytics sign-ins figure). */
  sign_ins: dashboardTrendSchema,
  /** Users created per week (weeks starting Monday) overlapping the days, oldest first. */
  new_users: dashboardTrendSchema,
});
export type DashboardTrends = z.infer<typeof dashboardTrendsSchema>;

/** One audit entry of the dashboard's "Recent activity" (docs/dashboard.md). */
export const dashboardActivityEntrySchema = z.object({
  audit_id: z.string(),
  operator_id: z.string().nullable(),
  operator_email: z.string().nullable(),
  /** An audit action (`auditActionLabels` in src/domain/audit.ts words it). */
  action: z.string(),
  /** An audit entity (`auditEntityLabels` words it). */
  entity: z.string(),
  entity_id: z.string().nullable(),
  created_at: z.string(),
});
export type DashboardActivityEntry = z.infer<typeof dashboardActivityEntrySchema>;

/** GET /api/dashboard/activity: the last 10 audit entries, newest first (admins: all; others: their own). */
export const dashboardActivitySchema = z.object({
  items: z.array(dashboardActivityEntrySchema),
  /** `all` for an admin, `own` for anyone else. */
  scope: z.enum(["all", "own"]),
});
export type DashboardActivity = z.infer<typeof dashboardActivitySchema>;

/** How many audit entries "Recent activity" shows. */
export const dashboardActivityLimit = 10;

export { dashboardTrendDays, dashboardTrendRanges, type DashboardTrendRange } from "./limits";
