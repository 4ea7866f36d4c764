/**
 * Two-factor sign-in (docs/identity.md "Two-factor sign-in (TOTP)"): enrolment, the code step of
 * sign-in, recovery codes, replay, clock skew, the throttle and lock, REQUIRE_MFA and the admin
 * reset. Codes are computed from the secret in the totpURI with otplib.
 *
 * The plugin checks codes against the system time, so only `Date` is faked (it keeps running in
 * real time): each test starts 10 s into a fresh 30-second step, and codes of a neighbouring step
 * are then the same whenever the check runs. Sign-in limits follow the test clock, as elsewhere.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { generateSync } from "otplib";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { msg } from "../../src/domain/messages";
import { createOperator } from "../../src/server/auth";
import { routeTable } from "../../src/server/http/route";
import { newApiToken } from "../../src/server/tokens";
import type { OperatorRole } from "../../src/domain/enums";
import { cookiesOf, startConsole, testClock, testPassword, type TestConsole } from "../support/app";
import { targets } from "../support/databases";

const step = 30;

/** Moves the system time to 10 s into the next 30-second step (it keeps running from there). */
function freshStep() {
  const now = Date.now();
  const next = (Math.floor(now / 1000 / step) + 1) * step * 1000;
  vi.setSystemTime(next + 10_000);
}

/** The code of `secret` for the step `offset` steps away from now. */
function codeAt(secret: string, offset = 0): string {
  return generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + offset * step });
}

let counter = 0;

function harness(getApp: () => TestConsole) {
  const post = (path: string, json: unknown, cookie = "", ip = "10.20.0.1") =>
    getApp().request(path, {
      method: "POST",
      json,
      headers: { ...(cookie ? { cookie } : {}), "x-forwarded-for": ip },
    });
  const get = (path: string, cookie: string) => getApp().request(path, { headers: { cookie } });

  async function newOperator(role: OperatorRole = "editor") {
    const email = `mfa-${++counter}-${role}@test.example`;
    const id = await createOperator(getApp().handle.db, { email, password: testPassword, role });
    return { id, email };
  }

  /** Password sign-in: the answer and the cookies it set. */
  async function password(email: string, ip = "10.20.0.1") {
    const res = await post("/api/auth/sign-in/email", { email, password: testPassword }, "", ip);
    return { res, body: await res.clone().json(), cookie: cookiesOf(res) };
  }

  /** Signs in (no second factor yet), sets up an authenticator app with the code of the previous step. */
  async function enrol(email: string, ip = "10.20.0.1") {
    const { cookie } = await password(email, ip);
    const enabled = await post("/api/auth/two-factor/enable", { password: testPassword }, cookie, ip);
    expect(enabled.status).toBe(200);
    const { totpURI, backupCodes } = (await enabled.json()) as { totpURI: string; backupCodes: string[] };
    const secret = new URL(totpURI).searchParams.get("secret")!;
    const verified = await post("/api/auth/two-factor/verify-totp", { code: codeAt(secret, -1) }, cookie, ip);
    expect(verified.status).toBe(200);
    return { secret, backupCodes, totpURI, cookie: cookiesOf(verified, cookie) };
  }

  const audits = (action: string, id: string) =>
    getApp().rows<{ changes: { after?: Record<string, unknown> } | null; operator_id: string | null }>(
      sql`select changes, operator_id from audit_log where action = ${action} and entity_id = ${id} order by created_at`,
    );

  return { post, get, newOperator, password, enrol, audits };
}

describe.each(targets)("two-factor sign-in on %s", (target) => {
  let app: TestConsole;
  const clock = testClock();
  const window = 60;
  const h = harness(() => app);
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    app = await startConsole(target, {
      clock,
      security: {
        signInWindowSeconds: window,
        signInMaxPerAccount: 4,
        signInMaxPerIp: 50,
        lockoutFailures: 6,
        lockoutSeconds: 600,
        trustProxy: 1,
      },
    });
  });
  beforeEach(() => freshStep());
  afterAll(async () => {
    await app.close();
    vi.useRealTimers();
  });

  it("sets up an authenticator app: password, QR URI and ten recovery codes stored hashed, confirmed by a code", async () => {
    const op = await h.newOperator();
    const { cookie } = await h.password(op.email, "10.20.1.1");
    const before = await h.get("/api/account/two-factor", cookie);
    expect(await before.json()).toEqual({ enabled: false, required: false, setupRequired: false });

    const wrong = await h.post("/api/auth/two-factor/enable", { password: "not-the-password" }, cookie, "10.20.1.1");
    expect(wrong.status).toBe(422);
    expect((await wrong.json()).error.fields.password).toBeTruthy();

    const enabled = await h.post("/api/auth/two-factor/enable", { password: testPassword }, cookie, "10.20.1.1");
    expect(enabled.status).toBe(200);
    const { totpURI, backupCodes } = await enabled.json();
    expect(totpURI).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    expect(totpURI).toContain("Pedal%20Console");
    expect(backupCodes).toHaveLength(10);
    const [stored] = await app.rows<{ backup_codes: string; secret: string }>(
      sql`select backup_codes, secret from operator_two_factor where user_id = ${op.id}`,
    );
    const secret = new URL(totpURI).searchParams.get("secret")!;
    for (const code of backupCodes) expect(stored.backup_codes).not.toContain(code);
    expect(stored.secret).not.toContain(secret);
    // Not on until a code confirms it.
    expect((await (await h.get("/api/account/two-factor", cookie)).json()).enabled).toBe(false);

    const badCode = await h.post("/api/auth/two-factor/verify-totp", { code: "000000" }, cookie, "10.20.1.1");
    expect(badCode.status).toBe(401);
    expect((await badCode.json()).error).toMatchObject({ code: "invalid_code", message: msg.twoFactor.wrongCode });
    const malformed = await h.post("/api/auth/two-factor/verify-totp", { code: "12ab56" }, cookie, "10.20.1.1");
    expect(malformed.status).toBe(422);

    const ok = await h.post("/api/auth/two-factor/verify-totp", { code: codeAt(secret) }, cookie, "10.20.1.1");
    expect(ok.status).toBe(200);
    const session = cookiesOf(ok, cookie);
    expect(await (await h.get("/api/account/two-factor", session)).json()).toEqual({
      enabled: true,
      required: false,
      setupRequired: false,
    });
    const [row] = await app.rows<{ two_factor_enabled: boolean }>(
      sql`select two_factor_enabled from operator where id = ${op.id}`,
    );
    expect(row.two_factor_enabled).toBe(true);
    expect(await h.audits("two_factor_enabled", op.id)).toHaveLength(1);
    const again = await h.post("/api/auth/two-factor/enable", { password: testPassword }, session, "10.20.1.1");
    expect(again.status).toBe(409);
    // Nothing secret in the audit log.
    const all = await app.rows<{ t: string }>(sql`select changes::text as t from audit_log where entity_id = ${op.id}`);
    for (const r of all) for (const code of [...backupCodes, secret]) expect(r.t ?? "").not.toContain(code);
  });

  it("asks for the code after a correct password: no session until then, a wrong code audited, the right one signs in", async () => {
    const op = await h.newOperator();
    const { secret } = await h.enrol(op.email, "10.20.2.1");
    const signInsBefore = (await h.audits("sign_in", op.id)).length;

    const first = await h.password(op.email, "10.20.2.2");
    expect(first.res.status).toBe(200);
    expect(first.body).toMatchObject({ twoFactorRedirect: true });
    expect(first.cookie).toMatch(/pedal\.two_factor=/);
    expect(first.cookie).not.toMatch(/pedal\.session_token=/);
    expect((await h.get("/api/account/two-factor", first.cookie)).status).toBe(401);
    expect(await h.audits("sign_in", op.id)).toHaveLength(signInsBefore);

    const wrong = await h.post("/api/auth/two-factor/verify-totp", { code: "123456" }, first.cookie, "10.20.2.2");
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).error.code).toBe("invalid_code");
    const failed = await h.audits("sign_in_failed", op.id);
    expect(failed.at(-1)?.changes?.after).toEqual({ step: "code" });

    const right = await h.post("/api/auth/two-factor/verify-totp", { code: codeAt(secret) }, first.cookie, "10.20.2.2");
    expect(right.status).toBe(200);
    const session = cookiesOf(right, first.cookie);
    expect(session).toMatch(/pedal\.session_token=/);
    expect((await h.get("/api/account/two-factor", session)).status).toBe(200);
    const signIns = await h.audits("sign_in", op.id);
    expect(signIns).toHaveLength(signInsBefore + 1);
    expect(signIns.at(-1)?.operator_id).toBe(op.id);
    // The counters were forgiven: the account's row is gone.
    expect(await app.count(sql`select 1 from auth_throttle where key = ${"account:" + op.email}`)).toBe(0);
  });

  it("accepts a recovery code once, then refuses it", async () => {
    const op = await h.newOperator();
    const { backupCodes } = await h.enrol(op.email, "10.20.3.1");
    const first = await h.password(op.email, "10.20.3.2");
    const used = await h.post(
      "/api/auth/two-factor/verify-backup-code",
      { code: backupCodes[3] },
      first.cookie,
      "10.20.3.2",
    );
    expect(used.status).toBe(200);
    expect(cookiesOf(used, first.cookie)).toMatch(/pedal\.session_token=/);
    expect((await h.audits("sign_in", op.id)).at(-1)?.changes?.after).toEqual({
      step: "code",
      method: "recovery_code",
    });

    const second = await h.password(op.email, "10.20.3.3");
    const again = await h.post(
      "/api/auth/two-factor/verify-backup-code",
      { code: backupCodes[3] },
      second.cookie,
      "10.20.3.3",
    );
    expect(again.status).toBe(401);
    expect((await again.json()).error).toMatchObject({
      code: "invalid_code",
      message: msg.twoFactor.wrongRecoveryCode,
    });
    // Another code still works, typed without its dash; the stored hashes cannot be typed instead.
    const [stored] = await app.rows<{ backup_codes: string }>(
      sql`select backup_codes from operator_two_factor where user_id = ${op.id}`,
    );
    const hash = (JSON.parse(stored.backup_codes) as string[])[0];
    const byHash = await h.post("/api/auth/two-factor/verify-backup-code", { code: hash }, second.cookie, "10.20.3.3");
    expect(byHash.status).toBe(422);
    const other = await h.post(
      "/api/auth/two-factor/verify-backup-code",
      { code: backupCodes[5].replace("-", "") },
      second.cookie,
      "10.20.3.3",
    );
    expect(other.status).toBe(200);
  });

  it("refuses a code already used, for the rest of its window", async () => {
    const op = await h.newOperator();
    const { secret } = await h.enrol(op.email, "10.20.4.1");
    const code = codeAt(secret);
    const first = await h.password(op.email, "10.20.4.2");
    expect((await h.post("/api/auth/two-factor/verify-totp", { code }, first.cookie, "10.20.4.2")).status).toBe(200);
    const second = await h.password(op.email, "10.20.4.3");
    const replay = await h.post("/api/auth/two-factor/verify-totp", { code }, second.cookie, "10.20.4.3");
    expect(replay.status).toBe(401);
    expect((await replay.json()).error).toMatchObject({ code: "invalid_code", message: msg.twoFactor.codeUsed });
    // The code used when setting up is refused as well.
    const setupCode = codeAt(secret, -1);
    const replaySetup = await h.post(
      "/api/auth/two-factor/verify-totp",
      { code: setupCode },
      second.cookie,
      "10.20.4.3",
    );
    expect(replaySetup.status).toBe(401);
    // The next code is fine.
    const next = await h.post(
      "/api/auth/two-factor/verify-totp",
      { code: codeAt(secret, 1) },
      second.cookie,
      "10.20.4.3",
    );
    expect(next.status).toBe(200);
    expect(
      await app.count(sql`select 1 from operator_totp_used where operator_id = ${op.id} and code_hash = ${code}`),
    ).toBe(0); // stored as an HMAC, never as the code
  });

  it("accepts one step of clock skew either way and refuses two", async () => {
    const op = await h.newOperator();
    const { secret } = await h.enrol(op.email, "10.20.5.1");
    // The setup used the code of the previous step: move on three steps so that each code is new.
    vi.setSystemTime(Date.now() + 3 * step * 1000);
    const pending = await h.password(op.email, "10.20.5.2");
    expect(pending.body.twoFactorRedirect).toBe(true);
    for (const [offset, status] of [
      [2, 401],
      [-2, 401],
      [1, 200],
    ] as const) {
      const res = await h.post(
        "/api/auth/two-factor/verify-totp",
        { code: codeAt(secret, offset) },
        pending.cookie,
        "10.20.5.2",
      );
      expect(res.status, `offset ${offset}`).toBe(status);
    }
    const again = await h.password(op.email, "10.20.5.3");
    const late = await h.post(
      "/api/auth/two-factor/verify-totp",
      { code: codeAt(secret, -1) },
      again.cookie,
      "10.20.5.3",
    );
    expect(late.status, "offset -1").toBe(200);
  });

  it("counts codes like passwords: 429 with Retry-After beyond the limit, until the window has passed", async () => {
    const op = await h.newOperator();
    const { secret } = await h.enrol(op.email, "10.20.6.1");
    const pending = await h.password(op.email, "10.20.6.2"); // a right password: not counted
    for (let i = 0; i < 4; i++) {
      const wrong = await h.post(
        "/api/auth/two-factor/verify-totp",
        { code: `00000${i}` },
        pending.cookie,
        "10.20.6.2",
      );
      expect(wrong.status).toBe(401);
    }
    const refused = await h.post(
      "/api/auth/two-factor/verify-totp",
      { code: codeAt(secret) },
      pending.cookie,
      "10.20.6.2",
    );
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await refused.json()).error.code).toBe("rate_limited");
    expect((await h.audits("sign_in_blocked", op.id)).at(-1)?.changes?.after).toEqual({ step: "code" });
    // A refused code is not marked used: the same code works once the window has passed.
    clock.advance(window + 1);
    const ok = await h.post("/api/auth/two-factor/verify-totp", { code: codeAt(secret) }, pending.cookie, "10.20.6.2");
    expect(ok.status).toBe(200);
  });

  it("locks the account after failures in a row, passwords and codes alike", async () => {
    const op = await h.newOperator();
    const { secret } = await h.enrol(op.email, "10.20.7.1");
    // A wrong password and wrong codes, spread over two windows so that only the lock (6 in a row) stops them.
    const badPassword = await h.post(
      "/api/auth/sign-in/email",
      { email: op.email, password: "wrong-password" },
      "",
      "10.20.7.2",
    );
    expect(badPassword.status).toBe(401);
    let pending = await h.password(op.email, "10.20.7.2"); // a right password is no failure
    for (let i = 0; i < 3; i++) {
      const res = await h.post("/api/auth/two-factor/verify-totp", { code: `11111${i}` }, pending.cookie, "10.20.7.2");
      expect(res.status).toBe(401);
    }
    clock.advance(window + 1);
    pending = await h.password(op.email, "10.20.7.3");
    for (let i = 0; i < 2; i++) {
      const res = await h.post("/api/auth/two-factor/verify-totp", { code: `22222${i}` }, pending.cookie, "10.20.7.3");
      expect(res.status).toBe(401); // the 6th in a row is still checked, and locks
    }
    const locked = await h.post(
      "/api/auth/two-factor/verify-totp",
      { code: codeAt(secret) },
      pending.cookie,
      "10.20.7.3",
    );
    expect(locked.status).toBe(429);
    expect((await locked.json()).error.message).toMatch(/locked/i);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(60);
    // After the lock: the password and then one code are let through; the right code signs in.
    clock.advance(601);
    const fresh = await h.password(op.email, "10.20.7.4");
    expect(fresh.body.twoFactorRedirect).toBe(true);
    const ok = await h.post("/api/auth/two-factor/verify-totp", { code: codeAt(secret) }, fresh.cookie, "10.20.7.4");
    expect(ok.status).toBe(200);
  });

  it("turns one's own off only with the password and a current code", async () => {
    const op = await h.newOperator();
    const { cookie, backupCodes } = await h.enrol(op.email, "10.20.8.1");
    const noCode = await h.post("/api/auth/two-factor/disable", { password: testPassword }, cookie, "10.20.8.1");
    expect(noCode.status).toBe(422);
    const wrongCode = await h.post(
      "/api/auth/two-factor/disable",
      { password: testPassword, code: "999999" },
      cookie,
      "10.20.8.1",
    );
    expect(wrongCode.status).toBe(401);
    const wrongRecovery = await h.post(
      "/api/auth/two-factor/disable",
      { password: testPassword, code: "aaaaa-bbbbb" },
      cookie,
      "10.20.8.1",
    );
    expect(wrongRecovery.status).toBe(401);
    // A wrong password with a right recovery code does not spend it: the same code works next.
    const wrongPassword = await h.post(
      "/api/auth/two-factor/disable",
      { password: "not-the-password", code: backupCodes[0] },
      cookie,
      "10.20.8.1",
    );
    expect(wrongPassword.status).toBe(422);
    expect((await h.get("/api/account/two-factor", cookie)).status).toBe(200);
    const ok = await h.post(
      "/api/auth/two-factor/disable",
      { password: testPassword, code: backupCodes[0] },
      cookie,
      "10.20.8.1",
    );
    expect(ok.status).toBe(200);
    const [row] = await app.rows<{ two_factor_enabled: boolean }>(
      sql`select two_factor_enabled from operator where id = ${op.id}`,
    );
    expect(row.two_factor_enabled).toBe(false);
    expect(await app.count(sql`select 1 from operator_two_factor where user_id = ${op.id}`)).toBe(0);
    expect(await h.audits("two_factor_disabled", op.id)).toHaveLength(1);
    // The password alone signs in again.
    const again = await h.password(op.email, "10.20.8.2");
    expect(again.body.twoFactorRedirect).toBeUndefined();
    expect(again.cookie).toMatch(/pedal\.session_token=/);
  });

  it("refuses what is not a JSON body of the right shape, before any code is checked", async () => {
    for (const path of ["enable", "verify-totp", "verify-backup-code", "disable"]) {
      const form = await app.request(`/api/auth/two-factor/${path}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": "10.20.10.1" },
        body: "code=123456",
      });
      expect(form.status, path).toBe(415);
    }
    const badJson = await app.request("/api/auth/two-factor/verify-totp", {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "10.20.10.1" },
      body: "{",
    });
    expect(badJson.status).toBe(400);
    for (const code of ["1".repeat(5000), 123456, null, "abcdef"]) {
      const res = await h.post("/api/auth/two-factor/verify-totp", { code }, "", "10.20.10.1");
      expect(res.status, String(code).slice(0, 10)).toBe(422);
      expect((await res.json()).error.code).toBe("validation_failed");
    }
    // No challenge cookie: nothing to check the code against.
    const noChallenge = await h.post("/api/auth/two-factor/verify-totp", { code: "123456" }, "", "10.20.10.1");
    expect(noChallenge.status).toBe(401);
    const forged = await h.post(
      "/api/auth/two-factor/verify-totp",
      { code: "123456" },
      "pedal.two_factor=2fa-forged.c2lnbmF0dXJl",
      "10.20.10.1",
    );
    expect(forged.status).toBe(401);
  });

  it("lets an admin reset another operator's second factor: audited, their sessions ended; never one's own", async () => {
    const op = await h.newOperator();
    const { cookie } = await h.enrol(op.email, "10.20.9.1");
    await app.cookie("admin");
    const [me] = await app.rows<{ id: string }>(sql`select id from operator where email = 'admin@test.example'`);

    expect(
      (await app.request(`/api/operators/${op.id}/reset-two-factor`, { as: "editor", method: "POST" })).status,
    ).toBe(403);
    expect(
      (await app.request(`/api/operators/unknown-operator/reset-two-factor`, { as: "admin", method: "POST" })).status,
    ).toBe(404);
    const self = await app.request(`/api/operators/${me.id}/reset-two-factor`, { as: "admin", method: "POST" });
    expect(self.status).toBe(403);
    expect((await self.json()).error.message).toBe(msg.twoFactor.notSelfReset);

    const list = await app.read(`/api/operators?q=${encodeURIComponent(op.email)}`, "admin");
    expect(list.body.items[0].two_factor_enabled).toBe(true);
    const res = await app.request(`/api/operators/${op.id}/reset-two-factor`, { as: "admin", method: "POST" });
    expect(res.status).toBe(200);
    expect((await res.json()).revoked).toBeGreaterThanOrEqual(1);
    expect((await h.get("/api/account/two-factor", cookie)).status).toBe(401);
    expect(await app.count(sql`select 1 from operator_two_factor where user_id = ${op.id}`)).toBe(0);
    const [audit] = await h.audits("two_factor_reset", op.id);
    expect(audit.operator_id).toBe(me.id);
    expect(audit.changes?.after).toMatchObject({ two_factor_enabled: false });
    const again = await h.password(op.email, "10.20.9.2");
    expect(again.cookie).toMatch(/pedal\.session_token=/);
  });
});

describe.each(targets)("REQUIRE_MFA on %s", (target) => {
  for (const policy of ["admin", "all"] as const) {
    describe(`REQUIRE_MFA=${policy}`, () => {
      let app: TestConsole;
      const h = harness(() => app);
      beforeAll(async () => {
        vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
        app = await startConsole(target, { identity: { requireMfa: policy }, security: { trustProxy: 1 } });
      });
      beforeEach(() => freshStep());
      afterAll(async () => {
        await app.close();
        vi.useRealTimers();
      });

      it("refuses every other route until the operator it covers has set up two-factor", async () => {
        const admin = await h.newOperator("admin");
        const editor = await h.newOperator("editor");
        const adminIn = await h.password(admin.email, "10.30.0.1");
        expect(adminIn.cookie).toMatch(/pedal\.session_token=/);
        const gated = await h.get("/api/customers", adminIn.cookie);
        expect(gated.status).toBe(403);
        expect((await gated.json()).error).toEqual({
          code: "mfa_setup_required",
          message: msg.twoFactor.setupRequired,
        });
        expect((await h.post("/api/account/revoke-sessions", {}, adminIn.cookie, "10.30.0.1")).status).toBe(403);
        expect(await (await h.get("/api/account/two-factor", adminIn.cookie)).json()).toEqual({
          enabled: false,
          required: true,
          setupRequired: true,
        });
        // The session answer carries the same state, for the web app's gate.
        const session = await (await h.get("/api/auth/get-session", adminIn.cookie)).json();
        expect(session.twoFactor).toEqual({ enabled: false, required: true, setupRequired: true });

        const editorIn = await h.password(editor.email, "10.30.0.2");
        expect((await h.get("/api/customers", editorIn.cookie)).status).toBe(policy === "all" ? 403 : 200);

        const { cookie, secret } = await h.enrol(admin.email, "10.30.0.3");
        expect((await h.get("/api/customers", cookie)).status).toBe(200);
        expect(await (await h.get("/api/account/two-factor", cookie)).json()).toEqual({
          enabled: true,
          required: true,
          setupRequired: false,
        });
        // Required: it cannot be turned off.
        const off = await h.post(
          "/api/auth/two-factor/disable",
          { password: testPassword, code: codeAt(secret) },
          cookie,
          "10.30.0.3",
        );
        expect(off.status).toBe(403);
      });

      it("holds the operator whatever credential they use: a held admin's tokens of every role and session are refused on every route of the route table", async () => {
        const admin = await h.newOperator("admin");
        const made = (["admin", "editor", "viewer"] as const).map((role) => ({ role, ...newApiToken() }));
        // Tokens made before REQUIRE_MFA was turned on (a held operator cannot make one now).
        for (const t of made)
          await app.rows(sql`insert into operator_api_token (operator_id, name, prefix, token_hash, role, expires_at)
            select id, ${t.role}, ${t.prefix}, ${t.hash}, ${t.role}, now() + interval '30 days'
            from operator where email = ${admin.email}`);
        for (const t of made) {
          const headers = { authorization: `Bearer ${t.token}` };
          const read = await app.request("/api/customers?limit=1", { noOrigin: true, headers });
          expect(read.status, t.role).toBe(403);
          expect((await read.json()).error.code).toBe("mfa_setup_required");
          const write = await app.request("/api/customers", {
            method: "POST",
            noOrigin: true,
            headers,
            json: { customer_name: `Held ${t.role}` },
          });
          expect(write.status, t.role).toBe(403);
          const status = await app.request("/api/account/two-factor", { noOrigin: true, headers });
          expect(await status.json(), t.role).toEqual({ enabled: false, required: true, setupRequired: true });
        }
        expect(await app.count(sql`select 1 from customers where customer_name like 'Held %'`)).toBe(0);

        // Every route of the route table, today's and tomorrow's, with each of those tokens and the
        // operator's own session: 403 mfa_setup_required, but the two-factor state it may read.
        const { cookie } = await h.password(admin.email, "10.30.0.8");
        const credentials = [
          ...made.map((t) => ({
            name: `${t.role} token`,
            headers: { authorization: `Bearer ${t.token}` },
            noOrigin: true,
          })),
          { name: "session", headers: { cookie, "x-forwarded-for": "10.30.0.8" }, noOrigin: false },
        ];
        const exceptions = new Set(["GET /api/account/two-factor"]);
        const routes = routeTable.filter((r) => r.access !== "public" && !r.path.startsWith("/api/auth/"));
        expect(routes.length).toBeGreaterThan(100);
        const wrong: string[] = [];
        for (const route of routes) {
          const url = route.path.replace(/\{[^}]+\}/g, () => randomUUID());
          for (const credential of credentials) {
            const res = await app.request(url, {
              method: route.method,
              headers: credential.headers,
              noOrigin: credential.noOrigin,
              ...(route.method === "GET" || route.method === "HEAD" ? {} : { json: {} }),
            });
            const code = res.status === 403 ? ((await res.json()) as { error: { code: string } }).error.code : "";
            const expected = exceptions.has(`${route.method} ${route.path}`)
              ? res.status === 200
              : code === "mfa_setup_required";
            if (!expected)
              wrong.push(`${route.method} ${route.path} with the ${credential.name}: ${res.status} ${code}`);
          }
        }
        expect(wrong).toEqual([]);
      });

      it("does not cover an operator with no password (made by single sign-on), whose provider's sign-in stands in", async () => {
        const admin = await h.newOperator("admin");
        const signedIn = await h.password(admin.email, "10.30.0.9");
        expect((await h.get("/api/customers", signedIn.cookie)).status).toBe(403);
        // As single sign-on makes them: an operator with no password to sign in with.
        await app.handle.db.execute(
          sql`delete from operator_account a using operator o where a.user_id = o.id and o.email = ${admin.email}`,
        );
        expect((await h.get("/api/customers", signedIn.cookie)).status).toBe(200);
        expect(await (await h.get("/api/account/two-factor", signedIn.cookie)).json()).toEqual({
          enabled: false,
          required: false,
          setupRequired: false,
        });
      });
    });
  }
});
