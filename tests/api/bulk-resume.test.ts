/**
 * A bulk run survives its server (docs/bulk-actions.md "Durability"): the real console process is
 * killed with SIGKILL in the middle of a run over thousands of users and started again on the
 * same data; the run resumes where it stopped and ends `done`, each user changed exactly once (one
 * report row and one audit row each), the audit rows still naming the request that started it.
 * On file-backed PGlite (resumed at start) and on PostgreSQL (resumed once the killed copy's
 * lease, BULK_LEASE_SECONDS, runs out).
 */
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openPglite, openPostgres, queryRows, type DatabaseHandle } from "../../src/server/db/client";
import {
  freePort,
  killHard,
  prepareEnvironment,
  signIn,
  startConsoleProcess,
  stopCleanly,
  waitReady,
  type ConsoleProcess,
  type Environment,
} from "../support/crash";
import { targets } from "../support/databases";

const USERS = 6_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(targets)("a bulk run killed mid-way on %s", (target) => {
  it(`resumes after kill -9 and changes each of ${USERS} users exactly once`, async () => {
    const env: Environment = await prepareEnvironment(target);
    const start = async () => {
      const server = startConsoleProcess(env, await freePort(3750, 3779), { BULK_LEASE_SECONDS: "2" });
      await waitReady(server);
      return server;
    };
    const open = (): Promise<DatabaseHandle> =>
      env.databaseUrl
        ? Promise.resolve(openPostgres(env.databaseUrl, 2))
        : openPglite(path.join(env.dataDir, "pglite"));
    let server: ConsoleProcess | undefined;
    try {
      // The users are written straight into the database (migrated: a no-op when it is already)
      // before the console's first start.
      const db = await open();
      await db.migrate();
      const [customer] = await queryRows<{ customer_id: string }>(
        db.db,
        sql`insert into customers (customer_name, status) values ('Resume Test', 'active') returning customer_id::text`,
      );
      await db.db.execute(sql`insert into users_data (customer_id, email, status)
        select ${customer.customer_id}, 'resume' || g || '@resume.example', 'active' from generate_series(1, ${USERS}) g`);
      await db.close();

      // Killed once some batches are in, not all: `delay` ms after the start (a run over 6,000 users
      // may end before a progress request gets its turn on the embedded database), and the rows
      // reported by then are read from the database; too early or too late, another try.
      let cookie = "";
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(`${server!.url}${path}`, {
          method,
          headers: { cookie, origin: server!.origin, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: res.status, body: await res.json() };
      };
      let bulkId = "";
      let seen = 0;
      for (let attempt = 0, delay = 250; attempt < 6; attempt++) {
        server = await start();
        cookie = await signIn(server, env.password);
        const started = await call("POST", "/api/bulk/users/set_status", {
          selection: { filter: { customer_id: customer.customer_id } },
          params: { status: "inactive" },
        });
        expect(started.status, JSON.stringify(started.body)).toBe(202);
        bulkId = started.body.bulk_id as string;
        await sleep(delay);
        await killHard(server);
        const peek = await open();
        [{ processed: seen }] = await queryRows<{ processed: number }>(
          peek.db,
          sql`select count(*)::int as processed from bulk_action_rows where bulk_id = ${bulkId}`,
        );
        if (seen > 0 && seen < USERS) {
          await peek.close();
          break;
        }
        // Not in the middle: the run is put aside and the users made active again.
        await peek.db.execute(sql`update bulk_actions set status = 'cancelled' where bulk_id = ${bulkId}`);
        await peek.db.execute(sql`update users_data set status = 'active' where customer_id = ${customer.customer_id}`);
        await peek.close();
        delay = seen === 0 ? delay * 2 : Math.max(10, Math.floor(delay / 2));
      }
      expect(seen, "killed in the middle of the run").toBeGreaterThan(0);
      expect(seen, "killed in the middle of the run").toBeLessThan(USERS);

      server = await start();
      cookie = await signIn(server, env.password);
      let progress = (await call("GET", `/api/bulk/${bulkId}`)).body;
      for (const until = performance.now() + 60_000; progress.status === "running" && performance.now() < until;) {
        await sleep(100);
        progress = (await call("GET", `/api/bulk/${bulkId}`)).body;
      }
      expect(progress).toMatchObject({ status: "done", total: USERS, processed: USERS, changed: USERS, failed: 0 });
      await stopCleanly(server);
      server = undefined;

      const check = await open();
      const [facts] = await queryRows<{
        inactive: number;
        reported: number;
        seqs: number;
        audited: number;
        requests: number;
      }>(
        check.db,
        sql`select (select count(*)::int from users_data where customer_id = ${customer.customer_id} and status = 'inactive') as inactive,
          (select count(*)::int from bulk_action_rows where bulk_id = ${bulkId}) as reported,
          (select count(distinct seq)::int from bulk_action_rows where bulk_id = ${bulkId}) as seqs,
          (select count(*)::int from audit_log where action = 'update' and entity = 'user'
            and entity_id in (select user_id::text from users_data where customer_id = ${customer.customer_id})) as audited,
          (select count(distinct request_id)::int from audit_log where action = 'update' and entity = 'user'
            and entity_id in (select user_id::text from users_data where customer_id = ${customer.customer_id})) as requests`,
      );
      await check.close();
      expect(facts).toEqual({ inactive: USERS, reported: USERS, seqs: USERS, audited: USERS, requests: 1 });
    } finally {
      if (server) await killHard(server);
      await env.dispose();
    }
  }, 240_000);
});
