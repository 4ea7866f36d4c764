/**
 * Confirming it is you (docs/identity.md): an admin action on operators' credentials needs a
 * session that signed in or confirmed within 10 minutes. Which routes ask is read from the route
 * table (`reauth`); each of them answers a stale admin session 403 `reauthentication_required` and
 * changes nothing. Time moves with the console's clock, not by sleeping.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { generateSync } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { msg } from "../../src/domain/messages";
import { createOperator } from "../../src/server/auth";
import { routeTable } from "../../src/server/http/route";
import { cookiesOf, startConsole, testClock, testPassword, type TestClock, type TestConsole } from "../support/app";
import { targets } from "../support/databases";
import { fillPath, paramsOf } from "../support/derive-rows";

const minutes = (n: number) => n * 60;

describe.each(targets)("confirming it is you on %s", (target) => {
  let app: TestConsole;
  let clock: TestClock;
  beforeAll(async () => {
    clock = testClock();
    app = await startConsole(target, { clock });
  });
  afterAll(() => app.close());

  const post = (path: string, json: unknown, cookie: string) =>
    app.request(path, { method: "POST", json, headers: { cookie } });

  /** A new admin, signed in now: its id, email and session cookie. */
  async function admin() {
    const email = `reauth-${randomUUID().slice(0, 8)}@test.example`;
    const id = await createOperator(app.handle.db, { email, password: testPassword, role: "admin" });
    const res = await app.request("/api/auth/sign-in/email", {
      method: "POST",
      json: { email, password: testPassword },
    });
    expect(res.status).toBe(200);
    return { id, email, cookie: cookiesOf(res) };
  }
  /** Another operator, the one the admin acts on. */
  const otherOperator = async () =>
    createOperator(app.handle.db, {
      email: `target-${randomUUID().slice(0, 8)}@test.example`,
      password: testPassword,
      role: "viewer",
    });
  const audits = (action: string, id: string) =>
    app.count(sql`select 1 from audit_log where action = ${action} and entity_id = ${id}`);

  it("asks again 10 minutes after sign-in, takes the password, then lets the admin act for 10 minutes", async () => {
    clock.reset();
    const me = await admin();
    const other = await otherOperator();
    const reset = () => post(`/api/operators/${other}/reset-password`, { password: "a-new-password-123" }, me.cookie);
    clock.advance(minutes(9));
    expect((await post(`/api/operators/${other}/unlock`, {}, me.cookie)).status).toBe(200); // signed in 9 minutes ago

    clock.advance(minutes(2));
    const asked = await reset();
    expect(asked.status).toBe(403);
    expect((await asked.json()).error).toEqual({
      code: "reauthentication_required",
      message: msg.reauth.required,
    });
    expect(await audits("reset_password", other)).toBe(0);

    const wrong = await post("/api/account/reauthenticate", { current_password: "not-my-password" }, me.cookie);
    expect(wrong.status).toBe(422);
    expect((await wrong.json()).error.fields).toEqual({ current_password: msg.reauth.wrongPassword });
    expect((await reset()).status).toBe(403);
    expect(await audits("reauthenticate_failed", me.id)).toBe(1);

    const right = await post("/api/account/reauthenticate", { current_password: testPassword }, me.cookie);
    expect(right.status).toBe(200);
    const { confirmed_until } = await right.json();
    expect(new Date(confirmed_until).getTime()).toBe(clock().getTime() + minutes(10) * 1000);
    expect(await audits("reauthenticate", me.id)).toBe(1);
    expect((await reset()).status).toBe(200);

    clock.advance(minutes(11));
    expect((await reset()).status).toBe(403);
    clock.reset();
  });

  it("takes a current code of the authenticator app instead, once", async () => {
    clock.reset();
    const me = await admin();
    const enabled = await post("/api/auth/two-factor/enable", { password: testPassword }, me.cookie);
    const secret = new URL((await enabled.json()).totpURI).searchParams.get("secret")!;
    const verified = await post("/api/auth/two-factor/verify-totp", { code: generateSync({ secret }) }, me.cookie);
    expect(verified.status).toBe(200);
    const cookie = cookiesOf(verified, me.cookie);
    const other = await otherOperator();
    clock.advance(minutes(11));
    expect((await post(`/api/operators/${other}/revoke-sessions`, {}, cookie)).status).toBe(403);
    const code = generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    const confirmed = await post("/api/account/reauthenticate", { code }, cookie);
    expect(confirmed.status, await confirmed.clone().text()).toBe(200);
    const replay = await post("/api/account/reauthenticate", { code }, cookie);
    expect(replay.status).toBe(422);
    expect((await post(`/api/operators/${other}/revoke-sessions`, {}, cookie)).status).toBe(200);
    clock.reset();
  });

  it("ends the session at the fifth wrong answer in a row", async () => {
    const me = await admin();
    for (let i = 1; i <= 4; i++)
      expect((await post("/api/account/reauthenticate", { current_password: `wrong-${i}` }, me.cookie)).status).toBe(
        422,
      );
    const fifth = await post("/api/account/reauthenticate", { current_password: "wrong-5" }, me.cookie);
    expect(fifth.status).toBe(401);
    expect((await fifth.json()).error.message).toBe(msg.reauth.ended);
    expect((await app.request("/api/account/sessions", { headers: { cookie: me.cookie } })).status).toBe(401);
  });

  it("is asked by every admin route that changes credentials, today's and tomorrow's", async () => {
    const asking = routeTable.filter((r) => r.reauth);
    // Exactly the admin writes where credentials are made and changed: operators', API tokens, and
    // customers' directory (SCIM) tokens.
    expect(asking.map((r) => `${r.method} ${r.path}`).sort()).toEqual(
      routeTable
        .filter(
          (r) =>
            r.access === "admin" &&
            r.method !== "GET" &&
            /^\/api\/((operators|api-tokens)(\/|$)|customers\/\{customerId\}\/directory-tokens)/.test(r.path),
        )
        .map((r) => `${r.method} ${r.path}`)
        .sort(),
    );
    expect(asking.length).toBeGreaterThanOrEqual(8);
    clock.reset();
    const me = await admin();
    const other = await otherOperator();
    clock.advance(minutes(11));
    const answers: string[] = [];
    for (const route of asking) {
      const path = fillPath(route.path, Object.fromEntries(paramsOf(route.path).map((p) => [p, other])));
      const res = await app.request(path, { method: route.method, json: {}, headers: { cookie: me.cookie } });
      const code = res.status === 403 ? (await res.json()).error.code : res.status;
      answers.push(`${route.method} ${route.path} ${code}`);
    }
    expect(answers).toEqual(asking.map((r) => `${r.method} ${r.path} reauthentication_required`));
    clock.reset();
  });
});
