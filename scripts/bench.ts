/**
 * `npm run bench`: the console at scale, measured end to end (issue "Lists at a million rows").
 *
 *   npm run bench                         PostgreSQL at 1,000,000 users and PGlite at 100,000
 *   npm run bench -- --target pglite      one target only (postgres | pglite | all)
 *   npm run bench -- --pg-scale 100 --pglite-scale 20 --duration 2    a quick run
 *   npm run bench -- --pg-database pedal_big    the PostgreSQL database to use (default <db-prefix>_s<scale>)
 *   npm run bench -- --bundle-only        builds the web app and measures its initial JavaScript only
 *   npm run bench -- --note "…"           a sentence printed under the command in the report
 *   npm run bench -- --only-step mixed --mixed-minutes 2    the mixed traffic alone (steps: naive,
 *                                         explain, load, browser, ceiling, mixed; comma-separated)
 *
 * For each target it seeds a database once (`npm run db:seed -- --scale N` into
 * <prefix>_s<scale> on the PostgreSQL server, or into .bench/pglite-s<scale>; a database already
 * holding the right counts is reused, --reseed forces a new one), then:
 *  1. in process, on the same database: derives the cases from the route table and the OpenAPI
 *     document (scripts/bench/endpoints.ts), measures the naive pattern (scripts/bench/naive.ts)
 *     and EXPLAINs every statement of every case (scripts/bench/explain.ts);
 *  2. starts the real server as `npm start` does (child process, built web app) and loads every
 *     case with autocannon at each concurrency, sampling the child's RSS;
 *  3. opens the list screens in Chromium and times navigation to the first row;
 *  4. replays the statements of one /api/users request on a bare node:http server
 *     (scripts/bench/ceiling.ts) at the throughput target's concurrency: the machine's ceiling
 *     for that request, reported beside the console's figures (`--skip ceiling` leaves it out);
 *     on PostgreSQL, while the console of step 2 is still up, the bare server also runs beside it
 *     for `goals.sideBySideRounds` rounds (the console and the bare server loaded in turn, for the
 *     users page and the delivery 304), and the share of the ceiling is the rounds' median;
 *  5. mixed traffic (scripts/bench/mixed.ts): a new server on a scratch copy of the database (the
 *     traffic writes; the seeded one stays reusable), `--mixed-clients` (8) clients reading lists,
 *     searching, opening records, writing and exporting CSV for `--mixed-minutes` (10), its RSS
 *     sampled every 250 ms and reported per second (`--skip mixed` leaves it out);
 *  6. a bulk action (scripts/bench/bulk.ts): on another scratch copy, the users of one filter
 *     (about `--bulk-users`, 100,000) deactivated through POST /api/bulk/users/set_status while
 *     /api/users is loaded at 16 connections: its time, its progress interval, the list's p95
 *     (`--skip bulk` leaves it out);
 *  7. directory sync (scripts/bench/scim.ts): on another scratch copy, an initial sync as Okta
 *     sends it (`--scim-users`, 10,000 users, and `--scim-groups`, 300 groups, from 4 clients), then
 *     the `userName eq` lookup at 1 and 16 connections among all the users (`--skip scim`);
 *  8. a CSV import (scripts/bench/imports.ts): on another scratch copy, a new customer's file of
 *     `--import-rows` (50,000) people sent, read, previewed and applied while /api/users is loaded
 *     at 16 connections (`--skip import`).
 * `--skip a,b` leaves steps out; `--only-step a,b` runs only those (the cases are always discovered).
 * The built app's initial JavaScript is measured once. It writes bench/results/<name>.md (with
 * an SVG chart per target and the raw figures in <name>.json), replacing the report of that name
 * (one report per case; the replaced one's figures go into docs/performance.md, "Report history",
 * by hand), prints a summary, and exits 1 when a target is missed (0 with --report-only).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { PGlite } from "@electric-sql/pglite";
import { measurePages } from "./bench/browser";
import { initialBudgetKiB, measureBundle, withinBudget } from "./bench/bundle";
import {
  measureCeiling,
  recordStatements,
  sideBySide,
  startCeiling,
  type CeilingResult,
  type SideBySide,
} from "./bench/ceiling";
import { discoverCases, isDelivery, isUsersFirst, type BenchCase } from "./bench/endpoints";
import { explainCases } from "./bench/explain";
import { openInProcess, type Statement } from "./bench/inproc";
import { percentile, runLoad, type LoadResult } from "./bench/load";
import { runMixed, type MixedResult } from "./bench/mixed";
import { runBulkBench, type BulkBenchResult } from "./bench/bulk";
import { runScimBench, type ScimBenchResult } from "./bench/scim";
import { runImportBench, type ImportBenchResult } from "./bench/imports";
import { bulkLimits } from "../src/domain/limits";
import { measureNaive } from "./bench/naive";
import {
  chartSvg,
  markdown,
  mixedChartSvg,
  summary,
  caseLabel,
  type BenchRun,
  type Check,
  type SeedInfo,
  type TargetRun,
} from "./bench/report";
import { startServer, type RunningServer } from "./bench/server";

const root = path.resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    target: { type: "string", default: "all" },
    "pg-scale": { type: "string", default: "1667" },
    "pglite-scale": { type: "string", default: "167" },
    "pg-url": {
      type: "string",
      default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
    },
    "db-prefix": { type: "string", default: "pedal_bench" },
    "pg-database": { type: "string" },
    duration: { type: "string", default: "5" },
    timeout: { type: "string", default: "10" },
    concurrency: { type: "string", default: "1,16,50" },
    reseed: { type: "boolean", default: false },
    name: { type: "string", default: "latest" },
    note: { type: "string" },
    out: { type: "string", default: "bench/results" },
    compare: { type: "string" },
    only: { type: "string" },
    skip: { type: "string", default: "" },
    "only-step": { type: "string" },
    "mixed-minutes": { type: "string", default: "10" },
    "mixed-clients": { type: "string", default: "8" },
    "bulk-users": { type: "string", default: "100000" },
    "scim-users": { type: "string", default: "10000" },
    "scim-groups": { type: "string", default: "300" },
    "import-rows": { type: "string", default: "50000" },
    "no-build": { type: "boolean", default: false },
    "log-level": { type: "string", default: "info" },
    "report-only": { type: "boolean", default: false },
    render: { type: "string" },
    "bundle-only": { type: "boolean", default: false },
  },
});

/** Targets of the issue, in milliseconds and requests per second. */
const goals = {
  listP95c1: 50,
  listP95c16: 150,
  /** Each dashboard request (docs/dashboard.md), at 1 connection. */
  dashboardP95c1: 50,
  usersRps50: 1500,
  usersP99c50: 100,
  naiveRatio: 10_000,
  pgliteUsersRps10: 500,
  rssMiB: 300,
  /** Issue "Performance close to the machine's ceiling": the 10-minute mixed traffic, both databases. */
  mixedRssMiB: 256,
  /** The share of the machine's ceiling the console gives `/api/users` and the delivery 304 at 50 connections. */
  ceilingShare: 0.9,
  /** Rounds of the console and the bare server loaded in turn, for the share of the ceiling. */
  sideBySideRounds: 5,
  /** One delivery token polling at 50 connections, against a cookie on the same 304. */
  tokenShareOfCookie: 0.8,
  /** The initial JavaScript, gzipped (KiB): scripts/bench/bundle.ts, which the browser suite checks too. */
  initialKB: initialBudgetKiB,
  firstRowMs: 1000,
  bulkSeconds: 60,
  /** A bulk preview of the bulk step's selection (about 100,000 users; goal set at 150,000). */
  bulkPreviewSeconds: 2,
  /** The read API for platforms (issue "Read API for platforms"): its answer at 1 connection, its 304 at 50. */
  deliveryP95c1: 10,
  deliveryNotModifiedRps50: 1500,
  /** Directory sync (docs/onboarding.md): Okta's initial sync of 10,000 users and 300 groups, and its lookup. */
  scimSyncSeconds: 120,
  scimFilterP95: 20,
  /** CSV import (docs/onboarding.md): 50,000 rows read and previewed, then applied. */
  importPreviewSeconds: 5,
  importApplySeconds: 60,
};

/** Writes <name>.md, its charts and <name>.json under `outDir`. */
async function writeReport(result: BenchRun, outDir: string, comparePath?: string) {
  mkdirSync(outDir, { recursive: true });
  const charts: Record<string, string> = {};
  for (const t of result.targets) {
    if (t.cases.length) {
      const file = `${result.name}-${t.target}.svg`;
      writeFileSync(path.join(outDir, file), await chartSvg(t, result.concurrency));
      charts[t.target] = file;
    }
    if (t.mixed) {
      const file = `${result.name}-${t.target}-mixed.svg`;
      writeFileSync(path.join(outDir, file), await mixedChartSvg(t, goals.mixedRssMiB));
      charts[`${t.target}:mixed`] = file;
    }
  }
  const baseline =
    comparePath && existsSync(comparePath) && path.resolve(comparePath) !== path.resolve(outDir, `${result.name}.json`)
      ? (JSON.parse(readFileSync(comparePath, "utf8")) as BenchRun)
      : undefined;
  writeFileSync(path.join(outDir, `${result.name}.json`), JSON.stringify(result, null, 1) + "\n");
  writeFileSync(path.join(outDir, `${result.name}.md`), markdown(result, charts, baseline) + "\n");
}

// --render results.json: only rewrites the report and charts of a finished run.
if (values.render) {
  const saved = JSON.parse(readFileSync(values.render, "utf8")) as BenchRun;
  await writeReport(saved, path.dirname(path.resolve(values.render)), values.compare);
  console.log(summary(saved));
  process.exit(0);
}

const targets =
  values.target === "all" ? (["postgres", "pglite"] as const) : ([values.target] as Array<"postgres" | "pglite">);
if (!targets.every((t) => t === "postgres" || t === "pglite")) {
  console.error("--target must be postgres, pglite or all");
  process.exit(2);
}
const duration = Number(values.duration);
const timeout = Number(values.timeout);
const concurrency = values.concurrency.split(",").map(Number);
const steps = ["naive", "explain", "load", "browser", "ceiling", "mixed", "bulk", "scim", "import"];
const skip = new Set(values.skip.split(",").filter(Boolean));
if (values["only-step"]) {
  const onlySteps = values["only-step"].split(",").filter(Boolean);
  const unknown = onlySteps.filter((s) => !steps.includes(s));
  if (unknown.length) {
    console.error(`--only-step: unknown step ${unknown.join(", ")} (steps: ${steps.join(", ")})`);
    process.exit(2);
  }
  for (const s of steps) if (!onlySteps.includes(s)) skip.add(s);
}
const mixedMinutes = Number(values["mixed-minutes"]);
const mixedClients = Number(values["mixed-clients"]);
const bulkUsers = Number(values["bulk-users"]);
const only = values.only ? new RegExp(values.only) : undefined;
const operator = { email: "bench-admin@pedal.example", password: "bench-admin-password" };
const work = path.join(root, ".bench");
mkdirSync(work, { recursive: true });

const fmtMs = (v: number | null | undefined) => (v === null || v === undefined ? "no answer" : `${v.toFixed(1)} ms`);
const log = (line: string) => process.stdout.write(line + "\n");

function npm(args: string[], env: Record<string, string | undefined>) {
  const result = spawnSync("npm", args, { cwd: root, stdio: "inherit", env: env as NodeJS.ProcessEnv });
  if (result.status !== 0) throw new Error(`npm ${args.join(" ")} exited with ${result.status}`);
}

/** Seeds the target's database unless it already holds the data set of `scale`. */
async function ensureSeeded(
  target: "postgres" | "pglite",
  scale: number,
): Promise<{
  seed: SeedInfo;
  where: { url?: string; dataDir?: string };
  database: string;
  serverEnv: Record<string, string>;
}> {
  const expectUsers = 600 * scale;
  const expectComments = 300 * scale;
  const timingsFile = path.join(work, `seed-${target}-s${scale}.json`);
  const readTimings = () =>
    existsSync(timingsFile)
      ? (JSON.parse(readFileSync(timingsFile, "utf8")) as { totalMs: number; tables: SeedInfo["tables"] })
      : undefined;
  const counts = `select (select count(*) from users_data)::int as users, (select count(*) from skill_comments)::int as comments`;
  if (target === "postgres") {
    const name = values["pg-database"] ?? `${values["db-prefix"]}_s${scale}`;
    const url = new URL(values["pg-url"]);
    url.pathname = `/${name}`;
    const admin = new pg.Client({ connectionString: values["pg-url"] });
    await admin.connect();
    let ok = false;
    if ((await admin.query("select 1 from pg_database where datname = $1", [name])).rowCount && !values.reseed) {
      const c = new pg.Client({ connectionString: url.toString() });
      await c.connect();
      const r = await c.query(counts).catch(() => ({ rows: [] as Array<{ users: number; comments: number }> }));
      await c.end();
      ok = r.rows[0]?.users === expectUsers && r.rows[0]?.comments === expectComments;
    }
    const command = `DATABASE_URL=${url} npm run db:seed -- --scale ${scale}`;
    if (!ok) {
      log(`Seeding ${name} (scale ${scale}): ${command}`);
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.query(`create database ${name}`);
      npm(["run", "db:seed", "--", "--scale", String(scale), "--timings-json", timingsFile], {
        ...process.env,
        DATABASE_URL: url.toString(),
      });
    } else log(`Reusing ${name} (${expectUsers.toLocaleString("en-US")} users).`);
    await admin.end();
    const t = readTimings();
    return {
      seed: { reused: ok, command, totalMs: t?.totalMs, tables: t?.tables },
      where: { url: url.toString() },
      database: `PostgreSQL database ${name}`,
      serverEnv: { DATABASE_URL: url.toString(), DATA_DIR: path.join(work, "server-postgres") },
    };
  }
  const dataDir = path.join(work, `pglite-s${scale}`);
  let ok = false;
  if (existsSync(path.join(dataDir, "pglite")) && !values.reseed) {
    const lite = await PGlite.create({ dataDir: path.join(dataDir, "pglite") });
    const r = await lite
      .query<{ users: number; comments: number }>(counts)
      .catch(() => ({ rows: [] as Array<{ users: number; comments: number }> }));
    await lite.close();
    ok = r.rows[0]?.users === expectUsers && r.rows[0]?.comments === expectComments;
  }
  const command = `DATA_DIR=${path.relative(root, dataDir)} npm run db:seed -- --scale ${scale}`;
  if (!ok) {
    log(`Seeding PGlite in ${dataDir} (scale ${scale}): ${command}`);
    rmSync(dataDir, { recursive: true, force: true });
    const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: dataDir };
    delete env.DATABASE_URL;
    npm(["run", "db:seed", "--", "--scale", String(scale), "--timings-json", timingsFile], env);
  } else log(`Reusing PGlite in ${dataDir} (${expectUsers.toLocaleString("en-US")} users).`);
  const t = readTimings();
  return {
    seed: { reused: ok, command, totalMs: t?.totalMs, tables: t?.tables },
    where: { dataDir: path.join(dataDir, "pglite") },
    database: `PGlite data folder ${path.relative(root, dataDir)}`,
    serverEnv: { DATA_DIR: dataDir, DEMO_OPERATOR_PASSWORD: "bench-demo-password" },
  };
}

/** Waits until the server has no work left from a run (cancelling leftover PostgreSQL queries). */
async function drain(target: "postgres" | "pglite", url: string, cookie: string, dbUrl?: string) {
  if (target === "postgres" && dbUrl) {
    const c = new pg.Client({ connectionString: dbUrl });
    await c.connect();
    const name = new URL(dbUrl).pathname.slice(1);
    let quiet = 0;
    const deadline = Date.now() + 60_000;
    while (quiet < 3 && Date.now() < deadline) {
      const r = await c.query(
        `select pg_cancel_backend(pid) from pg_stat_activity where datname = $1 and state = 'active' and pid <> pg_backend_pid() and backend_type = 'client backend'`,
        [name],
      );
      quiet = r.rowCount ? 0 : quiet + 1;
      await new Promise((res) => setTimeout(res, 150));
    }
    await c.end();
    return;
  }
  // PGlite runs one query at a time: a cheap request answers once the queue is empty.
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    const t = performance.now();
    await fetch(`${url}/api/auth/get-session`, { headers: { cookie } })
      .then((r) => r.arrayBuffer())
      .catch(() => undefined);
    if (performance.now() - t < 100) return;
  }
}

/**
 * A request slower than the run's length leaves the 1-connection run without figures: then up
 * to three requests are timed one after another (each up to 120 s), so the report shows how slow.
 */
async function slowSamples(url: string, cookie: string, run: LoadResult): Promise<LoadResult> {
  const times: number[] = [];
  let non2xx = 0;
  let bytes = 0;
  const budget = Date.now() + 180_000;
  while (times.length < 3 && Date.now() < budget) {
    const t = performance.now();
    try {
      const res = await fetch(url, { headers: { cookie }, signal: AbortSignal.timeout(120_000) });
      bytes += (await res.arrayBuffer()).byteLength;
      if (!res.ok) non2xx++;
      times.push(performance.now() - t);
    } catch {
      break;
    }
  }
  if (!times.length) return run;
  return {
    ...run,
    responses: times.length,
    rps: times.length / (times.reduce((a, b) => a + b, 0) / 1000),
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    max: Math.max(...times),
    non2xx,
    bytes: Math.round(bytes / times.length),
    sequential: true,
  };
}

/** Environment of every server the benchmark starts, beside the target's database settings. */
const serverBaseEnv = {
  LOG_LEVEL: values["log-level"],
  // One delivery token polls at 50 connections (the token case): the limit is not what is measured.
  API_TOKEN_RATE_LIMIT: "1000000",
  BETTER_AUTH_SECRET: "bench-secret-bench-secret-bench-secret-00",
};

/**
 * Runs `work` on a new server over a scratch copy of the seeded database (a template copy on
 * PostgreSQL, a copy of the data folder for PGlite), removed afterwards: a step that writes would
 * otherwise change the counts by which a seeded database is reused. A fresh process, so its RSS
 * is the step's alone.
 */
async function withScratchServer<T>(
  target: "postgres" | "pglite",
  where: { url?: string; dataDir?: string },
  serverEnv: Record<string, string>,
  suffix: string,
  work_: (server: RunningServer) => Promise<T>,
): Promise<T> {
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  if (target === "postgres" && where.url) {
    const source = new URL(where.url).pathname.slice(1);
    const scratch = `${source}_${suffix}`;
    const admin = new pg.Client({ connectionString: values["pg-url"] });
    await admin.connect();
    await admin.query(`drop database if exists ${scratch} with (force)`);
    const t = performance.now();
    // FILE_COPY (PostgreSQL 15+) copies the files instead of writing every page to the WAL.
    await admin
      .query(`create database ${scratch} template ${source} strategy file_copy`)
      .catch(() => admin.query(`create database ${scratch} template ${source}`));
    log(`  copied ${source} to ${scratch} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const url = new URL(where.url);
    url.pathname = `/${scratch}`;
    env = { ...serverEnv, DATABASE_URL: url.toString(), DATA_DIR: path.join(work, `server-postgres-${suffix}`) };
    cleanup = async () => {
      await admin.query(`drop database if exists ${scratch} with (force)`);
      await admin.end();
    };
  } else {
    const scratch = `${serverEnv.DATA_DIR}-${suffix}`;
    rmSync(scratch, { recursive: true, force: true });
    const t = performance.now();
    cpSync(serverEnv.DATA_DIR, scratch, { recursive: true, filter: (f) => path.basename(f) !== "console.lock" });
    log(
      `  copied ${path.relative(root, serverEnv.DATA_DIR)} to ${path.relative(root, scratch)} in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    env = { ...serverEnv, DATA_DIR: scratch };
    cleanup = async () => rmSync(scratch, { recursive: true, force: true });
  }
  try {
    mkdirSync(env.DATA_DIR, { recursive: true });
    const server = await startServer(
      root,
      { ...env, ...serverBaseEnv },
      path.join(work, `server-${target}-${suffix}.log`),
    );
    try {
      return await work_(server);
    } finally {
      await server.stop();
    }
  } finally {
    await cleanup();
  }
}

/** Step 5: the mixed traffic (scripts/bench/mixed.ts) for `--mixed-minutes` on a scratch copy. */
async function mixedStep(
  target: "postgres" | "pglite",
  where: { url?: string; dataDir?: string },
  serverEnv: Record<string, string>,
  cases: BenchCase[],
): Promise<MixedResult> {
  log(
    `\n== ${target}: mixed traffic, ${mixedClients} clients for ${mixedMinutes} min (a scratch copy of the database)`,
  );
  return withScratchServer(target, where, serverEnv, "mixed", async (server) => {
    const cookie = await server.signIn(operator.email, operator.password);
    const mixed = await runMixed(server, cookie, cases, { seconds: mixedMinutes * 60, clients: mixedClients, log });
    log(
      `  ${mixed.requests.toLocaleString("en-US")} requests in ${mixed.elapsedSeconds.toFixed(0)} s (${mixed.kinds.map((k) => `${k.kind} ${k.requests}`).join(", ")}), ${mixed.serverErrors} 5xx; RSS max ${mixed.rss.maxMiB.toFixed(0)} MiB, p50 ${mixed.rss.p50MiB.toFixed(0)}, end ${mixed.rss.endMiB.toFixed(0)}`,
    );
    for (const f of mixed.failures.slice(0, 5))
      log(`  failed: ${f.kind} ${f.request}: ${f.status} ${f.body.slice(0, 120)}`);
    return mixed;
  });
}

/**
 * Step 6: a bulk action at scale (scripts/bench/bulk.ts): the users of one filter (about
 * `--bulk-users`) deactivated in batches while /api/users is loaded at 16 connections, on a scratch copy.
 */
async function bulkStep(
  target: "postgres" | "pglite",
  where: { url?: string; dataDir?: string },
  serverEnv: Record<string, string>,
): Promise<BulkBenchResult> {
  log(`\n== ${target}: bulk deactivation of about ${bulkUsers.toLocaleString("en-US")} users (a scratch copy)`);
  return withScratchServer(target, where, serverEnv, "bulk", async (server) => {
    const cookie = await server.signIn(operator.email, operator.password);
    const r = await runBulkBench(server, cookie, { target: bulkUsers, bound: bulkLimits.maxSelection, log });
    log(
      `  ${r.status}: ${r.changed.toLocaleString("en-US")} of ${r.selected.toLocaleString("en-US")} deactivated (${r.skipped} skipped) in ${r.seconds.toFixed(1)} s (goal ${goals.bulkSeconds} s); progress updated ${r.progressUpdates} times, at most ${r.maxProgressGapSeconds.toFixed(2)} s apart (goal 1 s); /api/users c16 p95 ${fmtMs(r.usersLoad.p95)} (goal ${goals.listP95c16} ms)`,
    );
    return r;
  });
}

/**
 * Step 7: directory sync (scripts/bench/scim.ts) on a scratch copy: Okta's initial sync, then its
 * lookup among all the users. The per-customer rate is lifted: the step measures the console, not
 * the bound an administrator sets.
 */
async function scimStep(
  target: "postgres" | "pglite",
  where: { url?: string; dataDir?: string },
  serverEnv: Record<string, string>,
): Promise<ScimBenchResult> {
  const users = Number(values["scim-users"]);
  const groups = Number(values["scim-groups"]);
  log(`\n== ${target}: directory sync of ${users.toLocaleString("en-US")} users and ${groups} groups (a scratch copy)`);
  return withScratchServer(target, where, { ...serverEnv, API_TOKEN_RATE_LIMIT: "1000000" }, "scim", async (server) => {
    const cookie = await server.signIn(operator.email, operator.password);
    const r = await runScimBench(server, cookie, { users, groups, parallel: 4, duration, log });
    log(
      `  lookup (userName eq): ${r.filter.map((l) => `c${l.connections} p95 ${fmtMs(l.p95)} ${l.rps.toFixed(0)}/s`).join(" | ")} (goal p95 ≤ ${goals.scimFilterP95} ms)`,
    );
    return r;
  });
}

/**
 * Step 8: a CSV import (scripts/bench/imports.ts) on a scratch copy: `--import-rows` people read,
 * previewed and applied while /api/users is loaded at 16 connections.
 */
async function importStep(
  target: "postgres" | "pglite",
  where: { url?: string; dataDir?: string },
  serverEnv: Record<string, string>,
): Promise<ImportBenchResult> {
  const rows = Number(values["import-rows"]);
  log(`\n== ${target}: CSV import of ${rows.toLocaleString("en-US")} rows (a scratch copy)`);
  return withScratchServer(target, where, serverEnv, "import", async (server) => {
    const cookie = await server.signIn(operator.email, operator.password);
    const r = await runImportBench(server, cookie, { rows, log });
    log(
      `  applied (${r.status}): ${r.changed.toLocaleString("en-US")} changed, ${r.skipped.toLocaleString("en-US")} skipped in ${r.applySeconds.toFixed(1)} s (goal ${goals.importApplySeconds} s); /api/users c16 p95 ${fmtMs(r.usersLoad.p95)} (goal ${goals.listP95c16} ms); server RSS max ${r.maxRssMiB.toFixed(0)} MiB`,
    );
    return r;
  });
}

/**
 * The delivery 304 case made with a delivery token of its platform (created through the API as the
 * bench operator) instead of the cookie: kind `not-modified-token`.
 */
async function deliveryTokenCase(url: string, cookie: string, notModified: BenchCase): Promise<BenchCase> {
  const platformId = /\/platforms\/([^/]+)\//.exec(notModified.path)![1];
  const res = await fetch(`${url}/api/account/tokens`, {
    method: "POST",
    headers: { cookie, origin: url, "content-type": "application/json" },
    body: JSON.stringify({ name: "bench delivery token", role: "viewer", platform_id: platformId }),
  });
  if (res.status !== 201) throw new Error(`creating the delivery token answered ${res.status}: ${await res.text()}`);
  const { token } = (await res.json()) as { token: string };
  return {
    ...notModified,
    kind: "not-modified-token",
    note: "the 304 with one delivery token of the platform (Authorization: Bearer) instead of the cookie",
    headers: { ...notModified.headers, authorization: `Bearer ${token}` },
  };
}

async function benchTarget(target: "postgres" | "pglite"): Promise<TargetRun> {
  const scale = Number(target === "postgres" ? values["pg-scale"] : values["pglite-scale"]);
  const { seed, where, database, serverEnv } = await ensureSeeded(target, scale);

  log(`\n== ${target}: discovering cases, naive pattern, query plans (in process)`);
  const inproc = await openInProcess(where, operator);
  let cases: BenchCase[];
  let naive: TargetRun["naive"];
  let explain: TargetRun["explain"];
  let users: number;
  /** A request whose statements the bare server replays: its case (what the console is sent) and those statements. */
  type CeilingCase = { case: BenchCase; statements: Statement[] };
  let ceilingCase: CeilingCase | undefined;
  let deliveryCeilingCase: CeilingCase | undefined;
  try {
    users = (await inproc.query<{ n: number }>("select count(*)::int as n from users_data"))[0].n;
    cases = (await discoverCases(inproc)).filter((c) => !only || only.test(c.path));
    log(`${cases.length} cases: ${cases.map(caseLabel).join(", ")}`);
    const usersFirst = cases.find(isUsersFirst);
    if (usersFirst && !skip.has("ceiling") && !skip.has("load"))
      ceilingCase = { case: usersFirst, statements: await recordStatements(inproc, usersFirst.path) };
    // The read API's 304: what a platform polling for changes asks most.
    const notModified = cases.find((c) => isDelivery(c, "not-modified"));
    if (notModified && target === "postgres" && !skip.has("ceiling") && !skip.has("load"))
      deliveryCeilingCase = {
        case: notModified,
        statements: await recordStatements(inproc, notModified.path, notModified),
      };
    if (!skip.has("naive")) {
      naive = await measureNaive(inproc);
      log(`naive pattern: ${naive.formula}`);
    }
    if (!skip.has("explain")) {
      explain = await explainCases(inproc, cases);
      for (const e of explain) {
        const flags = [...new Set(e.statements.flatMap((s) => [...s.seqScans, ...s.diskSorts]))];
        if (flags.length) log(`  ${caseLabel(e.case)}: ${flags.join("; ")}`);
      }
    }
  } finally {
    await inproc.close();
  }

  const results: TargetRun["cases"] = [];
  /** The side-by-side rounds of each ceiling case, by its path. */
  const sideBySideOf = new Map<string, SideBySide>();
  let pages: TargetRun["pages"];
  let rssSamples: RunningServer["rss"] = [];
  if (!skip.has("load") || !skip.has("browser")) {
    log(`\n== ${target}: starting the server`);
    mkdirSync(serverEnv.DATA_DIR, { recursive: true });
    const server = await startServer(root, { ...serverEnv, ...serverBaseEnv }, path.join(work, `server-${target}.log`));
    rssSamples = server.rss;
    try {
      const cookie = await server.signIn(operator.email, operator.password);
      if (!skip.has("load")) {
        // The 304 again with one delivery token for the platform, as a platform polls.
        const notModified = cases.find((c) => isDelivery(c, "not-modified"));
        const loadCases = notModified ? [...cases, await deliveryTokenCase(server.url, cookie, notModified)] : cases;
        for (const [index, c] of loadCases.entries()) {
          const runs: LoadResult[] = [];
          // The embedded database's target is stated at 10 connections on /api/users.
          const levels =
            target === "pglite" && isUsersFirst(c)
              ? [...new Set([...concurrency, 10])].sort((a, b) => a - b)
              : concurrency;
          for (const n of levels) {
            server.setPhase(`load:${index}:c${n}`);
            // "No timeouts at 50 connections" (PGlite) needs a run longer than the timeout to be seen.
            const seconds =
              target === "pglite" && isUsersFirst(c) && n === 50 ? Math.max(duration, 2 * timeout) : duration;
            // A case with its own credential (the delivery token) sends no cookie.
            const headers = c.headers?.authorization ? c.headers : { cookie, ...c.headers };
            let r = await runLoad(server.url + c.path, headers, n, seconds, timeout, c.status);
            if (n === 1 && r.responses < 3) {
              await drain(target, server.url, cookie, where.url);
              r = await slowSamples(server.url + c.path, cookie, r);
            }
            runs.push(r);
            server.setPhase("drain");
            await drain(target, server.url, cookie, where.url);
          }
          const rssMiB = Math.max(
            0,
            ...server.rss.filter((x) => x.phase.startsWith(`load:${index}:`)).map((x) => x.mib),
          );
          results.push({ case: c, runs, rssMiB });
          log(
            `  ${caseLabel(c).padEnd(44)} ${runs.map((r) => `c${r.connections} p50 ${fmtMs(r.p50)} p95 ${fmtMs(r.p95)} ${r.rps.toFixed(1)}/s${r.errors + r.non2xx ? ` ${r.errors + r.non2xx} errors` : ""}`).join(" | ")}`,
          );
        }
      }
      // The share of the ceiling, side by side: the console stays up while the bare server runs
      // beside it (PostgreSQL only: PGlite's folder opens in one process at a time).
      if (target === "postgres" && !skip.has("load"))
        for (const ceilingCase_ of [ceilingCase, deliveryCeilingCase]) {
          if (!ceilingCase_) continue;
          const cookieCase = ceilingCase_.case;
          log(
            `\n== ${target}: ${cookieCase.path} and its ceiling side by side, ${goals.sideBySideRounds} rounds of ${duration} s each`,
          );
          const bare = await startCeiling(root, where, ceilingCase_.case.path, ceilingCase_.statements, work);
          try {
            server.setPhase("side-by-side");
            const rounds = await sideBySide(
              (n) =>
                runLoad(
                  server.url + cookieCase.path,
                  { cookie, ...cookieCase.headers },
                  n,
                  duration,
                  timeout,
                  cookieCase.status,
                ),
              bare.url,
              50,
              goals.sideBySideRounds,
              duration,
              timeout,
            );
            sideBySideOf.set(ceilingCase_.case.path, rounds);
            log(
              `  ${rounds.rounds.map((r) => `${r.console.rps.toFixed(0)}/${r.ceiling.rps.toFixed(0)}`).join(" | ")} req/s: median share ${(rounds.share * 100).toFixed(0)} %`,
            );
          } finally {
            await bare.stop();
          }
        }
      if (!skip.has("browser")) {
        server.setPhase("browser");
        // Pickers' option lists (`/api/*/options`) are lists of the API but no screen of the router.
        const screens = [
          ...new Set(
            cases
              .filter((c) => c.list && !c.route.includes("{") && !c.route.endsWith("/options"))
              .map((c) => c.route.replace(/^\/api/, "")),
          ),
        ];
        pages = await measurePages(server.url, screens, operator);
        for (const p of pages)
          log(`  screen ${p.page}: ${p.error ?? p.loads.map((v) => `${v.toFixed(0)} ms`).join(", ")}`);
      }
    } finally {
      await server.stop();
    }
  }
  // The same request's statements on a bare node:http server, at the target's concurrency.
  let ceiling: TargetRun["ceiling"];
  if (ceilingCase) {
    log(
      `\n== ${target}: the machine's ceiling for ${ceilingCase.case.path} (a bare node:http server sending its ${ceilingCase.statements.length} statements)`,
    );
    const levels = target === "postgres" ? [50] : [10];
    ceiling = await measureCeiling(
      root,
      where,
      ceilingCase.case.path,
      ceilingCase.statements,
      levels,
      duration,
      timeout,
      work,
    );
    ceiling.sideBySide = sideBySideOf.get(ceilingCase.case.path);
    log(
      `  ${ceiling.runs.map((r) => `c${r.connections} ${r.rps.toFixed(1)}/s p99 ${fmtMs(r.p99)}${r.errors + r.non2xx ? ` ${r.errors + r.non2xx} errors` : ""}`).join(" | ")}`,
    );
  }

  let deliveryCeiling: TargetRun["deliveryCeiling"];
  if (deliveryCeilingCase) {
    log(
      `\n== ${target}: the machine's ceiling for the read API's 304 (${deliveryCeilingCase.case.path}, its ${deliveryCeilingCase.statements.length} statements)`,
    );
    deliveryCeiling = await measureCeiling(
      root,
      where,
      deliveryCeilingCase.case.path,
      deliveryCeilingCase.statements,
      [50],
      duration,
      timeout,
      work,
    );
    deliveryCeiling.sideBySide = sideBySideOf.get(deliveryCeilingCase.case.path);
    log(
      `  ${deliveryCeiling.runs.map((r) => `c${r.connections} ${r.rps.toFixed(1)}/s p99 ${fmtMs(r.p99)}`).join(" | ")}`,
    );
  }

  let mixed: MixedResult | undefined;
  if (!skip.has("mixed")) mixed = await mixedStep(target, where, serverEnv, cases);
  let bulk: BulkBenchResult | undefined;
  if (!skip.has("bulk")) bulk = await bulkStep(target, where, serverEnv);
  let scim: ScimBenchResult | undefined;
  if (!skip.has("scim")) scim = await scimStep(target, where, serverEnv);
  let imports: ImportBenchResult | undefined;
  if (!skip.has("import")) imports = await importStep(target, where, serverEnv);

  const rssValues = rssSamples.map((s) => s.mib);
  const byPhase: Record<string, number> = {};
  for (const s of rssSamples) {
    const phase = s.phase.split(":")[0];
    byPhase[phase] = Math.max(byPhase[phase] ?? 0, s.mib);
  }
  const sortedRss = [...rssValues].sort((a, b) => a - b);
  const run: TargetRun = {
    target,
    scale,
    users,
    database,
    seed,
    cases: results,
    naive,
    explain,
    pages,
    ceiling,
    deliveryCeiling,
    mixed,
    bulk,
    scim,
    imports,
    rss: {
      maxMiB: Math.max(0, ...rssValues),
      medianMiB: sortedRss[Math.floor(sortedRss.length / 2)] ?? 0,
      samples: rssValues.length,
      byPhase,
    },
    checks: [],
  };
  run.checks = checksOf(run);
  return run;
}

/** "; the machine's ceiling …" for a throughput check at `n` connections, when the run measured it. */
function ceilingText(run: TargetRun, n: number): string {
  const r = run.ceiling?.runs.find((x) => x.connections === n);
  return r
    ? `; machine ceiling (bare node:http, the same ${run.ceiling!.statements.length} statements) ${r.rps.toFixed(1)} req/s, p99 ${fmtMs(r.p99)}`
    : "";
}

/** The issue's targets that apply to a target's run. */
function checksOf(run: TargetRun): Check[] {
  const checks: Check[] = [];
  const name = `${run.target} at ${run.users.toLocaleString("en-US")} users`;
  const at = (cases: TargetRun["cases"][number], n: number) => cases.runs.find((r) => r.connections === n);
  const usersFirst = run.cases.find((c) => isUsersFirst(c.case));
  if (run.target === "postgres") {
    const lists = run.cases.filter((c) => c.case.list);
    // Without the load step (`--skip load`, `--only-step mixed`) no list was measured.
    for (const [n, goal] of lists.length
      ? ([
          [1, goals.listP95c1],
          [16, goals.listP95c16],
        ] as const)
      : []) {
      const measured = lists.filter((c) => at(c, n));
      const missed = measured.filter((c) => {
        const r = at(c, n)!;
        return r.p95 === null || r.p95 >= goal || r.non2xx + r.errors > 0;
      });
      checks.push({
        target: name,
        what: `every list request, p95 at ${n} connection${n > 1 ? "s" : ""}`,
        goal: `< ${goal} ms`,
        ok: measured.length > 0 && missed.length === 0,
        measured: missed.length
          ? `${measured.length - missed.length} of ${measured.length} within; worst ${missed
              .slice(0, 3)
              .map((c) => `${caseLabel(c.case)} ${fmtMs(at(c, n)!.p95)}`)
              .join(", ")}`
          : `all ${measured.length} within`,
      });
    }
    // The dashboard (docs/dashboard.md): each of its requests, the spec's cards and the three
    // sections, p95 ≤ 50 ms at 1 connection on the million-user database.
    const dashboard = run.cases.filter((c) => /^\/api\/dashboard(\/|$|\?)/.test(c.case.path) && at(c, 1));
    if (dashboard.length) {
      const missed = dashboard.filter((c) => {
        const r = at(c, 1)!;
        return r.p95 === null || r.p95 > goals.dashboardP95c1 || r.non2xx + r.errors > 0;
      });
      checks.push({
        target: name,
        what: "every dashboard request, p95 at 1 connection",
        goal: `≤ ${goals.dashboardP95c1} ms`,
        ok: missed.length === 0,
        measured: dashboard.map((c) => `${caseLabel(c.case)} ${fmtMs(at(c, 1)!.p95)}`).join(", "),
      });
    }
    if (usersFirst) {
      const r = at(usersFirst, 50);
      if (r) {
        checks.push({
          target: name,
          what: "/api/users first page at 50 connections",
          goal: `≥ ${goals.usersRps50} req/s, p99 < ${goals.usersP99c50} ms, no errors`,
          measured: `${r.rps.toFixed(1)} req/s, p99 ${fmtMs(r.p99)}, ${r.errors + r.non2xx} errors${ceilingText(run, 50)}`,
          ok: r.rps >= goals.usersRps50 && r.p99 !== null && r.p99 < goals.usersP99c50 && r.errors + r.non2xx === 0,
        });
      }
    }
    // The read API for platforms: its answer at 1 connection, its 304 (If-None-Match) at 50.
    const delivery = run.cases.find((c) => isDelivery(c.case, "detail"));
    const d1 = delivery && at(delivery, 1);
    if (d1)
      checks.push({
        target: name,
        what: "read API for platforms (a platform's prompts), p95 at 1 connection",
        goal: `≤ ${goals.deliveryP95c1} ms`,
        measured: `${fmtMs(d1.p95)}, ${d1.errors + d1.non2xx} errors, ${d1.bytes.toLocaleString("en-US")} bytes an answer`,
        ok: d1.p95 !== null && d1.p95 <= goals.deliveryP95c1 && d1.errors + d1.non2xx === 0,
      });
    const notModified = run.cases.find((c) => isDelivery(c.case, "not-modified"));
    const n50 = notModified && at(notModified, 50);
    if (n50) {
      const ceiling = run.deliveryCeiling?.runs.find((x) => x.connections === 50);
      checks.push({
        target: name,
        what: "read API for platforms: 304 (If-None-Match) at 50 connections",
        goal: `≥ ${goals.deliveryNotModifiedRps50.toLocaleString("en-US")} req/s, all 304`,
        measured: `${n50.rps.toFixed(1)} req/s, p99 ${fmtMs(n50.p99)}, ${n50.errors + n50.non2xx} not 304${
          ceiling
            ? `; machine ceiling (bare node:http, the same ${run.deliveryCeiling!.statements.length} statements) ${ceiling.rps.toFixed(1)} req/s`
            : ""
        }`,
        ok: n50.rps >= goals.deliveryNotModifiedRps50 && n50.errors + n50.non2xx === 0,
      });
    }
    // The per-request cost: the console's share of what the machine gives the same statements.
    const shares: Array<[string, LoadResult | undefined, CeilingResult | undefined]> = [
      ["/api/users first page", usersFirst && at(usersFirst, 50), run.ceiling],
      ["read API for platforms: 304", n50, run.deliveryCeiling],
    ];
    for (const [what, mine, ceiling] of shares) {
      // Side by side where the run measured it (PostgreSQL): the median of rounds that each saw
      // the same machine.
      const pairs = ceiling?.sideBySide;
      if (pairs) {
        checks.push({
          target: name,
          what: `${what} at 50 connections: share of the machine's ceiling (bare node:http, its ${ceiling!.statements.length} statements), side by side`,
          goal: `≥ ${goals.ceilingShare * 100} % (median of ${pairs.rounds.length} rounds), p99 no worse than the ceiling's`,
          measured: `${(pairs.share * 100).toFixed(0)} % (rounds: ${pairs.rounds.map((r) => `${r.console.rps.toFixed(0)} of ${r.ceiling.rps.toFixed(0)}`).join(", ")} req/s), p99 ${fmtMs(pairs.consoleP99)} against ${fmtMs(pairs.ceilingP99)}`,
          ok:
            pairs.share >= goals.ceilingShare &&
            pairs.consoleP99 !== null &&
            pairs.ceilingP99 !== null &&
            pairs.consoleP99 <= pairs.ceilingP99 &&
            pairs.rounds.every((r) => r.console.errors + r.console.non2xx === 0),
        });
        continue;
      }
      const bare = ceiling?.runs.find((x) => x.connections === 50);
      if (!mine || !bare) continue;
      const share = mine.rps / bare.rps;
      checks.push({
        target: name,
        what: `${what} at 50 connections: share of the machine's ceiling (bare node:http, its ${ceiling!.statements.length} statements)`,
        goal: `≥ ${goals.ceilingShare * 100} %, p99 no worse than the ceiling's`,
        measured: `${(share * 100).toFixed(0)} % (${mine.rps.toFixed(1)} of ${bare.rps.toFixed(1)} req/s), p99 ${fmtMs(mine.p99)} against ${fmtMs(bare.p99)}`,
        ok: share >= goals.ceilingShare && mine.p99 !== null && bare.p99 !== null && mine.p99 <= bare.p99,
      });
    }
    const byToken = run.cases.find((c) => isDelivery(c.case, "not-modified-token"));
    const t50 = byToken && at(byToken, 50);
    if (t50 && n50) {
      checks.push({
        target: name,
        what: "read API for platforms: 304 with one delivery token at 50 connections, against a cookie",
        goal: `≥ ${goals.tokenShareOfCookie * 100} % of the cookie's req/s, all 304`,
        measured: `${((t50.rps / n50.rps) * 100).toFixed(0)} % (${t50.rps.toFixed(1)} against ${n50.rps.toFixed(1)} req/s), p99 ${fmtMs(t50.p99)}, ${t50.errors + t50.non2xx} not 304`,
        ok: t50.rps >= goals.tokenShareOfCookie * n50.rps && t50.errors + t50.non2xx === 0,
      });
    }
    const first1 = usersFirst && at(usersFirst, 1);
    if (run.naive && first1?.p50) {
      const ratio = run.naive.totalMs / first1.p50;
      checks.push({
        target: name,
        what: "users first page vs the naive pattern",
        goal: `≥ ${goals.naiveRatio.toLocaleString("en-US")}× faster`,
        measured: `${Math.round(ratio).toLocaleString("en-US")}× (${(run.naive.totalMs / 1000).toFixed(1)} s vs ${fmtMs(first1.p50)})`,
        ok: ratio >= goals.naiveRatio,
      });
    }
    for (const p of run.pages ?? []) {
      const worst = p.loads.length ? Math.max(...p.loads) : null;
      checks.push({
        target: name,
        what: `screen ${p.page}: rows shown after navigation`,
        goal: `≤ ${goals.firstRowMs} ms`,
        measured: p.error ? `failed: ${p.error}` : `worst of ${p.loads.length}: ${fmtMs(worst)}`,
        ok: !p.error && worst !== null && worst <= goals.firstRowMs,
      });
    }
  } else if (usersFirst) {
    const r10 = at(usersFirst, 10);
    if (r10)
      checks.push({
        target: name,
        what: "/api/users at 10 connections",
        goal: `≥ ${goals.pgliteUsersRps10} req/s`,
        measured: `${r10.rps.toFixed(1)} req/s${ceilingText(run, 10)}`,
        ok: r10.rps >= goals.pgliteUsersRps10,
      });
    const r50 = at(usersFirst, 50);
    if (r50) {
      checks.push({
        target: name,
        what: `/api/users at 50 connections for ${Math.max(duration, 2 * timeout)} s`,
        goal: `no timeouts (${timeout} s)`,
        measured: `${r50.timeouts} timeouts, ${r50.errors + r50.non2xx} errors, ${r50.responses} answered, p99 ${fmtMs(r50.p99)}`,
        ok: r50.responses > 0 && r50.timeouts === 0 && r50.errors + r50.non2xx === 0,
      });
    }
  }
  if (run.rss.samples)
    checks.push({
      target: name,
      what: "server memory (RSS) during the run",
      goal: `< ${goals.rssMiB} MiB`,
      measured: `max ${run.rss.maxMiB.toFixed(0)} MiB`,
      ok: run.rss.maxMiB < goals.rssMiB,
    });
  if (run.mixed) {
    const m = run.mixed;
    checks.push({
      target: name,
      what: `mixed-traffic RSS max (${m.clients} clients, ${(m.seconds / 60).toFixed(0)} min, ${m.requests.toLocaleString("en-US")} requests)`,
      goal: `≤ ${goals.mixedRssMiB} MiB`,
      measured: `max ${m.rss.maxMiB.toFixed(0)} MiB, p50 ${m.rss.p50MiB.toFixed(0)}, end ${m.rss.endMiB.toFixed(0)}; ${m.serverErrors} answers 5xx`,
      ok: m.rss.maxMiB <= goals.mixedRssMiB,
    });
  }
  if (run.bulk) {
    const b = run.bulk;
    const users = b.usersLoad;
    checks.push(
      {
        target: name,
        what: `bulk deactivation of ${b.selected.toLocaleString("en-US")} users`,
        goal: `done in ≤ ${goals.bulkSeconds} s`,
        measured: `${b.status} in ${b.seconds.toFixed(1)} s (${b.changed.toLocaleString("en-US")} changed, ${b.skipped} skipped)`,
        ok: b.status === "done" && b.seconds <= goals.bulkSeconds,
      },
      {
        target: name,
        what: `bulk preview of ${b.previewTotal.toLocaleString("en-US")} users`,
        goal: `≤ ${goals.bulkPreviewSeconds} s`,
        measured: `${b.previewSeconds.toFixed(2)} s`,
        ok: b.previewSeconds <= goals.bulkPreviewSeconds,
      },
      {
        target: name,
        what: "bulk deactivation: progress",
        goal: "moves at least every 1 s",
        measured: `${b.progressUpdates} updates, at most ${b.maxProgressGapSeconds.toFixed(2)} s apart`,
        ok: b.maxProgressGapSeconds <= 1,
      },
      {
        target: name,
        what: "/api/users at 16 connections during the bulk action",
        goal: `p95 < ${goals.listP95c16} ms`,
        measured: `p95 ${fmtMs(users.p95)}, ${users.rps.toFixed(0)} req/s, ${users.errors + users.non2xx} errors`,
        ok: users.p95 !== null && users.p95 < goals.listP95c16 && users.errors + users.non2xx === 0,
      },
    );
  }
  if (run.scim) {
    const d = run.scim;
    const c1 = d.filter.find((l) => l.connections === 1);
    checks.push(
      {
        target: name,
        what: `directory sync: Okta's initial sync of ${d.users.toLocaleString("en-US")} users and ${d.groups} groups`,
        goal: `≤ ${goals.scimSyncSeconds} s, no failure`,
        measured: `${d.seconds.toFixed(1)} s, ${d.requests.toLocaleString("en-US")} requests from ${d.parallel} clients, ${d.failures} failed`,
        ok: d.seconds <= goals.scimSyncSeconds && d.failures === 0,
      },
      {
        target: name,
        what: "directory sync: GET /Users?filter=userName eq …",
        goal: `p95 ≤ ${goals.scimFilterP95} ms at 1 connection`,
        measured: d.filter.map((l) => `c${l.connections} p95 ${fmtMs(l.p95)}, ${l.rps.toFixed(0)}/s`).join("; "),
        ok: c1?.p95 !== null && c1?.p95 !== undefined && c1.p95 <= goals.scimFilterP95 && c1.non2xx === 0,
      },
    );
  }
  if (run.imports) {
    const i = run.imports;
    const users = i.usersLoad;
    checks.push(
      {
        target: name,
        what: `CSV import of ${i.rows.toLocaleString("en-US")} rows: read and preview`,
        goal: `≤ ${goals.importPreviewSeconds} s`,
        measured: `read ${i.readSeconds.toFixed(1)} s + preview ${i.previewSeconds.toFixed(1)} s`,
        ok: i.readSeconds + i.previewSeconds <= goals.importPreviewSeconds,
      },
      {
        target: name,
        what: `CSV import of ${i.rows.toLocaleString("en-US")} rows: apply`,
        goal: `done in ≤ ${goals.importApplySeconds} s`,
        measured: `${i.status} in ${i.applySeconds.toFixed(1)} s (${i.changed.toLocaleString("en-US")} changed, ${i.skipped.toLocaleString("en-US")} skipped)`,
        ok: i.status === "done" && i.applySeconds <= goals.importApplySeconds,
      },
      {
        target: name,
        what: "/api/users at 16 connections during the import",
        goal: `p95 < ${goals.listP95c16} ms`,
        measured: `p95 ${fmtMs(users.p95)}, ${users.rps.toFixed(0)} req/s, ${users.errors + users.non2xx} errors`,
        ok: users.p95 !== null && users.p95 < goals.listP95c16 && users.errors + users.non2xx === 0,
      },
    );
  }
  return checks;
}

const started = Date.now();
if (!values["no-build"]) {
  log("Building the web app (vite build) and the server (scripts/build-server.mjs)...");
  execFileSync("npx", ["vite", "build", "--sourcemap", "--logLevel", "warn"], { cwd: root, stdio: "inherit" });
  execFileSync(process.execPath, ["scripts/build-server.mjs"], { cwd: root, stdio: "inherit" });
}
const bundle = measureBundle(path.join(root, "dist/web"));
const bundleChecks: Check[] = [
  {
    target: "web app",
    what: "initial JavaScript (entry and preloaded modules)",
    goal: `≤ ${goals.initialKB} KB gzipped`,
    measured: `${(bundle.initialGzip / 1024).toFixed(1)} KB in ${bundle.initial.length} files`,
    ok: withinBudget(bundle),
  },
  {
    target: "web app",
    what: "screens loaded on demand",
    goal: "no screen in the initial files",
    measured: bundle.eagerScreens.length
      ? `initial: ${bundle.eagerScreens.join(", ")}`
      : `${bundle.lazyScreens.length} screens lazy`,
    ok: bundle.eagerScreens.length === 0 && bundle.lazyScreens.length > 0,
  },
  {
    target: "web app",
    what: "chart and editor libraries outside the initial code",
    goal: "none initial",
    measured: bundle.heavyInInitial.join(", ") || "none",
    ok: bundle.heavyInInitial.length === 0,
  },
];
log(
  `Initial JavaScript: ${(bundle.initialGzip / 1024).toFixed(1)} KB gzipped in ${bundle.initial.length} files; ${bundle.lazyScreens.length} screens on demand.`,
);
// --bundle-only: the initial JavaScript alone (seconds, no database): its files and largest packages.
if (values["bundle-only"]) {
  for (const f of bundle.initial) log(`  ${f.file.padEnd(36)} ${(f.gzip / 1024).toFixed(1).padStart(6)} KB gzipped`);
  log(
    `Largest packages in it: ${bundle.initialSources
      .slice(0, 8)
      .map((s) => `${s.source} ${(s.bytes / 1024).toFixed(0)} KB`)
      .join(", ")} (source bytes)`,
  );
  for (const c of bundleChecks) log(`${c.ok ? "met" : "MISSED"}: ${c.what}: ${c.measured} (goal ${c.goal})`);
  process.exit(bundleChecks.every((c) => c.ok) || values["report-only"] ? 0 : 1);
}

const runs: TargetRun[] = [];
for (const target of targets) runs.push(await benchTarget(target));

const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root }).toString().trim();
const pgVersion = await (async () => {
  try {
    const c = new pg.Client({ connectionString: values["pg-url"] });
    await c.connect();
    const v = (await c.query("show server_version")).rows[0].server_version as string;
    await c.end();
    return `PostgreSQL ${v}`;
  } catch {
    return "PostgreSQL (unreachable)";
  }
})();
const pgliteVersion = JSON.parse(
  readFileSync(path.join(root, "node_modules/@electric-sql/pglite/package.json"), "utf8"),
).version;
const result: BenchRun = {
  name: values.name,
  ...(values.note ? { note: values.note } : {}),
  date: new Date().toISOString().slice(0, 16).replace("T", " ") + " UTC",
  commit,
  command: `npm run bench -- ${process.argv.slice(2).join(" ")}`.trim().replace(/ --$/, ""),
  machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}, ${pgVersion} (default settings), PGlite ${pgliteVersion}`,
  durationSeconds: duration,
  concurrency,
  bundle,
  bundleChecks,
  targets: runs,
};

const outDir = path.resolve(root, values.out);
await writeReport(
  result,
  outDir,
  values.compare ?? (values.name !== "baseline" ? path.join(outDir, "baseline.json") : undefined),
);
log(summary(result));
log(
  `\nReport: ${path.relative(root, path.join(outDir, `${values.name}.md`))} (${((Date.now() - started) / 60000).toFixed(1)} min)`,
);
const missed = [...bundleChecks, ...runs.flatMap((t) => t.checks)].some((c) => !c.ok);
process.exit(missed && !values["report-only"] ? 1 : 0);
