/**
 * Sign-in throttling and lock, session lifetimes, deactivation and revocation, CSRF, headers,
 * operator management and the audit log (docs/security.md).
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { msg } from "../../src/domain/messages";
import pino from "pino";
import { createApp } from "../../src/server/app";
import { ConfigError, defaultSecurity, loadConfig } from "../../src/server/config";
import { queryRows } from "../../src/server/db/client";
import { pruneSessions } from "../../src/server/security";
import { readSessionDirect } from "../../src/server/session-read";
import { publicUrl, startConsole, testClock, testPassword, type TestConsole } from "../support/app";
import { targets } from "../support/databases";

async function signIn(app: TestConsole, email: string, password: string, ip = "10.9.9.9") {
  return app.request("/api/auth/sign-in/email", {
    method: "POST",
    json: { email, password },
    headers: { "x-forwarded-for": ip },
  });
}
const cookieOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
const auditActions = async (app: TestConsole, action: string) =>
  (
    await queryRows<{ n: number }>(
      app.handle.db,
      sql`select count(*)::int as n from audit_log where action = ${action}`,
    )
  )[0].n;

describe("configuration", () => {
  it("refuses a production start without an explicit auth secret", () => {
    expect(() => loadConfig({ NODE_ENV: "production", DATA_DIR: "/tmp/pedal-never" })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: "production", DATA_DIR: "/tmp/pedal-never" })).toThrow(/BETTER_AUTH_SECRET/);
    expect(loadConfig({ NODE_ENV: "production", BETTER_AUTH_SECRET: "x".repeat(40) }).authSecret).toBe("x".repeat(40));
  });
});

describe.each(targets)("sign-in throttling on %s", (target) => {
  let app: TestConsole;
  const clock = testClock();
  const window = 50;
  beforeAll(async () => {
    app = await startConsole(target, {
      clock,
      security: {
        signInWindowSeconds: window,
        signInMaxPerAccount: 3,
        signInMaxPerIp: 6,
        lockoutFailures: 5,
        lockoutSeconds: 600,
        trustProxy: 1,
      },
    });
    await app.cookie("admin");
    await app.cookie("editor");
    await app.cookie("viewer");
  });
  afterAll(() => app.close());

  it("refuses the n+1-th bad sign-in of an account within the window, with the wait, and lets a good one in after it", async () => {
    for (let i = 0; i < 3; i++)
      expect((await signIn(app, "editor@test.example", "wrong-password", "10.0.0.1")).status).toBe(401);
    const refused = await signIn(app, "editor@test.example", testPassword, "10.0.0.2");
    expect(refused.status).toBe(429);
    const body = await refused.json();
    expect(body.message).toMatch(/^Too many failed sign-in attempts\. Try again in \d+ seconds?\.$/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    clock.advance(window + 1);
    expect((await signIn(app, "editor@test.example", testPassword, "10.0.0.2")).status).toBe(200);
    expect(await auditActions(app, "sign_in_blocked")).toBeGreaterThanOrEqual(1);
  });

  it("limits failures per client address across accounts", async () => {
    for (let i = 0; i < 6; i++) await signIn(app, `nobody${i}@test.example`, "wrong-password", "10.0.0.3");
    const refused = await signIn(app, "viewer@test.example", testPassword, "10.0.0.3");
    expect(refused.status).toBe(429);
    expect((await signIn(app, "viewer@test.example", testPassword, "10.0.0.4")).status).toBe(200);
  });

  /** A new viewer operator made by the admin: its id. */
  async function newViewer(email: string): Promise<string> {
    const created = await app.request("/api/operators", {
      as: "admin",
      method: "POST",
      json: { email, name: email.split("@")[0], role: "viewer", password: testPassword },
    });
    expect(created.status).toBe(201);
    return (await created.json()).id as string;
  }

  it("locks an account after failures in a row until an admin unlocks it", async () => {
    const email = "locked@test.example";
    const id = await newViewer(email);
    for (let i = 0; i < 5; i++) {
      await signIn(app, email, "wrong-password", `10.1.0.${i}`);
      if (i % 3 === 2) clock.advance(window + 1); // stay under the per-window limit: only the lock may stop it
    }
    const refused = await signIn(app, email, testPassword, "10.1.1.1");
    expect(refused.status).toBe(429);
    expect((await refused.json()).message).toMatch(
      /^This account is locked after too many failed sign-ins\. Try again in 10 minutes, or ask an administrator to unlock it\.$/,
    );
    const listed = await (await app.request("/api/operators?q=locked", { as: "admin" })).json();
    expect(listed.items[0].locked_until).not.toBeNull();
    expect((await app.request(`/api/operators/${id}/unlock`, { as: "admin", method: "POST" })).status).toBe(200);
    expect((await signIn(app, email, testPassword, "10.1.1.1")).status).toBe(200);
  });

  it("an admin's unlock also clears the account's window: the right password signs in at once", async () => {
    const email = "window@test.example";
    const id = await newViewer(email);
    for (let i = 0; i < 3; i++) expect((await signIn(app, email, "wrong-password", `10.5.0.${i}`)).status).toBe(401);
    expect((await signIn(app, email, testPassword, "10.5.1.1")).status).toBe(429);
    expect((await app.request(`/api/operators/${id}/unlock`, { as: "admin", method: "POST" })).status).toBe(200);
    expect((await signIn(app, email, testPassword, "10.5.1.2")).status).toBe(200);
  });

  it("records sign-in, failure and sign-out in the audit log, without typed-in unknown emails", async () => {
    await signIn(app, "not-an-operator-secret@test.example", "x", "10.2.0.1");
    const ok = await signIn(app, "viewer@test.example", testPassword, "10.2.0.2");
    await app.request("/api/auth/sign-out", { method: "POST", headers: { cookie: cookieOf(ok) }, json: {} });
    const rows = await queryRows<{ action: string; changes: { after?: { email?: string } } | null }>(
      app.handle.db,
      sql`select action, changes from audit_log where action like 'sign%'`,
    );
    expect(rows.map((r) => r.action)).toEqual(expect.arrayContaining(["sign_in", "sign_in_failed", "sign_out"]));
    expect(JSON.stringify(rows)).not.toContain("not-an-operator-secret");
  });
});

describe.each(targets)("sessions on %s", (target) => {
  it("end after the absolute lifetime even when used", async () => {
    const clock = testClock();
    const app = await startConsole(target, { clock, security: { sessionMaxSeconds: 7200 } });
    try {
      const cookie = await app.cookie("viewer");
      clock.reset(); // the session was created just before now
      expect((await app.request("/api/dashboard", { headers: { cookie } })).status).toBe(200);
      clock.advance(7200 - 60);
      expect((await app.request("/api/dashboard", { headers: { cookie } })).status).toBe(200);
      clock.advance(61);
      expect((await app.request("/api/dashboard", { headers: { cookie } })).status).toBe(401);
      const session = await app.request("/api/auth/get-session", { headers: { cookie } });
      expect(await session.json()).toBeNull();
    } finally {
      await app.close();
    }
  });

  it("end after the idle time without use, and each use pushes the end back", async () => {
    const app = await startConsole(target, { security: { sessionIdleSeconds: 1800 } });
    const expiresIn = async () =>
      (
        await app.rows<{ s: number }>(
          sql`select extract(epoch from (expires_at - now()))::float8 as s from operator_session s join operator o on o.id = s.user_id where o.email = 'viewer@test.example'`,
        )
      )[0].s;
    try {
      const cookie = await app.cookie("viewer");
      expect((await app.request("/api/dashboard", { headers: { cookie } })).status).toBe(200);
      expect(await expiresIn()).toBeGreaterThan(1800 - 60);
      // 20 minutes unused: the next use pushes the end 30 minutes ahead again.
      await app.handle.db.execute(
        sql`update operator_session set expires_at = now() + interval '10 minutes', updated_at = now() - interval '20 minutes'`,
      );
      expect((await app.request("/api/dashboard", { headers: { cookie } })).status).toBe(200);
      expect(await expiresIn()).toBeGreaterThan(1800 - 60);
      // 30 minutes unused: over.
      await app.handle.db.execute(sql`update operator_session set expires_at = now() - interval '1 second'`);
      expect((await app.request("/api/dashboard", { headers: { cookie } })).status).toBe(401);
    } finally {
      await app.close();
    }
  });

  describe("management", () => {
    let app: TestConsole;
    beforeAll(async () => {
      app = await startConsole(target);
    });
    afterAll(() => app.close());

    it("are replaced at sign-in", async () => {
      const first = await app.cookie("editor");
      const again = await app.request("/api/auth/sign-in/email", {
        method: "POST",
        headers: { cookie: first },
        json: { email: "editor@test.example", password: testPassword },
      });
      expect(again.status).toBe(200);
      expect((await app.request("/api/dashboard", { headers: { cookie: first } })).status).toBe(401);
      expect((await app.request("/api/dashboard", { headers: { cookie: cookieOf(again) } })).status).toBe(200);
    });

    it("end when the operator is deactivated, and a deactivated operator cannot sign in", async () => {
      const email = "leaver@test.example";
      const created = await (
        await app.request("/api/operators", {
          as: "admin",
          method: "POST",
          json: { email, name: "Leaver", role: "editor", password: testPassword },
        })
      ).json();
      const cookie = cookieOf(await signIn(app, email, testPassword));
      expect((await app.request("/api/dashboard", { headers: { cookie } })).status).toBe(200);
      const res = await app.request(`/api/operators/${created.id}`, {
        as: "admin",
        method: "PATCH",
        json: { banned: true },
      });
      expect(res.status).toBe(200);
      expect((await res.json()).banned).toBe(true);
      expect((await app.request("/api/dashboard", { headers: { cookie } })).status).toBe(401);
      const refused = await signIn(app, email, testPassword);
      const wrong = await signIn(app, email, "not-the-password");
      expect(refused.status).toBe(401);
      expect(await refused.text()).toBe(await wrong.text());
      expect(refused.headers.getSetCookie()).toEqual([]);
      await app.request(`/api/operators/${created.id}`, { as: "admin", method: "PATCH", json: { banned: false } });
      expect((await signIn(app, email, testPassword)).status).toBe(200);
    });

    it("can be revoked by an admin and by the operator (sign out everywhere)", async () => {
      const email = "traveller@test.example";
      const created = await (
        await app.request("/api/operators", {
          as: "admin",
          method: "POST",
          json: { email, name: "Traveller", role: "viewer", password: testPassword },
        })
      ).json();
      const a = cookieOf(await signIn(app, email, testPassword, "10.3.0.1"));
      const b = cookieOf(await signIn(app, email, testPassword, "10.3.0.2"));
      const revoked = await (
        await app.request(`/api/operators/${created.id}/revoke-sessions`, { as: "admin", method: "POST" })
      ).json();
      expect(revoked.revoked).toBe(2);
      expect((await app.request("/api/dashboard", { headers: { cookie: a } })).status).toBe(401);
      expect((await app.request("/api/dashboard", { headers: { cookie: b } })).status).toBe(401);

      const c1 = cookieOf(await signIn(app, email, testPassword, "10.3.0.3"));
      const c2 = cookieOf(await signIn(app, email, testPassword, "10.3.0.4"));
      const mine = await app.request("/api/account/revoke-sessions", { method: "POST", headers: { cookie: c1 } });
      expect((await mine.json()).revoked).toBe(2);
      expect((await app.request("/api/dashboard", { headers: { cookie: c2 } })).status).toBe(401);
    });

    it("a password reset sets the new password and ends the old sessions", async () => {
      const email = "forgetful@test.example";
      const created = await (
        await app.request("/api/operators", {
          as: "admin",
          method: "POST",
          json: { email, name: "Forgetful", role: "viewer", password: testPassword },
        })
      ).json();
      const cookie = cookieOf(await signIn(app, email, testPassword));
      const reset = await app.request(`/api/operators/${created.id}/reset-password`, {
        as: "admin",
        method: "POST",
        json: { password: "a-brand-new-password" },
      });
      expect(reset.status).toBe(200);
      expect((await app.request("/api/dashboard", { headers: { cookie } })).status).toBe(401);
      expect((await signIn(app, email, testPassword)).status).toBe(401);
      expect((await signIn(app, email, "a-brand-new-password")).status).toBe(200);
      const audit = await queryRows<{ changes: unknown }>(
        app.handle.db,
        sql`select changes from audit_log where action = 'reset_password'`,
      );
      expect(JSON.stringify(audit)).not.toContain("a-brand-new-password");
    });

    it("an admin cannot reset their own password without the current one (403); Change password is the way", async () => {
      const email = "self-reset@test.example";
      await app.request("/api/operators", {
        as: "admin",
        method: "POST",
        json: { email, name: "Self", role: "admin", password: testPassword },
      });
      const cookie = cookieOf(await signIn(app, email, testPassword));
      const [{ id }] = await queryRows<{ id: string }>(
        app.handle.db,
        sql`select id from operator where email = ${email}`,
      );
      const before = await queryRows<{ n: number }>(
        app.handle.db,
        sql`select count(*)::int as n from audit_log where action = 'reset_password'`,
      );
      const res = await app.request(`/api/operators/${id}/reset-password`, {
        method: "POST",
        headers: { cookie },
        json: { password: "taken-over-password" },
      });
      expect(res.status).toBe(403);
      expect((await res.json()).error).toEqual({ code: "forbidden", message: msg.operators.notSelfReset });
      expect((await app.request("/api/dashboard", { headers: { cookie } })).status).toBe(200);
      expect((await signIn(app, email, "taken-over-password")).status).toBe(401);
      expect((await signIn(app, email, testPassword)).status).toBe(200);
      expect(
        await queryRows(app.handle.db, sql`select count(*)::int as n from audit_log where action = 'reset_password'`),
      ).toEqual(before);
    });

    it("writes no audit row for an operator change that changes nothing", async () => {
      const email = "steady@test.example";
      const created = await (
        await app.request("/api/operators", {
          as: "admin",
          method: "POST",
          json: { email, name: "Steady", role: "viewer", password: testPassword },
        })
      ).json();
      const rowsOf = () =>
        queryRows<{ changes: unknown }>(
          app.handle.db,
          sql`select changes from audit_log where action = 'update' and entity = 'operator' and entity_id = ${created.id}`,
        );
      for (const patch of [
        { name: "Steady" },
        { role: "viewer" },
        { banned: false },
        { name: "  Steady  ", role: "viewer", banned: false },
      ]) {
        const res = await app.request(`/api/operators/${created.id}`, { as: "admin", method: "PATCH", json: patch });
        expect(res.status).toBe(200);
      }
      expect(await rowsOf()).toEqual([]);
      await app.request(`/api/operators/${created.id}`, {
        as: "admin",
        method: "PATCH",
        json: { name: "Steady", role: "editor" },
      });
      expect(await rowsOf()).toEqual([{ changes: { before: { role: "viewer" }, after: { role: "editor" } } }]);
    });

    it("prunes expired sessions and stale sign-in counters, keeping live ones and locks", async () => {
      const live = await app.cookie("viewer");
      const [{ id }] = await queryRows<{ id: string }>(
        app.handle.db,
        sql`select id from operator where email = 'viewer@test.example'`,
      );
      await app.handle.db.execute(
        sql`insert into operator_session (id, expires_at, token, user_id) values ('old-session', now() - interval '1 minute', 'old-token', ${id})`,
      );
      await app.handle.db.execute(
        sql`insert into auth_throttle (key, failures, updated_at) values ('ip:stale', 3, now() - interval '2 days')`,
      );
      await app.handle.db.execute(
        sql`insert into auth_throttle (key, failures, updated_at, locked_until) values ('account:still-locked', 10, now() - interval '2 days', now() + interval '1 hour')`,
      );
      await pruneSessions(app.handle.db);
      const left = await queryRows<{ key: string }>(
        app.handle.db,
        sql`select key from auth_throttle where key in ('ip:stale', 'account:still-locked')`,
      );
      expect(left.map((r) => r.key)).toEqual(["account:still-locked"]);
      expect(
        (
          await queryRows<{ n: number }>(
            app.handle.db,
            sql`select count(*)::int as n from operator_session where token = 'old-token'`,
          )
        )[0].n,
      ).toBe(0);
      expect((await app.request("/api/dashboard", { headers: { cookie: live } })).status).toBe(200);
    });

    it("sets httpOnly, SameSite=Lax cookies", async () => {
      const res = await signIn(app, "editor@test.example", testPassword);
      const cookie = res.headers.getSetCookie().find((c) => c.includes("session_token"))!;
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
    });

    it("are read in one statement exactly as better-auth reads them, and every other case is left to it", async () => {
      const email = "reader@test.example";
      await app.request("/api/operators", {
        as: "admin",
        method: "POST",
        json: { email, name: "Reader", role: "editor", password: testPassword },
      });
      const cookie = cookieOf(await signIn(app, email, testPassword));
      const library = await app.auth.api.getSession({ headers: new Headers({ cookie }) });
      const direct = await readSessionDirect(app.handle.db, app.auth, cookie);
      expect(library?.user.email).toBe(email);
      expect(direct).toEqual(library);
      expect(JSON.stringify(direct)).toBe(JSON.stringify(library));

      // Not read directly: a bad or missing signature, an unknown session, a cookie better-auth acts on.
      const [name, value] = cookie.split(/=(.*)/s);
      const token = decodeURIComponent(value).split(".")[0];
      const forged = `${name}=${encodeURIComponent(`${token}.${"A".repeat(43)}=`)}`;
      const unsigned = `${name}=${token}`;
      for (const other of [
        forged,
        unsigned,
        `${name}=${encodeURIComponent(`x${decodeURIComponent(value)}`)}`,
        `${cookie}; pedal.dont_remember=x`,
        `${cookie}; pedal.session_data=x`,
        "",
      ]) {
        expect(await readSessionDirect(app.handle.db, app.auth, other)).toBeUndefined();
      }
      expect((await app.request("/api/dashboard", { headers: { cookie: forged } })).status).toBe(401);
      expect((await app.request("/api/dashboard", { headers: { cookie: unsigned } })).status).toBe(401);

      // Due for its sliding refresh: better-auth extends it and sets the cookie again.
      await app.handle.db.execute(
        sql`update operator_session set expires_at = expires_at - interval '5 minutes' where token = ${token}`,
      );
      expect(await readSessionDirect(app.handle.db, app.auth, cookie)).toBeUndefined();
      const refreshed = await app.request("/api/dashboard", { headers: { cookie } });
      expect(refreshed.status).toBe(200);
      expect(refreshed.headers.getSetCookie().some((c) => c.startsWith(`${name}=`))).toBe(true);
      expect(await readSessionDirect(app.handle.db, app.auth, cookie)).toEqual(
        await app.auth.api.getSession({ headers: new Headers({ cookie }) }),
      );

      // Expired: better-auth deletes it and clears the cookie.
      await app.handle.db.execute(
        sql`update operator_session set expires_at = now() - interval '1 second' where token = ${token}`,
      );
      expect(await readSessionDirect(app.handle.db, app.auth, cookie)).toBeUndefined();
      const expired = await app.request("/api/dashboard", { headers: { cookie } });
      expect(expired.status).toBe(401);
      expect(await app.count(sql`select 1 from operator_session where token = ${token}`)).toBe(0);
    });
  });
});

describe.each(targets)("requests and operators on %s", (target) => {
  let app: TestConsole;
  beforeAll(async () => {
    app = await startConsole(target);
  });
  afterAll(() => app.close());

  it("refuses state-changing requests from another origin or without one (CSRF)", async () => {
    const json = { customer_name: "Cross site" };
    const foreign = await app.request("/api/customers", {
      as: "admin",
      method: "POST",
      json,
      headers: { origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    expect((await foreign.json()).error.message).toBe(msg.api.crossOrigin);
    expect((await app.request("/api/customers", { as: "admin", method: "POST", json, noOrigin: true })).status).toBe(
      403,
    );
    const viaReferer = await app.request("/api/customers", {
      as: "admin",
      method: "POST",
      json,
      noOrigin: true,
      headers: { referer: `${publicUrl}/customers/add` },
    });
    expect(viaReferer.status).toBe(201);
    const [row] = await queryRows<{ n: number }>(
      app.handle.db,
      sql`select count(*)::int as n from customers where customer_name = 'Cross site'`,
    );
    expect(row.n).toBe(1);
    // The same machine under its other loopback name is the same console.
    const twin = await app.request("/api/customers", {
      as: "admin",
      method: "POST",
      json: { customer_name: "Loopback twin" },
      headers: { origin: "http://127.0.0.1:3999" },
    });
    expect(twin.status).toBe(201);
    // Reads need no Origin.
    expect((await app.request("/api/dashboard", { as: "admin", noOrigin: true })).status).toBe(200);
  });

  it("sends the security headers", async () => {
    // An API answer (OWASP's REST set): loads nothing, framed by no one, read by no other site.
    const api: Array<[string, Response]> = [
      ["a page", await app.request("/api/dashboard", { as: "viewer" })],
      ["an error", await app.request("/api/customers/00000000-0000-4000-8000-000000000000", { as: "viewer" })],
      ["an export", await app.request("/api/customers/export.csv", { as: "viewer" })],
      ["a refusal", await app.request("/api/dashboard", { noOrigin: true })],
      ["better-auth's", await app.request("/api/auth/get-session", { as: "viewer" })],
    ];
    expect(api.map(([, r]) => r.status)).toEqual([200, 404, 200, 401, 200]);
    for (const [kind, res] of api) {
      expect(res.headers.get("content-security-policy"), kind).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers.get("x-content-type-options"), kind).toBe("nosniff");
      expect(res.headers.get("x-frame-options"), kind).toBe("DENY");
      expect(res.headers.get("cross-origin-resource-policy"), kind).toBe("same-origin");
      expect(res.headers.get("referrer-policy"), kind).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("cross-origin-opener-policy"), kind).toBeNull();
      expect(res.headers.get("x-request-id"), kind).toMatch(/^[0-9a-f-]{36}$/);
      // HSTS only where the console is served over https.
      expect(res.headers.get("strict-transport-security"), kind).toBeNull();
    }
    // A page, and the API's documentation viewer: what a document may load, with no inline script.
    for (const path of ["/healthz", "/api/docs"]) {
      const res = await app.request(path, { as: "viewer" });
      expect(res.status, path).toBe(200);
      const csp = res.headers.get("content-security-policy")!;
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).not.toContain("unsafe-inline");
      expect(res.headers.get("cross-origin-opener-policy"), path).toBe("same-origin");
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.headers.get("x-frame-options"), path).toBe("DENY");
      expect(res.headers.get("referrer-policy"), path).toBe("strict-origin-when-cross-origin");
    }
    // A client's own request id is kept when it is a plain token, replaced when it is not.
    const given = await app.request("/api/dashboard", { as: "viewer", headers: { "x-request-id": "trace-7=a" } });
    expect(given.headers.get("x-request-id")).toBe("trace-7=a");
    const odd = await app.request("/api/dashboard", { as: "viewer", headers: { "x-request-id": "a b<c>" } });
    expect(odd.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const https = createApp({
      db: app.handle.db,
      config: { authSecret: "s".repeat(40), publicUrl: "https://console.example", security: defaultSecurity },
      logger: pino({ level: "silent" }),
    });
    expect((await https.app.request("/healthz")).headers.get("strict-transport-security")).toBe(
      "max-age=15552000; includeSubDomains",
    );
  });

  it("serves only the auth endpoints the console uses", async () => {
    for (const path of ["/api/auth/sign-up/email", "/api/auth/update-user", "/api/auth/list-sessions"]) {
      const res = await app.request(path, { method: "POST", json: {} });
      expect(res.status, path).toBe(404);
    }
  });

  it("manages operators: duplicate email 409, validation 422, no self-demotion, role change takes effect", async () => {
    const create = (json: unknown) => app.request("/api/operators", { as: "admin", method: "POST", json });
    const first = await create({ email: "Staff@Test.example", name: "Staff", role: "viewer", password: testPassword });
    expect(first.status).toBe(201);
    const staff = await first.json();
    expect(staff.email).toBe("staff@test.example");
    expect(
      (await create({ email: "staff@test.example", name: "Again", role: "viewer", password: testPassword })).status,
    ).toBe(409);
    const bad = await create({ email: "nope", name: "", role: "root", password: "short", extra: 1 });
    expect(bad.status).toBe(422);
    expect(Object.keys((await bad.json()).error.fields)).toEqual(
      expect.arrayContaining(["email", "name", "role", "password"]),
    );

    const adminSession = await (await app.request("/api/auth/get-session", { as: "admin" })).json();
    const self = await app.request(`/api/operators/${adminSession.user.id}`, {
      as: "admin",
      method: "PATCH",
      json: { role: "viewer" },
    });
    expect(self.status).toBe(422);
    expect((await self.json()).error.message).toBe(msg.operators.notSelf);

    const cookie = cookieOf(await signIn(app, "staff@test.example", testPassword));
    expect(
      (
        await app.request("/api/customers", {
          method: "POST",
          headers: { cookie },
          json: { customer_name: "By a viewer" },
        })
      ).status,
    ).toBe(403);
    expect(
      (await app.request(`/api/operators/${staff.id}`, { as: "admin", method: "PATCH", json: { role: "editor" } }))
        .status,
    ).toBe(200);
    expect(
      (
        await app.request("/api/customers", {
          method: "POST",
          headers: { cookie },
          json: { customer_name: "By an editor" },
        })
      ).status,
    ).toBe(201);
    expect((await app.request("/api/operators", { headers: { cookie } })).status).toBe(403);
  });

  it("filters the audit log and keeps its rows unchangeable", async () => {
    const created = await (
      await app.request("/api/customers", { as: "editor", method: "POST", json: { customer_name: "Audited Ltd" } })
    ).json();
    await app.request(`/api/customers/${created.customer_id}`, {
      as: "editor",
      method: "PATCH",
      json: { status: "inactive" },
    });
    const history = await (
      await app.request(`/api/audit?entity=customer&entity_id=${created.customer_id}`, { as: "admin" })
    ).json();
    expect(history.total).toBe(2);
    expect(history.items.map((r: { action: string }) => r.action)).toEqual(["update", "create"]);
    // The record kit audits the fields that changed with the record's updated_at (one rule for every entity).
    expect(history.items[0].changes).toEqual({
      before: { status: "active", updated_at: expect.any(String) },
      after: { status: "inactive", updated_at: expect.any(String) },
    });
    expect(history.items[0].operator_email).toBe("editor@test.example");
    const today = new Date().toISOString().slice(0, 10);
    expect(
      (
        await (
          await app.request(`/api/audit?action=update&entity=customer&from=${today}&to=${today}`, { as: "admin" })
        ).json()
      ).total,
    ).toBeGreaterThanOrEqual(1);
    expect((await (await app.request(`/api/audit?entity=customer&to=2000-01-01`, { as: "admin" })).json()).total).toBe(
      0,
    );
    expect((await app.request("/api/audit", { as: "editor" })).status).toBe(403);
    await expect(app.handle.db.execute(sql`update audit_log set action = 'forged'`)).rejects.toThrow();
    await expect(app.handle.db.execute(sql`delete from audit_log`)).rejects.toThrow();
    await expect(app.handle.db.execute(sql`truncate audit_log`)).rejects.toThrow();
    expect(await auditActions(app, "forged")).toBe(0);
  });
});
