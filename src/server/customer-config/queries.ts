import { sql } from "drizzle-orm";
import {
  configChangeSchema,
  configDefaults,
  configFeatures,
  flattenConfig,
  type ConfigValues,
  type CustomerConfig,
} from "../../domain/config";
import { noSummary } from "../../domain/common";
import type { Tx } from "../audit";
import { queryRows, type Database } from "../db/client";
import { defineList } from "../http/lists";

type ConfigRow = {
  customer_id: string;
  customer_name: string;
  customer_status: CustomerConfig["customer_status"];
  has_settings: boolean;
  industry: string | null;
  company_size: string | null;
  billing_plan: string | null;
  features: Record<string, boolean> | null;
  max_users: number | null;
  max_teams: number | null;
  storage_gb: number | null;
  allow_guest_users: boolean | null;
  require_mfa: boolean | null;
  session_timeout_minutes: number | null;
  version: number | null;
  updated_at: Date | string | null;
  updated_by: string | null;
  users: number;
  teams: number;
};

/** The customer, its settings row (if any) and its maintained user and team counts: one statement. */
const configSelect = (customerId: string, lock: boolean) => sql`
  select c.customer_id, c.customer_name, c.status as customer_status, (s.customer_id is not null) as has_settings,
    s.industry, s.company_size, s.billing_plan, s.features, s.max_users, s.max_teams, s.storage_gb,
    s.allow_guest_users, s.require_mfa, s.session_timeout_minutes, s.version, s.updated_at, s.updated_by,
    coalesce(cc.user_count, 0)::int as users, coalesce(cc.team_count, 0)::int as teams
  from customers c
  ${lock ? sql`join` : sql`left join`} customer_settings s on s.customer_id = c.customer_id
  left join customer_counts cc on cc.customer_id = c.customer_id
  where c.customer_id = ${customerId}
  ${lock ? sql`for update of s` : sql``}`;

function toConfig(row: ConfigRow): CustomerConfig {
  const values: ConfigValues = row.has_settings
    ? {
        industry: row.industry as ConfigValues["industry"],
        company_size: row.company_size as ConfigValues["company_size"],
        billing_plan: row.billing_plan as ConfigValues["billing_plan"],
        // Every known feature, off unless stored as on (a feature added later starts off).
        features: Object.fromEntries(
          configFeatures.map((f) => [f, row.features?.[f] === true]),
        ) as ConfigValues["features"],
        max_users: Number(row.max_users),
        max_teams: Number(row.max_teams),
        storage_gb: Number(row.storage_gb),
        allow_guest_users: Boolean(row.allow_guest_users),
        require_mfa: Boolean(row.require_mfa),
        session_timeout_minutes: Number(row.session_timeout_minutes),
      }
    : configDefaults;
  return {
    customer_id: row.customer_id,
    customer_name: row.customer_name,
    customer_status: row.customer_status,
    values,
    version: row.has_settings ? Number(row.version) : 0,
    updated_at: row.updated_at ? new Date(row.updated_at).toISOString() : null,
    updated_by: row.updated_by,
    usage: { users: Number(row.users), teams: Number(row.teams) },
  };
}

/** SPEC.md §2 "/config": a customer's configuration (its defaults when never saved) with usage, or null. */
export async function getConfig(db: Database | Tx, customerId: string): Promise<CustomerConfig | null> {
  const [row] = await queryRows<ConfigRow>(db, configSelect(customerId, false));
  return row ? toConfig(row) : null;
}

/** A save refused because someone saved since `version` was read: carries the configuration as it is now. */
export class StaleConfigError extends Error {
  constructor(readonly current: CustomerConfig) {
    super("stale configuration");
  }
}

export const settingsColumns = (values: ConfigValues) => sql`
  ${values.industry}, ${values.company_size}, ${values.billing_plan}, ${JSON.stringify(values.features)}::jsonb,
  ${values.max_users}, ${values.max_teams}, ${values.storage_gb}, ${values.allow_guest_users}, ${values.require_mfa},
  ${values.session_timeout_minutes}`;

/**
 * Saves `values` over version `version` inside `tx`: the customer's row is created with the
 * defaults when missing, then locked; a different current version throws StaleConfigError; the
 * changed fields are written to the row (version + 1) and to the change history.
 * @returns the configuration after the save, the fields changed (`{ before, after }` as text), or
 *   null when the customer does not exist.
 */
export async function saveConfig(
  tx: Tx,
  customerId: string,
  values: ConfigValues,
  version: number,
  operatorEmail: string | null,
) {
  // A customer on the defaults gets its row first, so that concurrent first saves queue on one lock.
  await tx.execute(sql`
    insert into customer_settings (customer_id, industry, company_size, billing_plan, features, max_users, max_teams,
      storage_gb, allow_guest_users, require_mfa, session_timeout_minutes, version, updated_by)
    select customer_id, ${settingsColumns(configDefaults)}, 0, null from customers where customer_id = ${customerId}
    on conflict (customer_id) do nothing`);
  const [row] = await queryRows<ConfigRow>(tx, configSelect(customerId, true));
  if (!row) return null;
  const current = toConfig(row);
  if (current.version !== version) throw new StaleConfigError(current);
  const before = flattenConfig(current.values);
  const after = flattenConfig(values);
  const fields = Object.keys(after).filter((k) => before[k] !== after[k]);
  if (fields.length === 0) return { config: current, before: {}, after: {} };
  const next = current.version + 1;
  await tx.execute(sql`
    update customer_settings set (industry, company_size, billing_plan, features, max_users, max_teams, storage_gb,
      allow_guest_users, require_mfa, session_timeout_minutes) = (${settingsColumns(values)}),
      version = ${next}, updated_at = clock_timestamp(), updated_by = ${operatorEmail}
    where customer_id = ${customerId}`);
  await tx.execute(sql`
    insert into customer_settings_changes (customer_id, version, field, old_value, new_value, changed_by)
    values ${sql.join(
      fields.map((f) => sql`(${customerId}, ${next}, ${f}, ${before[f]}, ${after[f]}, ${operatorEmail})`),
      sql`, `,
    )}`);
  const [saved] = await queryRows<ConfigRow>(tx, configSelect(customerId, false));
  return {
    config: toConfig(saved),
    before: Object.fromEntries(fields.map((f) => [f, before[f]])),
    after: Object.fromEntries(fields.map((f) => [f, after[f]])),
  };
}

/**
 * Recent changes of a customer's configuration (SPEC.md §2 "/config" recent changes): one row per
 * changed field, newest first, through `customer_settings_changes_customer_idx`.
 */
export const configChangeList = defineList({
  name: "config_changes",
  item: configChangeSchema,
  summarySchema: noSummary,
  from: sql`customer_settings_changes h`,
  select: sql`h.change_id, h.customer_id, h.field, h.old_value, h.new_value, h.changed_by, h.changed_at, h.version`,
  id: { expr: sql`h.change_id`, type: "uuid" },
  sorts: {
    changed_at: [
      { expr: sql`h.customer_id`, type: "uuid" },
      { expr: sql`h.changed_at`, type: "timestamptz" },
    ],
  },
  defaultSort: "changed_at",
  defaultOrder: "desc",
  filters: {},
  csv: [
    { header: "Changed", value: (c) => c.changed_at },
    { header: "By", value: (c) => c.changed_by },
    { header: "Field", value: (c) => c.field },
    { header: "From", value: (c) => c.old_value },
    { header: "To", value: (c) => c.new_value },
    { header: "Version", value: (c) => c.version },
  ],
});
