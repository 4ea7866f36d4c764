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
