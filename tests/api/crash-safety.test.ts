/**
 * Crash safety: the real console process is killed with SIGKILL in the middle of a stream of
 * writes, three times, and started again on the same data each time. Every acknowledged write
 * (201) must survive with its audit row, the restarted console must take over the stale lock of
 * the embedded database and answer queries. On file-backed PGlite, and on PostgreSQL when
 * TEST_DATABASE_URL is set. `npm run bench:crash` runs 20 trials of each.
 */
import { describe, expect, it } from "vitest";
import { runCrashTrials } from "../support/crash";
import { targets } from "../support/databases";

const TRIALS = 3;

describe.each(targets)("console process killed during writes on %s", (target) => {
  it(`keeps every acknowledged write across ${TRIALS} kill -9 and restarts`, async () => {
    const { results } = await runCrashTrials({ target, trials: TRIALS, ports: [3750, 3779] });
    expect(results).toHaveLength(TRIALS);
    for (const r of results) {
      const where = `trial ${r.trial} (killed after ${r.killAfterMs} ms, ${r.acknowledged} acknowledged of ${r.sent} sent)`;
      expect(r.acknowledged, `${where}: the console acknowledged writes before the kill`).toBeGreaterThan(0);
      expect(r.unexpectedAnswers, `${where}: answers other than 201`).toEqual([]);
      expect(r.lost, `${where}: acknowledged customers lost`).toEqual([]);
      expect(r.auditMismatches, `${where}: customers and their create audit rows`).toEqual([]);
      expect(r.answersQueries, `${where}: the restarted console answers queries`).toBe(true);
      if (target === "pglite") expect(r.lockTakenOver, `${where}: the stale lock was taken over`).toBe(true);
      expect(r.unacknowledgedPresent, `${where}: at most the requests in flight at the kill`).toBeLessThanOrEqual(
        r.sent - r.acknowledged,
      );
    }
  }, 300_000);
});
