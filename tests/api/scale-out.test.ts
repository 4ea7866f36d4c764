/**
 * Scale out (docs/deployment.md): two server processes on one PostgreSQL database, as behind a
 * load balancer. A session signed in through one is used through the other; failed sign-ins count
 * across both; a list answers alike through both; a session or token ended, or an operator demoted
 * or deactivated, through one is refused by the other within 1 s, though each keeps the
 * credentials it has read for 5 s (src/server/credential-cache.ts); one token's requests counted
 * through both stay within its limit. Runs when TEST_DATABASE_URL is set.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOperator } from "../../src/server/auth";
import { openPostgres } from "../../src/server/db/client";
import { freePort } from "../support/crash";
import { serverEntry } from "../support/server-entry";

const root = path.resolve(import.meta.dirname, "../..");
const base = process.env.TEST_DATABASE_URL;
const secret = randomBytes(32).toString("base64url");
const publicUrl = "http://localhost:3999";
const maxPerAccount = 3;
const tokenLimit = 1_000;

describe.runIf(Boolean(base))("two servers on one PostgreSQL database", () => {
  const name = `pedal_scale_${randomBytes(6).toString("hex")}`;
  const servers: Array<{ child: ChildProcess; port: number; exited: Promise<unknown> }> = [];
  let url = "";

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const u = new URL(base!);
    u.pathname = `/${name}`;
    url = u.toString();
    const handle = openPostgres(url, 2);
    await handle.migrate();
    await createOperator(handle.db, { email: "scale@test.example", password: "correct-horse-battery", role: "viewer" });
    for (const [email, role] of [
      ["cache-admin@test.example", "admin"],
      ["cache-target@test.example", "admin"],
      ["cache-viewer@test.example", "viewer"],
    ] as const)
      await createOperator(handle.db, { email, password: "correct-horse-battery", role });
    await handle.close();
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      let out = "";
      const child = spawn(process.execPath, serverEntry(), {
        cwd: root,
        env: {
          ...process.env,
          PORT: String(port),
          DATABASE_URL: url,
          BETTER_AUTH_SECRET: secret,
          PUBLIC_URL: publicUrl,
          LOG_LEVEL: "warn",
          SIGNIN_MAX_PER_ACCOUNT: String(maxPerAccount),
          API_TOKEN_RATE_LIMIT: String(tokenLimit),
          NODE_ENV: "",
          SEED_DEMO: "",
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      child.stdout!.on("data", (d) => (out += d));
      child.stderr!.on("data", (d) => (out += d));
      const exited = new Promise((resolve) => child.on("exit", resolve));
      servers.push({ child, port, exited });
      const until = Date.now() + 60_000;
      while (!out.includes("Pedal Console is running")) {
        if (Date.now() > until) throw new Error(`server ${i} did not start: ${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  });

  afterAll(async () => {
    for (const s of servers) {
      s.child.kill("SIGTERM");
      await s.exited;
    }
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  const call = (i: number, pathname: string, init: RequestInit = {}) =>
    fetch(`http://localhost:${servers[i].port}${pathname}`, {
      ...init,
      headers: { origin: publicUrl, ...(init.headers as Record<string, string>) },
    });
  const signIn = (i: number, password: string) =>
    call(i, "/api/auth/sign-in/email", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "scale@test.example", password }),
    });

  it("uses a session signed in through one server on the other, and counts failed sign-ins across both", async () => {
    const ok = await signIn(0, "correct-horse-battery");
    expect(ok.status).toBe(200);
    const cookie = ok.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    for (const i of [0, 1]) {
      const res = await call(i, "/api/customers?limit=5", { headers: { cookie } });
      expect(res.status, `server ${i}`).toBe(200);
      expect((await res.json()).total_exact).toBe(true);
    }
    expect((await call(1, "/api/customers", { headers: {} })).status).toBe(401);

    // Failed sign-ins alternate between the servers; the limit is reached as if there were one.
    for (let n = 0; n < maxPerAccount; n++) expect((await signIn(n % 2, "wrong-password-123")).status).toBe(401);
    const refused = await signIn(maxPerAccount % 2, "correct-horse-battery");
    expect(refused.status).toBe(429);
    const refusedToo = await signIn((maxPerAccount + 1) % 2, "correct-horse-battery");
    expect(refusedToo.status).toBe(429);
  });

  /** The session cookie of `email` signed in through server `i`. */
  async function cookieOf(i: number, email: string): Promise<string> {
    const res = await call(i, "/api/auth/sign-in/email", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password: "correct-horse-battery" }),
    });
    expect(res.status, email).toBe(200);
    return res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
  }
  const json = (body: unknown) => ({ "content-type": "application/json", body: JSON.stringify(body) });
  /** Polls `status()` until it answers `want`, for at most 1 s. */
  const within1s = (status: () => Promise<number>, want: number) =>
    expect.poll(status, { timeout: 1_000, interval: 20 }).toBe(want);

  it("refuses through one server, within 1 s, a session or token ended, demoted or deactivated through the other", async () => {
    const admin = await cookieOf(0, "cache-admin@test.example");
    const target = await cookieOf(1, "cache-target@test.example");
    const viewer = await cookieOf(0, "cache-viewer@test.example");
    const me = await (await call(1, "/api/auth/get-session", { headers: { cookie: target } })).json();
    const targetId = me.user.id as string;
    const adminRead = () =>
      call(1, `/api/operators/${targetId}/sessions`, { headers: { cookie: target } }).then((r) => r.status);
    const read = (i: number, headers: Record<string, string>) =>
      call(i, "/api/customers?limit=1", { headers }).then((r) => r.status);

    // A delivery of each change through server 0 to what server 1 keeps.
    const made = await call(0, "/api/account/tokens", {
      method: "POST",
      headers: { cookie: viewer, "content-type": "application/json" },
      body: json({ name: "polling", role: "viewer" }).body,
    });
    expect(made.status).toBe(201);
    const { token, token_id } = await made.json();
    const bearer = { authorization: `Bearer ${token}` };
    expect(await read(1, bearer)).toBe(200);
    expect(await adminRead()).toBe(200);
    expect(await read(1, { cookie: viewer })).toBe(200);

    const revoked = await call(0, `/api/account/tokens/${token_id}`, { method: "DELETE", headers: { cookie: viewer } });
    expect(revoked.status).toBeLessThan(300);
    await within1s(() => read(1, bearer), 401);

    const patch = (body: unknown) =>
      call(0, `/api/operators/${targetId}`, {
        method: "PATCH",
        headers: { cookie: admin, "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then((r) => r.status);
    expect(await patch({ role: "viewer" })).toBe(200);
    await within1s(adminRead, 403);
    expect(await patch({ banned: true })).toBe(200);
    await within1s(() => read(1, { cookie: target }), 401);

    const out = await call(0, "/api/auth/sign-out", {
      method: "POST",
      headers: { cookie: viewer, "content-type": "application/json" },
      body: "{}",
    });
    expect(out.status).toBe(200);
    await within1s(() => read(1, { cookie: viewer }), 401);
  });

  it("counts one token's requests through both servers within its limit, and at most one and a half chunks per server below it", async () => {
    const admin = await cookieOf(1, "cache-admin@test.example");
    const made = await call(1, "/api/account/tokens", {
      method: "POST",
      headers: { cookie: admin, "content-type": "application/json" },
      body: JSON.stringify({ name: "counted", role: "viewer" }),
    });
    expect(made.status).toBe(201);
    const { token } = await made.json();
    let admitted = 0;
    let refused = 0;
    // 1,100 requests in bursts of 10, alternating servers, within one minute.
    for (let burst = 0; burst < 110; burst++) {
      const statuses = await Promise.all(
        Array.from({ length: 10 }, () =>
          call(burst % 2, "/api/dashboard", { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status),
        ),
      );
      admitted += statuses.filter((s) => s === 200).length;
      refused += statuses.filter((s) => s === 429).length;
    }
    expect(admitted + refused).toBe(1_100);
    expect(admitted).toBeLessThanOrEqual(tokenLimit);
    // What the other server took and had not used when the limit was reached: at most 1.5 chunks.
    expect(admitted).toBeGreaterThanOrEqual(tokenLimit - 1.5 * (tokenLimit / 100));
  });
});
