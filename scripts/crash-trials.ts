/**
 * `npm run bench:crash [-- --trials 20 --target pglite|postgres|all --loops 4]`: kill -9 the real
 * console in the middle of a stream of writes, restart it on the same data, check that every
 * acknowledged write survived; 20 trials on file-backed PGlite and 20 on PostgreSQL (the latter
 * when TEST_DATABASE_URL points to a server where databases can be created). Prints each trial and
 * a summary; exits 1 if any acknowledged write was lost or any trial failed its checks.
 */
import { parseArgs } from "node:util";
import { runCrashTrials, type CrashTarget, type TrialResult } from "../tests/support/crash";

const { values } = parseArgs({
  options: {
    trials: { type: "string", default: "20" },
    target: { type: "string", default: "all" },
    loops: { type: "string", default: "4" },
  },
});
const trials = Number(values.trials);
const loops = Number(values.loops);
const wanted: CrashTarget[] = values.target === "all" ? ["pglite", "postgres"] : [values.target as CrashTarget];

const pad = (v: unknown, n: number) => String(v).padStart(n);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0
    ? 0
    : s.length % 2
      ? s[(s.length - 1) / 2]
      : Math.round((s[s.length / 2 - 1] + s[s.length / 2]) / 2);
};

function failures(r: TrialResult, target: CrashTarget): string[] {
  const out: string[] = [];
  if (r.lost.length) out.push(`${r.lost.length} lost`);
  if (r.auditMismatches.length) out.push(`${r.auditMismatches.length} audit mismatches`);
  if (r.unexpectedAnswers.length) out.push(`${r.unexpectedAnswers.length} unexpected answers`);
  if (!r.answersQueries) out.push("no answers after restart");
  if (target === "pglite" && !r.lockTakenOver) out.push("lock not taken over");
  if (r.acknowledged === 0) out.push("nothing acknowledged");
  return out;
}

let failed = false;
const summaries: string[] = [];
for (const target of wanted) {
  if (target === "postgres" && !process.env.TEST_DATABASE_URL) {
    summaries.push(`postgres  skipped: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres)`);
    continue;
  }
  console.log(
    `\n${target}: ${trials} trials, ${loops} write loops, SIGKILL 150-1200 ms after the first acknowledged write`,
  );
  console.log(" trial  kill@ms   sent  acked  lost  in-flight-present  restart-ms  lock  checks");
  try {
    const { results, firstStartMs } = await runCrashTrials({
      target,
      trials,
      loops,
      ports: [3780, 3799],
      onTrial: (r) => {
        const problems = failures(r, target);
        console.log(
          `${pad(r.trial, 6)}  ${pad(r.killAfterMs, 7)}  ${pad(r.sent, 5)}  ${pad(r.acknowledged, 5)}  ${pad(r.lost.length, 4)}  ${pad(r.unacknowledgedPresent, 17)}  ${pad(r.restartMs, 10)}  ${pad(r.lockTakenOver === null ? "-" : r.lockTakenOver ? "yes" : "NO", 4)}  ${problems.length ? problems.join(", ") : "ok"}`,
        );
        for (const lost of r.lost.slice(0, 5)) console.log(`        lost: ${lost}`);
        for (const m of r.auditMismatches.slice(0, 5)) console.log(`        audit: ${m}`);
      },
    });
    const acked = results.reduce((n, r) => n + r.acknowledged, 0);
    const lost = results.reduce((n, r) => n + r.lost.length, 0);
    const bad = results.filter((r) => failures(r, target).length > 0).length;
    const restarts = results.map((r) => r.restartMs);
    if (bad > 0) failed = true;
    summaries.push(
      `${target.padEnd(8)}  trials ${results.length}  acknowledged writes ${acked}  lost writes ${lost}  failed trials ${bad}  ` +
        `restart ms median ${median(restarts)} max ${Math.max(...restarts)}  first start ms ${firstStartMs}`,
    );
  } catch (err) {
    failed = true;
    summaries.push(`${target.padEnd(8)}  ERROR ${err instanceof Error ? err.message : String(err)}`);
  }
}
console.log("\nSummary");
for (const line of summaries) console.log(`  ${line}`);
process.exit(failed ? 1 : 0);
