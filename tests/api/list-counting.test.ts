/**
 * How a list request gets its total, decided without a database (src/server/http/lists/plan.ts):
 * every branch of `planCount`, `nextTallyStep` and `shouldKeep`, and that every mounted list says
 * truly what its summary counts (the set, or the search's matches).
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
// The routes (and with them every mounted list) are declared when the app's module loads.
import "../../src/server/app";
import {
  nextTallyStep,
  planCount,
  shouldKeep,
  type CountFacts,
  type KeepFacts,
  type TallyState,
} from "../../src/server/http/lists/plan";
import { listTable } from "../../src/server/http/list-routes";

const settings = { exactCountLimit: 50_000, backgroundCountFrom: 5_000, countWaitMs: 100 };
const facts = (over: Partial<CountFacts> = {}): CountFacts => ({
  recount: false,
  deferrable: true,
  summaryOverMatches: false,
  totalFromSummary: false,
  alreadyCounting: false,
  settings,
  ...over,
});

describe("planCount", () => {
  it("takes the first page's rows as the count when it held every row", () => {
    expect(planCount(facts({ knownRows: 7, remembered: { total: 9, exact: true } }))).toEqual({
      kind: "known-rows",
      total: 7,
    });
  });

  it("reuses a remembered total", () => {
    expect(planCount(facts({ remembered: { total: 1_200_000, exact: false } }))).toEqual({
      kind: "reuse",
      total: 1_200_000,
      exact: false,
    });
  });

  it("counts for the request what cannot wait (no search, a nested list, a failed count) and every recount", () => {
    expect(planCount(facts({ deferrable: false }))).toEqual({ kind: "count" });
    expect(planCount(facts({ recount: true, estimate: 1_000_000 }))).toEqual({ kind: "count" });
  });

  it("asks for the planner's estimate before deciding a search's count", () => {
    expect(planCount(facts())).toEqual({ kind: "estimate-first" });
  });

  it("answers a search guessed big with its estimate while it is counted in the background", () => {
    expect(planCount(facts({ estimate: 5_000 }))).toEqual({ kind: "background", guess: 5_000, cardsWait: false });
    // Cards over the matches wait for that count too.
    expect(planCount(facts({ estimate: 9_000, totalFromSummary: true, summaryOverMatches: true }))).toEqual({
      kind: "background",
      guess: 9_000,
      cardsWait: true,
    });
  });

  it("never starts a second count while one of the same search runs", () => {
    expect(planCount(facts({ estimate: 12, alreadyCounting: true }))).toEqual({
      kind: "background",
      guess: 12,
      cardsWait: false,
    });
  });

  it("counts a search guessed small for its request, within the wait", () => {
    expect(planCount(facts({ estimate: 4_999 }))).toEqual({ kind: "count-within", guess: 4_999, waitMs: 100 });
    // Above the exact-count limit it would not be counted anyway: the estimate is the total.
    expect(planCount(facts({ estimate: 80_000 }))).toEqual({ kind: "count-within", guess: 80_000, waitMs: 100 });
    // Cards from counters, total read from them: nothing to count in the background.
    expect(planCount(facts({ estimate: 80_000, totalFromSummary: true }))).toEqual({
      kind: "count-within",
      guess: 80_000,
      waitMs: 100,
    });
  });
});

describe("nextTallyStep", () => {
  const tally = (over: Partial<TallyState>): TallyState => ({
    totalFromSummary: false,
    summaryOverMatches: false,
    exactCountLimit: 100,
    ...over,
  });

  it("reads the total from the summary when it can, exact below the limit", () => {
    expect(nextTallyStep(tally({ totalFromSummary: true }))).toEqual({ do: "read", withCount: false });
    expect(nextTallyStep(tally({ totalFromSummary: true, read: { fromSummary: 42 } }))).toEqual({
      do: "done",
      total: 42,
      exact: true,
      scaleSummary: false,
    });
  });

  it("scales a summary counted on the bounded matches to the estimate", () => {
    const over = tally({ totalFromSummary: true, summaryOverMatches: true, read: { fromSummary: 101 } });
    expect(nextTallyStep(over)).toEqual({ do: "estimate" });
    expect(nextTallyStep({ ...over, estimate: 5_000 })).toEqual({
      do: "done",
      total: 5_000,
      exact: false,
      scaleSummary: true,
    });
    expect(nextTallyStep({ ...over, estimate: 50 })).toEqual({
      do: "done",
      total: 101,
      exact: false,
      scaleSummary: true,
    });
  });

  it("estimates first otherwise, and counts exactly only below the limit", () => {
    expect(nextTallyStep(tally({}))).toEqual({ do: "estimate" });
    expect(nextTallyStep(tally({ estimate: 500 }))).toEqual({ do: "read", withCount: false });
    expect(nextTallyStep(tally({ estimate: 500, read: {} }))).toEqual({
      do: "done",
      total: 500,
      exact: false,
      scaleSummary: false,
    });
    expect(nextTallyStep(tally({ estimate: 80 }))).toEqual({ do: "read", withCount: true });
    expect(nextTallyStep(tally({ estimate: 80, read: { count: 77 } }))).toEqual({
      do: "done",
      total: 77,
      exact: true,
      scaleSummary: false,
    });
    // The planner guessed low: the bounded count reached the limit.
    expect(nextTallyStep(tally({ estimate: 80, read: { count: 101 } }))).toEqual({
      do: "done",
      total: 101,
      exact: false,
      scaleSummary: false,
    });
  });
});

describe("shouldKeep", () => {
  const keep = (over: Partial<KeepFacts>): KeepFacts => ({
    keyed: true,
    reusedOwn: false,
    counting: false,
    total: 2_000,
    bigFrom: 1_000,
    recount: false,
    searched: false,
    keepsEvery: true,
    rowsCounted: false,
    ...over,
  });

  it("remembers a big list's summary", () => {
    expect(shouldKeep(keep({}))).toBe(true);
    expect(shouldKeep(keep({ total: 999 }))).toBe(false);
  });

  it("never remembers what was reused, what is still counting, or a list without memory", () => {
    expect(shouldKeep(keep({ reusedOwn: true }))).toBe(false);
    expect(shouldKeep(keep({ counting: true }))).toBe(false);
    expect(shouldKeep(keep({ keyed: false }))).toBe(false);
  });

  it("keeps what a recount of a search counted, whatever its size", () => {
    expect(shouldKeep(keep({ total: 3, recount: true, searched: true }))).toBe(true);
  });

  it("keeps a list of counted cards only where its rows were counted", () => {
    expect(shouldKeep(keep({ keepsEvery: false }))).toBe(false);
    expect(shouldKeep(keep({ keepsEvery: false, rowsCounted: true }))).toBe(true);
  });
});

describe("list declarations", () => {
  it("say truly what their summaries count: the filtered set, or the search's matches", () => {
    const withSummary = listTable.filter((l) => l.list.summary);
    expect(withSummary.length).toBeGreaterThanOrEqual(7);
    for (const { list, path } of withSummary) {
      // The summary follows the search when building it reads the search's inputs.
      let follows = false;
      const watched = () => ((follows = true), sql`true`);
      list.summary!({
        filters: {},
        filterWhere: sql`true`,
        get q() {
          return (watched(), "x") as never;
        },
        get where() {
          return watched();
        },
        matching: watched,
      });
      expect(list.summaryCounts, `${path} (${list.name})`).toBe(follows ? "matches" : "set");
    }
  });
});
