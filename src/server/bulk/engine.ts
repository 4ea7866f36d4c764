/**
 * The bulk action engine (docs/bulk-actions.md). An entity declares each action as data
 * (`BulkAction`): its parameters, the table it changes, the per-row skip rules and the set-based
 * change of one batch. The engine resolves a selection (explicit ids, or a list's filter and search
 * through the list's own declaration, so a filter means what the list shows), previews it without
 * writing, and applies it in the background in batches of at most `bulkLimits.batchSize` rows
 * (sized by `nextBatchSize` to take about `bulkLimits.batchTargetMs` each), each batch one
 * transaction holding the change, its audit rows and its report rows. An ended run is
 * undone by a run of its own over the rows it changed, with the declaration's `undo` (`startUndo`).
 */
import { randomUUID } from "node:crypto";
import type { z } from "@hono/zod-openapi";
import { sql, type SQL } from "drizzle-orm";
import type { AuditRecordEntity } from "../../domain/audit";
import type { BulkEntity, BulkPreview, BulkProgress, BulkSelection } from "../../domain/bulk";
import { bulkLimits } from "../../domain/limits";
import { msg } from "../../domain/messages";
import { writeAudit, type AuditEntry, type AuditRequest, type Tx } from "../audit";
import { isEmbedded, queryRows, type Database } from "../db/client";
import { roleAtLeast, type PromptReviewMode } from "../../domain/enums";
import { HttpError } from "../http/errors";
import { conditions } from "../http/lists/search";
import type { ListDeclaration } from "../http/lists";

/**
 * One selected row as a batch reads it (locked): its id, label, values before, and in an undo
 * `prior`, the values the undone action kept for it (its report row's `before`).
 */
export type BulkRowState = {
  id: string;
  label: string | null;
  before: Record<string, unknown> | null;
  prior?: Record<string, unknown> | null;
};

/**
 * What skip rules may depend on besides the parameters: the console's settings for the request
 * that previews or starts the action (PROMPT_REVIEW: docs/prompt-review.md).
 */
export type BulkContext = { promptReview: PromptReviewMode };

/** The context of a request (an app's request carries its PROMPT_REVIEW; a bare one is off). */
export const bulkContextOf = (c: AuditRequest): BulkContext => ({
  promptReview: (c.var as { promptReview?: PromptReviewMode }).promptReview ?? "off",
});

/** The run a batch belongs to: the request that started it (for audit rows and snapshots) and its id. */
export type BulkRun = { c: AuditRequest; bulkId: string };

/**
 * What an undo of the action reads as SQL: `prior`, the row's values kept by the undone action
 * (jsonb, its report row's `before`); `ended`, when the undone action's last batch was written (a
 * link it made whose time is later was made again since).
 */
export type UndoSql = { prior: SQL; ended: SQL };

/**
 * How an action is put back (docs/bulk-actions.md, "Undo"): `skips` the per-row rules of the
 * reversal (a row changed since the action, or that the console's rules would refuse), `apply` the
 * set-based reversal of the other rows, with the rows' `prior` values, returning their audit rows.
 */
export type BulkUndo<P> = {
  skips: (params: P, undo: UndoSql) => SkipRule[];
  apply: (tx: Tx, params: P, rows: BulkRowState[], run: BulkRun) => Promise<AuditEntry[]>;
  finish?: BulkAction<P>["finish"];
};

/**
 * A per-row rule: the rows for which `when` holds are skipped with `reason`, a text, or SQL of one
 * when the reason names a value of the row ("Team not found: Sales").
 */
export type SkipRule = { reason: string | SQL; when: SQL };

/**
 * A bulk action's declaration. `P` is its parameters' type.
 * - `entity`, `action`: the URL `/api/bulk/{entity}/{action}`; `entity` is also the list whose
 *   filters a selection may use (`list`), and the audit entity of the action's own row;
 * - `table`, `alias`, `id`: the changed table, the alias the SQL below uses, its uuid key column;
 * - `label`: SQL naming a row for the report; `before`: SQL (jsonb) of the values the action changes,
 *   kept in bulk_action_rows.before so that an undo can put them back;
 * - `check(db, params)`: refuses parameters no row could take (an unknown or inactive team...), 4xx;
 * - `skips(params, batch, context)`: per-row rules, the first that holds names the reason; `batch`
 *   is the SQL array of the ids being processed together (the whole selection in a preview), for
 *   rules that depend on the rest of it (the last active admin of a customer); `context` the
 *   request's settings (a prompt under review is skipped);
 * - `apply(tx, params, rows, run)`: the change of the rows not skipped, set-based (one or a few
 *   statements per batch); returns the audit rows, one per changed record (two for a link);
 * - `guard(params, context)`: rules every change of a row obeys, the action's and its undo's (a
 *   prompt under review: src/server/prompts/served.ts), checked before `skips`;
 * - `undo`: how a run of the action is put back (`BulkUndo`);
 * - `finish(tx, params, run)`: what a run that ended `done` does once after its last batch, in a
 *   transaction of its own, returning its audit rows (an import's undo removes the teams it made);
 * - `prior`, `gone`: set by `undoAction` only: the SQL of a row's kept values, and the reason a row
 *   whose record no longer exists is skipped (else it is reported failed).
 */
export type BulkAction<P = unknown> = {
  entity: BulkEntity;
  action: string;
  summary: string;
  // Every list's item, summary and filter types side by side: only `any` holds them all.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  list: ListDeclaration<any, any, any>;
  params: z.ZodType<P>;
  table: string;
  alias: string;
  id: string;
  label: SQL;
  before: SQL | ((params: P) => SQL);
  auditEntity: AuditRecordEntity;
  check?: (db: Database, params: P) => Promise<void>;
  guard?: (params: P, context: BulkContext) => SkipRule[];
  skips: (params: P, batch: SQL, context: BulkContext) => SkipRule[];
  apply: (tx: Tx, params: P, rows: BulkRowState[], run: BulkRun) => Promise<AuditEntry[]>;
  finish?: (tx: Tx, params: P, run: BulkRun) => Promise<AuditEntry[]>;
  undo: BulkUndo<P>;
  prior?: SQL;
  gone?: string;
};

/** Any declaration (the registry holds actions of every parameter type). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyBulkAction = BulkAction<any>;

/** Declares a bulk action (checks its names at start-up) and returns it. */
export function defineBulkAction<P>(decl: BulkAction<P>): BulkAction<P> {
  if (!/^[a-z_]+$/.test(decl.action)) throw new Error(`bulk action name ${decl.action}`);
  if (!/^[a-z_]+$/.test(decl.table) || !/^[a-z]+$/.test(decl.alias) || !/^[a-z_]+$/.test(decl.id))
    throw new Error(`bulk action ${decl.entity}/${decl.action}: table, alias and id are plain names`);
  // The declaration's parameters are a zod type of P; the registry holds them all as unknown.
  return decl;
}

/** Column `name` of the declaration's alias, as SQL. */
export const col = (decl: { alias: string }, name: string) => sql.raw(`${decl.alias}.${name}`);

/**
 * A uuid array of `ids`, sent as one bound parameter however many there are (a batch holds up to a
 * thousand): the statement stays small to send and to parse. The ids are uuids already (read from
 * the database, or validated as such by the request's schema), so the literal needs no quoting.
 */
export const uuidArray = (ids: readonly string[]) => sql`${`{${ids.join(",")}}`}::uuid[]`;

/** The bound of a selection (`bulkLimits.maxSelection`; the tests lower it to reach it cheaply) and the lease. */
export const bulkSettings = {
  maxSelection: bulkLimits.maxSelection as number,
  /** BULK_LEASE_SECONDS (the server sets it from its configuration). */
  leaseSeconds: bulkLimits.leaseSeconds as number,
};

const tooMany = (n: number) =>
  new HttpError(422, "validation_failed", msg.bulk.tooMany(n, bulkSettings.maxSelection), {
    selection: msg.bulk.tooMany(n, bulkSettings.maxSelection),
  });

/**
 * The ids a selection names, in id order, bounded by `bulkLimits.maxSelection`.
 * @throws HttpError 422 when more records match than the bound, or when listed ids no longer exist
 * (all or nothing: nothing is previewed or changed).
 */
export async function resolveSelection<P>(
  db: Database,
  decl: BulkAction<P>,
  selection: BulkSelection,
): Promise<string[]> {
  const key = col(decl, decl.id);
  const table = sql.raw(`${decl.table} ${decl.alias}`);
  if (selection.ids) {
    const ids = [...new Set(selection.ids)];
    const found = await queryRows<{ id: string }>(
      db,
      sql`select ${key}::text as id from ${table} where ${key} = any(${uuidArray(ids)}) order by ${key}`,
    );
    if (found.length !== ids.length)
      throw new HttpError(422, "validation_failed", msg.bulk.unknownIds(ids.length - found.length), {
        ids: msg.bulk.unknownIds(ids.length - found.length),
      });
    return found.map((r) => r.id);
  }
  const { id, from, where } = filterSelection(decl, selection);
  const found = await queryRows<{ id: string }>(
    db,
    sql`select ${id}::text as id from ${from} where ${where} order by ${id} limit ${bulkSettings.maxSelection + 1}`,
  );
  if (found.length > bulkSettings.maxSelection) await refuseOverBound(db, { from, where });
  return found.map((r) => r.id);
}

/**
 * A filter selection as its list reads it: the list's own filters and search, the same conditions
 * its page, count and export use; `id` the list's key.
 */
function filterSelection<P>(decl: BulkAction<P>, selection: BulkSelection): { id: SQL; from: SQL; where: SQL } {
  const list = decl.list;
  const { where } = conditions(list, {
    query: { q: selection.q, sort: list.defaultSort, order: list.defaultOrder, limit: 1 },
    filters: selection.filter ?? {},
  });
  return { id: list.id.expr, from: list.base?.from ?? list.from, where };
}

/** Refuses a filter selection over `maxSelection`: 422, saying how many records it matches. */
async function refuseOverBound(db: Database | Tx, { from, where }: { from: SQL; where: SQL }): Promise<never> {
  const [{ n }] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${from} where ${where}`);
  throw tooMany(n);
}

/** SQL of the first skip reason of each row (null: it changes), for `batch`, the ids processed together. */
function reasonOf<P>(decl: BulkAction<P>, params: P, batch: SQL, context: BulkContext): SQL {
  const rules = [...(decl.guard?.(params, context) ?? []), ...decl.skips(params, batch, context)];
  return rules.length
    ? sql`case ${sql.join(
        rules.map((r) => sql`when ${r.when} then ${r.reason}`),
        sql` `,
      )} end`
    : sql`null::text`;
}

/** The rows of `ids` with label, values before and skip reason; locked for update inside a batch. */
async function readRows<P>(
  db: Database | Tx,
  decl: BulkAction<P>,
  params: P,
  ids: string[],
  lock: boolean,
  context: BulkContext,
) {
  const key = col(decl, decl.id);
  const batch = uuidArray(ids);
  return queryRows<BulkRowState & { reason: string | null }>(
    db,
    sql`select ${key}::text as id, (${decl.label})::text as label, ${typeof decl.before === "function" ? decl.before(params) : decl.before} as before,
      ${decl.prior ?? sql`null::jsonb`} as prior, ${reasonOf(decl, params, batch, context)} as reason
      from ${sql.raw(`${decl.table} ${decl.alias}`)} where ${key} = any(${batch})
      order by ${key} ${lock ? sql.raw(`for update of ${decl.alias}`) : sql``}`,
  );
}

/**
 * The selection as SQL (a query of its ids) without reading them into the server: listed ids must
 * all exist; a filter's records are counted first (at most `maxSelection + 1` read).
 * @throws HttpError 422 as `resolveSelection`.
 */
async function selectionQuery<P>(db: Database | Tx, decl: BulkAction<P>, selection: BulkSelection): Promise<SQL> {
  if (selection.ids) return sql`select unnest(${uuidArray(await resolveSelection(db as Database, decl, selection))})`;
  const { id, from, where } = filterSelection(decl, selection);
  const [{ n }] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from (select 1 from ${from} where ${where} limit ${bulkSettings.maxSelection + 1}) s`,
  );
  if (n > bulkSettings.maxSelection) await refuseOverBound(db, { from, where });
  return sql`select ${id} from ${from} where ${where}`;
}

/** Previews and runs under way per operator in this server (`admit` bounds them). */
const underWay = new Map<string, number>();

/**
 * Takes one of the operator's places for a preview or a run (`bulkLimits.perOperator` under way at
 * once on this server: a run holds its place until its last batch), or refuses with 429 and
 * Retry-After. @returns the release, to call once the preview or the run ends (twice is harmless).
 */
function admit(c: { var: { session: { user: { id: string } } | null } }): () => void {
  const operatorId = c.var.session?.user.id;
  if (!operatorId) return () => undefined;
  const mine = underWay.get(operatorId) ?? 0;
  if (mine >= bulkLimits.perOperator) throw new HttpError(429, "rate_limited", msg.bulk.busy(bulkLimits.perOperator));
  underWay.set(operatorId, mine + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (underWay.get(operatorId) ?? 1) - 1;
    if (left > 0) underWay.set(operatorId, left);
    else underWay.delete(operatorId);
  };
}

/**
 * The dry run: how many records the action would change, how many it would skip and why, and the
 * first rows, for the selection as it is now; nothing is written. Counted by the database in one
 * statement over the whole selection (the skip rules' batch is the whole selection, as one batch
 * holding every row would see it, so that the rules that look at the rest of the batch agree with
 * the run), and its first `sampleSize` rows read by a second, both in one read-only snapshot whose
 * statements may take `bulkLimits.previewTimeoutMs` at most. An operator has at most
 * `bulkLimits.perOperator` previews and runs under way (429 beyond).
 * @throws HttpError 4xx from `resolveSelection` and the declaration's `check`; 429; 503 past the time bound.
 */
export async function previewBulk<P>(
  c: { var: { db: Database; session: { user: { id: string } } | null } },
  decl: BulkAction<P>,
  params: P,
  selection: BulkSelection,
  context: BulkContext = { promptReview: "off" },
): Promise<BulkPreview> {
  const db = c.var.db;
  await decl.check?.(db, params);
  const release = admit(c);
  try {
    return await db.transaction(
      async (tx) => {
        await tx.execute(sql.raw(`set local statement_timeout = ${bulkLimits.previewTimeoutMs}`));
        const ids = await selectionQuery(tx, decl, selection);
        const key = col(decl, decl.id);
        const table = sql.raw(`${decl.table} ${decl.alias}`);
        const reason = reasonOf(decl, params, sql`array(${ids})`, context);
        const counts = await queryRows<{ reason: string | null; n: number }>(
          tx,
          sql`select r.reason, count(*)::int as n from (select ${reason} as reason from ${table}
            where ${key} in (${ids})) r group by r.reason`,
        );
        const sample = await queryRows<{ id: string; label: string | null; reason: string | null }>(
          tx,
          sql`select ${key}::text as id, (${decl.label})::text as label, ${reason} as reason from ${table}
            where ${key} in (${ids}) order by ${key} limit ${bulkLimits.sampleSize}`,
        );
        const skipped = counts.filter((r) => r.reason !== null);
        return {
          total: counts.reduce((sum, r) => sum + r.n, 0),
          will_change: counts.find((r) => r.reason === null)?.n ?? 0,
          skipped: skipped
            .map((r) => ({ reason: r.reason as string, count: r.n }))
            .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason)),
          sample: sample.map((r) => ({
            row_id: r.id,
            label: r.label,
            outcome: r.reason ? ("skipped" as const) : ("changed" as const),
            reason: r.reason,
          })),
        };
      },
      { isolationLevel: "repeatable read", accessMode: "read only" },
    );
  } finally {
    release();
  }
}

/** Runs in flight, so that tests and a stopping server can wait for them. */
const inFlight = new Set<Promise<void>>();

/** Resolves when no bulk action of this process is running. */
export async function bulkIdle(): Promise<void> {
  while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
}

/**
 * Starts a bulk action: checks the parameters, resolves the selection (the ids are fixed now:
 * records the change moves out of the filter stay selected), records the action and its own audit
 * row (with its selection and parameters), and runs its batches in the background.
 * @returns the new action's id (the caller answers 202).
 * @throws HttpError 4xx as `previewBulk`.
 */
export async function startBulk<P>(
  c: AuditRequest,
  decl: BulkAction<P>,
  params: P,
  selection: BulkSelection,
): Promise<string> {
  const db = c.var.db;
  await decl.check?.(db, params);
  // Its place is held until the run's last batch (released by `launch`), or its refusal.
  const release = admit(c);
  try {
    const ids = await resolveSelection(db, decl, selection);
    const bulkId = await db.transaction((tx) =>
      recordRun(tx, c, { entity: decl.entity, action: decl.action, params, selection, ids }, (id) => ({
        action: "bulk",
        entity: decl.entity,
        entity_id: id,
        after: { action: decl.action, params: params ?? {}, selection, total: ids.length },
      })),
    );
    launch(c, decl, params, bulkId, ids, release);
    return bulkId;
  } catch (err) {
    release();
    throw err;
  }
}

/**
 * This server copy's name in the runs it leases (docs/bulk-actions.md "Restart"): a run is
 * written only by the copy whose lease it holds, renewed by each batch; one whose lease ran out
 * (its server stopped) is taken over by the next copy that looks (`resumeBulkRuns`).
 */
const serverId = randomUUID();

/** A batch found the run's lease taken by another server copy: it is rolled back, and the run left to that copy. */
class LeaseLost extends Error {}

/**
 * Inserts a run into bulk_actions with its own audit row (`audit(bulkId)`), inside `tx`: its
 * selected ids in order, this server's lease and the request's context (what a resumed run's
 * audit rows name). @returns its id.
 */
async function recordRun(
  tx: Tx,
  c: AuditRequest,
  run: { entity: BulkEntity; action: string; params: unknown; selection: unknown; ids: string[]; undoOf?: string },
  audit: (bulkId: string) => AuditEntry,
): Promise<string> {
  const user = c.var.session?.user;
  const context = {
    request_id: c.var.requestId,
    client_ip: c.var.clientIp ?? null,
    api_token_id: c.var.apiToken?.id ?? null,
    prompt_review: bulkContextOf(c).promptReview,
  };
  const [row] = await queryRows<{ bulk_id: string }>(
    tx,
    sql`insert into bulk_actions (entity, action, params, selection, total, undo_of, operator_id, operator_email,
        selected_ids, lease_owner, lease_until, run_context)
      values (${run.entity}, ${run.action}, ${JSON.stringify(run.params ?? {})}::jsonb, ${JSON.stringify(run.selection)}::jsonb,
        ${run.ids.length}, ${run.undoOf ?? null}, ${user?.id ?? null}, ${user?.email ?? null}, ${uuidArray(run.ids)},
        ${serverId}, clock_timestamp() + make_interval(secs => ${bulkSettings.leaseSeconds}), ${JSON.stringify(context)}::jsonb)
      returning bulk_id`,
  );
  await writeAudit(tx, c, [audit(row.bulk_id)]);
  return row.bulk_id;
}

/**
 * Runs a recorded action's batches in the background (`bulkIdle` waits for them), then `release`s
 * its operator's place. `seqs` are the ids' places in the selection (a resumed run's are not
 * 0, 1, 2…: the rows done before the stop are left out).
 */
function launch<P>(
  c: AuditRequest,
  decl: BulkAction<P>,
  params: P,
  bulkId: string,
  ids: string[],
  release: () => void,
  seqs: number[] = ids.map((_, k) => k),
) {
  // The request's context ends with its answer: the run keeps only what its audit rows need.
  const ctx: AuditRequest = {
    var: {
      db: c.var.db,
      session: c.var.session,
      requestId: c.var.requestId,
      clientIp: c.var.clientIp,
      apiToken: c.var.apiToken,
      ...bulkContextOf(c),
    },
  };
  const run = runBulk(ctx, decl, params, bulkId, ids, seqs).finally(() => {
    release();
    inFlight.delete(run);
  });
  inFlight.add(run);
}

/** A recorded action as an undo reads it. */
type RecordedRun = Pick<BulkProgress, "bulk_id" | "entity" | "action" | "params" | "status" | "changed" | "undo_of"> & {
  operator_id: string | null;
};

/**
 * The declaration of an undo of the run `original` of `decl`: the same table and rows, each row's
 * kept values as `prior`, the earlier undos' rows and the declaration's own undo rules as skip
 * rules, its reversal as the change; a record gone since is skipped, not failed.
 */
function undoAction<P>(decl: BulkAction<P>, originalId: string): BulkAction<P> {
  const key = col(decl, decl.id);
  const prior = sql`(select o.before from bulk_action_rows o where o.bulk_id = ${originalId} and o.row_id = ${key}::text)`;
  const ended = sql`(select coalesce(b.finished_at, b.updated_at) from bulk_actions b where b.bulk_id = ${originalId})`;
  return {
    ...decl,
    action: "undo",
    check: undefined,
    prior,
    gone: msg.bulk.notFound,
    skips: (p) => [
      // A row an earlier undo (cancelled or failed part-way) already put back.
      {
        reason: msg.bulk.undoAlreadyPutBack,
        when: sql`exists (select 1 from bulk_actions e join bulk_action_rows r on r.bulk_id = e.bulk_id
          where e.undo_of = ${originalId} and r.row_id = ${key}::text and r.outcome = 'changed')`,
      },
      ...decl.undo.skips(p, { prior, ended }),
    ],
    apply: (tx, p, rows, run) => decl.undo.apply(tx, p, rows, run),
    finish: decl.undo.finish,
  };
}

/**
 * Starts the undo of a recorded run (POST /api/bulk/{bulkId}/undo): a run of its own (action
 * `undo`, `undo_of` the original) over the rows the original changed, in id order, with one audit
 * row (`bulk_undo`) naming the original. The original is locked while this is decided, so two
 * undos of one action cannot both start.
 * @returns the undo's id (the caller answers 202).
 * @throws HttpError 404 unknown run; 403 another operator's run for a role below admin; 409 a run
 * still running, itself an undo, already undone or being undone, or that changed nothing.
 */
export async function startUndo(
  c: AuditRequest & { var: { session: { user: { role?: string | null } } | null } },
  bulkId: string,
  declarationOf: (entity: string, action: string) => AnyBulkAction | undefined,
): Promise<string> {
  const db = c.var.db;
  const release = admit(c);
  let started;
  try {
    started = await db.transaction(async (tx) => {
      const q = tx;
      const [original] = await queryRows<RecordedRun>(
        q,
        sql`select bulk_id::text, entity, action, params, status, changed, undo_of::text, operator_id
        from bulk_actions where bulk_id = ${bulkId} for update`,
      );
      if (!original) throw new HttpError(404, "not_found", msg.bulk.runNotFound);
      const user = c.var.session?.user;
      if (original.operator_id !== user?.id && !roleAtLeast(user?.role, "admin"))
        throw new HttpError(403, "forbidden", msg.bulk.undoOthers);
      const conflict = (message: string) => new HttpError(409, "conflict", message);
      if (original.undo_of) throw conflict(msg.bulk.undoOfUndo);
      if (original.status === "running") throw conflict(msg.bulk.undoRunning);
      const [undo] = await queryRows<{ status: string }>(
        q,
        sql`select status from bulk_actions where undo_of = ${bulkId} and status in ('running', 'done') limit 1`,
      );
      if (undo) throw conflict(undo.status === "running" ? msg.bulk.beingUndone : msg.bulk.alreadyUndone);
      const decl = declarationOf(original.entity, original.action);
      const params = decl?.params.safeParse(original.params);
      if (!decl || !params?.success || original.changed === 0) throw conflict(msg.bulk.nothingToUndo);
      // The rows the action changed, in id order (the order every batch locks them in).
      const ids = (
        await queryRows<{ row_id: string }>(
          q,
          sql`select row_id from bulk_action_rows where bulk_id = ${bulkId} and outcome = 'changed' order by row_id::uuid`,
        )
      ).map((r) => r.row_id);
      const undoId = await recordRun(
        tx,
        c,
        {
          entity: decl.entity,
          action: "undo",
          params: original.params,
          selection: { undo_of: bulkId },
          ids,
          undoOf: bulkId,
        },
        (id) => ({
          action: "bulk_undo",
          entity: decl.entity,
          entity_id: id,
          after: { undo_of: bulkId, action: original.action, params: original.params, total: ids.length },
        }),
      );
      return { undoId, decl, params: params.data as unknown, ids };
    });
  } catch (err) {
    release();
    throw err;
  }
  launch(c, undoAction(started.decl, bulkId), started.params, started.undoId, started.ids, release);
  return started.undoId;
}

/** What a batch adds to its action's counters. */
type Counts = { processed: number; changed: number; skipped: number; failed: number };
const nothing: Counts = { processed: 0, changed: 0, skipped: 0, failed: 0 };

/** One row of an action's report (bulk_action_rows). */
type ReportRow = {
  id: string;
  seq: number;
  outcome: string;
  reason: string | null;
  label: string | null;
  before: unknown;
};

/**
 * Writes a batch's report rows and adds its counts to the action (its end too, when `status` is
 * given), and renews this server's lease on it, in one statement: the report rows travel as one
 * jsonb parameter. @returns false when the run is no longer this server's (nothing may be kept then).
 */
async function recordBatch(
  db: Database | Tx,
  bulkId: string,
  report: ReportRow[],
  add: Counts,
  status?: "done" | "cancelled" | "failed",
): Promise<boolean> {
  // A key left out of a row (an undefined `before`) reads as null, as a null does.
  const rows = JSON.stringify(report);
  const held = await queryRows<{ bulk_id: string }>(
    db,
    sql`with report as (
      insert into bulk_action_rows (bulk_id, row_id, seq, outcome, reason, label, before)
      select ${bulkId}, r.id, r.seq, r.outcome, r.reason, r.label, r.before
      from jsonb_to_recordset(${rows}::jsonb) as r(id text, seq int, outcome text, reason text, label text, before jsonb)
      on conflict do nothing)
    update bulk_actions set
      processed = processed + ${add.processed}, changed = changed + ${add.changed},
      skipped = skipped + ${add.skipped}, failed = failed + ${add.failed}, updated_at = clock_timestamp()
      ${status ? sql`, status = ${status}, finished_at = clock_timestamp()` : sql``},
      lease_until = clock_timestamp() + make_interval(secs => ${bulkSettings.leaseSeconds})
    where bulk_id = ${bulkId} and lease_owner = ${serverId} returning bulk_id`,
  );
  return held.length > 0;
}

/**
 * The batches of one action. Each batch, in one transaction: lock its rows (id order, so two
 * actions cannot deadlock), evaluate the skip rules, apply the change to the others, write their
 * audit rows and the batch's report rows, add to the counters. A cancel is read after each batch
 * (the batches in flight then end, and the action ends `cancelled`).
 * A batch that throws is rolled back whole; its rows are reported `failed` and the action ends
 * `failed`: never a half-applied batch, never a change without its report.
 */
async function runBulk<P>(
  c: AuditRequest,
  decl: BulkAction<P>,
  params: P,
  bulkId: string,
  ids: string[],
  seqs: number[],
) {
  const db = c.var.db;
  // Batches are taken in selection order by `bulkLimits.workers` workers at once, each batch its
  // own transaction on its own connection: while one batch waits (on the disk, or on a trigram
  // index merging its pending entries) another is written, and the progress keeps moving. The
  // batches hold disjoint rows, each locked in id order, so they cannot deadlock each other.
  let next = 0;
  let size: number = bulkLimits.firstBatch;
  let ended: "failed" | "cancelled" | "lost" | undefined;
  const worker = async () => {
    while (!ended && !handing.over && next < ids.length) {
      const first = next;
      const part = ids.slice(first, first + size);
      next += part.length;
      const started = performance.now();
      const outcome = await runBatch(c, decl, params, bulkId, part, seqs.slice(first, first + part.length));
      if (outcome !== "kept") {
        ended = outcome;
        return;
      }
      size = nextBatchSize(part.length, performance.now() - started);
      if (!ended && next < ids.length) {
        const [state] = await queryRows<{ cancel_requested: boolean }>(
          db,
          sql`select cancel_requested from bulk_actions where bulk_id = ${bulkId}`,
        );
        // A failure found meanwhile by another worker stands: the action ended failed.
        if (state?.cancel_requested) ended ??= "cancelled";
      }
    }
  };
  // On the embedded database one worker: each batch holds its only connection, and every other
  // request's statement waits behind the batches queued before it (one at most, not four).
  const count = isEmbedded(db) ? 1 : bulkLimits.workers;
  const workers = await Promise.allSettled(Array.from({ length: count }, worker));
  // A worker that threw lost the database between batches: the action is left running, and
  // marked `interrupted` by the next start (markInterruptedBulkActions).
  // A run whose lease another copy took is that copy's to end; one this server hands over, the next copy's.
  if (workers.some((w) => w.status === "rejected") || ended === "failed" || ended === "lost") return;
  if (handing.over && !ended && next < ids.length) return;
  const finish = decl.finish;
  if (!ended && finish)
    await db
      .transaction(async (tx) => writeAudit(tx, c, await finish(tx, params, { c, bulkId })))
      .catch(() => undefined);
  await recordBatch(db, bulkId, [], nothing, ended ?? "done").catch(() => undefined);
}

/**
 * One batch of `part` (selection positions from `first`) in one transaction: lock, skip rules,
 * change, audit rows, report rows, counters. @returns false when it failed: then nothing of it
 * was written but its rows reported `failed`, and the action ended `failed`.
 * @throws when the database is gone even for the failure's report.
 */
async function runBatch<P>(
  c: AuditRequest,
  decl: BulkAction<P>,
  params: P,
  bulkId: string,
  part: string[],
  seqs: number[],
): Promise<"kept" | "failed" | "lost"> {
  const db = c.var.db;
  try {
    await db.transaction(async (tx) => {
      // A batch's commit does not wait for its WAL to reach disk: a crash may lose the last
      // batches, whole (change, audit and report together); their rows have no report row, so
      // the resumed run does them again (docs/bulk-actions.md, "Durability").
      await tx.execute(sql`set local synchronous_commit = off`);
      const rows = await readRows(tx, decl, params, part, true, bulkContextOf(c));
      const byId = new Map(rows.map((r) => [r.id, r]));
      const changing = rows.filter((r) => !r.reason);
      const audit = changing.length ? await decl.apply(tx, params, changing, { c, bulkId }) : [];
      await writeAudit(tx, c, audit);
      const missing = part.length - rows.length;
      const labels = missing && decl.gone ? await keptLabels(tx, bulkId, part) : new Map<string, string | null>();
      const report = part.map((id, k) => {
        const r = byId.get(id);
        return {
          id,
          seq: seqs[k],
          outcome: r ? (r.reason ? "skipped" : "changed") : decl.gone ? "skipped" : "failed",
          reason: r ? r.reason : (decl.gone ?? msg.bulk.notFound),
          label: r?.label ?? labels.get(id) ?? null,
          before: r && !r.reason ? r.before : null,
        };
      });
      const held = await recordBatch(tx, bulkId, report, {
        processed: part.length,
        changed: changing.length,
        skipped: rows.length - changing.length + (decl.gone ? missing : 0),
        failed: decl.gone ? 0 : missing,
      });
      if (!held) throw new LeaseLost();
    });
    return "kept";
  } catch (err) {
    if (err instanceof LeaseLost) return "lost";
    // Nothing of the batch was written: its rows are reported failed, and the action stops.
    await recordBatch(
      db,
      bulkId,
      part.map((id, k) => ({
        id,
        seq: seqs[k],
        outcome: "failed",
        reason: err instanceof HttpError ? err.message : msg.bulk.failed,
        label: null,
        before: null,
      })),
      { ...nothing, processed: part.length, failed: part.length },
      "failed",
    );
    return "failed";
  }
}

/**
 * The rows of the next batch, from the last batch's size and its time in milliseconds: scaled
 * toward `bulkLimits.batchTargetMs`, at most doubling, within `minBatch`..`batchSize`. A database
 * slowed by other work gets smaller batches (the progress keeps moving, row locks are held
 * briefly); a quick one gets the largest.
 */
export function nextBatchSize(last: number, elapsedMs: number): number {
  const scaled = Math.floor((last * bulkLimits.batchTargetMs) / Math.max(elapsedMs, 1));
  return Math.max(bulkLimits.minBatch, Math.min(bulkLimits.batchSize, 2 * last, scaled));
}

/** The labels the undone action's report gave `ids` (an undo names a record gone since by them). */
async function keptLabels(tx: Tx, undoId: string, ids: string[]) {
  const rows = await queryRows<{ row_id: string; label: string | null }>(
    tx,
    sql`select o.row_id, o.label from bulk_action_rows o
      where o.bulk_id = (select undo_of from bulk_actions where bulk_id = ${undoId}) and o.row_id = any(${uuidArray(ids)}::text[])`,
  );
  return new Map(rows.map((r) => [r.row_id, r.label]));
}

/**
 * Runs left `running` that cannot be resumed (started before runs kept their selected ids, or of an
 * action no longer declared) are marked `interrupted`: their committed batches stay, with their
 * report rows; the rest was never applied. `ids` narrows it to those runs. @returns how many.
 */
export async function markInterruptedBulkActions(db: Database, ids?: string[]): Promise<number> {
  const rows = await queryRows<{ bulk_id: string }>(
    db,
    sql`update bulk_actions set status = 'interrupted', finished_at = clock_timestamp(), updated_at = clock_timestamp()
      where status = 'running' ${ids ? sql`and bulk_id = any(${uuidArray(ids)})` : sql`and selected_ids is null`}
      returning bulk_id`,
  );
  return rows.length;
}

/** A run taken over by `resumeBulkRuns`. */
type LeasedRun = {
  bulk_id: string;
  entity: string;
  action: string;
  params: Record<string, unknown>;
  undo_of: string | null;
  original_action: string | null;
  operator_id: string | null;
  operator_email: string | null;
  run_context: {
    request_id?: string;
    client_ip?: string | null;
    api_token_id?: string | null;
    prompt_review?: string;
  } | null;
  resumable: boolean;
};

/**
 * Resumes the runs a stopped server left `running` (docs/bulk-actions.md "Restart"): takes the
 * lease of each whose lease ran out (all of them with `takeOver`, when this server is the only copy
 * there can be: the embedded database's lock says so), and runs its selected ids that have no
 * report row yet, in their order, with the audit context of the request that started it. Batches
 * commit only while their server holds the lease, so a row is never changed twice. A run that
 * cannot be resumed is marked `interrupted`. @returns how many runs were resumed.
 */
export async function resumeBulkRuns(
  db: Database,
  declarationOf: (entity: string, action: string) => AnyBulkAction | undefined,
  options: { takeOver: boolean },
): Promise<number> {
  const runs = await queryRows<LeasedRun>(
    db,
    sql`update bulk_actions b set lease_owner = ${serverId},
        lease_until = clock_timestamp() + make_interval(secs => ${bulkSettings.leaseSeconds})
      where b.status = 'running' and (${options.takeOver} or b.lease_until is null or b.lease_until < clock_timestamp())
        and b.lease_owner is distinct from ${serverId}
      returning b.bulk_id::text, b.entity, b.action, b.params, b.undo_of::text, b.operator_id, b.operator_email, b.run_context,
        (select o.action from bulk_actions o where o.bulk_id = b.undo_of) as original_action,
        b.selected_ids is not null as resumable`,
  );
  const stuck: string[] = [];
  let resumed = 0;
  for (const run of runs) {
    const own = declarationOf(run.entity, run.undo_of ? (run.original_action ?? "") : run.action);
    const decl = own && run.undo_of ? undoAction(own, run.undo_of) : own;
    const params = decl?.params.safeParse(run.params);
    if (!run.resumable || !decl || !params?.success) {
      stuck.push(run.bulk_id);
      continue;
    }
    const left = await queryRows<{ id: string; seq: number }>(
      db,
      sql`select s.id::text as id, (s.k - 1)::int as seq
        from bulk_actions b cross join unnest(b.selected_ids) with ordinality as s(id, k)
        where b.bulk_id = ${run.bulk_id}
          and not exists (select 1 from bulk_action_rows r where r.bulk_id = b.bulk_id and r.row_id = s.id::text)
        order by s.k`,
    );
    const context = run.run_context ?? {};
    const c: AuditRequest = {
      var: {
        db,
        session: run.operator_id ? { user: { id: run.operator_id, email: run.operator_email ?? "" } } : null,
        requestId: context.request_id ?? `resume:${run.bulk_id}`,
        clientIp: context.client_ip ?? "",
        apiToken: context.api_token_id ? { id: context.api_token_id } : null,
        ...({ promptReview: context.prompt_review ?? "off" } as object),
      },
    };
    launch(
      c,
      decl,
      params.data,
      run.bulk_id,
      left.map((r) => r.id),
      () => undefined,
      left.map((r) => r.seq),
    );
    resumed++;
  }
  if (stuck.length) await markInterruptedBulkActions(db, stuck);
  return resumed;
}

/** Whether this server is stopping: its runs end their batch in flight and wait for the next copy. */
const handing = { over: false };

/**
 * At a clean stop: the runs of this server end the batches in flight, and their leases are given
 * up, so that another copy (or this one started again) resumes them at once.
 */
export async function handOverBulkRuns(db: Database): Promise<void> {
  handing.over = true;
  await bulkIdle();
  await db.execute(sql`update bulk_actions set lease_until = clock_timestamp()
    where lease_owner = ${serverId} and status = 'running'`);
}

/**
 * Keeps this server's share of the runs: resumes at once those a stopped server left (`takeOver`:
 * every running run, for the embedded database that no other copy can open), then every half
 * lease those whose copy stopped since. @returns a stop function (the timer does not keep the
 * process alive).
 */
export function keepBulkRuns(
  db: Database,
  declarationOf: (entity: string, action: string) => AnyBulkAction | undefined,
  options: { takeOver: boolean; onError?: (err: unknown) => void },
): { first: Promise<number>; stop: () => void } {
  const sweep = (takeOver: boolean) =>
    resumeBulkRuns(db, declarationOf, { takeOver }).catch((err) => {
      options.onError?.(err);
      return 0;
    });
  const timer = setInterval(() => void sweep(false), (bulkSettings.leaseSeconds * 1000) / 2);
  timer.unref();
  return { first: sweep(options.takeOver), stop: () => clearInterval(timer) };
}
