/**
 * Carries out a list request: at most 3 statements (the page; the planner's estimate when a count
 * needs it; one statement with the summary and the exact count), with the count decided by
 * plan.ts, the summary reused from memory for big lists (summary-memory.ts), keyset cursors
 * (cursor.ts) and the WHERE of search.ts. The contract is in docs/lists.md.
 */
import { sql, type SQL } from "drizzle-orm";
import { queryRows, type Database } from "../../db/client";
import {
  decodeCursor,
  encodeCursor,
  keyColumns,
  keysetCondition,
  keyValues,
  orderClause,
  sortKeys,
  type Cursor,
} from "./cursor";
import {
  matchesFirstLimit,
  type ListDeclaration,
  type ListPage,
  type ListRequest,
  type ListSettings,
  type SortKey,
} from "./declare";
import { nextTallyStep, planCount, shouldKeep, type CountPlan } from "./plan";
import { allOf, conditions } from "./search";
import { summaryKey, type SummaryCache, type SummaryCacheEntry } from "./summary-memory";

/** Options of one list run. */
export type RunOptions = { settings: ListSettings; cache?: SummaryCache; now?: () => number };

/**
 * Runs one request of a list; see the module comment.
 * @throws HttpError 422 for a malformed or mismatched cursor.
 */
export async function runList<I, S, F extends Record<string, unknown>>(
  db: Database,
  decl: ListDeclaration<I, S, F>,
  req: ListRequest<F>,
  options: RunOptions,
): Promise<ListPage<I, S>> {
  return (await new ListRun(db, decl, req, options, false).run()).page;
}

/** `work`'s value when it settles within `ms` milliseconds, else undefined; `work` goes on. */
async function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The planner's estimate of the rows `select 1 from … where …` returns (one EXPLAIN, no execution). */
async function estimateRows(db: Database, from: SQL, where: SQL): Promise<number> {
  const [plan] = await queryRows<{ "QUERY PLAN": Array<{ Plan: { "Plan Rows": number } }> | string }>(
    db,
    sql`explain (format json) select 1 from ${from} where ${where}`,
  );
  const doc = plan["QUERY PLAN"];
  const parsed = typeof doc === "string" ? (JSON.parse(doc) as Array<{ Plan: { "Plan Rows": number } }>) : doc;
  return Math.round(parsed[0].Plan["Plan Rows"]);
}

/**
 * A row as its list item: the sort keys read for the cursor (`__k0`, `__k1`…) left out. The row's
 * timestamps are already ISO 8601 text (`queryRows`' `timestamps: "iso"`), and its nested values
 * come from JSON, so nothing else needs converting.
 */
function itemOf<I>(row: Record<string, unknown>): I {
  const item: Record<string, unknown> = {};
  for (const key in row) if (!key.startsWith("__k")) item[key] = row[key];
  return item as I;
}

/** A list's rows as they go into its answer (timestamps as ISO 8601 text). */
const itemRows = (db: Database, query: SQL) => queryRows<Record<string, unknown>>(db, query, { timestamps: "iso" });

/** What one statement read: the summary (this request's when not computed) and the count, when asked. */
type Read<S> = { count: number | undefined; summary: S | null; parentFound: boolean | undefined; rowsCounted: boolean };
/** A counted total with its summary. */
type Tally<S> = Read<S> & { total: number; totalExact: boolean; summaryExact: boolean };

/**
 * One run of a list request. `recount`: a background count of the request's summary (a refresh, or
 * a search answered with `counting`): nothing is read from the summary memory, and the summary is
 * answered as `keep` instead of being stored (the memory stores it, or drops the old one when
 * undefined). A recount of a search keeps what it counted whatever its size.
 */
class ListRun<I, S, F extends Record<string, unknown>> {
  private readonly keys: SortKey[];
  /** Counting needs only the rows of the base table (see `base`). */
  private readonly countFrom: SQL;
  private readonly cursor: Cursor | undefined;
  private readonly q: string | undefined;
  private readonly where: SQL;
  private readonly walkWhere: SQL;
  private readonly cacheKey: string | undefined;
  private readonly own: ReturnType<SummaryCache["peek"]>;
  private readonly summarySql: SQL | undefined;
  private readonly readTotal: ((summary: S) => number) | undefined;
  private readonly deferrable: boolean;
  private readonly summaryExactSoFar: boolean;
  /** The summary was built on the bounded matches (`matching`). */
  private usedMatching = false;
  /** The request counted its matching rows (an exact count, or a summary over them). */
  private rowsCounted = false;
  private total: number | undefined;
  private totalExact = true;
  private summary: S | null;
  private summaryExact: boolean;
  private summaryAsOf: string | null;
  private parentFound: boolean | undefined;
  /** The search's matches are counted in the background (`backgroundCountFrom`, `countWaitMs`). */
  private counting = false;
  /** A recount of the search guessed big, started once the page is read. */
  private backgroundCount: (() => Promise<SummaryCacheEntry | undefined>) | undefined;
  private totalDone = false;

  constructor(
    private readonly db: Database,
    private readonly decl: ListDeclaration<I, S, F>,
    private readonly req: ListRequest<F>,
    private readonly options: RunOptions,
    private readonly recount: boolean,
  ) {
    const { query } = req;
    this.keys = sortKeys(decl, query.sort);
    this.countFrom = decl.base?.from ?? decl.from;
    this.cursor = query.cursor ? decodeCursor(query.cursor, query.sort, query.order, this.keys) : undefined;
    const { q, where, filterWhere, walkWhere } = conditions(decl, req);
    this.q = q;
    this.where = where;
    this.walkWhere = walkWhere;
    const cache = decl.cacheSummary ? options.cache : undefined;
    this.cacheKey = cache ? summaryKey(decl.name, req.filters, q, req.scope) : undefined;
    // Only big lists are stored, so an entry in memory is reused.
    this.own = this.cacheKey && !recount ? cache!.peek(this.cacheKey, this.recountOf()) : undefined;
    const reused = this.own;
    this.summarySql =
      decl.summary && !reused
        ? decl.summary({ filters: req.filters, q, where, filterWhere, matching: (columns) => this.bounded(columns) })
        : undefined;
    this.summary = (reused?.value.summary ?? {}) as S;
    this.summaryExactSoFar = reused ? reused.value.exact : true;
    this.summaryExact = this.summaryExactSoFar;
    this.summaryAsOf = reused ? reused.at.toISOString() : null;
    // A search whose total is not in memory may be counted in the background: not a nested list's
    // (its parent is checked with the summary), not when nothing is kept, not after a count of it
    // failed (the request counts, and shows the fault).
    this.deferrable = Boolean(
      this.cacheKey &&
      q &&
      !this.own &&
      !req.parentExists &&
      options.settings.summaryRefreshSeconds > 0 &&
      !cache!.failed(this.cacheKey),
    );
    this.readTotal = this.summarySql || reused ? decl.totalFromSummary?.({ filters: req.filters, q }) : undefined;
  }

  private get cache(): SummaryCache {
    return this.options.cache!;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** The matching rows with `columns`, bounded to the exact-count limit plus one (a summary's `matching`). */
  private bounded(columns: SQL): SQL {
    this.usedMatching = true;
    return sql`(select ${columns} from ${this.countFrom} where ${this.where} limit ${this.options.settings.exactCountLimit + 1}) m`;
  }

  /** A stale summary (or a search answered `counting`) is counted again in the background, from the first page of its own list. */
  private recountOf() {
    return async () => {
      const query = { ...this.req.query, cursor: undefined, offset: undefined, at: undefined, limit: 1 };
      return (await new ListRun(this.db, this.decl, { ...this.req, query }, this.options, true).run()).keep;
    };
  }

  /** The summary and, when `count`, the exact count bounded by the limit, in one statement. */
  private async summaryAndCount(count: boolean): Promise<Read<S>> {
    if (!this.summarySql && !count)
      return { count: undefined, summary: this.summary, parentFound: undefined, rowsCounted: false };
    const limit = this.options.settings.exactCountLimit;
    const countSql = count
      ? sql`(select count(*) from (select 1 from ${this.countFrom} where ${this.where} limit ${limit + 1}) c)::int`
      : sql`null::int`;
    // A nested list learns whether its parent exists in the same statement.
    const parentSql = this.req.parentExists ? sql`, (${this.req.parentExists}) as __parent` : sql``;
    const [result] = await queryRows<Record<string, unknown>>(
      this.db,
      this.summarySql
        ? sql`select ${countSql} as __count${parentSql}, s.* from (${this.summarySql}) s`
        : sql`select ${countSql} as __count${parentSql}`,
    );
    const { __count, __parent, ...rest } = result;
    return {
      count: typeof __count === "number" ? __count : __count == null ? undefined : Number(__count),
      // bigint aggregates arrive as text from node-postgres.
      summary: this.summarySql
        ? this.decl.summarySchema.parse(
            Object.fromEntries(
              Object.entries(rest).map(([k, v]) => [k, typeof v === "string" && /^-?\d+$/.test(v) ? Number(v) : v]),
            ),
          )
        : this.summary,
      parentFound: this.req.parentExists ? Boolean(__parent) : undefined,
      rowsCounted: count || this.usedMatching,
    };
  }

  /** Takes a statement's reading into this answer. */
  private take(read: Read<S>) {
    this.summary = read.summary;
    if (read.parentFound !== undefined) this.parentFound = read.parentFound;
    if (read.rowsCounted) this.rowsCounted = true;
  }

  /** A summary counted on `matching` (which stopped at the bound) scaled to the estimate. */
  private scaled(counted: S | null, estimated: number): S {
    const bound = this.options.settings.exactCountLimit + 1;
    return Object.fromEntries(
      Object.entries(counted as Record<string, unknown>).map(([k, v]) => [
        k,
        typeof v === "number" ? Math.round((v * estimated) / bound) : v,
      ]),
    ) as S;
  }

  /**
   * Counts the total (and the summary with it) as `nextTallyStep` says, in at most two statements.
   * Writes nothing of the answer, so that a count the request stops waiting for can finish in the
   * background (`countWaitMs`).
   */
  private async tally(guess: number | undefined): Promise<Tally<S>> {
    const state = {
      totalFromSummary: Boolean(this.readTotal),
      summaryOverMatches: this.usedMatching,
      exactCountLimit: this.options.settings.exactCountLimit,
      estimate: guess,
    };
    let read: Read<S> | undefined;
    for (;;) {
      const step = nextTallyStep({
        ...state,
        read: read && { fromSummary: this.readTotal?.(read.summary as S), count: read.count },
      });
      if (step.do === "estimate") state.estimate = await estimateRows(this.db, this.countFrom, this.where);
      else if (step.do === "read") read = await this.summaryAndCount(step.withCount);
      else {
        const summary = step.scaleSummary ? this.scaled(read!.summary, step.total) : read!.summary;
        return {
          ...read!,
          summary,
          summaryExact: step.scaleSummary ? false : this.summaryExactSoFar,
          total: step.total,
          totalExact: step.exact,
        };
      }
    }
  }

  private takeTally(counted: Tally<S>) {
    this.take(counted);
    this.total = counted.total;
    this.totalExact = counted.totalExact;
    this.summaryExact = counted.summaryExact;
  }

  /** Answers with the planner's `guess` while the matches are counted; `withoutSummary`: the cards wait too. */
  private answerCounting(guess: number, withoutSummary: boolean) {
    this.counting = true;
    this.total = guess;
    this.totalExact = false;
    if (withoutSummary) {
      this.summary = null;
      this.summaryExact = false;
    }
  }

  /** Sets the total (and the summary) once, as `planCount` decides. `knownRows`: the first page held every row. */
  private async ensureTotal(knownRows?: number) {
    if (this.totalDone) return;
    this.totalDone = true;
    const remembered =
      this.own?.value.total !== undefined
        ? { total: this.own.value.total, exact: this.own.value.totalExact }
        : undefined;
    const facts = {
      knownRows,
      remembered,
      recount: this.recount,
      deferrable: this.deferrable,
      summaryOverMatches: this.usedMatching,
      totalFromSummary: Boolean(this.readTotal),
      alreadyCounting: Boolean(this.cacheKey && this.cache.running(this.cacheKey)),
      settings: this.options.settings,
    };
    let plan: CountPlan = planCount(facts);
    if (plan.kind === "estimate-first")
      plan = planCount({ ...facts, estimate: await estimateRows(this.db, this.countFrom, this.where) });
    await this.carryOut(plan);
  }

  private async carryOut(plan: CountPlan) {
    switch (plan.kind) {
      case "known-rows":
        // A recount's one-row page held every match: that is a count, kept.
        if (this.recount) this.rowsCounted = true;
        this.take(await this.summaryAndCount(false));
        this.total = plan.total;
        return;
      case "reuse":
        this.total = plan.total;
        this.totalExact = plan.exact;
        return;
      case "count":
        return this.takeTally(await this.tally(undefined));
      case "background":
        // Cards from counters are still read; cards over the matches wait for the count.
        this.answerCounting(plan.guess, plan.cardsWait);
        if (!plan.cardsWait) this.take(await this.summaryAndCount(false));
        this.backgroundCount = this.recountOf();
        return;
      case "count-within":
        return this.countWithin(plan.guess, plan.waitMs);
      case "estimate-first":
        throw new Error("planCount asked for the estimate twice");
    }
  }

  /** Counted for the request unless that takes longer than `waitMs`: then the count goes on in the background, and is kept. */
  private async countWithin(guess: number, waitMs: number) {
    const began = new Date(this.now());
    const countNow = this.tally(guess);
    const counted = waitMs > 0 ? await within(countNow, waitMs) : await countNow;
    if (counted) return this.takeTally(counted);
    // The cards that statement computes wait too: reading them apart would be a fourth statement.
    this.answerCounting(guess, Boolean(this.summarySql));
    // Handed to the memory now, so that the search's next requests see it running, kept as of when
    // it began.
    const late = async () => {
      const done = await countNow;
      return this.decl.cacheSummary === true || done.rowsCounted
        ? { summary: done.summary, total: done.total, exact: done.summaryExact, totalExact: done.totalExact }
        : undefined;
    };
    this.cache.start(this.cacheKey!, late, began);
  }

  /** The page's statement: `extra` after the cursor, in `direction`, `limit` rows after `offset`. */
  private pageSql(
    pickFrom: SQL | undefined,
    matchesFirst: boolean,
    extra: SQL | undefined,
    direction: "asc" | "desc",
    limit: number,
    offset?: number,
  ): SQL {
    const { decl, keys } = this;
    const columns = sql`${decl.select}, ${keyColumns(keys)}`;
    if (pickFrom) {
      // A search on the base finds the page's rows in the base table alone, then joins the rest.
      const ids = matchesFirst
        ? sql`select m.__id from (
            select ${decl.id.expr} as __id, ${sql.join(
              keys.map((k, i) => sql`${k.expr} as ${sql.identifier(`__m${i}`)}`),
              sql`, `,
            )}
            from ${pickFrom} where ${allOf([this.where, extra])} offset 0) m
          order by ${sql.join(
            keys.map((_, i) => sql`m.${sql.identifier(`__m${i}`)} ${sql.raw(direction)}`),
            sql`, `,
          )}
          limit ${limit} offset ${offset ?? 0}`
        : sql`select ${decl.id.expr} from ${pickFrom} where ${allOf([this.walkWhere, extra])} order by ${orderClause(keys, direction)} limit ${limit} offset ${offset ?? 0}`;
      return sql`select ${columns} from ${decl.from} where ${decl.id.expr} in (${ids}) order by ${orderClause(keys, direction)}`;
    }
    // An offset skips rows by their ids only, so that the columns are computed for the page's rows.
    const skipped = offset
      ? sql`${decl.id.expr} in (select ${decl.id.expr} from ${decl.from} where ${this.where} order by ${orderClause(keys, direction)} limit ${limit} offset ${offset})`
      : undefined;
    return sql`select ${columns} from ${decl.from} where ${allOf([this.where, extra, skipped])} order by ${orderClause(keys, direction)} limit ${limit}`;
  }

  /** Reads the page's rows, and the total as the page needs it; whether rows come before and after. */
  private async readPage(): Promise<{ rows: Array<Record<string, unknown>>; hasBefore: boolean; hasAfter: boolean }> {
    const { query } = this.req;
    const pickFrom = this.q && this.decl.base?.sorts.includes(query.sort) ? this.decl.base.from : undefined;
    // A search on the base counts first: when its matches are known to be few, they are gathered
    // (the trigram bitmaps) and sorted, rather than the sort's index walked and every row tested.
    if (pickFrom) await this.ensureTotal();
    const matchesFirst = Boolean(pickFrom) && this.totalExact && (this.total ?? Infinity) <= matchesFirstLimit;
    const page = (extra: SQL | undefined, direction: "asc" | "desc", limit: number, offset?: number) =>
      itemRows(this.db, this.pageSql(pickFrom, matchesFirst, extra, direction, limit, offset));
    const reverse = query.order === "asc" ? "desc" : "asc";
    if (query.at === "end") {
      await this.ensureTotal();
      // With an exact total the last page holds what is left after whole pages, so that page
      // numbers counted from the start and from the end agree.
      const t = this.total!;
      const size = this.totalExact && t > 0 ? t - Math.floor((t - 1) / query.limit) * query.limit : query.limit;
      const rows = (await page(undefined, reverse, size + 1)).reverse();
      return { rows: rows.length > size ? rows.slice(1) : rows, hasBefore: rows.length > size, hasAfter: false };
    }
    if (this.cursor?.d === "before") {
      const rows = (
        await page(
          keysetCondition(this.keys, this.cursor.k, query.order === "asc" ? "<" : ">"),
          reverse,
          query.limit + 1,
        )
      ).reverse();
      await this.ensureTotal();
      return {
        rows: rows.length > query.limit ? rows.slice(1) : rows,
        hasBefore: rows.length > query.limit,
        hasAfter: true,
      };
    }
    const extra = this.cursor
      ? keysetCondition(this.keys, this.cursor.k, query.order === "asc" ? ">" : "<")
      : undefined;
    const rows = await page(extra, query.order, query.limit + 1, query.offset);
    const hasAfter = rows.length > query.limit;
    const kept = hasAfter ? rows.slice(0, query.limit) : rows;
    // The first page holds every matching row: that is the count.
    await this.ensureTotal(!this.cursor && !query.offset && !hasAfter ? kept.length : undefined);
    return { rows: kept, hasBefore: Boolean(this.cursor) || (query.offset ?? 0) > 0, hasAfter };
  }

  /** Stores what this request counted in the summary memory, as `shouldKeep` says; the entry a recount hands back. */
  private remember(): SummaryCacheEntry | undefined {
    const { settings } = this.options;
    const bigFrom = Math.min(settings.summaryReuseFrom, settings.exactCountLimit);
    const keep = shouldKeep({
      keyed: Boolean(this.cacheKey),
      reusedOwn: Boolean(this.own),
      counting: this.counting,
      total: this.total,
      bigFrom,
      recount: this.recount,
      searched: Boolean(this.q),
      keepsEvery: this.decl.cacheSummary === true,
      rowsCounted: this.rowsCounted,
    })
      ? { summary: this.summary, total: this.total, exact: this.summaryExact, totalExact: this.totalExact }
      : undefined;
    // One clock reading: the time kept is the time answered, so the next request's `summary_as_of` matches.
    const now = new Date(this.now());
    if (keep && !this.recount) this.cache.put(this.cacheKey!, keep, now);
    if (this.cacheKey && this.decl.summary && (this.own || keep)) this.summaryAsOf ??= now.toISOString();
    return keep;
  }

  /** Runs the request: the page, its total and summary, and what is remembered. */
  async run(): Promise<{ page: ListPage<I, S>; keep?: SummaryCacheEntry }> {
    const { query, parentExists } = this.req;
    const { rows, hasBefore, hasAfter } = await this.readPage();
    const keep = this.remember();
    // The background count starts once the page is read: on one connection (PGlite) the page would wait behind it.
    if (this.backgroundCount) this.cache.start(this.cacheKey!, this.backgroundCount);
    if (parentExists && rows.length === 0 && this.parentFound === undefined) {
      const [found] = await queryRows<{ p: boolean }>(this.db, sql`select (${parentExists}) as p`);
      this.parentFound = Boolean(found.p);
    }
    const cursorOf = (r: Record<string, unknown>, d: Cursor["d"]) =>
      encodeCursor({ s: query.sort, o: query.order, d, k: keyValues(this.keys, r) });
    const items = rows.map((r) => itemOf<I>(r));
    const page: ListPage<I, S> = {
      ...(parentExists ? { parent_found: this.parentFound ?? true } : {}),
      items,
      total: this.total ?? items.length,
      total_exact: this.totalExact,
      summary: this.summary,
      summary_exact: this.summaryExact,
      summary_as_of: this.summaryAsOf,
      counting: this.counting,
      next_cursor: hasAfter && rows.length ? cursorOf(rows[rows.length - 1], "after") : null,
      prev_cursor: hasBefore && rows.length ? cursorOf(rows[0], "before") : null,
    };
    return { page, keep };
  }
}

/**
 * Streams every row matching the request (filters, search, sort; paging ignored) in keyset batches
 * of `batch` rows, so that no whole result is held in memory and each batch is one indexed query.
 */
export async function* listAll<I, S, F extends Record<string, unknown>>(
  db: Database,
  decl: ListDeclaration<I, S, F>,
  req: ListRequest<F>,
  batch = 1000,
): AsyncGenerator<I[]> {
  const { query } = req;
  const keys = sortKeys(decl, query.sort);
  const { where } = conditions(decl, req);
  const op = query.order === "asc" ? ">" : "<";
  let after: string[] | undefined;
  for (;;) {
    const rows = await itemRows(
      db,
      sql`
      select ${decl.select}, ${keyColumns(keys)}
      from ${decl.from}
      where ${allOf([where, after ? keysetCondition(keys, after, op) : undefined])}
      order by ${orderClause(keys, query.order)}
      limit ${batch}`,
    );
    if (rows.length === 0) return;
    after = keyValues(keys, rows[rows.length - 1]);
    yield rows.map((r) => itemOf<I>(r));
    if (rows.length < batch) return;
  }
}

/**
 * One record as `list` shows it in a row: `select <the list's columns> from <its from> where <its
 * id> = id`, the row as its item (timestamps as ISO 8601 text), or null when there is none. The
 * record kit's GET /{id} reads this when the entity's page shows what its list row does.
 */
export function listRecord<I, S, F extends Record<string, unknown>>(list: ListDeclaration<I, S, F>) {
  return async (db: Database, id: string): Promise<I | null> => {
    const [row] = await itemRows(db, sql`select ${list.select} from ${list.from} where ${list.id.expr} = ${id}`);
    return row ? itemOf<I>(row) : null;
  };
}
