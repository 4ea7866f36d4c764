/**
 * Scale out (docs/deployment.md): two server processes on one PostgreSQL database, as behind a
 * load balancer. A session signed in through one is used through the other; failed sign-ins count
 * across both; a list answers alike through both. Runs when TEST_DATABASE_URL is set.
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
});
