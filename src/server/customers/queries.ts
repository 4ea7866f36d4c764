import { eq, sql } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import type { CustomerDetail, CustomerOption, CustomerPage } from "../../domain/customers";
import { queryRows, type Database } from "../db/client";
import { customers } from "../db/schema";
import { and, orderBy, searchAny, toJson, type listQuery } from "../http/list";
import type { Tx } from "../audit";

type CustomerListQuery = z.infer<ReturnType<typeof listQuery>> & { status?: string };

const sortExpr: Record<string, ReturnType<typeof sql>> = {
  customer_name: sql`lower(c.customer_name)`,
  user_count: sql`user_count`,
  team_count: sql`team_count`,
  status: sql`c.status`,
  created_at: sql`c.created_at`,
  updated_at: sql`c.updated_at`,
};

/**
 * SPEC.md §2 "/customers": one page of customers with user_count and team_count (aggregates in the
 * same statement), the number matching the search, and the summary cards over all customers.
 * `q` matches name, status and valid domains, case-insensitively.
 */
export async function listCustomers(db: Database, query: CustomerListQuery): Promise<CustomerPage> {
  const where = and(
    searchAny(query.q, [sql`c.customer_name`, sql`c.status`, sql`coalesce(c.valid_domains, '')`]),
    query.status ? sql`c.status = ${query.status}` : undefined,
  );
  const items = await queryRows<CustomerPage["items"][number]>(db, sql`
    select c.customer_id, c.customer_name, c.valid_domains, c.status, c.created_at, c.updated_at,
      coalesce(u.n, 0)::int as user_count, coalesce(t.n, 0)::int as team_count
    from customers c
    left join (select customer_id, count(*) as n from users_data group by customer_id) u on u.customer_id = c.customer_id
    left join (select customer_id, count(*) as n from teams group by customer_id) t on t.customer_id = c.customer_id
    where ${where}
    ${orderBy(sortExpr[query.sort], query.order, sql`c.customer_id`)}
    limit ${query.limit} offset ${query.offset}`);
  const [counts] = await queryRows<{ total: number; all: number; active: number; trial: number; inactive: number }>(db, sql`
    select count(*) filter (where ${where})::int as total,
      count(*)::int as all,
      count(*) filter (where c.status = 'active')::int as active,
      count(*) filter (where c.status = 'trial')::int as trial,
      count(*) filter (where c.status = 'inactive')::int as inactive
    from customers c`);
  return {
    items: toJson(items),
    total: counts.total,
    summary: { total: counts.all, active: counts.active, trial: counts.trial, inactive: counts.inactive },
  };
}

/** SPEC.md §2 "/customers/{customerId}": the customer and its four cards, or null when unknown. */
export async function getCustomer(db: Database, customerId: string): Promise<CustomerDetail | null> {
  const [row] = await queryRows<CustomerDetail & { total_users: number; active_users: number; total_teams: number; active_teams: number }>(db, sql`
    select c.*,
      (select count(*) from users_data u where u.customer_id = c.customer_id)::int as total_users,
      (select count(*) from users_data u where u.customer_id = c.customer_id and u.status = 'active')::int as active_users,
      (select count(*) from teams t where t.customer_id = c.customer_id)::int as total_teams,
      (select count(*) from teams t where t.customer_id = c.customer_id and t.status = 'active')::int as active_teams
    from customers c where c.customer_id = ${customerId}`);
  if (!row) return null;
  const { total_users, active_users, total_teams, active_teams, ...customer } = row;
  return { ...toJson(customer), stats: { total_users, active_users, total_teams, active_teams } } as CustomerDetail;
}

/** Customers for pickers, by name; `activeOnly` keeps active ones (SPEC.md §2 "/users/add"). */
export async function customerOptions(db: Database, activeOnly: boolean): Promise<CustomerOption[]> {
  return queryRows<CustomerOption>(db, sql`
    select customer_id, customer_name, status from customers
    ${activeOnly ? sql`where status = 'active'` : sql``}
    order by lower(customer_name), customer_id`);
}

/** The customer row locked for update inside `tx`, or undefined. */
export async function lockCustomer(tx: Tx, customerId: string) {
  const [row] = await tx.select().from(customers).where(eq(customers.customer_id, customerId)).for("update");
  return row;
}
