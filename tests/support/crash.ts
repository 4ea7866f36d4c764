/**
 * Crash trials, shared by tests/api/crash-safety.test.ts and scripts/crash-trials.ts: the real
 * console process (its bundle: tests/support/server-entry.ts) takes a stream of writes from a few
 * concurrent loops, is killed with SIGKILL in the middle of it, and is started again on the same
 * data. Every write it acknowledged (201) must still be there, with its audit row, and the console
 * must start (taking over the stale lock of the embedded database) and answer queries.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { createOperator } from "../../src/server/auth";
import { openPostgres } from "../../src/server/db/client";
import { migratedFolderTemplate } from "./server";
import { serverEntry } from "./server-entry";

export type CrashTarget = "pglite" | "postgres";

const root = path.resolve(import.meta.dirname, "../..");
const email = "admin@pedal.example";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The ports this test file has been given: a console started on one may not listen on it yet, so
 * a second probe would find it free (two consoles started side by side picked the same port).
 */
const givenPorts = new Set<number>();

/**
 * A TCP port of [from, to] that nobody listens on now and this file has not been given before,
 * tried from a random offset. Under Vitest each test worker past the first moves the range up by
 * 100 per worker (VITEST_POOL_ID), so that two files running side by side never pick the same port
 * between its probe and its use.
 */
export async function freePort(from = 3750, to = 3799): Promise<number> {
  const workers = Number(process.env.VITEST_MAX_WORKERS ?? 0);
  const worker = Number(process.env.VITEST_POOL_ID ?? 0);
  if (workers > 1 && worker >= 1) {
    const shift = 100 * ((worker - 1) % workers);
    from += shift;
    to += shift;
  }
  const span = to - from + 1;
  const offset = Math.floor(Math.random() * span);
  // Ports given long ago are taken again once every port of the range has been given.
  for (const skipGiven of [true, false]) {
    for (let i = 0; i < span; i++) {
      const port = from + ((offset + i) % span);
      if (skipGiven && givenPorts.has(port)) continue;
      const free = await new Promise<boolean>((resolve) => {
        const probe = createServer();
        probe.once("error", () => resolve(false));
        probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
      });
      if (free) {
        givenPorts.add(port);
        return port;
      }
    }
  }
  throw new Error(`no free port in ${from}-${to}`);
}

/** One console process. */
export type ConsoleProcess = {
  child: ChildProcess;
  port: number;
  /** Base URL to call, and the Origin the console expects (its PUBLIC_URL). */
  url: string;
  origin: string;
  output(): string;
  exited: Promise<number | null>;
};

export type Environment = {
  target: CrashTarget;
  dataDir: string;
  password: string;
  authSecret: string;
  databaseUrl?: string;
  /** Drops the PostgreSQL database and removes the data folder. */
  dispose(): Promise<void>;
};

/**
 * A data folder, and for PostgreSQL a fresh database on TEST_DATABASE_URL's server (migrated, with
 * an admin operator); on PGlite the console's first start creates the operators (and the database,
 * unless the API run's migrated folder is there to copy).
 */
export async function prepareEnvironment(
  target: CrashTarget,
  serverUrl = process.env.TEST_DATABASE_URL,
): Promise<Environment> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "pedal-crash-"));
  const password = `crash-${randomBytes(9).toString("base64url")}`;
  const authSecret = randomBytes(32).toString("base64url");
  if (target === "pglite") {
    // Created and migrated already when the API run made its template (tests/support/server.ts).
    if (existsSync(migratedFolderTemplate)) cpSync(migratedFolderTemplate, dataDir, { recursive: true });
    return {
      target,
      dataDir,
      password,
      authSecret,
      dispose: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  if (!serverUrl) throw new Error("PostgreSQL crash trials need TEST_DATABASE_URL");
  const name = `pedal_crash_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const handle = openPostgres(databaseUrl, 2);
  try {
    await handle.migrate();
    await createOperator(handle.db, { email, password, role: "admin", name: "Crash Admin" });
  } finally {
    await handle.close();
  }
  return {
    target,
    dataDir,
    password,
    authSecret,
    databaseUrl,
    dispose: async () => {
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Starts the console on the environment's data (the PGlite folder, or the PostgreSQL database); `extra` adds settings. */
export function startConsoleProcess(
  env: Environment,
  port: number,
  extra: Record<string, string> = {},
): ConsoleProcess {
  let out = "";
  const child = spawn(process.execPath, serverEntry(), {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: env.dataDir,
      DATABASE_URL: env.databaseUrl ?? "",
      BETTER_AUTH_SECRET: env.authSecret,
      DEMO_OPERATOR_PASSWORD: env.password,
      PUBLIC_URL: "",
      SEED_DEMO: "",
      NODE_ENV: "",
      LOG_LEVEL: "warn",
      ...extra,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code, signal) => resolve(code ?? (signal ? -1 : null))),
  );
  return {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    origin: `http://localhost:${port}`,
    output: () => out,
    exited,
  };
}

/** Waits until the console says it is running and /healthz answers; milliseconds it took. */
export async function waitReady(
  server: ConsoleProcess,
  started = performance.now(),
  timeoutMs = 120_000,
): Promise<number> {
  let exitCode: number | null | undefined;
  void server.exited.then((code) => (exitCode = code));
  const until = started + timeoutMs;
  while (performance.now() < until) {
    if (exitCode !== undefined)
      throw new Error(`the console exited (${exitCode}) before it was ready:\n${server.output()}`);
    if (server.output().includes("Pedal Console is running")) {
      const ok = await fetch(`${server.url}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return performance.now() - started;
    }
    await sleep(50);
  }
  throw new Error(`the console was not ready after ${timeoutMs} ms:\n${server.output()}`);
}

/** Signs in as the admin; the session cookie. */
export async function signIn(server: ConsoleProcess, password: string): Promise<string> {
  const res = await fetch(`${server.url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.origin },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** Stops a console for good: SIGKILL, and waits for the exit. */
export async function killHard(server: ConsoleProcess): Promise<void> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL");
  await server.exited;
}

/** Stops a console cleanly (SIGTERM); kills it if it does not stop within 15 s. */
export async function stopCleanly(server: ConsoleProcess): Promise<number | null> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return server.exited;
  server.child.kill("SIGTERM");
  const timer = setTimeout(() => server.child.kill("SIGKILL"), 15_000);
  try {
    return await server.exited;
  } finally {
    clearTimeout(timer);
  }
}

export type WriteStream = {
  /** customer_id of every create the console acknowledged with 201. */
  acknowledged: Array<{ id: string; name: string }>;
  /** Requests sent, whatever became of them. */
  sent: number;
  /** Answers that were neither 201 nor a dropped connection (must stay 0). */
  unexpected: string[];
  done: Promise<void>;
};

/** `loops` concurrent loops POSTing customers named `${prefix}-<loop>-<n>` until the connection drops. */
export function writeStream(
  server: ConsoleProcess,
  cookie: string,
  prefix: string,
  loops = 4,
  maxMs = 30_000,
): WriteStream {
  const stream: WriteStream = { acknowledged: [], sent: 0, unexpected: [], done: Promise.resolve() };
  const until = performance.now() + maxMs;
  const loop = async (l: number) => {
    for (let n = 0; performance.now() < until; n++) {
      const name = `${prefix}-${l}-${n}`;
      stream.sent++;
      let res: Response;
      try {
        res = await fetch(`${server.url}/api/customers`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: server.origin, cookie },
          body: JSON.stringify({ customer_name: name }),
        });
      } catch {
        return; // the console is gone
      }
      let body: { customer_id?: string } | undefined;
      try {
        body = await res.json();
      } catch {
        return; // died while answering: not acknowledged
      }
      if (res.status === 201 && body?.customer_id) stream.acknowledged.push({ id: body.customer_id, name });
      else stream.unexpected.push(`${res.status} ${JSON.stringify(body)}`);
    }
  };
  stream.done = Promise.all(Array.from({ length: loops }, (_, l) => loop(l))).then(() => undefined);
  return stream;
}

type Json = Record<string, any>;

async function getJson(server: ConsoleProcess, cookie: string, url: string): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${server.url}${url}`, { headers: { cookie, origin: server.origin } });
  return { status: res.status, body: await res.json() };
}

/** Every item of a paged list (`{ items, total }`), 200 at a time. */
async function allItems(server: ConsoleProcess, cookie: string, url: string): Promise<Json[]> {
  const items: Json[] = [];
  for (let offset = 0; ; offset += 200) {
    const { status, body } = await getJson(server, cookie, `${url}&limit=200&offset=${offset}`);
    if (status !== 200) throw new Error(`GET ${url}: ${status} ${JSON.stringify(body)}`);
    items.push(...body.items);
    if (body.items.length < 200) return items;
  }
}

export type TrialResult = {
  trial: number;
  /** Milliseconds between the first acknowledged write and the SIGKILL. */
  killAfterMs: number;
  sent: number;
  acknowledged: number;
  /** Acknowledged customers missing after the restart (must be empty). */
  lost: string[];
  /** Customers of the trial found after the restart that were never acknowledged (in flight at the kill). */
  unacknowledgedPresent: number;
  /** Customers of the trial without exactly one create audit row, and audit rows without their customer. */
  auditMismatches: string[];
  unexpectedAnswers: string[];
  /** Milliseconds from spawning the restarted console to /healthz answering. */
  restartMs: number;
  /** Whether the restarted console took over the dead console's lock file (PGlite). */
  lockTakenOver: boolean | null;
  /** The database answered the dashboard and the lists after the restart. */
  answersQueries: boolean;
};

/** Checks, on a running console, that the acknowledged writes of a trial are all there with their audit rows. */
export async function verifyTrial(
  server: ConsoleProcess,
  cookie: string,
  prefix: string,
  acknowledged: Array<{ id: string; name: string }>,
  since: Date,
) {
  const lost: string[] = [];
  for (let i = 0; i < acknowledged.length; i += 16) {
    const batch = acknowledged.slice(i, i + 16);
    const answers = await Promise.all(batch.map((a) => getJson(server, cookie, `/api/customers/${a.id}`)));
    answers.forEach((answer, j) => {
      if (answer.status !== 200 || answer.body.customer_name !== batch[j].name)
        lost.push(`${batch[j].id} (${batch[j].name}): ${answer.status}`);
    });
  }
  const dashboard = await getJson(server, cookie, "/api/dashboard");
  const found = await allItems(
    server,
    cookie,
    `/api/customers?q=${encodeURIComponent(prefix)}&sort=created_at&order=asc`,
  );
  const audit = await allItems(
    server,
    cookie,
    `/api/audit?entity=customer&action=create&from=${encodeURIComponent(since.toISOString())}`,
  );
  const ours = found.filter((c) => String(c.customer_name).startsWith(`${prefix}-`));
  const auditIds = audit
    .filter((a) => String(a.changes?.after?.customer_name ?? "").startsWith(`${prefix}-`))
    .map((a) => String(a.entity_id));
  const auditMismatches: string[] = [];
  for (const c of ours) {
    const n = auditIds.filter((id) => id === c.customer_id).length;
    if (n !== 1) auditMismatches.push(`customer ${c.customer_id} has ${n} create audit rows`);
  }
  for (const id of new Set(auditIds))
    if (!ours.some((c) => c.customer_id === id)) auditMismatches.push(`audit row for missing customer ${id}`);
  const ackedIds = new Set(acknowledged.map((a) => a.id));
  return {
    lost,
    unacknowledgedPresent: ours.filter((c) => !ackedIds.has(c.customer_id)).length,
    auditMismatches,
    answersQueries: dashboard.status === 200 && typeof dashboard.body.total_customers === "number",
  };
}

export type TrialsOptions = {
  target: CrashTarget;
  trials: number;
  /** Concurrent write loops. */
  loops?: number;
  /** The SIGKILL comes after a random delay in [min, max] ms from the first acknowledged write. */
  killAfterMs?: [number, number];
  ports?: [number, number];
  onTrial?: (result: TrialResult) => void;
};

/**
 * Runs `trials` crash trials on one data folder or database: start (the first start creates the
 * embedded database), sign in, write, SIGKILL, restart, verify; the restarted console is the next
 * trial's. Returns each trial's numbers; throws only when the console cannot be started.
 */
export async function runCrashTrials(
  options: TrialsOptions,
): Promise<{ results: TrialResult[]; firstStartMs: number }> {
  const { target, trials, loops = 4, killAfterMs = [150, 1200], ports = [3750, 3799] } = options;
  const env = await prepareEnvironment(target);
  const results: TrialResult[] = [];
  const running = new Set<ConsoleProcess>();
  const start = async () => {
    const server = startConsoleProcess(env, await freePort(...ports));
    running.add(server);
    void server.exited.then(() => running.delete(server));
    return server;
  };
  try {
    let server = await start();
    const firstStartMs = await waitReady(server);
    const runId = randomUUID().slice(0, 8);
    for (let trial = 1; trial <= trials; trial++) {
      const cookie = await signIn(server, env.password);
      const prefix = `crash-${runId}-t${trial}`;
      const since = new Date(Date.now() - 5_000);
      const delay = killAfterMs[0] + Math.random() * (killAfterMs[1] - killAfterMs[0]);
      const stream = writeStream(server, cookie, prefix, loops);
      // The delay runs from the first acknowledged write, so that every trial kills a console that is writing.
      for (const until = performance.now() + 30_000; stream.acknowledged.length === 0 && performance.now() < until;)
        await sleep(5);
      const writing = performance.now();
      await sleep(delay);
      const killedAfter = performance.now() - writing;
      const deadPid = server.child.pid;
      await killHard(server);
      await stream.done;

      const lockBefore =
        target === "pglite" && existsSync(path.join(env.dataDir, "console.lock"))
          ? readFileSync(path.join(env.dataDir, "console.lock"), "utf8").trim()
          : null;
      const spawned = performance.now();
      server = await start();
      const restartMs = await waitReady(server, spawned);
      const lockNow = target === "pglite" ? readFileSync(path.join(env.dataDir, "console.lock"), "utf8").trim() : null;
      const verdict = await verifyTrial(server, await signIn(server, env.password), prefix, stream.acknowledged, since);
      const result: TrialResult = {
        trial,
        killAfterMs: Math.round(killedAfter),
        sent: stream.sent,
        acknowledged: stream.acknowledged.length,
        lost: verdict.lost,
        unacknowledgedPresent: verdict.unacknowledgedPresent,
        auditMismatches: verdict.auditMismatches,
        unexpectedAnswers: stream.unexpected,
        restartMs: Math.round(restartMs),
        lockTakenOver:
          target === "pglite" ? lockBefore === String(deadPid) && lockNow === String(server.child.pid) : null,
        answersQueries: verdict.answersQueries,
      };
      results.push(result);
      options.onTrial?.(result);
    }
    const code = await stopCleanly(server);
    if (code !== 0) throw new Error(`the last console did not stop cleanly (exit ${code}):\n${server.output()}`);
    return { results, firstStartMs: Math.round(firstStartMs) };
  } finally {
    for (const server of running) await killHard(server);
    await env.dispose();
  }
}
