import { sql } from "drizzle-orm";
import { customerSortKeys, customerStatuses } from "../../domain/enums";
import {
  customerListItemSchema,
  customerSummarySchema,
  type CustomerDetail,
  type CustomerOption,
} from "../../domain/customers";
import { tablePicker } from "../http/table-picker";
import { queryRows, type Database } from "../db/client";
import { toJson } from "../http/list";
import {
  anyValue,
  counterSort,
  defineList,
  matchingValues,
  statusCardsSql,
  statusFilter,
  type SortKey,
} from "../http/lists";

/**
 * SPEC.md §2 "/customers": customers with their user_count and team_count (maintained in
 * customer_counts), sorted by any column through an index each; `q` matches name, valid domains
 * and status; `status` filters. Summary cards over all customers, from the maintained counters.
 */
export const customerList = defineList({
  name: "customers",
  item: customerListItemSchema,
  summarySchema: customerSummarySchema,
  from: sql`customers c join customer_counts cc on cc.customer_id = c.customer_id`,
  // Every customer has one counters row: counts and searches need customers alone.
  base: { from: sql`customers c`, sorts: ["customer_name", "status", "created_at", "updated_at"] },
  select: sql`c.customer_id, c.customer_name, c.valid_domains, c.status, c.created_at, c.updated_at, cc.user_count, cc.team_count`,
  id: { expr: sql`c.customer_id`, type: "uuid" },
  sorts: {
    customer_name: [{ expr: sql`lower(c.customer_name)`, type: "text" }],
    user_count: counterSort(sql`cc.user_count`, sql`cc.customer_id`),
    team_count: counterSort(sql`cc.team_count`, sql`cc.customer_id`),
    status: [{ expr: sql`c.status`, type: "text" }],
    created_at: [{ expr: sql`c.created_at`, type: "timestamptz" }],
    updated_at: [{ expr: sql`c.updated_at`, type: "timestamptz" }],
  } satisfies Record<(typeof customerSortKeys)[number], SortKey[]>,
  defaultSort: "created_at",
  defaultOrder: "desc",
  filters: { status: statusFilter(customerStatuses, sql`c.status`) },
  search: (m) =>
    sql`c.customer_name ilike ${m.pattern} or c.valid_domains ilike ${m.pattern} or ${anyValue(sql`c.status`, matchingValues(customerStatuses, m))}`,
  summaryCounts: "set",
  // In the order of `customerSummarySchema`'s cards.
  summary: () => statusCardsSql("customers", ["active", "trial", "inactive"]),
  totalFromSummary: ({ filters, q }) =>
    q ? undefined : (s) => (filters.status ? s[filters.status as keyof typeof s] : s.total),
  // The cards are counters; a searched total that needed a count is reused like a big list's.
  cacheSummary: "counted",
  csv: [
    { header: "Customer ID", value: (c) => c.customer_id },
    { header: "Company", value: (c) => c.customer_name },
    { header: "Valid Domains", value: (c) => c.valid_domains },
    { header: "Users", value: (c) => c.user_count },
    { header: "Teams", value: (c) => c.team_count },
    { header: "Status", value: (c) => c.status },
    { header: "Created", value: (c) => c.created_at },
    { header: "Last Updated", value: (c) => c.updated_at },
  ],
});

/** SPEC.md §2 "/customers/{customerId}": the customer and its four cards, or null when unknown. */
export async function getCustomer(db: Database, customerId: string): Promise<CustomerDetail | null> {
  const [row] = await queryRows<
    CustomerDetail & { total_users: number; active_users: number; total_teams: number; active_teams: number }
  >(
    db,
    sql`
    select c.*,
      (select count(*) from users_data u where u.customer_id = c.customer_id)::int as total_users,
      (select count(*) from users_data u where u.customer_id = c.customer_id and u.status = 'active')::int as active_users,
      (select count(*) from teams t where t.customer_id = c.customer_id)::int as total_teams,
      (select count(*) from teams t where t.customer_id = c.customer_id and t.status = 'active')::int as active_teams
    from customers c where c.customer_id = ${customerId}`,
  );
  if (!row) return null;
  const { total_users, active_users, total_teams, active_teams, ...customer } = row;
  return { ...toJson(customer), stats: { total_users, active_users, total_teams, active_teams } };
}

/**
 * The customer picker (SPEC.md §2 customer filters and "/users/add"): pages of customers by name
 * whose name matches `q` (contains from 3 characters, else starts with), active ones only with
 * `active=true`, never the whole table; and one customer as an option (the current choice of a filter).
 */
export const customerPicker = tablePicker<CustomerOption>({
  table: "customers",
  key: "customer_id",
  name: "customer_name",
  columns: ["customer_id", "customer_name", "status"],
});

/**
 * The customers other than `self` that list any of `domains` (normalised), one entry per domain
 * and customer, by domain then name: `customer_domains(valid_domains) && array[...]` is answered
 * by the GIN index customers_domains_idx (migration 0018) at any number of customers.
 */
export async function claimedDomains(
  db: Database,
  domains: string[],
  self?: string,
): Promise<Array<{ domain: string; customer_id: string; customer_name: string }>> {
  if (domains.length === 0) return [];
  const list = sql`array[${sql.join(
    domains.map((d) => sql`${d}`),
    sql`, `,
  )}]::text[]`;
  return queryRows(
    db,
    sql`
    select d.domain, c.customer_id, c.customer_name
    from customers c cross join lateral unnest(customer_domains(c.valid_domains)) as d(domain)
    where customer_domains(c.valid_domains) && ${list}
      and d.domain = any(${list})
      and ${self ? sql`c.customer_id <> ${self}` : sql`true`}
    order by d.domain, lower(c.customer_name), c.customer_id
    limit 50`,
  );
}
