/**
 * `npm run bench [-- --scale 10 --runs 30]`: list and detail endpoints on a large demo data set,
 * in process, on PGlite (and on PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL is set).
 * Prints p50 / p95 / max in milliseconds per endpoint and the process's memory, and exits 1 when
 * an endpoint's p95 misses its target.
 */
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { queryRows } from "../src/server/db/client";
import { loadDemoData } from "../src/server/db/demo-data";
import { startConsole } from "../tests/support/app";
import type { TargetName } from "../tests/support/databases";

const { values } = parseArgs({ options: { scale: { type: "string", default: "10" }, runs: { type: "string", default: "30" } } });
const scale = Number(values.scale);
const runs = Number(values.runs);
if (process.env.BENCH_DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
const targets: TargetName[] = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

/** p95 targets in milliseconds. */
const targetsMs = { list: 250, detail: 150 };

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
let missed = false;

for (const target of targets) {
  const app = await startConsole(target);
  const started = performance.now();
  await loadDemoData(app.handle.db, { seed: 42, scale });
  const loadMs = performance.now() - started;
  const [{ customer_id }] = await queryRows<{ customer_id: string }>(app.handle.db, sql`select customer_id from customers order by customer_id limit 1`);
  const [{ team_id }] = await queryRows<{ team_id: string }>(app.handle.db, sql`select team_id from teams order by team_id limit 1`);
  const [{ n: users }] = await queryRows<{ n: number }>(app.handle.db, sql`select count(*)::int as n from users_data`);
  await app.cookie("viewer");
  console.log(`\n${target}: scale ${scale} (${users} users), demo data loaded in ${Math.round(loadMs)} ms`);

  const cases: Array<[string, string, keyof typeof targetsMs]> = [
    ["dashboard", "/api/dashboard", "detail"],
    ["customers page 1", "/api/customers", "list"],
    ["customers search+sort", "/api/customers?q=group&sort=user_count&order=desc", "list"],
    ["teams by customer", `/api/teams?customer_id=${customer_id}`, "list"],
    ["teams search+sort", "/api/teams?q=eng&sort=skills_count", "list"],
    ["users page 1", "/api/users", "list"],
    ["users page 40", "/api/users?offset=2000", "list"],
    ["users search", "/api/users?q=consultant&sort=name&order=asc", "list"],
    ["users of a team", `/api/users?team_id=${team_id}`, "list"],
    ["users signed in", "/api/users?signed_in=true", "list"],
    ["customer detail", `/api/customers/${customer_id}`, "detail"],
    ["team detail", `/api/teams/${team_id}`, "detail"],
  ];
  for (const [name, path, kind] of cases) {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const res = await app.request(path, { as: "viewer" });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
      times.push(performance.now() - t0);
    }
    const p95 = percentile(times, 95);
    const ok = p95 <= targetsMs[kind];
    if (!ok) missed = true;
    console.log(`  ${name.padEnd(24)} p50 ${percentile(times, 50).toFixed(1).padStart(7)}  p95 ${p95.toFixed(1).padStart(7)}  max ${Math.max(...times).toFixed(1).padStart(7)} ms  ${ok ? "ok" : `MISSED (target ${targetsMs[kind]} ms)`}`);
  }
  const mem = process.memoryUsage();
  console.log(`  memory: rss ${Math.round(mem.rss / 2 ** 20)} MiB, heap ${Math.round(mem.heapUsed / 2 ** 20)} MiB`);
  await app.close();
}
process.exit(missed ? 1 : 0);
