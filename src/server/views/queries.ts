/**
 * Saved views and list preferences (docs/saved-views.md): the list of the views an operator may
 * see, one view's row, and the check of a view's state against its list as declared today
 * ("Stale filters").
 */
import { quietStore } from "../async-context";
import { z } from "@hono/zod-openapi";
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { roleAtLeast } from "../../domain/enums";
import { msg } from "../../domain/messages";
import {
  savedViewLists,
  savedViewListSchema,
  savedViewSchema,
  viewStateSchema,
  type DroppedPart,
  type SavedView,
  type SavedViewList,
  type ViewState,
} from "../../domain/views";
import { noSummary } from "../../domain/common";
import { queryRows, type Database } from "../db/client";
import type { Tx } from "../audit";
import { listTable } from "../http/list-routes";
import { defineList, type FilterSpec, type ListDeclaration } from "../http/lists";
import { toJson } from "../http/list";

/** The operator a request acts as: their id and (a bearer token's effective) role. */
export type Asker = { id: string; role: string | undefined };

/**
 * The asking operator of the current request. A list declaration is static SQL shared by every
 * request, and `mountList` gives it no session; the views list must still hold only the asker's
 * own views and the shared ones, and say which are theirs. The views router runs each request
 * inside `askerStore.run` (routes.ts), and `askerId`/`askerIsAdmin` read it when a statement is
 * built. Outside a request (a test reading the declaration's SQL) there is no asker: NULL, so only
 * shared views are seen and none is anyone's.
 */
export const askerStore = quietStore<Asker>();

/** A fragment read when its statement is built, not when it is declared. */
const late = (build: () => SQL): SQLWrapper => ({ getSQL: build, shouldOmitSQLParens: () => false });

/** The asking operator's id as a bound parameter (NULL outside a request). */
const askerId = late(() => sql`${askerStore.getStore()?.id ?? null}::text`);
/** Whether the asking operator is an admin (SQL boolean literal). */
const askerIsAdmin = late(() => (roleAtLeast(askerStore.getStore()?.role, "admin") ? sql`true` : sql`false`));

/**
 * Only views of lists the asking operator's role may open (`mayReadList`): an admin's shared view
 * of the audit log is nothing to a viewer. Outside a request, no condition (a test reading the
 * declaration's SQL).
 */
const askerLists = late(() => {
  const asker = askerStore.getStore();
  if (!asker) return sql`true`;
  const lists = savedViewLists.filter((list) => mayReadList(asker.role, list));
  return lists.length === 0
    ? sql`false`
    : sql`sv.list in (${sql.join(
        lists.map((list) => sql`${list}`),
        sql`, `,
      )})`;
});

/**
 * The columns of `savedViewSchema` for a row `v` of saved_views, computed in the row's own
 * statement (the owner's email and the default by primary key), as `asker` sees them.
 */
function viewColumns(me: SQLWrapper | SQL, admin: SQLWrapper | SQL): SQL {
  return sql`v.view_id, v.list, v.name, v.shared, v.state, v.operator_id,
    (select o.email from operator o where o.id = v.operator_id) as owner_email,
    (v.operator_id = ${me}) as mine,
    (v.operator_id = ${me} or (v.shared and ${admin})) as can_edit,
    exists (select 1 from list_preferences lp
      where lp.operator_id = ${me} and lp.list = v.list and lp.default_view_id = v.view_id) as is_default,
    v.version, v.created_at, v.updated_at`;
}

/**
 * The saved views the asking operator may see (their own and every shared one), as a list of the
 * engine (docs/lists.md): filters `list` and `shared`, `q` on the name, sorts `name` (default, on
 * lower(name)), `updated_at` and `created_at`. The visibility condition is part of `from`, so the
 * engine's counts and pages never see another operator's personal views.
 */
export const savedViewList = defineList({
  name: "saved_views",
  item: savedViewSchema,
  summarySchema: noSummary,
  from: sql`(select * from saved_views sv where (sv.shared or sv.operator_id = ${askerId}) and ${askerLists}) v`,
  select: viewColumns(askerId, askerIsAdmin),
  id: { expr: sql`v.view_id`, type: "uuid" },
  sorts: {
    name: [{ expr: sql`lower(v.name)`, type: "text" }],
    updated_at: [{ expr: sql`v.updated_at`, type: "timestamptz" }],
    created_at: [{ expr: sql`v.created_at`, type: "timestamptz" }],
  },
  unindexedSorts: {
    sorts: ["name"],
    reason: "An operator sees their own views and the shared ones, tens of rows: sorted whole by name.",
  },
  defaultSort: "name",
  defaultOrder: "asc",
  filters: {
    list: {
      schema: savedViewListSchema.optional(),
      where: (list: string) => sql`v.list = ${list}`,
      description: "Only the views of this list (its API path's name, e.g. customers)",
    },
    shared: {
      schema: z.enum(["true", "false"]).optional(),
      where: (shared: string) => sql`v.shared = ${shared === "true"}`,
      description: "true: only shared views; false: only personal ones",
    },
  },
  search: (m) => sql`v.name ilike ${m.pattern}`,
  csv: [
    { header: "List", value: (v) => v.list },
    { header: "Name", value: (v) => v.name },
    { header: "Shared", value: (v) => (v.shared ? "yes" : "no") },
    { header: "Owner", value: (v) => v.owner_email },
    { header: "Updated", value: (v) => v.updated_at },
  ],
});

/** A saved view as the API answers it (`savedViewSchema`), from a row read with `viewColumns`. */
export function viewJson(row: Record<string, unknown>): SavedView {
  return toJson(row) as SavedView;
}

/**
 * One saved view as `asker` sees it, or undefined when it does not exist, is another operator's
 * personal view (admins included: personal views are nobody else's business), or is a view of a
 * list the asker's role cannot open. `lock`: read it
 * `for update` inside a transaction, for a change.
 */
export async function viewFor(
  db: Database | Tx,
  asker: Asker,
  viewId: string,
  lock = false,
): Promise<SavedView | undefined> {
  const admin = roleAtLeast(asker.role, "admin") ? sql`true` : sql`false`;
  const [row] = await queryRows<Record<string, unknown>>(
    db,
    sql`select ${viewColumns(sql`${asker.id}::text`, admin)} from saved_views v
      where v.view_id = ${viewId} and (v.shared or v.operator_id = ${asker.id})
      ${lock ? sql`for update of v` : sql``}`,
  );
  // A view of a list the asker's role cannot open is not theirs to see (404, like the list).
  return row && mayReadList(asker.role, row.list as SavedViewList) ? viewJson(row) : undefined;
}

/** A saved view's list as it is mounted today (`/api/<list>` in the list table), if it is. */
const mounted = (list: SavedViewList) => listTable.find((entry) => entry.path === `/api/${list}`);

/**
 * Whether `role` may read `list` (the access its route was mounted with): a view or a column
 * choice is kept only for a list the operator can open.
 */
export function mayReadList(role: string | null | undefined, list: SavedViewList): boolean {
  const access = mounted(list)?.access;
  return access === undefined || access === "public" || roleAtLeast(role, access);
}

/** The declaration of a saved view's list as it is mounted today (`/api/<list>`), if any. */
export function declarationOf(
  list: SavedViewList,
): ListDeclaration<unknown, unknown, Record<string, unknown>> | undefined {
  return mounted(list)?.list;
}

/**
 * Filters whose value names a record of another table, by their API name: a view that keeps such
 * an id after the record is deleted drops the filter (`not_found`). Kept here, not on the list
 * declarations, because it is only the saved views that outlive their records. `uuid`: the column
 * is a uuid, so a value that is not one names no record (and is not sent to the database).
 */
export const referencedRecords: Record<string, { table: string; column: string; uuid: boolean }> = {
  customer_id: { table: "customers", column: "customer_id", uuid: true },
  team_id: { table: "teams", column: "team_id", uuid: true },
  skill_id: { table: "skills", column: "skill_id", uuid: true },
  platform_id: { table: "platforms", column: "platform_id", uuid: true },
  prompt_id: { table: "pedal_prompts", column: "prompt_id", uuid: true },
  user_id: { table: "users_data", column: "user_id", uuid: true },
  proposed_by: { table: "operator", column: "id", uuid: false },
  operator_id: { table: "operator", column: "id", uuid: false },
};

const uuidText = z.guid();

/**
 * What of `state` the list `list` still takes as declared today: a filter name it no longer has
 * (`unknown_filter`), a value its filter's schema refuses (`unknown_value`), a sort key it no longer
 * has (`unknown_sort`: the order goes with it). Pure: no database.
 */
export function checkDeclared(
  list: SavedViewList,
  state: ViewState,
): { state: ViewState; dropped: DroppedPart[]; references: Array<{ name: string; value: string }> } {
  const decl = declarationOf(list);
  const filters: Record<string, string> = {};
  const dropped: DroppedPart[] = [];
  const references: Array<{ name: string; value: string }> = [];
  for (const [name, value] of Object.entries(state.filters ?? {})) {
    const spec = decl ? (decl.filters as Record<string, FilterSpec | undefined>)[name] : undefined;
    if (!spec) dropped.push({ part: `filters.${name}`, value, reason: "unknown_filter" });
    else if (!spec.schema.safeParse(value).success)
      dropped.push({ part: `filters.${name}`, value, reason: "unknown_value" });
    else {
      filters[name] = value;
      if (referencedRecords[name]) references.push({ name, value });
    }
  }
  const next: ViewState = { ...state, filters };
  if (state.sort !== undefined && !(decl && state.sort in decl.sorts)) {
    dropped.push({ part: "sort", value: state.sort, reason: "unknown_sort" });
    delete next.sort;
    delete next.order;
  }
  return { state: next, dropped, references };
}

/**
 * `state` as it applies to its list today, and what was dropped (docs/saved-views.md "Stale
 * filters"): `checkDeclared`, then whether each filter naming a record still finds it
 * (`not_found`), all of them in one statement. A stored state that no longer parses at all keeps
 * nothing but is still answered (a view always opens).
 */
export async function applicableState(
  db: Database,
  list: SavedViewList,
  stored: unknown,
): Promise<{ state: ViewState; dropped: DroppedPart[] }> {
  const parsed = parseStoredState(stored);
  const { state, dropped, references } = checkDeclared(list, parsed.state);
  dropped.unshift(...parsed.dropped);
  const asked = references.filter((r) => !referencedRecords[r.name].uuid || uuidText.safeParse(r.value).success);
  const found = new Set<string>();
  if (asked.length > 0) {
    const [row] = await queryRows<Record<string, boolean>>(
      db,
      sql`select ${sql.join(
        asked.map((r, i) => {
          const ref = referencedRecords[r.name];
          const value = ref.uuid ? sql`${r.value}::uuid` : sql`${r.value}`;
          return sql`exists (select 1 from ${sql.identifier(ref.table)} where ${sql.identifier(ref.column)} = ${value}) as ${sql.identifier(`f${i}`)}`;
        }),
        sql`, `,
      )}`,
    );
    asked.forEach((r, i) => {
      if (row[`f${i}`]) found.add(r.name);
    });
  }
  for (const r of references) {
    if (found.has(r.name)) continue;
    delete state.filters[r.name];
    dropped.push({ part: `filters.${r.name}`, value: r.value, reason: "not_found" });
  }
  return { state, dropped };
}

/**
 * A stored state read leniently: the rows are written by this API, but a state written by an older
 * console (or by hand) must still open. Parts that do not parse are left out; filters whose value
 * is not text are dropped as `unknown_value`.
 */
function parseStoredState(stored: unknown): { state: ViewState; dropped: DroppedPart[] } {
  const whole = viewStateSchema.safeParse(stored);
  if (whole.success) return { state: whole.data, dropped: [] };
  const raw = (stored && typeof stored === "object" ? stored : {}) as Record<string, unknown>;
  const state: ViewState = { filters: {} };
  const dropped: DroppedPart[] = [];
  for (const key of ["q", "sort", "order", "columns", "hidden_columns", "limit"] as const) {
    const one = viewStateSchema.shape[key].safeParse(raw[key]);
    if (one.success && one.data !== undefined) (state as Record<string, unknown>)[key] = one.data;
  }
  const filters = raw.filters && typeof raw.filters === "object" ? (raw.filters as Record<string, unknown>) : {};
  for (const [name, value] of Object.entries(filters)) {
    if (typeof value === "string") state.filters[name] = value;
    else dropped.push({ part: `filters.${name}`, value: JSON.stringify(value) ?? "", reason: "unknown_value" });
  }
  return { state, dropped };
}

/**
 * The fields at fault in a state a client saves (422): filters the list does not have or values
 * their schema refuses, and a sort it does not have. Records that do not exist are not checked
 * here: they may be deleted tomorrow anyway, and the view then opens without them.
 */
export function stateFieldErrors(list: SavedViewList, state: ViewState): Record<string, string> | undefined {
  const { dropped } = checkDeclared(list, state);
  if (dropped.length === 0) return undefined;
  const fields: Record<string, string> = {};
  for (const d of dropped) {
    const name = d.part.replace(/^filters\./, "");
    fields[`state.${d.part}`] =
      d.reason === "unknown_filter"
        ? msg.views.unknownFilter(name)
        : d.reason === "unknown_value"
          ? msg.views.unknownValue(name)
          : msg.views.unknownSort(d.value);
  }
  return fields;
}
