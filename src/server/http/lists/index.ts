/**
 * The list engine: every list endpoint of the API is a declaration (`defineList`) of its SQL
 * fragments (FROM with joins, selected columns, sorts, filters, search, summary) from which the
 * engine builds the query schema, keyset paging, counting, the summary, the JSON answer and the CSV
 * export (list-routes.ts mounts it). docs/lists.md has the paging contract and a declaration.
 *
 * - declare.ts: the declaration, settings, query schema and answer types;
 * - search.ts: the WHERE of a request and the search helpers declarations use;
 * - fragments.ts: the filters, sort keys and searches several declarations share;
 * - cursor.ts: keyset paging and cursors;
 * - plan.ts: how a request's total is had, as pure functions;
 * - summary-memory.ts: big lists' summaries remembered per app;
 * - counters.ts: cards read from maintained counters;
 * - run.ts: carries a request out (at most 3 statements), and streams exports.
 */
export * from "./declare";
export {
  counterSort,
  dayRange,
  idFilter,
  joinedNameSort,
  promptTitleOrStatus,
  statusFilter,
  userNameKey,
} from "./fragments";
export {
  allOf,
  anyOf,
  anyValue,
  conditions,
  customerNamed,
  matchingValues,
  referencedName,
  searchMatch,
} from "./search";
export { createSummaryCache, type SummaryCache, type SummaryCacheEntry } from "./summary-memory";
export { statusCards, statusCardsSql, totalFromStatusCards } from "./counters";
export { listAll, listRecord, runList, type RunOptions } from "./run";
