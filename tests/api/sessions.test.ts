/**
 * Signed-in sessions (docs/identity.md "Sessions"): an operator lists and ends their own; an admin
 * lists and ends any operator's; a session ended is refused from its next request; tokens never
 * leave the server.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { msg } from "../../src/domain/messages";
import { describeBrowser } from "../../src/server/identity/sessions";
import { startConsole, testPassword, type TestConsole } from "../support/app";
import { targets } from "../support/databases";

const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
const safari =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

describe("describing a browser", () => {
  it("names the browser's major version and the system, and says so when it cannot", () => {
    expect(describeBrowser(firefox)).toBe("Firefox 133 on Linux");
    expect(describeBrowser(safari)).toBe("Safari 18 on iOS");
    expect(describeBrowser(null)).toBe(msg.sessions.unknownBrowser);
    expect(describeBrowser("curl/8.5.0")).toMatch(/curl|Unknown browser/);
  });
});

describe.each(targets)("sessions on %s", (target) => {
  let app: TestConsole;
  beforeAll(async () => {
    // Behind one proxy: a session's address is the X-Forwarded-For entry that proxy wrote.
    app = await startConsole(target, { security: { trustProxy: 1 } });
    await app.cookie("admin");
    await app.cookie("viewer");
  });
  afterAll(() => app.close());

  /** A new session of the viewer from `userAgent` at `ip`: its cookie. */
  async function signInAgain(userAgent: string, ip: string) {
    const res = await app.request("/api/auth/sign-in/email", {
      method: "POST",
      json: { email: "viewer@test.example", password: testPassword },
      headers: { "user-agent": userAgent, "x-forwarded-for": ip },
    });
    expect(res.status).toBe(200);
    return res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
  }
  const as = (cookie: string, init: RequestInit = {}) =>
    app.request("/api/account/sessions", { ...init, headers: { ...init.headers, cookie } });

  it("lists the operator's own sessions, marks this one, and never shows a token", async () => {
    const other = await signInAgain(firefox, "10.1.1.1");
    const mine = await signInAgain(safari, "10.1.1.2");
    const res = await as(mine);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { items: Array<Record<string, unknown>>; total: number };
    expect(body.total).toBeGreaterThanOrEqual(3);
    const current = body.items.filter((s) => s.current);
    expect(current).toHaveLength(1);
    expect(current[0].browser).toBe("Safari 18 on iOS");
    expect(body.items.some((s) => s.browser === "Firefox 133 on Linux")).toBe(true);
    expect(Object.keys(body.items[0]).sort()).toEqual(
      ["browser", "created_at", "current", "expires_at", "id", "ip_address", "last_seen_at", "user_agent"].sort(),
    );
    const tokens = await app.rows<{ token: string }>(sql`select token from operator_session`);
    const text = JSON.stringify(body);
    for (const { token } of tokens) expect(text).not.toContain(token);
    // The other browser still works until its session is ended.
    expect((await as(other)).status).toBe(200);
  });

  it("keeps the address the console trusts as a session's, never one the client wrote", async () => {
    const res = await app.request("/api/auth/sign-in/email", {
      method: "POST",
      json: { email: "viewer@test.example", password: testPassword },
      headers: { "user-agent": firefox, "x-forwarded-for": "6.6.6.6, 10.4.4.1", "x-pedal-client-ip": "6.6.6.6" },
    });
    expect(res.status).toBe(200);
    const addresses = await app.rows<{ ip_address: string | null }>(
      sql`select ip_address from operator_session where ip_address in ('10.4.4.1', '6.6.6.6')`,
    );
    expect(addresses).toEqual([{ ip_address: "10.4.4.1" }]);
  });

  it("keeps the session token in its cookie only: no answer of sign-in, get-session or change-password carries it", async () => {
    const signIn = await app.request("/api/auth/sign-in/email", {
      method: "POST",
      json: { email: "viewer@test.example", password: testPassword },
      headers: { "x-forwarded-for": "10.3.3.3" },
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const signedIn = await signIn.json();
    expect(signedIn.user.email).toBe("viewer@test.example");
    expect(signedIn).not.toHaveProperty("token");
    const session = await (await app.request("/api/auth/get-session", { headers: { cookie } })).json();
    expect(session.user.email).toBe("viewer@test.example");
    expect(session.session).not.toHaveProperty("token");
    const changed = await app.request("/api/auth/change-password", {
      method: "POST",
      json: { currentPassword: testPassword, newPassword: testPassword },
      headers: { cookie, "x-forwarded-for": "10.3.3.3" },
    });
    const changedText = await changed.text();
    const tokens = await app.rows<{ token: string }>(sql`select token from operator_session`);
    for (const { token } of tokens) {
      expect(JSON.stringify(signedIn)).not.toContain(token);
      expect(JSON.stringify(session)).not.toContain(token);
      expect(changedText).not.toContain(token);
    }
  });

  it("ends one of the operator's sessions: that browser is signed out, the others are not", async () => {
    const other = await signInAgain(firefox, "10.2.2.1");
    const mine = await signInAgain(safari, "10.2.2.2");
    const { items } = (await (await as(mine)).json()) as { items: Array<{ id: string; current: boolean }> };
    const otherRows = await app.rows<{ id: string }>(
      sql`select id from operator_session where ip_address = '10.2.2.1'`,
    );
    expect(items.map((s) => s.id)).toContain(otherRows[0].id);
    const ended = await app.request(`/api/account/sessions/${otherRows[0].id}`, {
      method: "DELETE",
      headers: { cookie: mine },
    });
    expect(ended.status).toBe(200);
    expect(await ended.json()).toEqual({ revoked: 1 });
    expect((await as(other)).status).toBe(401);
    expect((await as(mine)).status).toBe(200);
    const audit = await app.rows<{ n: number }>(
      sql`select count(*)::int as n from audit_log where action = 'end_session' and changes->'after'->>'session_id' = ${otherRows[0].id}`,
    );
    expect(audit[0].n).toBe(1);
  });

  it("does not end another operator's session from the account routes (404), nor an unknown one", async () => {
    const [adminSession] = await app.rows<{ id: string }>(
      sql`select s.id from operator_session s join operator o on o.id = s.user_id where o.email = 'admin@test.example' limit 1`,
    );
    const viewer = await app.cookie("viewer");
    const res = await app.request(`/api/account/sessions/${adminSession.id}`, {
      method: "DELETE",
      headers: { cookie: viewer },
    });
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe("not_found");
    expect((await app.read("/api/account/sessions", "admin")).status).toBe(200);
    const unknown = await app.request("/api/account/sessions/no-such-session", { method: "DELETE", as: "viewer" });
    expect(unknown.status).toBe(404);
  });

  it("lets an admin list and end any operator's sessions, and nobody else", async () => {
    const victim = await signInAgain(firefox, "10.3.3.1");
    const [viewer] = await app.rows<{ id: string }>(sql`select id from operator where email = 'viewer@test.example'`);
    const listed = await app.read(`/api/operators/${viewer.id}/sessions`, "admin");
    expect(listed.status).toBe(200);
    const target = (listed.body.items as Array<{ id: string; ip_address: string; current: boolean }>).find(
      (s) => s.ip_address === "10.3.3.1",
    );
    expect(target).toBeDefined();
    expect(target!.current).toBe(false);
    expect((await app.read(`/api/operators/${viewer.id}/sessions`, "editor")).status).toBe(403);
    expect((await app.read(`/api/operators/no-such-operator/sessions`, "admin")).status).toBe(404);
    const ended = await app.request(`/api/operators/${viewer.id}/sessions/${target!.id}`, {
      method: "DELETE",
      as: "admin",
    });
    expect(ended.status).toBe(200);
    expect((await as(victim)).status).toBe(401);
    // The session must be that operator's: another's id under this operator is not found.
    const [adminSession] = await app.rows<{ id: string }>(
      sql`select s.id from operator_session s join operator o on o.id = s.user_id where o.email = 'admin@test.example' limit 1`,
    );
    const mismatch = await app.request(`/api/operators/${viewer.id}/sessions/${adminSession.id}`, {
      method: "DELETE",
      as: "admin",
    });
    expect(mismatch.status).toBe(404);
  });
});
