import { sql } from "drizzle-orm";
import { queryRows, type Database } from "../db/client";
import type { DashboardStats } from "../../domain/dashboard";

/**
 * SPEC.md §2 "/ Dashboard": the three totals and the active-users figure, in one statement over
 * the counters the database keeps by triggers (status_counts, migration 0007), exact and O(1) at
 * any size. Active users are those who have signed in at least once (`last_login` not null), as
 * the spec's §7 calls count them.
 */
export async function dashboardStats(db: Database): Promise<DashboardStats> {
  const [row] = await queryRows<Record<keyof DashboardStats, number>>(
    db,
    sql`
    select
      coalesce(sum(n) filter (where entity = 'customers'), 0)::int as total_customers,
      coalesce(sum(n) filter (where entity = 'users_data' and status <> 'signed_in'), 0)::int as total_users,
      coalesce(sum(n) filter (where entity = 'teams'), 0)::int as total_teams,
      coalesce(sum(n) filter (where entity = 'users_data' and status = 'signed_in'), 0)::int as active_users
    from status_counts
  `,
  );
  return {
    total_customers: Number(row.total_customers),
    total_users: Number(row.total_users),
    total_teams: Number(row.total_teams),
    active_users: Number(row.active_users),
  };
}
