/**
 * An import's run (docs/onboarding.md "Import"): a bulk action over the import's rows (table
 * import_rows), so that it has the engine's batches, progress, cancel, per-row report, CSV and
 * undo. Each batch checks the rows again with the preview's rules (`importRules`: a row in error
 * or unchanged is skipped with its reason), then creates the new users, updates the others (a
 * mapped, non-empty cell replaces the value; roles and teams are added, never taken away), gives
 * roles and joins teams, all set-based. Its undo removes the users it created (unless they have
 * comments since), puts back the values, roles and teams of those it updated (unless changed
 * since), and last removes the teams its start created that are left empty.
 */
import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { importMsg } from "../../domain/import-messages";
import type { AuditEntry, Tx } from "../audit";
import { defineBulkAction, uuidArray, type BulkRowState } from "../bulk/engine";
import { queryRows } from "../db/client";
import { toJson } from "../http/list";
import { membershipAudit, removeMembers } from "../links";
import { importRowList } from "./queries";
import { importRules } from "./rows";

const reasons = importMsg.reasons;
export type ImportRunParams = { import_id: string; create_teams: boolean };

/** A user's values that an import sets and its undo puts back. */
const userFields = ["first_name", "last_name", "job_title", "status"] as const;

/** The user a row names now, as the report keeps it (null: the row creates its user). */
const userBefore = sql`(select jsonb_build_object('user_id', u.user_id, 'first_name', u.first_name,
    'last_name', u.last_name, 'job_title', u.job_title, 'status', u.status, 'updated_at', u.updated_at,
    'roles', coalesce((select jsonb_agg(r.role order by r.role) from users_roles r where r.user_id = u.user_id), '[]'::jsonb),
    'team_ids', coalesce((select jsonb_agg(tu.team_id order by tu.team_id) from teams_users tu where tu.user_id = u.user_id), '[]'::jsonb))
  from users_data u where lower(u.email) = ir.email)`;

type Prior = {
  user_id: string;
  first_name: string | null;
  last_name: string | null;
  job_title: string | null;
  status: string;
  roles: string[];
  team_ids: string[];
};

/** Creates and updates the users of `rows` and gives them their roles and teams; their audit rows. */
async function applyRows(tx: Tx, rows: BulkRowState[]): Promise<AuditEntry[]> {
  const fresh = rows.filter((r) => !r.before).map((r) => r.id);
  const known = rows.filter((r) => r.before);
  const audit: AuditEntry[] = [];
  if (fresh.length) {
    const created = await queryRows<{ user_id: string; row: Record<string, unknown> }>(
      tx,
      sql`with ins as (insert into users_data (customer_id, email, first_name, last_name, job_title, status)
          select ir.resolved_customer_id, ir.email, ir.first_name, ir.last_name, ir.job_title, coalesce(ir.status, 'active')
          from import_rows ir where ir.import_row_id = any(${uuidArray(fresh)}) order by ir.seq
          on conflict do nothing returning *)
        select ins.user_id::text as user_id, to_jsonb(ins) as row from ins`,
    );
    for (const c of created) audit.push({ action: "create", entity: "user", entity_id: c.user_id, after: c.row });
  }
  if (known.length) {
    const updated = await queryRows<{ user_id: string; after: Record<string, unknown> }>(
      tx,
      sql`update users_data u set first_name = coalesce(ir.first_name, u.first_name), last_name = coalesce(ir.last_name, u.last_name),
          job_title = coalesce(ir.job_title, u.job_title), status = coalesce(ir.status, u.status), updated_at = now()
        from import_rows ir where ir.import_row_id = any(${uuidArray(known.map((r) => r.id))}) and lower(u.email) = ir.email
        returning u.user_id::text as user_id, jsonb_build_object('first_name', u.first_name, 'last_name', u.last_name,
          'job_title', u.job_title, 'status', u.status, 'updated_at', u.updated_at) as after`,
    );
    const before = new Map(known.map((r) => [String(r.before?.user_id), r.before as Prior & { updated_at: string }]));
    for (const u of updated) {
      const b = before.get(u.user_id);
      const was = b && Object.fromEntries([...userFields, "updated_at"].map((f) => [f, b[f as keyof typeof b]]));
      audit.push({
        action: "update",
        entity: "user",
        entity_id: u.user_id,
        before: was ?? null,
        after: toJson(u.after),
      });
    }
  }
  const ids = uuidArray(rows.map((r) => r.id));
  await tx.execute(sql`update import_rows ir set applied_user_id = u.user_id from users_data u
    where ir.import_row_id = any(${ids}) and lower(u.email) = ir.email`);
  await tx.execute(sql`insert into users_roles (user_id, role)
    select ir.applied_user_id, r from import_rows ir cross join unnest(coalesce(ir.roles, '{}')) r
    where ir.import_row_id = any(${ids}) and ir.applied_user_id is not null on conflict do nothing`);
  const joined = await queryRows<{ team_id: string; user_id: string; customer_id: string }>(
    tx,
    sql`insert into teams_users (team_id, user_id, customer_id)
      select distinct t.team_id, ir.applied_user_id, ir.resolved_customer_id
      from import_rows ir cross join unnest(coalesce(ir.teams, '{}')) n
      join teams t on t.customer_id = ir.resolved_customer_id and lower(t.team_name) = lower(n) and t.status = 'active'
      where ir.import_row_id = any(${ids}) and ir.applied_user_id is not null
      on conflict do nothing returning team_id::text, user_id::text, customer_id::text`,
  );
  return [...audit, ...joined.flatMap((m) => membershipAudit("add_member", m))];
}

/** Puts back the users of `rows` (`prior`: null for a user the run created). */
async function undoRows(tx: Tx, rows: BulkRowState[], run: Parameters<typeof removeMembers>[2]) {
  const audit: AuditEntry[] = [];
  const priorOf = (r: BulkRowState) => (r.prior && typeof r.prior === "object" ? (r.prior as Prior) : null);
  const created = rows.filter((r) => !priorOf(r)).map((r) => r.id);
  if (created.length) {
    const gone = await queryRows<{
      user_id: string;
      row: Record<string, unknown>;
      teams: Array<Record<string, string>>;
    }>(
      tx,
      sql`with gone as (delete from users_data u using import_rows ir
          where ir.import_row_id = any(${uuidArray(created)}) and u.user_id = ir.applied_user_id
          returning u.*, (select coalesce(jsonb_agg(jsonb_build_object('team_id', tu.team_id, 'customer_id', tu.customer_id)), '[]'::jsonb)
            from teams_users tu where tu.user_id = u.user_id) as teams)
        select gone.user_id::text as user_id, to_jsonb(gone) - 'teams' as row, gone.teams from gone`,
    );
    for (const g of gone) {
      audit.push({ action: "delete", entity: "user", entity_id: g.user_id, before: toJson(g.row) });
      for (const t of g.teams)
        audit.push({
          action: "remove_member",
          entity: "team",
          entity_id: t.team_id,
          before: { user_id: g.user_id, customer_id: t.customer_id },
        });
    }
  }
  const updated = rows.map(priorOf).filter((p): p is Prior => p !== null);
  if (updated.length) {
    const values = JSON.stringify(updated);
    const put = await queryRows<{ user_id: string; before: Record<string, unknown>; after: Record<string, unknown> }>(
      tx,
      sql`with v as (select * from jsonb_to_recordset(${values}::jsonb) as v(user_id uuid, first_name text, last_name text,
          job_title text, status text)),
        old as (select u.user_id, jsonb_build_object('first_name', u.first_name, 'last_name', u.last_name,
          'job_title', u.job_title, 'status', u.status) as before from users_data u join v on v.user_id = u.user_id)
        update users_data u set first_name = v.first_name, last_name = v.last_name, job_title = v.job_title,
          status = v.status, updated_at = now()
        from v, old where u.user_id = v.user_id and old.user_id = v.user_id
        returning u.user_id::text as user_id, old.before, jsonb_build_object('first_name', u.first_name,
          'last_name', u.last_name, 'job_title', u.job_title, 'status', u.status) as after`,
    );
    for (const p of put)
      audit.push({ action: "update", entity: "user", entity_id: p.user_id, before: p.before, after: p.after });
    await tx.execute(sql`delete from users_roles ur using jsonb_to_recordset(${values}::jsonb) as v(user_id uuid, roles jsonb)
      where ur.user_id = v.user_id and not (v.roles ? ur.role)`);
    const joined = await queryRows<{ team_id: string; user_id: string }>(
      tx,
      sql`select tu.team_id::text, tu.user_id::text from teams_users tu
        join jsonb_to_recordset(${values}::jsonb) as v(user_id uuid, team_ids jsonb) on v.user_id = tu.user_id
        where not (v.team_ids ? tu.team_id::text)`,
    );
    audit.push(...(await removeMembers(tx, joined, run)));
  }
  return audit;
}

/**
 * The import's run (entity `users`, action `import`, parameters `{ import_id, create_teams }`): not
 * mounted at /api/bulk/users/import; POST /api/imports/{importId}/apply starts it.
 */
export const importRun = defineBulkAction<ImportRunParams>({
  entity: "users",
  action: "import",
  summary: "Import users from a CSV file",
  list: importRowList,
  params: z.strictObject({ import_id: z.guid(), create_teams: z.boolean() }),
  table: "import_rows",
  alias: "ir",
  id: "import_row_id",
  label: sql`${importMsg.rowHeader} || ' ' || ir.seq || coalesce(' · ' || ir.email, '')`,
  before: userBefore,
  auditEntity: "user",
  skips: (p) => importRules(p.create_teams),
  apply: (tx, _p, rows) => applyRows(tx, rows),
  undo: {
    skips: (_p, { prior, ended }) => [
      {
        reason: reasons.userGone,
        when: sql`not exists (select 1 from users_data u where u.user_id = ir.applied_user_id)`,
      },
      {
        reason: reasons.changedSince,
        when: sql`(select u.updated_at from users_data u where u.user_id = ir.applied_user_id) > ${ended}`,
      },
      {
        reason: reasons.hasComments,
        when: sql`(${prior} is null or ${prior} = 'null'::jsonb)
          and exists (select 1 from skill_comments sc where sc.user_id = ir.applied_user_id)`,
      },
    ],
    apply: (tx, _p, rows, run) => undoRows(tx, rows, run),
    // The teams the import's start created, once no member or skill is left in them.
    finish: async (tx, p) => {
      const gone = await queryRows<{ team_id: string; row: Record<string, unknown> }>(
        tx,
        sql`delete from teams t using imports i where i.import_id = ${p.import_id} and t.team_id = any(i.created_teams)
          and not exists (select 1 from teams_users tu where tu.team_id = t.team_id)
          and not exists (select 1 from teams_skills ts where ts.team_id = t.team_id)
          returning t.team_id::text as team_id, to_jsonb(t) as row`,
      );
      return gone.map((g) => ({ action: "delete", entity: "team", entity_id: g.team_id, before: toJson(g.row) }));
    },
  },
});
