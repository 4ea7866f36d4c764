/**
 * The list engine: every list endpoint of the API is a declaration (`defineList`) of its SQL
 * fragments (FROM with joins, selected columns, sorts, filters, search, summary) from which this
 * module builds the query schema, keyset paging, counting, the summary, the JSON answer and the
 * CSV export. docs/lists.md "Lists: how to add one" shows a declaration.
 *
 * Paging contract (every list endpoint):
 * - takes `limit` (1–200, default 50) and at most one of `cursor` (opaque, from a previous answer),
 *   `offset` (0–10,000: a bounded jump, for page numbers near the start) or `at=end` (the last page);
 * - answers `{ items, total, total_exact, summary, summary_exact, summary_as_of, counting, next_cursor, prev_cursor }`:
 *   `total_exact` false means `total` is the planner's estimate (above `LIST_EXACT_COUNT_LIMIT`
 *   matching rows); `summary_as_of` is set when the summary comes from memory (big lists: see
 *   `SummaryCache`), null when computed for this answer; `counting` true means a search's matches
 *   are being counted in the background (`backgroundCountFrom`, `countWaitMs`): `total` is the
 *   planner's estimate and `summary` is null where the cards are counted with the total (those
 *   that count the matches; any computed in the statement a request stopped waiting for), and
 *   asking again shortly gives both;
 * - a cursor holds the sort, the order, the direction and the values of the sort keys and the
 *   tiebreak of the row it starts after (or before); a malformed cursor, or one of another sort or
 *   order, is a 422 with the standard error body.
 * At most 3 SQL statements per request: the page, the planner's estimate when a count is needed,
 * and one statement with the summary and the exact count (a search on a list's `base` runs the
 * last two before the page).
 */
import { searchTextSchema } from "../../domain/text";
import { listPagingSchema } from "../../domain/common";
import type { AuditListName } from "../../domain/audit";
import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { z } from "@hono/zod-openapi";
import { msg } from "../../domain/messages";
import { defaultBackgroundCountFrom } from "../config";
import { queryRows, type Database } from "../db/client";
import { createSnapshots, type Snapshots } from "../snapshots";
import { HttpError } from "./errors";
import { likePattern, toJson } from "./list";

/** SQL types a sort key can have; cursor values are cast back to them. */
export type KeyType = "text" | "int" | "bigint" | "uuid" | "timestamptz" | "boolean";

/**
 * One sort key: a NOT NULL expression (coalesce nullable columns) and its type. `unique` on a
 * sort's last key means it identifies the row by itself (another table's copy of the id, say), so
 * the list's tiebreak is not appended.
 */
export type SortKey = { expr: SQL; type: KeyType; unique?: boolean };

/** The keys a sort orders by: its own, then the tiebreak unless its last key is unique. */
const sortKeys = (decl: Pick<ListDeclaration<unknown, unknown, Record<string, unknown>>, "sorts" | "id">, sort: string): SortKey[] => {
  const own = decl.sorts[sort];
  return own[own.length - 1]?.unique ? own : [...own, decl.id];
};

/** A filter: its query parameter's schema (optional) and the condition for a given value. */
export type FilterSpec<V = unknown> = { schema: z.ZodType<V | undefined>; where(value: V): SQL; description?: string };

/** What a search sees: the trimmed text, its ILIKE pattern, and whether it is a prefix search. */
export type SearchMatch = { q: string; pattern: string; prefix: boolean };

/** A search's two forms (see `search` of `ListDeclaration`). */
export type SearchForms = { gather: SQL; test: SQL };

/** What a summary builder sees. */
export type SummaryContext<F> = {
  filters: F;
  q: string | undefined;
  /** The full WHERE of the list (filters and search). */
  where: SQL;
  /** The WHERE of the filters only, without the search. */
  filterWhere: SQL;
  /**
   * The rows matching filters and search with `columns`, as a subquery bounded to the exact-count
   * limit plus one row (aliased `m`): a summary built on it stays cheap on huge matches, and the
   * engine marks it estimated when the bound is reached. Read from the `base` table when the list
   * declares one (then `columns` come from it).
   */
  matching: (columns: SQL) => SQL;
};

/** One CSV column: its header and the cell of an item. */
export type CsvColumn<I> = { header: string; value: (item: I) => unknown };

/**
 * A list declaration. `I` is an item, `S` its summary, `F` its filters' values.
 * - `from`: the FROM clause (table aliases and joins the columns, sorts, filters and search use);
 * - `select`: the item's columns (correlated subqueries are evaluated for the page's rows only);
 * - `id`: the tiebreak, unique per row; every sort ends with it;
 * - `sorts`: per sort name, the keys before the tiebreak (each backed by an index on (keys, id));
 * - `filters`: query parameters narrowing the list; `scope` fixed conditions of a nested list;
 * - `search`: the condition for `q` (≥ 3 characters: contains, with pg_trgm indexes; shorter:
 *   prefix), or none. It may come in two forms, `{ gather, test }`: `gather` finds every match at
 *   once (counts, summaries, exports, and a page sorted from its matches: say a union of indexed
 *   branches), `test` is cheap on one row (a page walking the sort's index tests row after row:
 *   say scalar subqueries on primary keys, which the planner does not hash as it does EXISTS). A
 *   union is costly to build for one page, and an OR of subqueries cannot use the trigram indexes
 *   to find every match;
 * - `summary`: one row of the summary schema's columns for the filtered set (SQL);
 * - `totalFromSummary`: for requests whose summary counts exactly the matching rows, how to read
 *   the total from it (then no count is run);
 * - `cacheSummary`: whether the summary and total of a big list (≥ `summaryReuseFrom` matching
 *   rows) may be reused for `summaryRefreshSeconds` (a list without cards reuses its total);
 *   `"counted"`: only where its rows were counted, for a list whose cards are cheap (maintained
 *   counters) but whose filters or search need a count;
 * - `csv`: the export's columns;
 * - `base` (optional): the list's own table alone (`users_data u`), when the joins of `from` add
 *   columns only (each row has exactly one joined row) and the filters and search name only that
 *   table (other tables through subqueries). Then counts and estimates read the base alone, and a
 *   search's page on one of `base.sorts` picks its rows in the base first (the trigram indexes'
 *   bitmaps, sorted, limited) and joins the rest for those rows only: the planner's guess of how
 *   many rows a search matches is often far too high, and over the whole join it then hashes every
 *   customer (a 41,675-row scan) even when nothing matches. Such a search is counted first (unless
 *   the planner guesses `backgroundCountFrom` matches or more: then it is counted in the background
 *   and its page walks the sort's index); when at most `matchesFirstLimit` rows match, the page is
 *   sorted from all matches (found by the trigram indexes) instead of walking the sort's index and
 *   testing each row.
 */
export type ListDeclaration<I, S, F extends Record<string, unknown>> = {
  /** Also the audit entity of its CSV exports (src/domain/audit.ts `auditListNames`). */
  name: AuditListName;
  item: z.ZodType<I>;
  summarySchema: z.ZodType<S>;
  from: SQL;
  base?: { from: SQL; sorts: string[] };
  select: SQL;
  id: SortKey;
  sorts: Record<string, SortKey[]>;
  defaultSort: string;
  defaultOrder: "asc" | "desc";
  filters: { [K in keyof F]: FilterSpec<F[K]> };
  search?: (match: SearchMatch) => SQL | SearchForms;
  summary?: (ctx: SummaryContext<F>) => SQL;
  totalFromSummary?: (ctx: { filters: F; q: string | undefined }) => ((summary: S) => number) | undefined;
  cacheSummary?: boolean | "counted";
  csv: CsvColumn<I>[];
};

/** Declares a list (identity function that checks the declaration's types). */
export function defineList<I, S, F extends Record<string, unknown>>(decl: ListDeclaration<I, S, F>): ListDeclaration<I, S, F> {
  for (const name of Object.keys(decl.sorts)) if (!/^[a-z_]+$/.test(name)) throw new Error(`sort name ${name}`);
  if (!(decl.defaultSort in decl.sorts)) throw new Error(`default sort ${decl.defaultSort} of ${decl.name}`);
  return decl;
}

/** Settings of the engine (docs/configuration.md). */
export type ListSettings = {
  /** Above this many matching rows the total is the planner's estimate (LIST_EXACT_COUNT_LIMIT). */
  exactCountLimit: number;
  /** How long a big list's summary may be reused, in seconds (LIST_SUMMARY_REFRESH_SECONDS). */
  summaryRefreshSeconds: number;
  /** How many big lists' summaries (one per list, filters and search) are kept; the oldest goes first. */
  summaryCacheSize: number;
  /**
   * From how many matching rows a list counts as big for its summary (`cacheSummary`): at most
   * `exactCountLimit`. Counting a thousand of a search's matches over its joins takes 10 ms and
   * more at a million users (thousands 100 ms and more); fewer are cheap to count again.
   */
  summaryReuseFrom: number;
  /**
   * From how many matching rows, as the planner estimates them, a search on a list that keeps its
   * summary (`cacheSummary`) is counted in the background rather than for its request
   * (LIST_BACKGROUND_COUNT_FROM): the page is answered with the estimate and `counting`, and the
   * count is kept for the next request. Counting a common search's tens of thousands of matches
   * took 0.8 s and more at a million users.
   */
  backgroundCountFrom: number;
  /**
   * How long, in ms, a search that `backgroundCountFrom` lets its request count waits for that count
   * (LIST_COUNT_WAIT_MS): past it the page is answered with the estimate and `counting`, with
   * `summary` null where its statement computes the cards, and the count goes on in the background
   * and is kept; requests of that search while it runs answer `counting` at once. The planner can
   * guess a common search low (at a million users, comments `q=ola`: 14,636 matches counted in
   * 0.46–0.52 s). 0: the request waits for its count.
   */
  countWaitMs: number;
};

export const defaultListSettings: ListSettings = {
  exactCountLimit: 50_000,
  summaryRefreshSeconds: 10,
  summaryCacheSize: 500,
  summaryReuseFrom: 1_000,
  backgroundCountFrom: defaultBackgroundCountFrom,
  countWaitMs: 0,
};

/** Searches shorter than this match prefixes only (a trigram index needs three characters). */
export const minContainsLength = 3;
/**
 * A search on a list's base matching at most this many rows gathers them all, then sorts (see
 * `base`). At a million users, comments `q=lee` (3,063 matches, one every 160 comments) took
 * 0.34–0.44 s walking the date index and 0.07 s gathered. The same as the default of
 * `backgroundCountFrom`: a search guessed below it is counted for its request, so its page can gather.
 */
export const matchesFirstLimit = defaultBackgroundCountFrom;

const searchText = searchTextSchema;

/**
 * The query schema of a list: `q`, `sort`, `order`, paging, and its filters. Unknown parameters
 * are ignored (links may carry the screen's own state).
 */
export function listQuerySchema<I, S, F extends Record<string, unknown>>(decl: ListDeclaration<I, S, F>, extra: z.ZodRawShape = {}) {
  const sortNames = Object.keys(decl.sorts) as [string, ...string[]];
  const filterShape = Object.fromEntries(Object.entries(decl.filters).map(([k, f]) => [k, (f as FilterSpec).schema]));
  return z
    .object({
      q: searchText.optional(),
      sort: z.enum(sortNames).default(decl.defaultSort),
      order: z.enum(["asc", "desc"]).default(decl.defaultOrder),
      ...listPagingSchema.shape,
      ...filterShape,
      ...extra,
    })
    .refine((v) => [v.cursor !== undefined, v.offset !== undefined, v.at !== undefined].filter(Boolean).length <= 1, {
      message: msg.api.pagingExclusive,
      path: ["cursor"],
    });
}

/** The parsed query of a list request. */
export type ListQuery = {
  q?: string;
  sort: string;
  order: "asc" | "desc";
  limit: number;
  cursor?: string;
  offset?: number;
  at?: "end";
} & Record<string, unknown>;

export type ListPage<I, S> = {
  /** Only for a nested list: false when its parent record does not exist (the route answers 404). */
  parent_found?: boolean;
  items: I[];
  total: number;
  total_exact: boolean;
  summary: S | null;
  summary_exact: boolean;
  summary_as_of: string | null;
  counting: boolean;
  next_cursor: string | null;
  prev_cursor: string | null;
};

type Cursor = { s: string; o: "asc" | "desc"; d: "after" | "before"; k: string[] };

const cursorSchema = z.object({
  s: z.string().max(50),
  o: z.enum(["asc", "desc"]),
  d: z.enum(["after", "before"]),
  k: z.array(z.string().max(1000)).min(1).max(8),
});

const valuePatterns: Record<KeyType, RegExp> = {
  text: /^[^\0]*$/,
  int: /^-?\d{1,10}$/,
  bigint: /^-?\d{1,19}$/,
  boolean: /^(true|false)$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  // PostgreSQL's text output of timestamptz (the cursor holds it as the database wrote it), or ±infinity.
  timestamptz: /^(-?infinity|\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?(:\d{2})?|Z)?)$/,
};

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor), "utf8").toString("base64url");
}

const invalidCursor = () => new HttpError(422, "validation_failed", msg.api.badCursor, { cursor: msg.api.badCursor });

/** Decodes and checks a cursor against the request's sort and order and the sort's key types. */
function decodeCursor(text: string, sort: string, order: "asc" | "desc", keys: SortKey[]): Cursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    throw invalidCursor();
  }
  const result = cursorSchema.safeParse(parsed);
  if (!result.success) throw invalidCursor();
  const cursor = result.data;
  if (cursor.s !== sort || cursor.o !== order || cursor.k.length !== keys.length) throw invalidCursor();
  cursor.k.forEach((value, i) => {
    if (!valuePatterns[keys[i].type].test(value)) throw invalidCursor();
    if (keys[i].type === "timestamptz" && !/infinity/.test(value) && Number.isNaN(Date.parse(value.replace(" ", "T").replace(/([+-]\d{2})$/, "$1:00")))) throw invalidCursor();
  });
  return cursor;
}

const cast = (value: string, type: KeyType) => sql`${value}::${sql.raw(type)}`;
const row = (parts: SQL[]) => (parts.length === 1 ? parts[0] : sql`(${sql.join(parts, sql`, `)})`);

/** `(k1, …, kn) op (v1, …, vn)`, plus the same on the leading keys when there are more than two, for an index on them. */
function keysetCondition(keys: SortKey[], values: string[], op: ">" | "<"): SQL {
  const full = sql`${row(keys.map((k) => k.expr))} ${sql.raw(op)} ${row(keys.map((k, i) => cast(values[i], k.type)))}`;
  if (keys.length <= 2) return full;
  const lead = keys.slice(0, -1);
  const seek = sql`${row(lead.map((k) => k.expr))} ${sql.raw(op)}= ${row(lead.map((k, i) => cast(values[i], k.type)))}`;
  return sql`${seek} and ${full}`;
}

const orderClause = (keys: SortKey[], direction: "asc" | "desc") =>
  sql.join(keys.map((k) => sql`${k.expr} ${sql.raw(direction)}`), sql`, `);

/** `AND` of the conditions, `true` when there are none. */
export function allOf(conditions: Array<SQL | undefined>): SQL {
  const present = conditions.filter((c): c is SQL => c !== undefined);
  return present.length ? sql.join(present.map((c) => sql`(${c})`), sql` and `) : sql`true`;
}

/** The values among `values` that a search matches: those containing `q` (or starting with it, for a prefix search). */
export function matchingValues(values: readonly string[], match: SearchMatch): string[] {
  const q = match.q.toLowerCase();
  return values.filter((v) => (match.prefix ? v.startsWith(q) : v.includes(q)));
}

/** `expr = any(values)`, or false when none: a search over a column of known values (statuses). */
export function oneOf(expr: SQL, values: readonly string[]): SQL {
  return values.length ? sql`${expr} = any(${sql`array[${sql.join(values.map((v) => sql`${v}`), sql`, `)}]::text[]`})` : sql`false`;
}

/**
 * A search on the name of the row a foreign key points at (a user's customer), in both forms:
 * `gather` as `key = any(array(select id … where name ilike …))`, one trigram bitmap scan however
 * many rows match; `test` as the name read by primary key for the one row tested, since testing a
 * row against an array of thousands of ids scans the array.
 */
export function referencedName(ref: { key: SQL; table: SQL; id: SQL; name: SQL }, match: SearchMatch): SearchForms {
  return {
    gather: sql`${ref.key} = any(array(select ${ref.id} from ${ref.table} where ${ref.name} ilike ${match.pattern}))`,
    test: sql`(select ${ref.name} from ${ref.table} where ${ref.id} = ${ref.key}) ilike ${match.pattern}`,
  };
}

/** OR of search conditions, some of them in two forms: a search in two forms. */
export function anyOf(parts: Array<SQL | SearchForms>): SearchForms {
  const form = (which: keyof SearchForms) => sql.join(parts.map((p) => sql`(${"gather" in p ? p[which] : p})`), sql` or `);
  return { gather: form("gather"), test: form("test") };
}

/** The search's match: contains (≥ 3 characters) or prefix, with LIKE wildcards escaped. */
export function searchMatch(q: string): SearchMatch {
  const prefix = q.length < minContainsLength;
  const escaped = likePattern(q).slice(1, -1);
  return { q, prefix, pattern: prefix ? `${escaped}%` : `%${escaped}%` };
}

/** A request: its query, filter values, the fixed scope of a nested list and whether its parent exists (SQL boolean). */
type Request<F> = { query: ListQuery; filters: F; scope?: SQL; parentExists?: SQL };

/** The WHERE parts of a request: its scope, filters, and search. */
function conditions<I, S, F extends Record<string, unknown>>(decl: ListDeclaration<I, S, F>, req: Request<F>) {
  const filterParts = Object.entries(decl.filters).map(([name, spec]) => {
    const value = req.filters[name];
    return value === undefined || value === "" ? undefined : (spec as FilterSpec).where(value);
  });
  const filterWhere = allOf([req.scope, ...filterParts]);
  const q = req.query.q || undefined;
  const forms = q && decl.search ? decl.search(searchMatch(q)) : undefined;
  const gather = forms && "gather" in forms ? forms.gather : forms;
  const test = forms && "test" in forms ? forms.test : forms;
  return { q, filterWhere, where: allOf([filterWhere, gather]), walkWhere: allOf([filterWhere, test]) };
}

/**
 * `work`'s value when it settles within `ms` milliseconds, else undefined; `work` goes on (a later
 * failure is not this function's: `Promise.race` has handled it).
 */
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
    db, sql`explain (format json) select 1 from ${from} where ${where}`);
  const doc = plan["QUERY PLAN"];
  const parsed = typeof doc === "string" ? (JSON.parse(doc) as Array<{ Plan: { "Plan Rows": number } }>) : doc;
  return Math.round(parsed[0].Plan["Plan Rows"]);
}

/** Renders a scope to its SQL text and values, for the summary memory's key. */
const dialect = new PgDialect();

/** A remembered summary: `total` is the list's total with its search, or undefined when unknown. */
export type SummaryCacheEntry = { summary: unknown; total: number | undefined; exact: boolean; totalExact: boolean };
/**
 * Per-app memory of big lists' summaries (see `cacheSummary`), as snapshots: one younger than
 * `summaryRefreshSeconds` is reused as it is; an older one, up to twice that age, is reused while one
 * refresh counts it again in the background (so that no request waits for the count); an older one
 * still is counted again for its request. The newest `summaryCacheSize` are kept, so that distinct
 * searches cannot grow it without bound.
 */
export type SummaryCache = Snapshots<SummaryCacheEntry>;

/** The summary memory of one app; `onError` hears of a failed background refresh (the old summary stays). */
export function createSummaryCache(settings: ListSettings, clock: () => Date, onError?: (err: unknown, key: string) => void): SummaryCache {
  const maxAgeMs = settings.summaryRefreshSeconds * 1000;
  return createSnapshots<SummaryCacheEntry>({ maxAgeMs, maxStaleMs: 2 * maxAgeMs, maxEntries: settings.summaryCacheSize, clock, onError });
}

/**
 * Whether a list's summary depends on its search: its SQL is built once with the search's inputs
 * (`q`, `where`, `matching`) watched. Cards of the filtered set read none of them.
 */
function summaryFollowsSearch<I, S, F extends Record<string, unknown>>(decl: ListDeclaration<I, S, F>, filters: F, filterWhere: SQL): boolean {
  let follows = false;
  const watched = (): never => {
    follows = true;
    return sql`true` as never;
  };
  decl.summary!({
    filters,
    filterWhere,
    get q() { return watched(); },
    get where() { return watched(); },
    matching: watched,
  });
  return follows;
}

/** Options of one list run. */
export type RunOptions = { settings: ListSettings; cache?: SummaryCache; now?: () => number };

/**
 * Runs one request of a list: at most 3 statements (page; estimate when a count is needed; summary
 * with exact count). See the module comment for the contract.
 * @throws HttpError 422 for a malformed or mismatched cursor.
 */
export async function runList<I, S, F extends Record<string, unknown>>(
  db: Database,
  decl: ListDeclaration<I, S, F>,
  req: Request<F>,
  options: RunOptions,
): Promise<ListPage<I, S>> {
  return (await listPage(db, decl, req, options, false)).page;
}

/**
 * One list run. `recount`: a background count of the request's summary (a refresh, or a search
 * answered with `counting`): nothing is read from the summary memory, and the summary is answered
 * as `keep` instead of being stored (the memory stores it, or drops the old one when undefined).
 * A recount of a search keeps what it counted whatever its size, so that a search the planner
 * overestimates is not answered with `counting` again on every request.
 */
async function listPage<I, S, F extends Record<string, unknown>>(
  db: Database,
  decl: ListDeclaration<I, S, F>,
  req: Request<F>,
  options: RunOptions,
  recount: boolean,
): Promise<{ page: ListPage<I, S>; keep?: SummaryCacheEntry }> {
  const { query } = req;
  const { exactCountLimit, backgroundCountFrom, countWaitMs } = options.settings;
  const bigFrom = Math.min(options.settings.summaryReuseFrom, exactCountLimit);
  const keys = sortKeys(decl, query.sort);
  // Counting needs only the rows of the base table (see `base`).
  const countFrom = decl.base?.from ?? decl.from;
  const cursor = query.cursor ? decodeCursor(query.cursor, query.sort, query.order, keys) : undefined;
  const { q, where, filterWhere, walkWhere } = conditions(decl, req);
  const now = options.now ?? Date.now;

  // Summary: reused from memory for a big list (see `SummaryCache`), else computed with the count.
  // The key holds the scope's SQL and values: one team's picker is not another's.
  const cache = decl.cacheSummary ? options.cache : undefined;
  const scopeKey = req.scope ? dialect.sqlToQuery(req.scope) : undefined;
  const keyOf = (search: string | undefined) => `${decl.name}:${JSON.stringify({ f: req.filters, q: search, scope: scopeKey })}`;
  const cacheKey = cache ? keyOf(q) : undefined;
  // A stale summary is counted again in the background, from the first page of its own list (this
  // request's, or with `search` the one without it).
  const recountOf = (search: string | undefined) => async () =>
    (await listPage(db, decl, { ...req, query: { ...req.query, q: search, cursor: undefined, offset: undefined, at: undefined, limit: 1 } }, options, true)).keep;
  // Only big lists are stored (below), so an entry in memory is reused.
  const own = cacheKey && !recount ? cache!.peek(cacheKey, recountOf(req.query.q)) : undefined;
  // A summary of the filtered set alone (cards that do not follow the search: the users') is the
  // list's without the search: a search reuses it, and stores it there when the set is big. Its
  // total is the search's own, never taken from that entry.
  const sharedKey = !own && cacheKey && q && decl.cacheSummary === true && decl.summary && !summaryFollowsSearch(decl, req.filters, filterWhere) ? keyOf(undefined) : undefined;
  const shared = sharedKey && !recount ? cache!.peek(sharedKey, recountOf(undefined)) : undefined;
  const reused = own ?? shared;
  let usedMatching = false;
  /** Whether the request counted its matching rows (an exact count, or a summary over them). */
  let rowsCounted = false;
  const bounded = (columns: SQL) => {
    usedMatching = true;
    return sql`(select ${columns} from ${countFrom} where ${where} limit ${exactCountLimit + 1}) m`;
  };
  const summarySql = decl.summary && !reused ? decl.summary({ filters: req.filters, q, where, filterWhere, matching: bounded }) : undefined;

  let total: number | undefined;
  let parentFound: boolean | undefined;
  let totalExact = true;
  let summary: S | null = (reused?.value.summary ?? {}) as S;
  const summaryExactSoFar = reused ? reused.value.exact : true;
  let summaryExact = summaryExactSoFar;
  let summaryAsOf: string | null = reused ? reused.at.toISOString() : null;
  /** The search's matches are counted in the background (see `backgroundCountFrom`, `countWaitMs`). */
  let counting = false;
  /** A recount of the search guessed big, started once the page is read. */
  let backgroundCount: (() => Promise<SummaryCacheEntry | undefined>) | undefined;
  // A search whose total is not in memory may be counted in the background (not a nested list's:
  // its parent is checked with the summary; not when nothing is kept: LIST_SUMMARY_REFRESH_SECONDS=0).
  // Nor after a count of it failed (see `Snapshots.failed`): the request counts, and shows the fault.
  const deferrable = Boolean(cacheKey && q && !own && !req.parentExists && options.settings.summaryRefreshSeconds > 0 && !cache!.failed(cacheKey));
  const readTotal = summarySql || reused ? decl.totalFromSummary?.({ filters: req.filters, q }) : undefined;

  /** What one statement read: the summary (this request's when not computed) and the count, when asked. */
  type Read = { count: number | undefined; summary: S | null; parentFound: boolean | undefined; rowsCounted: boolean };
  /** The summary and, when `count`, the exact count bounded by the limit, in one statement. */
  async function summaryAndCount(count: boolean): Promise<Read> {
    if (!summarySql && !count) return { count: undefined, summary, parentFound: undefined, rowsCounted: false };
    const countSql = count ? sql`(select count(*) from (select 1 from ${countFrom} where ${where} limit ${exactCountLimit + 1}) c)::int` : sql`null::int`;
    // A nested list learns whether its parent exists in the same statement.
    const parentSql = req.parentExists ? sql`, (${req.parentExists}) as __parent` : sql``;
    const [result] = await queryRows<Record<string, unknown>>(db, summarySql
      ? sql`select ${countSql} as __count${parentSql}, s.* from (${summarySql}) s`
      : sql`select ${countSql} as __count${parentSql}`);
    const { __count, __parent, ...rest } = result;
    return {
      count: typeof __count === "number" ? __count : __count == null ? undefined : Number(__count),
      // bigint aggregates arrive as text from node-postgres.
      summary: summarySql
        ? decl.summarySchema.parse(Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, typeof v === "string" && /^-?\d+$/.test(v) ? Number(v) : v])))
        : summary,
      parentFound: req.parentExists ? Boolean(__parent) : undefined,
      rowsCounted: count || usedMatching,
    };
  }
  /** Takes a statement's reading into this answer. */
  function take(read: Read) {
    summary = read.summary;
    if (read.parentFound !== undefined) parentFound = read.parentFound;
    if (read.rowsCounted) rowsCounted = true;
  }

  /** A summary counted on `matching` (which stopped at the bound) scaled to the planner's estimate. */
  function scaled(counted: S | null, estimated: number): S {
    const bound = exactCountLimit + 1;
    return Object.fromEntries(Object.entries(counted as Record<string, unknown>).map(([k, v]) =>
      [k, typeof v === "number" ? Math.round((v * estimated) / bound) : v])) as S;
  }

  /** A request's total and summary, as counted. */
  type Tally = Read & { total: number; totalExact: boolean; summaryExact: boolean };
  /**
   * Counts the total (and the summary with it) in at most two statements: the planner's estimate
   * (unless `guess` is known) and the summary with the exact count. Writes nothing of the answer, so
   * that a count the request stops waiting for can finish in the background (see `countWaitMs`).
   */
  async function tally(guess: number | undefined): Promise<Tally> {
    // As it is now: an answer that stops waiting marks its own summary inexact.
    const summaryExact = summaryExactSoFar;
    const estimateOnce = async () => (guess ??= await estimateRows(db, countFrom, where));
    if (readTotal) {
      const read = await summaryAndCount(false);
      const counted = readTotal(read.summary as S);
      if (usedMatching && counted > exactCountLimit) {
        const estimate = Math.max(await estimateOnce(), exactCountLimit + 1);
        return { ...read, summary: scaled(read.summary, estimate), summaryExact: false, total: estimate, totalExact: false };
      }
      return { ...read, summaryExact, total: counted, totalExact: true };
    }
    const estimate = await estimateOnce();
    if (estimate > exactCountLimit) return { ...(await summaryAndCount(false)), summaryExact, total: estimate, totalExact: false };
    const read = await summaryAndCount(true);
    if (read.count !== undefined && read.count <= exactCountLimit) return { ...read, summaryExact, total: read.count, totalExact: true };
    return { ...read, summaryExact, total: Math.max(estimate, exactCountLimit + 1), totalExact: false };
  }

  /** Takes a tally into this answer: its reading, total and exactness. */
  function takeTally(counted: Tally) {
    take(counted);
    ({ total, totalExact, summaryExact } = counted);
  }

  /**
   * Answers with the planner's `guess` while the search's matches are counted in the background;
   * `withoutSummary`: the cards wait for that count too (null, inexact).
   */
  function answerCounting(guess: number, withoutSummary: boolean) {
    counting = true;
    total = guess;
    totalExact = false;
    if (withoutSummary) {
      summary = null;
      summaryExact = false;
    }
  }

  /** Sets `total` (and the summary) with at most two statements, once. `knownRows`: the first page held every row. */
  let totalDone = false;
  async function ensureTotal(knownRows?: number) {
    if (totalDone) return;
    totalDone = true;
    if (knownRows !== undefined) {
      // A recount's one-row page held every match: that is a count, kept (see `listPage`).
      if (recount) rowsCounted = true;
      take(await summaryAndCount(false));
      total = knownRows;
      return;
    }
    // A big list's total is reused with its summary.
    if (own && own.value.total !== undefined) {
      total = own.value.total;
      totalExact = own.value.totalExact;
      return;
    }
    if (!deferrable || recount) {
      takeTally(await tally(undefined));
      return;
    }
    // A search with many matches, as the planner guesses, that this request would count (cards
    // over its matches, or an exact total): answered with the estimate while the background counts.
    const guess = await estimateRows(db, countFrom, where);
    const wouldCount = readTotal ? usedMatching : guess <= exactCountLimit;
    // Also while an earlier request's count of it runs (one it stopped waiting for): no second count.
    if ((wouldCount && guess >= backgroundCountFrom) || cache!.running(cacheKey!)) {
      // Cards from counters are still read; cards over the matches wait for the count.
      answerCounting(guess, usedMatching);
      if (!usedMatching) take(await summaryAndCount(false));
      backgroundCount = recountOf(req.query.q);
      return;
    }
    // Counted for the request, unless that takes longer than `countWaitMs` (the planner guessed
    // low): then the count goes on in the background, and is kept as a recount's would be.
    const began = new Date(now());
    const countNow = tally(guess);
    const counted = countWaitMs > 0 ? await within(countNow, countWaitMs) : await countNow;
    if (counted) {
      takeTally(counted);
      return;
    }
    // The cards that statement computes wait too (not a summary reused from memory), even those
    // that do not follow the search (the users'): reading them apart would be a fourth statement.
    answerCounting(guess, Boolean(summarySql));
    // The count runs already: it is handed to the memory now (so that the search's next requests
    // see it running, and its failure is recorded even if this request's page fails), kept as of
    // when it began, or of the reused cards' time (as `put` below).
    const late = async () => {
      const counted = await countNow;
      return decl.cacheSummary === true || counted.rowsCounted ? { summary: counted.summary, total: counted.total, exact: counted.summaryExact, totalExact: counted.totalExact } : undefined;
    };
    cache!.start(cacheKey!, late, shared?.at ?? began);
  }

  // A search on a base sort finds the page's rows in the base table alone (see `base`).
  const pickFrom = q && decl.base?.sorts.includes(query.sort) ? decl.base.from : undefined;
  // When the search's exact count is known to be small, its matches are gathered first (the
  // trigram bitmaps) and sorted, rather than the sort's index walked and every row tested: the
  // planner overestimates trigram matches and would walk the index through most of the table.
  let matchesFirst = false;
  const base = (extra: SQL | undefined, direction: "asc" | "desc", limit: number, offset?: number) => {
    const columns = sql`${decl.select}, ${sql.join(keys.map((k, i) => sql`(${k.expr})::text as ${sql.identifier(`__k${i}`)}`), sql`, `)}`;
    if (pickFrom) {
      const ids = matchesFirst
        ? sql`select m.__id from (
            select ${decl.id.expr} as __id, ${sql.join(keys.map((k, i) => sql`${k.expr} as ${sql.identifier(`__m${i}`)}`), sql`, `)}
            from ${pickFrom} where ${allOf([where, extra])} offset 0) m
          order by ${sql.join(keys.map((_, i) => sql`m.${sql.identifier(`__m${i}`)} ${sql.raw(direction)}`), sql`, `)}
          limit ${limit} offset ${offset ?? 0}`
        : sql`select ${decl.id.expr} from ${pickFrom}
          where ${allOf([walkWhere, extra])}
          order by ${orderClause(keys, direction)}
          limit ${limit} offset ${offset ?? 0}`;
      return sql`
        select ${columns}
        from ${decl.from}
        where ${decl.id.expr} in (${ids})
        order by ${orderClause(keys, direction)}`;
    }
    return sql`
      select ${columns}
      from ${decl.from}
      where ${allOf([where, extra, offset ? skipped(direction, limit, offset) : undefined])}
      order by ${orderClause(keys, direction)}
      limit ${limit}`;
  };
  // An offset skips rows by their ids only, so that the columns (and their subqueries) are
  // computed for the page's rows, not for the rows skipped.
  const skipped = (direction: "asc" | "desc", limit: number, offset: number) => sql`${decl.id.expr} in (
    select ${decl.id.expr} from ${decl.from} where ${where} order by ${orderClause(keys, direction)} limit ${limit} offset ${offset})`;
  const reverse = query.order === "asc" ? "desc" : "asc";

  // A search on the base counts first, to choose how its page is found (see `matchesFirst`).
  if (pickFrom) {
    await ensureTotal();
    matchesFirst = totalExact && (total ?? Infinity) <= matchesFirstLimit;
  }

  let rows: Array<Record<string, unknown>>;
  let hasBefore: boolean;
  let hasAfter: boolean;
  if (query.at === "end") {
    await ensureTotal();
    // With an exact total the last page holds what is left after whole pages, so that page numbers
    // counted from the start and from the end agree.
    const size = totalExact && total! > 0 ? total! - Math.floor((total! - 1) / query.limit) * query.limit : query.limit;
    rows = (await queryRows<Record<string, unknown>>(db, base(undefined, reverse, size + 1))).reverse();
    hasBefore = rows.length > size;
    if (hasBefore) rows = rows.slice(1);
    hasAfter = false;
  } else if (cursor?.d === "before") {
    const op = query.order === "asc" ? "<" : ">";
    rows = (await queryRows<Record<string, unknown>>(db, base(keysetCondition(keys, cursor.k, op), reverse, query.limit + 1))).reverse();
    hasBefore = rows.length > query.limit;
    if (hasBefore) rows = rows.slice(1);
    hasAfter = true;
    await ensureTotal();
  } else {
    const op = query.order === "asc" ? ">" : "<";
    const extra = cursor ? keysetCondition(keys, cursor.k, op) : undefined;
    rows = await queryRows<Record<string, unknown>>(db, base(extra, query.order, query.limit + 1, query.offset));
    hasAfter = rows.length > query.limit;
    if (hasAfter) rows = rows.slice(0, query.limit);
    hasBefore = Boolean(cursor) || (query.offset ?? 0) > 0;
    // The first page holds every matching row: that is the count.
    await ensureTotal(!cursor && !query.offset && !hasAfter ? rows.length : undefined);
  }

  // Only a big list's summary is kept (a search that reused its list's keeps that one's time), or
  // what a recount counted (see `listPage`); never an answer still `counting`.
  const keep = cacheKey && !own && !counting && ((total ?? 0) >= bigFrom || (recount && q)) && (decl.cacheSummary === true || rowsCounted) ? { summary, total, exact: summaryExact, totalExact } : undefined;
  if (keep && !recount) cache!.put(cacheKey!, keep, shared?.at ?? new Date(now()));
  // The filtered set's size is read from its summary as the list without the search reads its total.
  const setSize = sharedKey && summarySql && summary ? decl.totalFromSummary?.({ filters: req.filters, q: undefined })?.(summary) : undefined;
  const sharedStored = setSize !== undefined && setSize >= bigFrom;
  if (sharedStored) cache!.put(sharedKey!, { summary, total: undefined, exact: summaryExact, totalExact: true }, new Date(now()));
  if (cacheKey && decl.summary && (reused || sharedStored || keep)) summaryAsOf ??= new Date(now()).toISOString();

  // The count starts once the page is read: on a single connection (PGlite) the page would
  // otherwise wait behind it.
  if (backgroundCount) cache!.start(cacheKey!, backgroundCount);

  if (req.parentExists && rows.length === 0 && parentFound === undefined) {
    const [found] = await queryRows<{ p: boolean }>(db, sql`select (${req.parentExists}) as p`);
    parentFound = Boolean(found.p);
  }

  const keyValues = (r: Record<string, unknown>) => keys.map((_, i) => String(r[`__k${i}`]));
  const make = (r: Record<string, unknown>, d: Cursor["d"]) => encodeCursor({ s: query.sort, o: query.order, d, k: keyValues(r) });
  const items = rows.map((r) => itemOf<I>(r));
  const page = {
    ...(req.parentExists ? { parent_found: parentFound ?? true } : {}),
    items,
    total: total ?? items.length,
    total_exact: totalExact,
    summary,
    summary_exact: summaryExact,
    summary_as_of: summaryAsOf,
    counting,
    next_cursor: hasAfter && rows.length ? make(rows[rows.length - 1], "after") : null,
    prev_cursor: hasBefore && rows.length ? make(rows[0], "before") : null,
  };
  return { page, keep };
}

/**
 * A row as its list item, in one pass: the sort keys read for the cursor (`__k0`, `__k1`…) left
 * out, and values as `toJson` gives them (Dates as ISO 8601 text).
 */
function itemOf<I>(row: Record<string, unknown>): I {
  const item: Record<string, unknown> = {};
  for (const key in row) {
    if (key.startsWith("__k")) continue;
    const value = row[key];
    item[key] = value instanceof Date ? value.toISOString() : value !== null && typeof value === "object" ? toJson(value) : value;
  }
  return item as I;
}

/**
 * Streams every row matching the request (filters, search, sort; paging ignored) in keyset batches
 * of `batch` rows, so that no whole result is held in memory and each batch is one indexed query.
 */
export async function* listAll<I, S, F extends Record<string, unknown>>(
  db: Database,
  decl: ListDeclaration<I, S, F>,
  req: Request<F>,
  batch = 1000,
): AsyncGenerator<I[]> {
  const { query } = req;
  const keys = sortKeys(decl, query.sort);
  const { where } = conditions(decl, req);
  const op = query.order === "asc" ? ">" : "<";
  let after: string[] | undefined;
  for (;;) {
    const rows = await queryRows<Record<string, unknown>>(db, sql`
      select ${decl.select}, ${sql.join(keys.map((k, i) => sql`(${k.expr})::text as ${sql.identifier(`__k${i}`)}`), sql`, `)}
      from ${decl.from}
      where ${allOf([where, after ? keysetCondition(keys, after, op) : undefined])}
      order by ${orderClause(keys, query.order)}
      limit ${batch}`);
    if (rows.length === 0) return;
    const last = rows[rows.length - 1];
    after = keys.map((_, i) => String(last[`__k${i}`]));
    yield rows.map((r) => itemOf<I>(r));
    if (rows.length < batch) return;
  }
}
