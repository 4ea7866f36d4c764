/**
 * Per-app memory of big lists' summaries and totals (a list's `cacheSummary`), as snapshots
 * (src/server/snapshots.ts): one younger than `summaryRefreshSeconds` is reused as it is; an older
 * one, up to twice that age, is reused while one refresh counts it again in the background (so that
 * no request waits for the count); an older one still is counted again for its request. The newest
 * `summaryCacheSize` are kept, so that distinct searches cannot grow it without bound.
 */
import { PgDialect } from "drizzle-orm/pg-core";
import type { SQL } from "drizzle-orm";
import { createSnapshots, type Snapshots } from "../../snapshots";
import type { ListSettings } from "./declare";

/** A remembered summary: `total` is the list's total with its search, or undefined when unknown. */
export type SummaryCacheEntry = { summary: unknown; total: number | undefined; exact: boolean; totalExact: boolean };

export type SummaryCache = Snapshots<SummaryCacheEntry>;

/** The summary memory of one app; `onError` hears of a failed background refresh (the old summary stays). */
export function createSummaryCache(
  settings: ListSettings,
  clock: () => Date,
  onError?: (err: unknown, key: string) => void,
): SummaryCache {
  const maxAgeMs = settings.summaryRefreshSeconds * 1000;
  return createSnapshots<SummaryCacheEntry>({
    maxAgeMs,
    maxStaleMs: 2 * maxAgeMs,
    maxEntries: settings.summaryCacheSize,
    clock,
    onError,
  });
}

/** Renders a scope to its SQL text and values, for a memory key. */
const dialect = new PgDialect();

/**
 * The memory key of a list request: its list, filters, search and the scope's SQL and values (one
 * team's picker is not another's). `q` undefined: the list without its search.
 */
export function summaryKey(list: string, filters: unknown, q: string | undefined, scope: SQL | undefined): string {
  return `${list}:${JSON.stringify({ f: filters, q, scope: scope ? dialect.sqlToQuery(scope) : undefined })}`;
}
