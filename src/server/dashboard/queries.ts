import { sql } from "drizzle-orm";
import { queryRows, type Database } from "../db/client";
import type { DashboardStats } from "../../domain/dashboard";

/**
 * SPEC.md §2 "/ Dashboard": the three totals and the active-users figure, in one statement of
 * SQL counts. Active users are those who have signed in at least once (`last_login` not null),
 * as the spec's §7 calls count them.
 */
export async function dashboardStats(db: Database): Promise<DashboardStats> {
  const [row] = await queryRows<Record<keyof DashboardStats, number>>(db, sql`
    select
      (select count(*) from customers)::int as total_customers,
      (select count(*) from users_data)::int as total_users,
      (select count(*) from teams)::int as total_teams,
      (select count(*) from users_data where last_login is not null)::int as active_users
  `);
  return {
    total_customers: Number(row.total_customers),
    total_users: Number(row.total_users),
    total_teams: Number(row.total_teams),
    active_users: Number(row.active_users),
  };
}
