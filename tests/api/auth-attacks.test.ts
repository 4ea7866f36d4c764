/**
 * The attacks on sign-in and operator accounts of docs/security.md "What was attacked: sign-in
 * and operator accounts": body encodings, deactivated operators, raced limits, forged client
 * addresses, password changes and a database outage. Time is moved with a test clock, never waited.
 */
import { sql } from "drizzle-orm";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { msg } from "../../src/domain/messages";
import { passwordMessages, passwordPolicy } from "../../src/domain/password";
import { ConfigError, loadConfig } from "../../src/server/config";
import { startConsole, testClock, testPassword, type TestConsole } from "../support/app";
import { targets } from "../support/databases";

const signInPath = "/api/auth/sign-in/email";
const cookieOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");

/** Signs in with a JSON body from `ip` (the console trusts one proxy in these tests). */
function signIn(app: TestConsole, email: string, password: string, ip = "10.9.9.9") {
  return app.request(signInPath, { method: "POST", json: { email, password }, headers: { "x-forwarded-for": ip } });
}

async function createOperator(app: TestConsole, email: string, role = "viewer"): Promise<string> {
  const res = await app.request("/api/operators", {
    as: "admin",
    method: "POST",
    json: { email, name: email.split("@")[0], role, password: testPassword },
  });
  expect(res.status).toBe(201);
  return (await res.json()).id;
}

const auditCount = (app: TestConsole, action: string, entityId?: string) =>
  app.count(
    entityId
      ? sql`select 1 from audit_log where action = ${action} and entity_id = ${entityId}`
      : sql`select 1 from audit_log where action = ${action}`,
  );

/** The same email and password in every encoding a browser or a script can send. */
function encodings(
  email: string,
  password: string,
): Array<[string, { body?: BodyInit; headers: Record<string, string> }]> {
  const form = new FormData();
  form.set("email", email);
  form.set("password", password);
  return [
    [
      "form",
      {
        body: new URLSearchParams({ email, password }).toString(),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      },
    ],
    ["multipart", { body: form, headers: {} }],
    ["text/plain", { body: JSON.stringify({ email, password }), headers: { "content-type": "text/plain" } }],
    ["none", { body: new TextEncoder().encode(JSON.stringify({ email, password })), headers: {} }],
    ["no body", { headers: {} }],
  ];
}

describe.each(targets)("auth endpoints on %s", (target) => {
  let app: TestConsole;
  const clock = testClock();
  beforeAll(async () => {
    app = await startConsole(target, { clock, security: { trustProxy: 1 } });
    await app.cookie("admin");
  });
  afterAll(() => app.close());

  it("refuse every body that is not JSON with 415 and the error body, so no encoding skips the limits, the lock or the audit", async () => {
    const email = "encoded@test.example";
    await createOperator(app, email);
    // Lock the account with JSON attempts.
    for (let i = 0; i < 10; i++) {
      clock.advance(901); // a new window each time: only the lock may stop it
      expect((await signIn(app, email, "wrong-password", `10.4.0.${i}`)).status).toBe(401);
    }
    expect((await signIn(app, email, testPassword, "10.4.1.1")).status).toBe(429);
    const cookie = await app.cookie("viewer");
    for (const path of [signInPath, "/api/auth/sign-out", "/api/auth/change-password"]) {
      for (const [name, init] of encodings(email, testPassword)) {
        const res = await app.request(path, {
          method: "POST",
          body: init.body,
          headers: { ...init.headers, cookie, "x-forwarded-for": "10.4.2.1" },
        });
        expect(res.status, `${path} ${name}`).toBe(415);
        expect((await res.json()).error, `${path} ${name}`).toEqual({
          code: "unsupported_media_type",
          message: msg.api.jsonOnly,
        });
      }
    }
    // Still locked, the viewer still signed in, and the refused requests changed nothing.
    expect((await signIn(app, email, testPassword, "10.4.1.2")).status).toBe(429);
    expect((await app.request("/api/dashboard", { headers: { cookie } })).status).toBe(200);
    // JSON with a charset is JSON.
    const withCharset = await app.request(signInPath, {
      method: "POST",
      body: JSON.stringify({ email: "viewer@test.example", password: testPassword }),
      headers: { "content-type": "application/json; charset=utf-8", "x-forwarded-for": "10.4.3.1" },
    });
    expect(withCharset.status).toBe(200);
  });

  it("answer 404 on every path the screens do not use, whatever the method", async () => {
    const unused = [
      "sign-up/email",
      "update-user",
      "delete-user",
      "list-sessions",
      "revoke-session",
      "revoke-sessions",
      "revoke-other-sessions",
      "set-password",
      "reset-password",
      "request-password-reset",
      "forget-password",
      "verify-email",
      "send-verification-email",
      "change-email",
      "update-session",
      "list-accounts",
      "unlink-account",
      "link-social",
      "sign-in/social",
      "refresh-token",
      "get-access-token",
      "account-info",
      "ok",
      "error",
      "callback/github",
      "sign-in/email/",
      "get-session/x",
    ];
    const cookie = await app.cookie("admin");
    for (const path of unused) {
      for (const method of ["GET", "POST"]) {
        const res = await app.request(`/api/auth/${path}`, {
          method,
          headers: { cookie },
          ...(method === "POST" ? { json: {} } : {}),
        });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect((await res.json()).error.code).toBe("not_found");
      }
    }
    for (const [method, path] of [
      ["GET", "sign-in/email"],
      ["POST", "get-session"],
      ["GET", "sign-out"],
      ["GET", "change-password"],
    ]) {
      expect(
        (
          await app.request(`/api/auth/${path}`, {
            method,
            headers: { cookie },
            ...(method === "POST" ? { json: {} } : {}),
          })
        ).status,
        `${method} ${path}`,
      ).toBe(404);
    }
  });

  it("a deactivated operator's sign-in is answered like a wrong password and audited, and their password cannot be changed", async () => {
    const email = "deactivated@test.example";
    const id = await createOperator(app, email, "editor");
    const before = cookieOf(await signIn(app, email, testPassword, "10.5.0.1"));
    // A session that outlived its operator's deactivation (say, read from a replica a moment late).
    await app.handle.db.execute(sql`update operator set banned = true where id = ${id}`);
    const change = await app.request("/api/auth/change-password", {
      method: "POST",
      headers: { cookie: before },
      json: { currentPassword: testPassword, newPassword: "a-new-password-1" },
    });
    expect(change.status).toBe(401);
    expect((await change.json()).error.code).toBe("unauthorized");

    const right = await signIn(app, email, testPassword, "10.5.0.2");
    const wrong = await signIn(app, email, "wrong-password", "10.5.0.3");
    expect(right.status).toBe(401);
    expect(await right.text()).toBe(await wrong.text());
    expect(right.headers.getSetCookie()).toEqual([]);
    expect(await auditCount(app, "sign_in_refused", id)).toBe(2); // the right and the wrong password alike
    expect(await app.count(sql`select 1 from operator_session where user_id = ${id}`)).toBe(0);
    // The old password still is the password: nothing was changed.
    await app.handle.db.execute(sql`update operator set banned = false where id = ${id}`);
    expect((await signIn(app, email, testPassword, "10.5.0.4")).status).toBe(200);
  });

  it("a password change follows the policy, checks the current password, is throttled like sign-in and audited", async () => {
    const email = "changer@test.example";
    const id = await createOperator(app, email);
    const cookie = cookieOf(await signIn(app, email, testPassword, "10.6.0.1"));
    const other = cookieOf(await signIn(app, email, testPassword, "10.6.0.2"));
    const change = (json: unknown, ip = "10.6.1.1") =>
      app.request("/api/auth/change-password", { method: "POST", headers: { cookie, "x-forwarded-for": ip }, json });

    const short = await change({
      currentPassword: testPassword,
      newPassword: "x".repeat(passwordPolicy.minLength - 1),
    });
    expect(short.status).toBe(422);
    expect((await short.json()).error.fields).toEqual({ newPassword: passwordMessages.tooShort });
    const long = await change({ currentPassword: testPassword, newPassword: "x".repeat(passwordPolicy.maxLength + 1) });
    expect((await long.json()).error.fields).toEqual({ newPassword: passwordMessages.tooLong });

    const wrong = await change({ currentPassword: "not-my-password", newPassword: "a-new-password-1" });
    expect(wrong.status).toBe(422);
    expect((await wrong.json()).error.fields).toEqual({ currentPassword: passwordMessages.wrongCurrent });
    expect(await auditCount(app, "change_password_failed", id)).toBe(1);

    const ok = await change({
      currentPassword: testPassword,
      newPassword: "a-new-password-1",
      revokeOtherSessions: true,
    });
    expect(ok.status).toBe(200);
    expect(await auditCount(app, "change_password", id)).toBe(1);
    expect((await app.request("/api/dashboard", { headers: { cookie: other } })).status).toBe(401);
    expect((await signIn(app, email, testPassword, "10.6.2.1")).status).toBe(401);
    const fresh = cookieOf(await signIn(app, email, "a-new-password-1", "10.6.2.2"));

    // Guessing the current password hits the account's limit (5 a window) like sign-in does.
    const guess = (i: number) =>
      app.request("/api/auth/change-password", {
        method: "POST",
        headers: { cookie: fresh, "x-forwarded-for": `10.6.3.${i}` },
        json: { currentPassword: `guess-${i}-password`, newPassword: "another-password-2" },
      });
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => guess(i)));
    expect(answers.filter((r) => r.status === 422)).toHaveLength(5);
    const refused = answers.filter((r) => r.status === 429);
    expect(refused).toHaveLength(3);
    expect((await refused[0].json()).error.code).toBe("rate_limited");
    expect(Number(refused[0].headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await auditCount(app, "change_password_blocked", id)).toBe(3);
  });
});

describe.each(targets)("sign-in limits under 100 parallel attempts on %s", (target) => {
  let app: TestConsole;
  beforeAll(async () => {
    app = await startConsole(target, {
      security: { trustProxy: 1, signInMaxPerAccount: 5, signInMaxPerIp: 20, lockoutFailures: 1000 },
    });
    await app.cookie("admin");
  });
  afterAll(() => app.close());

  it("let exactly the account's limit through to the password check, whatever the concurrency", async () => {
    await createOperator(app, "raced@test.example");
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        signIn(app, "raced@test.example", `wrong-${i}-password`, `10.7.${i >> 8}.${i & 255}`),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(95);
    expect(await auditCount(app, "sign_in_failed")).toBe(5);
  });

  it("let exactly the address's limit through to the password check, whatever the concurrency", async () => {
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => signIn(app, `nobody-${i}@test.example`, "wrong-password", "10.8.0.1")),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(80);
  });
});

describe.each(targets)("client address behind proxies on %s", (target) => {
  it("is taken the configured number of hops from the right of X-Forwarded-For, never from the client-written part", async () => {
    const app = await startConsole(target, { security: { trustProxy: 1, signInMaxPerIp: 3 } });
    try {
      // The client writes a different left-most entry each time; the proxy appends the real address.
      for (let i = 0; i < 3; i++) {
        const res = await app.request(signInPath, {
          method: "POST",
          json: { email: `x${i}@test.example`, password: "wrong-password" },
          headers: { "x-forwarded-for": `1.2.3.${i}, 203.0.113.7` },
        });
        expect(res.status).toBe(401);
      }
      const spoofed = await app.request(signInPath, {
        method: "POST",
        json: { email: "x@test.example", password: "wrong-password" },
        headers: { "x-forwarded-for": "198.51.100.1, 203.0.113.7" },
      });
      expect(spoofed.status).toBe(429);
      const addresses = await app.rows<{ ip_address: string }>(
        sql`select distinct ip_address from audit_log where action like 'sign_in%'`,
      );
      expect(addresses.map((r) => r.ip_address)).toEqual(["203.0.113.7"]);
    } finally {
      await app.close();
    }
    const twoHops = await startConsole(target, { security: { trustProxy: 2 } });
    try {
      await twoHops.request(signInPath, {
        method: "POST",
        json: { email: "y@test.example", password: "wrong-password" },
        headers: { "x-forwarded-for": "6.6.6.6, 203.0.113.9, 10.0.0.2" },
      });
      expect(
        (await twoHops.rows<{ ip_address: string }>(sql`select ip_address from audit_log`)).map((r) => r.ip_address),
      ).toEqual(["203.0.113.9"]);
    } finally {
      await twoHops.close();
    }
  });
});

describe("configuration of proxies and passwords", () => {
  it("reads TRUST_PROXY as a hop count and refuses anything else", () => {
    const base = { DATA_DIR: "test-results/config-data" };
    expect(loadConfig({ ...base, TRUST_PROXY: "2" }).security.trustProxy).toBe(2);
    expect(loadConfig({ ...base, TRUST_PROXY: "true" }).security.trustProxy).toBe(1);
    expect(loadConfig({ ...base }).security.trustProxy).toBe(0);
    expect(() => loadConfig({ ...base, TRUST_PROXY: "yes" })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, DEMO_OPERATOR_PASSWORD: "short-pw" })).toThrow(ConfigError);
  });
});

describe.each(targets)("a database outage on %s", (target) => {
  it("is answered 503 with the error body and logged with the request id, never taken for signed out; the session survives it", async () => {
    const lines: Array<{ requestId?: string; msg?: string }> = [];
    const logger = pino({ level: "warn" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const app = await startConsole(target, { logger });
    let restore: (() => Promise<void>) | undefined;
    try {
      const cookie = await app.cookie("viewer");
      expect((await app.request("/api/dashboard", { headers: { cookie } })).status).toBe(200);
      if (target === "postgres") {
        const [{ name }] = await app.rows<{ name: string }>(sql`select current_database() as name`);
        const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await admin.connect();
        await admin.query(`alter database ${name} with allow_connections false`);
        await admin.query(
          "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
          [name],
        );
        restore = async () => {
          await admin.query(`alter database ${name} with allow_connections true`);
          await admin.end();
        };
      } else {
        await app.handle.pglite!.close();
      }
      for (const path of ["/api/dashboard", "/api/auth/get-session"]) {
        const res = await app.request(path, { headers: { cookie, "x-request-id": `outage-${path.length}` } });
        expect(res.status, path).toBe(503);
        expect((await res.json()).error, path).toEqual({ code: "unavailable", message: msg.api.unavailable });
        expect(
          res.headers.getSetCookie().filter((c) => /session_token=;|max-age=0/i.test(c)),
          path,
        ).toEqual([]);
        // The session may come from the few seconds the console keeps it (credential-cache.ts): then
        // the route's own read is the one that fails and is logged.
        expect(
          lines.some((l) => l.requestId === `outage-${path.length}`),
          path,
        ).toBe(true);
      }
      if (restore) {
        await restore();
        restore = undefined;
        expect((await app.request("/api/dashboard", { headers: { cookie } })).status).toBe(200);
      }
    } finally {
      await restore?.();
      if (target === "postgres") await app.close();
    }
  });
});
