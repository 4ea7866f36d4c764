/**
 * A PostgreSQL server that drops the console's connections (docs/deployment.md): a restart, a
 * failover of a managed database, a pooler restart or a network cut. Two real server processes on
 * one database take mixed reads and writes while every backend of that database is terminated, ten
 * times over about ten seconds, and then while the database refuses new connections for a few
 * seconds. Neither process may die; every answer is 2xx or 503 `unavailable` (never 500); every
 * write the console acknowledged is in the database; both serve again by themselves, and /readyz
 * says when they cannot. Runs when TEST_DATABASE_URL is set.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  freePort,
  prepareEnvironment,
  signIn,
  startConsoleProcess,
  stopCleanly,
  waitReady,
  type ConsoleProcess,
  type Environment,
} from "../support/crash";

const base = process.env.TEST_DATABASE_URL;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(Boolean(base))("a PostgreSQL server that drops the console's connections", () => {
  let env: Environment;
  const servers: ConsoleProcess[] = [];
  let cookie = "";
  let admin: pg.Client;
  let database = "";

  beforeAll(async () => {
    env = await prepareEnvironment("postgres");
    database = new URL(env.databaseUrl!).pathname.slice(1);
    for (let i = 0; i < 2; i++) servers.push(startConsoleProcess(env, await freePort()));
    await Promise.all(servers.map((s) => waitReady(s)));
    cookie = await signIn(servers[0], env.password);
    admin = new pg.Client({ connectionString: base });
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.query(`alter database ${database} allow_connections true`).catch(() => undefined);
    await admin?.end();
    await Promise.all(servers.map((s) => stopCleanly(s)));
    await env?.dispose();
  });

  const call = (s: ConsoleProcess, path: string, init: RequestInit = {}) =>
    fetch(`${s.url}${path}`, {
      ...init,
      headers: {
        origin: s.origin,
        cookie,
        "content-type": "application/json",
        ...(init.headers as Record<string, string>),
      },
    });

  /** Ends every connection the console processes hold to their database. */
  const terminateAll = () =>
    admin.query(
      "select count(pg_terminate_backend(pid)) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
      [database],
    );

  /** Mixed load on every server until `stop` is set: per server 4 writers and 4 readers. */
  function load() {
    const statuses = new Map<number, number>();
    const acknowledged: string[] = [];
    const failures: string[] = [];
    const bodies500: string[] = [];
    const state = { stop: false };
    const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const loop = async (s: ConsoleProcess, work: () => Promise<Response>, onOk?: (res: Response) => Promise<void>) => {
      while (!state.stop) {
        try {
          const res = await work();
          count(res.status);
          if (res.ok && onOk) await onOk(res);
          else if (res.status >= 500 && res.status !== 503) bodies500.push(await res.text());
          else await res.arrayBuffer();
        } catch (err) {
          failures.push(`${s.port}: ${(err as Error).message}`);
          await sleep(50);
        }
      }
    };
    const loops = servers.flatMap((s) => [
      ...Array.from({ length: 4 }, () => {
        return loop(
          s,
          () =>
            call(s, "/api/customers", {
              method: "POST",
              body: JSON.stringify({ customer_name: `Outage ${randomUUID()}`, status: "trial" }),
            }),
          async (res) => {
            acknowledged.push(((await res.json()) as { customer_name: string }).customer_name);
          },
        );
      }),
      ...Array.from({ length: 4 }, () => loop(s, () => call(s, "/api/users?q=an"))),
    ]);
    return {
      statuses,
      acknowledged,
      failures,
      bodies500,
      done: async () => ((state.stop = true), await Promise.all(loops)),
    };
  }

  const alive = () => servers.map((s) => s.child.exitCode === null && s.child.signalCode === null);

  /** Polls `path` on every server until it answers `status`; how long it took. */
  async function until(path: string, status: number, timeoutMs = 20_000) {
    const started = Date.now();
    for (const s of servers) {
      for (;;) {
        const res = await call(s, path).catch(() => undefined);
        await res?.arrayBuffer();
        if (res?.status === status) break;
        if (Date.now() - started > timeoutMs)
          throw new Error(`${path} on ${s.port} did not answer ${status} (last ${res?.status}):\n${s.output()}`);
        await sleep(100);
      }
    }
    return Date.now() - started;
  }

  it("survives every backend terminated ten times under load: no process dies, no 500, no acknowledged write lost", async () => {
    const traffic = load();
    await sleep(500);
    let terminated = 0;
    for (let i = 0; i < 10; i++) {
      terminated += Number((await terminateAll()).rows[0].count);
      await sleep(1_000);
    }
    await traffic.done();

    expect(alive()).toEqual([true, true]);
    const byStatus = Object.fromEntries(traffic.statuses);
    console.info("outage trial", JSON.stringify({ byStatus, terminated, acknowledged: traffic.acknowledged.length }));
    expect(terminated).toBeGreaterThan(10);
    expect(traffic.bodies500, JSON.stringify(byStatus)).toEqual([]);
    expect(
      Object.keys(byStatus)
        .map(Number)
        .filter((s) => !(s >= 200 && s < 300) && s !== 503),
      JSON.stringify(byStatus),
    ).toEqual([]);
    expect(traffic.failures).toEqual([]);
    expect(byStatus[201]).toBeGreaterThan(0);

    // Every write the console acknowledged is there.
    const target = new pg.Client({ connectionString: env.databaseUrl });
    await target.connect();
    try {
      const { rows } = await target.query(`select count(*)::int as n from customers where customer_name = any($1)`, [
        traffic.acknowledged,
      ]);
      expect(rows[0].n).toBe(traffic.acknowledged.length);
    } finally {
      await target.end();
    }

    // Both serve again by themselves.
    await until("/api/customers?limit=5", 200);
    await until("/readyz", 200);
  });

  it("answers 503 (sign-in included) and is not ready while the database refuses connections, then serves again by itself", async () => {
    await admin.query(`alter database ${database} allow_connections false`);
    try {
      await terminateAll();
      for (const s of servers) {
        const list = await call(s, "/api/customers?limit=5");
        expect(list.status).toBe(503);
        expect((await list.json()).error.code).toBe("unavailable");
        const created = await call(s, "/api/customers", {
          method: "POST",
          body: JSON.stringify({ customer_name: "Never stored", status: "trial" }),
        });
        expect(created.status).toBe(503);
        const signInAnswer = await fetch(`${s.url}/api/auth/sign-in/email`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: s.origin },
          body: JSON.stringify({ email: "admin@pedal.example", password: env.password }),
        });
        expect(signInAnswer.status).toBe(503);
        expect((await signInAnswer.json()).error.code).toBe("unavailable");
        const ready = await fetch(`${s.url}/readyz`);
        expect(ready.status).toBe(503);
        expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
      }
      await sleep(2_000);
      expect(alive()).toEqual([true, true]);
    } finally {
      await admin.query(`alter database ${database} allow_connections true`);
    }
    await until("/api/customers?limit=5", 200);
    await until("/readyz", 200);
    expect(alive()).toEqual([true, true]);
  });
});
