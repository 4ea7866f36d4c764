/**
 * The console is never left without a way in: the last active admin cannot be deactivated or
 * demoted, even by two admins acting at the same moment, and a locked-out admin is unlocked on
 * the server with `npm run operator:unlock` (audited, like `npm run operator:create`).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { msg } from "../../src/domain/messages";
import { passwordMessages } from "../../src/domain/password";
import { createOperator } from "../../src/server/auth";
import { openPglite, openPostgres, queryRows, type DatabaseHandle } from "../../src/server/db/client";
import { startConsole, testPassword, type TestConsole } from "../support/app";
import { targets, type TargetName } from "../support/databases";
import { freePort } from "../support/crash";
import { migratedFolder, startConsoleProcess } from "../support/server";

const root = path.resolve(import.meta.dirname, "../..");
const cookieOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");

describe.each(targets)("the last active admin on %s", (target) => {
  let app: TestConsole;
  beforeAll(async () => {
    app = await startConsole(target);
  });
  afterAll(() => app.close());

  async function adminCookie(email: string) {
    await createOperator(app.handle.db, { email, password: testPassword, role: "admin" });
    const res = await app.request("/api/auth/sign-in/email", {
      method: "POST",
      json: { email, password: testPassword },
    });
    expect(res.status).toBe(200);
    return { cookie: cookieOf(res), id: (await res.json()).user.id as string };
  }

  it("survives two admins removing each other at the same moment (20 trials): exactly one succeeds, one admin stays", async () => {
    let conflicts = 0;
    for (let trial = 0; trial < 20; trial++) {
      const tag = `${trial}-${randomBytes(3).toString("hex")}`;
      const a = await adminCookie(`race-a-${tag}@test.example`);
      const b = await adminCookie(`race-b-${tag}@test.example`);
      // a and b are the only active admins.
      await app.handle.db.execute(
        sql`update operator set banned = true where role = 'admin' and id <> ${a.id} and id <> ${b.id}`,
      );
      const change = trial % 2 === 0 ? { banned: true } : { role: "viewer" };
      const [ab, ba] = await Promise.all([
        app.request(`/api/operators/${b.id}`, { method: "PATCH", headers: { cookie: a.cookie }, json: change }),
        app.request(`/api/operators/${a.id}`, { method: "PATCH", headers: { cookie: b.cookie }, json: change }),
      ]);
      const statuses = [ab.status, ba.status].sort();
      expect(statuses[0], `trial ${trial}: ${statuses}`).toBe(200);
      // The other was refused: 409 (it saw the first change) or 401/403 (its own session had ended or lost the role first).
      expect([401, 403, 409], `trial ${trial}: ${statuses}`).toContain(statuses[1]);
      const refused = ab.status === 200 ? ba : ab;
      if (refused.status === 409) {
        conflicts++;
        expect((await refused.json()).error.message).toBe(msg.operators.lastAdmin);
      }
      const [{ n }] = await queryRows<{ n: number }>(
        app.handle.db,
        sql`select count(*)::int as n from operator where role = 'admin' and coalesce(banned, false) = false`,
      );
      expect(n, `trial ${trial}`).toBe(1);
    }
    // Which of 409/401/403 the loser gets depends on timing; the invariant above is what matters.
    console.info(`${target}: ${conflicts} of 20 trials refused with 409`);
  }, 600_000);
});

describe.runIf(targets.includes("postgres"))("the last active admin under a concurrent change on postgres", () => {
  it("a removal that waited for another admin's deactivation sees it and is refused with 409", async () => {
    const app = await startConsole("postgres");
    const [{ name }] = await app.rows<{ name: string }>(sql`select current_database() as name`);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    const other = new pg.Client({ connectionString: url.toString() });
    await other.connect();
    try {
      const signInAs = async (email: string) => {
        const id = await createOperator(app.handle.db, { email, password: testPassword, role: "admin" });
        const res = await app.request("/api/auth/sign-in/email", {
          method: "POST",
          json: { email, password: testPassword },
        });
        return { id, cookie: cookieOf(res) };
      };
      const a = await signInAs("held-a@test.example");
      const b = await signInAs("held-b@test.example");
      await app.handle.db.execute(
        sql`update operator set banned = true where role = 'admin' and id <> ${a.id} and id <> ${b.id}`,
      );
      // Another server copy is deactivating a, not yet committed.
      await other.query("begin");
      await other.query("update operator set banned = true where id = $1", [a.id]);
      const pending = app.request(`/api/operators/${b.id}`, {
        method: "PATCH",
        headers: { cookie: a.cookie },
        json: { banned: true },
      });
      // The request waits on a's row lock (polled, not slept for a fixed time).
      for (let i = 0; i < 600; i++) {
        const [{ n }] = (
          await other.query(
            "select count(*)::int as n from pg_locks l join pg_stat_activity s on s.pid = l.pid where not l.granted and s.datname = $1",
            [name],
          )
        ).rows;
        if (n > 0) break;
        await new Promise((r) => setImmediate(r));
      }
      await other.query("commit");
      const res = await pending;
      expect(res.status).toBe(409);
      expect((await res.json()).error.message).toBe(msg.operators.lastAdmin);
      expect(
        await app.count(sql`select 1 from operator where role = 'admin' and coalesce(banned, false) = false`),
      ).toBe(1);
    } finally {
      await other.end();
      await app.close();
    }
  }, 300_000);
});

/** Runs one of the server's npm scripts' files against the database in `env`. */
function runScript(script: string, args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, ["--import", "tsx", `scripts/${script}`, ...args], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: "silent", NODE_ENV: "", DATABASE_URL: "", ...env },
    encoding: "utf8",
    timeout: 300_000,
  });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

/** A database the scripts can open by configuration: a PGlite folder under test-results/, or a PostgreSQL database. */
async function scriptDatabase(
  target: TargetName,
): Promise<{ env: Record<string, string>; open: () => Promise<DatabaseHandle>; drop: () => Promise<void> }> {
  const name = `pedal_cli_${randomBytes(5).toString("hex")}`;
  if (target === "pglite") {
    const dir = path.join(root, "test-results", name);
    mkdirSync(dir, { recursive: true });
    return {
      env: { DATA_DIR: dir },
      open: async () => openPglite(path.join(dir, "pglite")),
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const base = process.env.TEST_DATABASE_URL!;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    open: async () => openPostgres(url.toString(), 2),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: base });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

describe.each(targets)("server commands on %s", (target) => {
  it("operator:create follows the password policy and is audited; operator:unlock releases a lock and is audited", async () => {
    const database = await scriptDatabase(target);
    try {
      const email = "locked-admin@test.example";
      const weak = runScript("operator-create.ts", ["--email", email, "--password", "only8chr"], database.env);
      expect(weak.code).toBe(2);
      expect(weak.out).toContain(passwordMessages.tooShort);
      const created = runScript("operator-create.ts", ["--email", email, "--password", testPassword], database.env);
      expect(created.out).toContain("created");
      expect(created.code).toBe(0);

      let handle = await database.open();
      await handle.db.execute(
        sql`insert into auth_throttle (key, failures, consecutive_failures, locked_until) values (${`account:${email}`}, 10, 10, now() + interval '30 minutes')`,
      );
      await handle.close();

      const unlocked = runScript("operator-unlock.ts", ["--email", email], database.env);
      expect(unlocked.out).toContain("unlocked");
      expect(unlocked.code).toBe(0);

      handle = await database.open();
      try {
        expect(await queryRows(handle.db, sql`select key from auth_throttle`)).toEqual([]);
        const audit = await queryRows<{
          action: string;
          entity: string;
          request_id: string;
          operator_id: string | null;
        }>(handle.db, sql`select action, entity, request_id, operator_id from audit_log order by created_at`);
        expect(audit).toEqual([
          { action: "create", entity: "operator", request_id: "cli:operator:create", operator_id: null },
          { action: "unlock", entity: "operator", request_id: "cli:operator:unlock", operator_id: null },
        ]);
      } finally {
        await handle.close();
      }
    } finally {
      await database.drop();
    }
  }, 900_000);
});

describe("server commands while the console runs on the embedded database", () => {
  it("operator:unlock is carried out by the running console; operator:create and db:seed say in one line what to do", async () => {
    const folder = migratedFolder("running-cli");
    const port = await freePort();
    const password = "demo-password-123";
    const proc = startConsoleProcess({
      DATA_DIR: folder,
      PORT: String(port),
      DEMO_OPERATOR_PASSWORD: password,
      LOCKOUT_FAILURES: "2",
      SIGNIN_MAX_PER_ACCOUNT: "50",
    });
    try {
      await proc.started;
      const attempt = (pw: string) =>
        fetch(`http://127.0.0.1:${port}/api/auth/sign-in/email`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: `http://localhost:${port}` },
          body: JSON.stringify({ email: "admin@pedal.example", password: pw }),
        });
      // The commands below take seconds, longer than the server keeps an idle connection open: a
      // request sent on the pooled connection just as the server closes it is sent again, as a
      // browser would (it never reached the console).
      const signIn = (pw: string) => attempt(pw).catch(() => attempt(pw));
      for (let i = 0; i < 2; i++) expect((await signIn("not-the-password")).status).toBe(401);
      expect((await signIn(password)).status).toBe(429);

      // A command without the console's secret is refused by the console.
      const forged = runScript("operator-unlock.ts", ["--email", "admin@pedal.example"], {
        DATA_DIR: folder,
        BETTER_AUTH_SECRET: "f".repeat(40),
      });
      expect(forged.code).toBe(2);
      expect(forged.out).toContain("refused");
      expect((await signIn(password)).status).toBe(429);

      const unlocked = runScript("operator-unlock.ts", ["--email", "admin@pedal.example"], { DATA_DIR: folder });
      expect(unlocked.out.trim()).toBe("Operator admin@pedal.example unlocked: they can sign in again.");
      expect(unlocked.code).toBe(0);
      expect((await signIn(password)).status).toBe(200);
      const unknown = runScript("operator-unlock.ts", ["--email", "nobody@pedal.example"], { DATA_DIR: folder });
      expect(unknown).toEqual({ code: 1, out: "No operator has the email nobody@pedal.example.\n" });

      for (const [script, args] of [
        ["operator-create.ts", ["--email", "new@pedal.example", "--password", testPassword]],
        ["db.ts", ["seed"]],
      ] as const) {
        const locked = runScript(script, [...args], { DATA_DIR: folder });
        expect(locked.code, locked.out).toBe(2);
        expect(locked.out.trim().split("\n"), locked.out).toHaveLength(1);
        expect(locked.out).toMatch(/is in use by another console \(pid \d+\)\. Stop that console/);
        expect(locked.out).not.toMatch(/\n\s+at /);
      }
    } finally {
      proc.child.kill("SIGTERM");
      await proc.exited;
    }
  }, 300_000);
});
