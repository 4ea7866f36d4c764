/**
 * An import's rows (docs/onboarding.md "Import"): the values a mapping takes from each row's cells,
 * checked by the console's own field rules, and the rules that decide each row's outcome. The
 * rules are SQL over the row (alias `ir`) and the database as it is: the preview counts them over
 * the whole file in one statement, and the run checks them again, batch by batch, as the bulk
 * engine's skip rules (src/server/imports/bulk.ts), so that what the preview said is what happens
 * unless the database changed in between.
 */
import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { userRoles, userStatuses } from "../../domain/enums";
import { importMsg } from "../../domain/import-messages";
import type { ImportCounts, ImportMapping } from "../../domain/imports";
import { emailAddress, optionalName, requiredName } from "../../domain/text";
import { msg } from "../../domain/messages";
import type { Tx } from "../audit";
import type { SkipRule } from "../bulk/engine";
import { queryRows, type Database } from "../db/client";

const reasons = importMsg.reasons;
const email = emailAddress({ required: reasons.emailMissing, invalid: "invalid" });
const firstName = optionalName("First name", 100, msg.users.nameInvalid);
const lastName = optionalName("Last name", 100, msg.users.nameInvalid);
const jobTitle = optionalName("Job title", 200, msg.users.jobTitleInvalid);
const teamName = requiredName({ required: msg.teams.nameRequired, field: "Team name" }, 200);

/** The values of one row for the database, and the first reason it cannot be imported. */
export type RowValues = {
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  job_title: string | null;
  status: string | null;
  roles: string[] | null;
  teams: string[] | null;
  customer_name: string | null;
  problem: string | null;
};

/**
 * A cell as the file holds it: an export's formula guard (a leading `'` before `= + - @`, as the
 * console's own CSV files write it) taken off, so that a file exported and imported again is the same.
 */
const cellText = (cells: string[], column: number | null | undefined) => {
  if (column === undefined || column === null) return undefined;
  const value = (cells[column] ?? "").trim();
  return /^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value;
};

/** Several values in one cell: roles by `, ; |` or spaces, team names by `; |` or line breaks. */
const split = (text: string, by: RegExp) => [
  ...new Map(
    text
      .split(by)
      .map((v) => v.trim())
      .filter(Boolean)
      .map((v) => [v.toLowerCase(), v] as const),
  ).values(),
];

/**
 * The values `mapping` takes from `cells`, each through the rule the user form applies to it; the
 * first refusal is the row's `problem`. An empty cell, or a field not mapped, is null: it leaves
 * the user's value as it is.
 */
export function rowValues(cells: string[], mapping: ImportMapping): RowValues {
  const problems: string[] = [];
  const check = <T>(schema: z.ZodType<T>, value: string | undefined): NonNullable<T> | null => {
    if (value === undefined || value === "") return null;
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data ?? null;
    problems.push(parsed.error.issues[0]?.message ?? importMsg.reasons.cannotRead);
    return null;
  };
  const rawEmail = cellText(cells, mapping.email) ?? "";
  const parsedEmail = email.safeParse(rawEmail);
  if (!parsedEmail.success)
    problems.push(rawEmail === "" ? reasons.emailMissing : reasons.emailInvalid(rawEmail.slice(0, 100)));
  const statusText = cellText(cells, mapping.status)?.toLowerCase();
  const status = statusText ? statusText : null;
  if (status && !(userStatuses as readonly string[]).includes(status)) problems.push(reasons.statusUnknown(status));
  const rolesText = cellText(cells, mapping.roles);
  const roles = rolesText ? split(rolesText.toLowerCase(), /[,;|\s]+/) : null;
  const unknownRole = roles?.find((r) => !(userRoles as readonly string[]).includes(r));
  if (unknownRole) problems.push(reasons.roleUnknown(unknownRole.slice(0, 50)));
  const teamsText = cellText(cells, mapping.teams);
  const teams = teamsText ? split(teamsText, /[;|\r\n]+/) : null;
  for (const team of teams ?? []) check(teamName, team);
  const values: RowValues = {
    email: parsedEmail.success ? parsedEmail.data : rawEmail.toLowerCase().slice(0, 254) || null,
    first_name: check(firstName, cellText(cells, mapping.first_name)),
    last_name: check(lastName, cellText(cells, mapping.last_name)),
    job_title: check(jobTitle, cellText(cells, mapping.job_title)),
    status: status && (userStatuses as readonly string[]).includes(status) ? status : null,
    roles,
    teams,
    customer_name: cellText(cells, mapping.customer) || null,
    problem: null,
  };
  values.problem = problems[0] ?? null;
  return values;
}

/** Rows read at once when a mapping is applied (one update statement each). */
const mappingBatch = 2_000;

/**
 * Gives every row of the import (or the rows `seqs`) its values under `mapping`, in keyset batches
 * of `mappingBatch` rows, each with its customer: the import's, or the active or not customer
 * the row names (by name, case-insensitive). Inside the caller's transaction.
 */
export async function mapRows(
  tx: Tx | Database,
  imp: { import_id: string; customer_id: string | null },
  mapping: ImportMapping,
  seqs?: number[],
) {
  // The row's customer: the import's, or the one its customer cell names (an active one first).
  const customer = imp.customer_id
    ? sql`${imp.customer_id}::uuid`
    : sql`(select c.customer_id from customers c where lower(c.customer_name) = lower(v.customer_name)
        order by c.status = 'active' desc, c.created_at limit 1)`;
  let after = 0;
  for (;;) {
    const rows = await queryRows<{ seq: number; cells: string[] }>(
      tx,
      sql`select seq, cells from import_rows where import_id = ${imp.import_id} and seq > ${after}
        ${seqs ? sql`and seq = any(${`{${seqs.join(",")}}`}::int[])` : sql``}
        order by seq limit ${mappingBatch}`,
    );
    if (rows.length === 0) break;
    const values = rows.map((r) => ({ seq: r.seq, ...rowValues(r.cells, mapping) }));
    // One statement per batch writes the values and the customer: each row is rewritten once.
    await tx.execute(sql`update import_rows ir set email = v.email, first_name = v.first_name, last_name = v.last_name,
        job_title = v.job_title, status = v.status, roles = v.roles, teams = v.teams, customer_name = v.customer_name,
        problem = v.problem, resolved_customer_id = ${customer}
      from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v(seq int, email text, first_name text,
        last_name text, job_title text, status text, roles text[], teams text[], customer_name text, problem text)
      where ir.import_id = ${imp.import_id} and ir.seq = v.seq`);
    after = rows[rows.length - 1].seq;
    if (rows.length < mappingBatch) break;
  }
}

/** A message with one value of the row: `template` given a marker, the marker replaced in SQL. */
const withValue = (template: (value: string) => string, value: SQL) =>
  sql`replace(${template("\u0001")}, chr(1), ${value})`;

/** The user the row's email names (any customer's), as SQL conditions over `u`. */
const userByEmail = sql`users_data u where lower(u.email) = ir.email`;
/** The active team of the row's customer named `n` (a team name of the row). */
const teamNamed = (n: SQL) =>
  sql`teams t where t.customer_id = ir.resolved_customer_id and lower(t.team_name) = lower(${n}) and t.status = 'active'`;

/**
 * The rules of a row, in order (the first that holds is its reason): its own problem, its
 * customer (missing, unknown, not active), an earlier row with the same email, the email already
 * a user of another customer, a new user's domain outside the customer's valid domains, a team
 * that does not exist (unless the import creates them), and last, nothing to change (`unchanged`).
 * A row no rule holds for creates its user or updates it.
 */
export function importRules(createTeams: boolean): SkipRule[] {
  const domains = sql`(select regexp_split_to_array(lower(trim(coalesce(c.valid_domains, ''))), '[\\s,;]+')
    from customers c where c.customer_id = ir.resolved_customer_id)`;
  const domain = sql`split_part(ir.email, '@', 2)`;
  const missingTeam = sql`(select n from unnest(ir.teams) with ordinality as x(n, k)
    where not exists (select 1 from ${teamNamed(sql`x.n`)}) order by x.k limit 1)`;
  return [
    { reason: sql`ir.problem`, when: sql`ir.problem is not null` },
    {
      reason: reasons.customerMissing,
      when: sql`ir.resolved_customer_id is null and ir.customer_name is null`,
    },
    {
      reason: withValue(reasons.customerNotFound, sql`ir.customer_name`),
      when: sql`ir.resolved_customer_id is null`,
    },
    {
      reason: reasons.customerNotActive,
      when: sql`not exists (select 1 from customers c where c.customer_id = ir.resolved_customer_id and c.status = 'active')`,
    },
    {
      reason: withValue(
        (seq) => reasons.duplicate(seq),
        sql`(select min(d.seq)::text from import_rows d where d.import_id = ir.import_id and d.email = ir.email)`,
      ),
      when: sql`exists (select 1 from import_rows d where d.import_id = ir.import_id and d.email = ir.email and d.seq < ir.seq)`,
    },
    {
      reason: reasons.otherCustomer,
      when: sql`exists (select 1 from ${userByEmail} and u.customer_id <> ir.resolved_customer_id)`,
    },
    {
      reason: withValue(reasons.domain, domain),
      when: sql`not exists (select 1 from ${userByEmail}) and ${domains} <> '{""}'::text[]
        and not (${domain} = any(coalesce(${domains}, '{}'::text[])))`,
    },
    ...(createTeams
      ? []
      : [{ reason: withValue(reasons.teamNotFound, missingTeam), when: sql`${missingTeam} is not null` }]),
    {
      reason: reasons.unchanged,
      when: sql`exists (select 1 from ${userByEmail} and u.customer_id = ir.resolved_customer_id
        and (ir.first_name is null or ir.first_name = u.first_name)
        and (ir.last_name is null or ir.last_name = u.last_name)
        and (ir.job_title is null or ir.job_title = u.job_title)
        and (ir.status is null or ir.status = u.status)
        and not exists (select 1 from unnest(coalesce(ir.roles, '{}')) r
          where not exists (select 1 from users_roles ur where ur.user_id = u.user_id and ur.role = r))
        and not exists (select 1 from unnest(coalesce(ir.teams, '{}')) n
          where not exists (select 1 from teams_users tu join teams t on t.team_id = tu.team_id
            where tu.user_id = u.user_id and lower(t.team_name) = lower(n) and t.status = 'active')))`,
    },
  ];
}

/** SQL of the first rule's reason for a row (null: it is created or updated). */
export function firstReason(rules: SkipRule[]): SQL {
  return sql`case ${sql.join(
    rules.map((r) => sql`when ${r.when} then ${r.reason}`),
    sql` `,
  )} end`;
}

/**
 * Decides the outcome of every row of the import (or of those whose email is one of `emails`), in
 * one statement: `create`, `update`, `unchanged` or `error` with its reason.
 */
export async function evaluateRows(tx: Tx | Database, importId: string, createTeams: boolean, emails?: string[]) {
  const reason = firstReason(importRules(createTeams));
  await tx.execute(sql`update import_rows ir set reason = r.reason,
      outcome = case when r.reason is null then (case when exists (select 1 from ${userByEmail}) then 'update' else 'create' end)
        when r.reason = ${reasons.unchanged} then 'unchanged' else 'error' end
    from (select ir.import_row_id, ${reason} as reason from import_rows ir where ir.import_id = ${importId}
      ${emails ? sql`and ir.email in (select jsonb_array_elements_text(${JSON.stringify(emails)}::jsonb))` : sql``}) r
    where ir.import_row_id = r.import_row_id`);
}

/** How many rows of the import have each outcome (read through the (import_id, outcome) index). */
export async function countsOf(tx: Tx | Database, importId: string): Promise<ImportCounts> {
  const rows = await queryRows<{ outcome: string; n: number }>(
    tx,
    sql`select outcome, count(*)::int as n from import_rows where import_id = ${importId} and outcome is not null group by outcome`,
  );
  const n = (o: string) => rows.find((r) => r.outcome === o)?.n ?? 0;
  return { create: n("create"), update: n("update"), unchanged: n("unchanged"), error: n("error") };
}
