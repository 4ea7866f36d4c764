/**
 * How a list request gets its total: decided by pure functions of what is known (no database, no
 * clock), which run.ts carries out. Unit tests: tests/api/list-counting.test.ts.
 *
 * `planCount` decides once per request (twice when it first asks for the planner's estimate):
 * - `known-rows`: the first page held every matching row, so that is the count;
 * - `reuse`: a big list's total remembered with its summary;
 * - `count`: counted for the request (`nextTallyStep` says how);
 * - `estimate-first`: read the planner's estimate, then plan again;
 * - `background`: answered with the estimate while the matches are counted after the page
 *   (`counting: true`); `cardsWait` when the cards count the matches too;
 * - `count-within`: counted for the request, unless that takes longer than `waitMs`: then answered
 *   as `background`, the count going on.
 */
import type { ListSettings } from "./declare";

/** What is known of a request when its total is decided. */
export type CountFacts = {
  /** The first page held every matching row: this many. */
  knownRows?: number;
  /** The total remembered with the list's summary (this request's own memory entry), when it has one. */
  remembered?: { total: number; exact: boolean };
  /** A background count of this request (a refresh, or a search answered with `counting`). */
  recount: boolean;
  /** The search may be counted in the background (a search, memory kept, no earlier count failed, not a nested list). */
  deferrable: boolean;
  /** The summary counts the matching rows (it was built on `matching`). */
  summaryOverMatches: boolean;
  /** The total is read from the summary (`totalFromSummary`). */
  totalFromSummary: boolean;
  /** An earlier request's count of this search still runs. */
  alreadyCounting: boolean;
  /** The planner's estimate of the matching rows, once read. */
  estimate?: number;
  settings: Pick<ListSettings, "exactCountLimit" | "backgroundCountFrom" | "countWaitMs">;
};

export type CountPlan =
  | { kind: "known-rows"; total: number }
  | { kind: "reuse"; total: number; exact: boolean }
  | { kind: "count" }
  | { kind: "estimate-first" }
  | { kind: "background"; guess: number; cardsWait: boolean }
  | { kind: "count-within"; guess: number; waitMs: number };

/** How the request's total is had (see the module comment). */
export function planCount(f: CountFacts): CountPlan {
  if (f.knownRows !== undefined) return { kind: "known-rows", total: f.knownRows };
  if (f.remembered) return { kind: "reuse", total: f.remembered.total, exact: f.remembered.exact };
  if (!f.deferrable || f.recount) return { kind: "count" };
  if (f.estimate === undefined) return { kind: "estimate-first" };
  // Whether counting it now would count the matches (cards over them, or an exact total).
  const wouldCount = f.totalFromSummary ? f.summaryOverMatches : f.estimate <= f.settings.exactCountLimit;
  // Also while an earlier request's count of it runs: no second count.
  if ((wouldCount && f.estimate >= f.settings.backgroundCountFrom) || f.alreadyCounting) {
    return { kind: "background", guess: f.estimate, cardsWait: f.summaryOverMatches };
  }
  return { kind: "count-within", guess: f.estimate, waitMs: f.settings.countWaitMs };
}

/** What a count for the request has read so far. */
export type TallyState = {
  /** The total is read from the summary (`totalFromSummary`). */
  totalFromSummary: boolean;
  /** The summary counts the matching rows, up to the limit plus one (`matching`). */
  summaryOverMatches: boolean;
  exactCountLimit: number;
  /** The planner's estimate, once read (or known beforehand). */
  estimate?: number;
  /** The summary has been read: with `fromSummary`, the total it gives; with `count`, the exact count (bounded). */
  read?: { fromSummary?: number; count?: number };
};

export type TallyStep =
  | { do: "estimate" }
  | { do: "read"; withCount: boolean }
  | { do: "done"; total: number; exact: boolean; scaleSummary: boolean };

/**
 * The next step of a count for the request, in at most two statements besides the page: the
 * planner's estimate (unless known) and one statement with the summary and, where the total is not
 * read from it, the exact count bounded by the limit. Above the limit the total is the estimate
 * (and a summary counted on the bounded matches is scaled to it).
 */
export function nextTallyStep(t: TallyState): TallyStep {
  const limit = t.exactCountLimit;
  if (t.totalFromSummary) {
    if (!t.read) return { do: "read", withCount: false };
    const counted = t.read.fromSummary ?? 0;
    if (!(t.summaryOverMatches && counted > limit))
      return { do: "done", total: counted, exact: true, scaleSummary: false };
    if (t.estimate === undefined) return { do: "estimate" };
    return { do: "done", total: Math.max(t.estimate, limit + 1), exact: false, scaleSummary: true };
  }
  if (t.estimate === undefined) return { do: "estimate" };
  if (t.estimate > limit)
    return t.read
      ? { do: "done", total: t.estimate, exact: false, scaleSummary: false }
      : { do: "read", withCount: false };
  if (!t.read) return { do: "read", withCount: true };
  const count = t.read.count;
  if (count !== undefined && count <= limit) return { do: "done", total: count, exact: true, scaleSummary: false };
  return { do: "done", total: Math.max(t.estimate, limit + 1), exact: false, scaleSummary: false };
}

/** What a finished request knows when deciding whether its summary is remembered. */
export type KeepFacts = {
  /** The request has a memory key (its list keeps summaries). */
  keyed: boolean;
  /** It reused its own memory entry. */
  reusedOwn: boolean;
  counting: boolean;
  total: number | undefined;
  /** From how many matching rows a list counts as big. */
  bigFrom: number;
  recount: boolean;
  /** It had a search. */
  searched: boolean;
  /** The list keeps every big summary (`cacheSummary: true`), not only counted ones. */
  keepsEvery: boolean;
  /** The request counted its matching rows. */
  rowsCounted: boolean;
};

/**
 * Whether a request's summary and total are remembered: only a big list's (or what a recount of a
 * search counted, so that a search the planner overestimates is not answered `counting` on every
 * request), never one reused from memory or answered while still counting.
 */
export function shouldKeep(k: KeepFacts): boolean {
  if (!k.keyed || k.reusedOwn || k.counting) return false;
  const big = (k.total ?? 0) >= k.bigFrom || (k.recount && k.searched);
  return big && (k.keepsEvery || k.rowsCounted);
}
