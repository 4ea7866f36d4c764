/**
 * What a list is: its declaration (`defineList`), its query schema and its answer's shape. The
 * paging contract every list endpoint keeps is in docs/lists.md; how a request is carried out is in
 * run.ts, how its count is decided in plan.ts.
 */
import { z } from "@hono/zod-openapi";
import type { SQL } from "drizzle-orm";
import type { AuditListName } from "../../../domain/audit";
import { listPagingSchema, type ListPageOf, type ListParams } from "../../../domain/common";
import { msg } from "../../../domain/messages";
import { searchTextSchema } from "../../../domain/text";
import { defaultBackgroundCountFrom } from "../../config";

/** SQL types a sort key can have; cursor values are cast back to them. */
export type KeyType = "text" | "int" | "bigint" | "uuid" | "timestamptz" | "boolean";

/**
 * One sort key: a NOT NULL expression (coalesce nullable columns) and its type. `unique` on a
 * sort's last key means it identifies the row by itself (another table's copy of the id, say), so
 * the list's tiebreak is not appended.
 */
export type SortKey = { expr: SQL; type: KeyType; unique?: boolean };

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
 * - `search`: the condition for `q` (3 characters or more: contains, with pg_trgm indexes;
 *   shorter: prefix), or none. It may come in two forms, `{ gather, test }`: `gather` finds every
 *   match at once (counts, summaries, exports, and a page sorted from its matches: say a union of
 *   indexed branches), `test` is cheap on one row (a page walking the sort's index tests row after
 *   row: say scalar subqueries on primary keys). A union is costly to build for one page, and an OR
 *   of subqueries cannot use the trigram indexes to find every match;
 * - `summary`: one row of the summary schema's columns (SQL), with `summaryCounts` saying what it
 *   counts: `"set"`, the filtered set whatever the search (its cards read neither `q`, `where` nor
 *   `matching`: a search reuses the list's summary without it), or `"matches"`, the search's matches;
 * - `totalFromSummary`: for requests whose summary counts exactly the matching rows, how to read
 *   the total from it (then no count is run);
 * - `cacheSummary`: whether the summary and total of a big list (at least `summaryReuseFrom`
 *   matching rows) may be reused for `summaryRefreshSeconds` (a list without cards reuses its
 *   total); `"counted"`: only where its rows were counted, for a list whose cards are cheap
 *   (maintained counters) but whose filters or search need a count;
 * - `csv`: the export's columns;
 * - `unindexedSorts` (optional): sorts with no index on `(keys…, id)`, and why none is needed (the
 *   list's rows stay few enough to sort whole); every other sort walks its index (the plan test,
 *   tests/api/list-plans.test.ts, holds each declared sort to one);
 * - `base` (optional): the list's own table alone (`users_data u`), when the joins of `from` add
 *   columns only (each row has exactly one joined row) and the filters and search name only that
 *   table. Then counts and estimates read the base alone, and a search's page on one of
 *   `base.sorts` picks its rows in the base first and joins the rest for those rows only (the
 *   planner's guess of a search's matches is often far too high over the whole join). Such a search
 *   is counted first, unless the planner guesses `backgroundCountFrom` matches or more; when at
 *   most `matchesFirstLimit` rows match, the page is sorted from all matches instead of walking the
 *   sort's index and testing each row (docs/lists.md, docs/performance.md).
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
  /** What `summary` counts: the filtered set (`"set"`), or the search's matches (`"matches"`). */
  summaryCounts?: "set" | "matches";
  totalFromSummary?: (ctx: { filters: F; q: string | undefined }) => ((summary: S) => number) | undefined;
  cacheSummary?: boolean | "counted";
  csv: CsvColumn<I>[];
  /** Sorts that need no index of their own, and why (see above). */
  unindexedSorts?: { sorts: string[]; reason: string };
};

/**
 * Declares a list: checks the declaration (sort names, the default sort, the unindexed sorts, a
 * summary says what it counts) and returns it.
 * @throws Error on a malformed declaration (at start-up, never for a request).
 */
export function defineList<I, S, F extends Record<string, unknown>>(
  decl: ListDeclaration<I, S, F>,
): ListDeclaration<I, S, F> {
  for (const name of Object.keys(decl.sorts)) if (!/^[a-z_]+$/.test(name)) throw new Error(`sort name ${name}`);
  if (!(decl.defaultSort in decl.sorts)) throw new Error(`default sort ${decl.defaultSort} of ${decl.name}`);
  for (const name of decl.unindexedSorts?.sorts ?? [])
    if (!(name in decl.sorts)) throw new Error(`unindexed sort ${name} of ${decl.name} is not one of its sorts`);
  if (decl.summary && !decl.summaryCounts)
    throw new Error(`the summary of ${decl.name} must say what it counts (summaryCounts)`);
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
  /** From how many matching rows a list counts as big for its summary (`cacheSummary`): at most `exactCountLimit`. */
  summaryReuseFrom: number;
  /**
   * From how many matching rows, as the planner estimates them, a search on a list that keeps its
   * summary is counted in the background rather than for its request (LIST_BACKGROUND_COUNT_FROM).
   */
  backgroundCountFrom: number;
  /**
   * How long, in ms, a search counted for its request waits for that count (LIST_COUNT_WAIT_MS);
   * past it the page is answered with the estimate and `counting`. 0: the request waits.
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

/**
 * A search on a list's base matching at most this many rows gathers them all, then sorts (see
 * `base`); the same as the default of `backgroundCountFrom`, so that a search counted for its
 * request can gather its page (docs/performance.md).
 */
export const matchesFirstLimit = defaultBackgroundCountFrom;

/**
 * The query schema of a list: `q`, `sort`, `order`, paging, and its filters. Unknown parameters
 * are ignored (links may carry the screen's own state).
 */
export function listQuerySchema<I, S, F extends Record<string, unknown>>(
  decl: ListDeclaration<I, S, F>,
  extra: z.ZodRawShape = {},
) {
  const sortNames = Object.keys(decl.sorts) as [string, ...string[]];
  const filterShape = Object.fromEntries(Object.entries(decl.filters).map(([k, f]) => [k, (f as FilterSpec).schema]));
  return z
    .object({
      q: searchTextSchema.optional(),
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

/** The parsed query of a list request: the common parameters, and the list's own filters. */
export type ListQuery = ListParams & Record<string, unknown>;

/** A request: its query, filter values, the fixed scope of a nested list and whether its parent exists (SQL boolean). */
export type ListRequest<F> = { query: ListQuery; filters: F; scope?: SQL; parentExists?: SQL };

/**
 * The answer of a list request: the page schema of src/domain/common.ts (`ListPageOf`), and for a
 * nested list whether its parent exists (`parent_found` false: the route answers 404).
 */
export type ListPage<I, S> = ListPageOf<I, S> & { parent_found?: boolean };
