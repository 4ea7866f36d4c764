/**
 * The bulk step of `npm run bench` (issue "Daily work", docs/bulk-actions.md): on a scratch copy of
 * the seeded database, deactivates the users of one filter (the filter matching closest to
 * `--bulk-users`, 100,000 by default, within the selection bound) with POST /api/bulk/users/set_status,
 * polls its progress every 100 ms, and meanwhile loads /api/users at 16 connections (runs of 3 s).
 * Reports the action's time, the longest interval between two progress updates, and the list's p95
 * (the worst 3-second run's).
 */
import type { RunningServer } from "./server";
import { runLoad, type LoadResult } from "./load";

export type BulkBenchResult = {
  filter: Record<string, string>;
  selected: number;
  changed: number;
  skipped: number;
  seconds: number;
  status: string;
  /** The preview of the same selection, before the run: seconds to answer (goal ≤ 2 s at 150,000 rows). */
  previewSeconds: number;
  previewTotal: number;
  /** The longest time, in seconds, the progress counters stood still while it ran. */
  maxProgressGapSeconds: number;
  progressUpdates: number;
  /** /api/users?limit=50 at 16 connections while the action ran. */
  usersLoad: LoadResult;
};

type Progress = { status: string; total: number; processed: number; changed: number; skipped: number };

/**
 * Runs the case on `server` (signed in as `cookie`).
 * @param target how many users to aim at (the filter matching closest to it, up to the bound).
 */
export async function runBulkBench(
  server: RunningServer,
  cookie: string,
  options: { target: number; bound: number; log: (line: string) => void },
): Promise<BulkBenchResult> {
  const headers = { cookie, origin: server.url, "content-type": "application/json" };
  const get = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${server.url}${path}`, { headers });
    if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  // Candidate filters: each status, and each status of users who have or have never signed in.
  const candidates: Array<Record<string, string>> = [];
  for (const status of ["active", "inactive", "pending"]) {
    candidates.push({ status });
    for (const signed of ["true", "false"]) candidates.push({ status, signed_in: signed });
  }
  let best: { filter: Record<string, string>; total: number } | undefined;
  for (const filter of candidates) {
    const { total } = await get<{ total: number }>(`/api/users?limit=1&${new URLSearchParams(filter)}`);
    if (filter.status === "inactive" || total > options.bound || total === 0) continue;
    if (!best || Math.abs(total - options.target) < Math.abs(best.total - options.target)) best = { filter, total };
  }
  if (!best) throw new Error("no users filter within the selection bound");
  options.log(
    `  deactivating the users of ${JSON.stringify(best.filter)} (about ${best.total.toLocaleString("en-US")})`,
  );

  // The dry run first: counted by the database in one statement (docs/bulk-actions.md, "Preview").
  const body = JSON.stringify({ selection: { filter: best.filter }, params: { status: "inactive" } });
  const previewStarted = performance.now();
  const previewed = await fetch(`${server.url}/api/bulk/users/set_status/preview`, { method: "POST", headers, body });
  if (previewed.status !== 200) throw new Error(`preview: ${previewed.status} ${await previewed.text()}`);
  const previewSeconds = (performance.now() - previewStarted) / 1000;
  const previewTotal = ((await previewed.json()) as { total: number }).total;
  options.log(`  preview of ${previewTotal.toLocaleString("en-US")} users: ${previewSeconds.toFixed(2)} s`);

  const started = performance.now();
  const res = await fetch(`${server.url}/api/bulk/users/set_status`, {
    method: "POST",
    headers,
    body,
  });
  if (res.status !== 202) throw new Error(`POST /api/bulk/users/set_status: ${res.status} ${await res.text()}`);
  const { bulk_id } = (await res.json()) as { bulk_id: string };

  // The list under load while it runs: 16 connections in runs of 3 s until the action ends; the
  // worst run's p95 is reported (no run's figures are diluted by time after the action).
  const controller = { done: false };
  const loads: LoadResult[] = [];
  const load = (async () => {
    while (!controller.done) loads.push(await runLoad(`${server.url}/api/users?limit=50`, { cookie }, 16, 3, 10));
  })();
  let last: Progress = await get<Progress>(`/api/bulk/${bulk_id}`);
  let lastChange = performance.now();
  let maxGap = 0;
  let updates = 0;
  while (last.status === "running") {
    await new Promise((r) => setTimeout(r, 100));
    const now = await get<Progress>(`/api/bulk/${bulk_id}`);
    const t = performance.now();
    if (now.processed !== last.processed) {
      maxGap = Math.max(maxGap, (t - lastChange) / 1000);
      lastChange = t;
      updates += 1;
    }
    last = now;
  }
  const seconds = (performance.now() - started) / 1000;
  controller.done = true;
  await load;
  const usersLoad = loads.reduce((worst, r) => ((r.p95 ?? 0) > (worst.p95 ?? 0) ? r : worst), loads[0]);
  return {
    filter: best.filter,
    selected: last.total,
    changed: last.changed,
    skipped: last.skipped,
    seconds,
    status: last.status,
    previewSeconds,
    previewTotal,
    maxProgressGapSeconds: maxGap,
    progressUpdates: updates,
    usersLoad,
  };
}
