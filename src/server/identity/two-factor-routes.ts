/**
 * Two-factor sign-in over HTTP (docs/identity.md "Two-factor sign-in (TOTP)"): better-auth's
 * two-factor endpoints, each wrapped like sign-in (security.ts) so that codes go through the same
 * throttle and lock as passwords, a six-digit code is accepted once only, every outcome is audited
 * and every refusal is in the API's error body; the REQUIRE_MFA gate; the status route the web app
 * reads.
 *
 * Nothing here logs or audits a code, a secret or a recovery code.
 */
import { createHmac } from "node:crypto";
import { and, eq, isNotNull, lte, sql } from "drizzle-orm";
import { verifyPassword } from "better-auth/crypto";
import type { Context, MiddlewareHandler } from "hono";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { z } from "zod";
import { msg } from "../../domain/messages";
import { passwordMessages } from "../../domain/password";
import {
  disableTwoFactorSchema,
  enableTwoFactorSchema,
  mfaRequiredFor,
  twoFactorStatusSchema,
  verifyRecoverySchema,
  verifyTotpSchema,
  type MfaPolicy,
  type TwoFactorStatus,
} from "../../domain/two-factor";
import type { Auth, SessionData } from "../auth";
import { writeAudit } from "../audit";
import type { SecurityConfig } from "../config";
import { queryRows, type Database } from "../db/client";
import { operator_account, operator_totp_used } from "../db/schema";
import { errorResponse } from "../http/errors";
import type { AppEnv } from "../http/env";
import { apiRoute, createRouter, jsonResponse } from "../http/route";
import {
  accountKey,
  admitAttempt,
  checkedJsonBody,
  forgiveAttempt,
  jsonOnly,
  resolveSession,
  tooManyMessage,
  withJsonBody,
  type Admission,
  type Clock,
} from "../security";
import { hashRecoveryCode } from "./two-factor";

/** What the two-factor routes need of the app: better-auth, the limits, the clock, REQUIRE_MFA and the auth secret. */
export type TwoFactorDeps = {
  auth: Auth;
  security: SecurityConfig;
  clock: Clock;
  policy: MfaPolicy;
  /** BETTER_AUTH_SECRET: keys the replay marks, so the table holds nothing a six-digit guess can match. */
  secret: string;
};

type Who = { id: string; email: string };

/**
 * How long a code accepted now stays refused, in milliseconds. With one step of skew either way a
 * code accepted now belongs to the previous, current or next 30-second step, and none of those is
 * accepted after the end of the next step: less than 90 s from now.
 */
const replayWindowMs = 90_000;

/** The replay mark of a code: HMAC-SHA256 under the auth secret, so a six-digit code is not recoverable from it. */
function codeMark(secret: string, operatorId: string, code: string): string {
  return createHmac("sha256", secret).update(`totp:${operatorId}:${code}`).digest("hex");
}

/**
 * Marks `code` as used by `operatorId`, atomically, before it is checked: true when this request
 * holds the mark, false when the code was already accepted within its window (a replay). The marks
 * age by the real time, like the plugin's TOTP check.
 */
async function markCode(db: Database, operatorId: string, hash: string): Promise<boolean> {
  const now = new Date();
  const expires = new Date(now.getTime() + replayWindowMs);
  const rows = await queryRows<{ operator_id: string }>(
    db,
    sql`insert into operator_totp_used (operator_id, code_hash, expires_at)
        values (${operatorId}, ${hash}, ${expires.toISOString()}::timestamptz)
        on conflict (operator_id, code_hash) do update set expires_at = excluded.expires_at
          where operator_totp_used.expires_at <= ${now.toISOString()}::timestamptz
        returning operator_id`,
  );
  return rows.length === 1;
}

/** Takes a mark back (the code was wrong, so it was never used), and drops the operator's expired marks. */
async function unmarkCode(db: Database, operatorId: string, hash: string) {
  await db
    .delete(operator_totp_used)
    .where(and(eq(operator_totp_used.operator_id, operatorId), eq(operator_totp_used.code_hash, hash)));
}

async function pruneMarks(db: Database, operatorId: string) {
  await db
    .delete(operator_totp_used)
    .where(and(eq(operator_totp_used.operator_id, operatorId), lte(operator_totp_used.expires_at, new Date())));
}

const challengeCookie = /(?:^|;\s*)(?:__Secure-)?pedal\.two_factor=([^;]+)/;

/**
 * The operator a pending sign-in (the plugin's signed `two_factor` cookie, set after a correct
 * password) belongs to, or null without a live one. The cookie's value names a random
 * verification row; the plugin checks the signature itself when the code is forwarded.
 */
async function challengeOperator(db: Database, cookie: string | undefined): Promise<Who | null> {
  const match = challengeCookie.exec(cookie ?? "");
  if (!match) return null;
  let value: string;
  try {
    value = decodeURIComponent(match[1]);
  } catch {
    return null;
  }
  const identifier = value.slice(0, value.lastIndexOf("."));
  if (!identifier || identifier.length > 100) return null;
  const [row] = await queryRows<Who>(
    db,
    sql`select o.id, o.email from operator_verification v join operator o on o.id = v.value
        where v.identifier = ${identifier} and v.expires_at > now() and coalesce(o.banned, false) = false`,
  );
  return row ?? null;
}

/** The plugin's refusal `{ code, message }`, or an empty one. */
async function pluginError(response: Response): Promise<{ code?: string; message?: string }> {
  return ((await response
    .clone()
    .json()
    .catch(() => ({}))) ?? {}) as { code?: string; message?: string };
}

/** A request to another better-auth endpoint with this request's cookies and origin. */
function internalRequest(c: Context, path: string, body: Record<string, unknown>): Request {
  const headers = new Headers(c.req.raw.headers);
  headers.delete("content-length");
  headers.set("content-type", "application/json");
  return new Request(new URL(path, c.req.url), { method: "POST", headers, body: JSON.stringify(body) });
}

function blocked(c: Context<AppEnv>, admission: Extract<Admission, { admitted: false }>) {
  c.header("retry-after", String(admission.retryAfterSeconds));
  return errorResponse(c, 429, "rate_limited", tooManyMessage(admission));
}

const challengeExpired = (c: Context<AppEnv>) => errorResponse(c, 401, "unauthorized", msg.twoFactor.challengeExpired);

/**
 * The code step shared by verify-totp and verify-backup-code. With a session it confirms the
 * authenticator app being set up (audited `two_factor_enabled`); without one it completes a sign-in
 * whose password was right (audited `sign_in`, `sign_in_failed` or `sign_in_blocked`, each with
 * `after: { step: "code" }`). The attempt is counted per address and per account before the code is
 * checked (429 with Retry-After beyond the limits or while locked); a six-digit code is marked used
 * before it is checked, so a replay within its window is refused (401 `invalid_code`).
 */
function codeStepHandler(deps: TwoFactorDeps, kind: "totp" | "recovery") {
  return async (c: Context<AppEnv>) => {
    const db = c.get("db");
    const now = deps.clock();
    const checked = await checkedJsonBody(c, kind === "totp" ? verifyTotpSchema : verifyRecoverySchema);
    if (checked.refused) return checked.refused;
    const code = checked.data.code;
    const session = await resolveSession(c, deps.auth, deps.security, deps.clock);
    if (session) c.set("session", session);
    const setup = session !== null;
    if (setup && kind === "recovery") return errorResponse(c, 409, "conflict", msg.twoFactor.alreadyOn);
    if (setup && (session.user as { twoFactorEnabled?: boolean | null }).twoFactorEnabled === true)
      return errorResponse(c, 409, "conflict", msg.twoFactor.alreadyOn);
    const who: Who | null = session
      ? { id: session.user.id, email: session.user.email }
      : await challengeOperator(db, c.req.header("cookie"));
    const keys = { ip: `ip:${c.get("clientIp")}`, account: who ? accountKey(who.email) : null };
    const step = { step: "code" };
    const audit = (action: "sign_in" | "sign_in_failed" | "sign_in_blocked", after: Record<string, unknown> = step) =>
      who
        ? writeAudit(db, c, [{ action, entity: "operator", entity_id: who.id, after, operator: who }])
        : Promise.resolve();

    const admission = await admitAttempt(db, keys, deps.security, now);
    if (!admission.admitted) {
      if (!setup) await audit("sign_in_blocked");
      return blocked(c, admission);
    }
    if (!who) return challengeExpired(c);

    const mark = kind === "totp" ? codeMark(deps.secret, who.id, code) : null;
    if (mark && !(await markCode(db, who.id, mark))) {
      if (!setup) await audit("sign_in_failed");
      return errorResponse(c, 401, "invalid_code", msg.twoFactor.codeUsed);
    }
    const forwarded = kind === "totp" ? { code } : { code: hashRecoveryCode(code) };
    const response = await deps.auth.handler(withJsonBody(c.req.raw, forwarded));
    if (response.status === 200) {
      await forgiveAttempt(db, keys, deps.security, now);
      await pruneMarks(db, who.id);
      if (setup) await writeAudit(db, c, [{ action: "two_factor_enabled", entity: "operator", entity_id: who.id }]);
      else await audit("sign_in", { step: "code", method: kind === "totp" ? "authenticator" : "recovery_code" });
      return response;
    }
    if (mark) await unmarkCode(db, who.id, mark);
    if (!setup) await audit("sign_in_failed");
    const { code: reason } = await pluginError(response);
    if (reason === "INVALID_CODE") return errorResponse(c, 401, "invalid_code", msg.twoFactor.wrongCode);
    if (reason === "INVALID_BACKUP_CODE") return errorResponse(c, 401, "invalid_code", msg.twoFactor.wrongRecoveryCode);
    if (reason === "TOTP_NOT_ENABLED" && setup) return errorResponse(c, 409, "conflict", msg.twoFactor.notOn);
    // No live challenge, too many codes for this one, or no second factor: sign in again.
    return challengeExpired(c);
  };
}

/** The signed-in operator as a change to their own two-factor sign-in reads them. */
type ChangingOperator = SessionData["user"] & { role?: string | null; twoFactorEnabled?: boolean | null };

/**
 * The signed-in operator of a request to change their own two-factor sign-in, its checked JSON
 * body, and the attempt's keys (per address and per account) and time, the attempt admitted; or
 * the answer to send instead, in this order: 401 without a session, 400/422 for a body that is not
 * `schema`'s, what `refuse` answers when the operator's state does not allow the change, 429 with
 * Retry-After beyond the attempt limits or while locked.
 */
async function signedInChange<T>(
  c: Context<AppEnv>,
  deps: TwoFactorDeps,
  schema: z.ZodType<T>,
  refuse: (me: ChangingOperator) => Response | undefined,
): Promise<
  | { refused: Response }
  | { refused?: undefined; me: ChangingOperator; input: T; keys: { ip: string; account: string }; now: Date }
> {
  const now = deps.clock();
  const session = await resolveSession(c, deps.auth, deps.security, deps.clock);
  if (!session) return { refused: errorResponse(c, 401, "unauthorized", msg.api.unauthorized) };
  c.set("session", session);
  const checked = await checkedJsonBody(c, schema);
  if (checked.refused) return checked;
  const me: ChangingOperator = session.user;
  const refused = refuse(me);
  if (refused) return { refused };
  const keys = { ip: `ip:${c.get("clientIp")}`, account: accountKey(me.email) };
  const admission = await admitAttempt(c.get("db"), keys, deps.security, now);
  if (!admission.admitted) return { refused: blocked(c, admission) };
  return { me, input: checked.data, keys, now };
}

/**
 * POST /api/auth/two-factor/enable `{ password }` → `{ totpURI, backupCodes }` (signed in): starts
 * setting up an authenticator app. The URI (`otpauth://totp/...?secret=...`) is for the QR code;
 * the ten recovery codes are shown this once and stored hashed. Two-factor is on only once a code is
 * confirmed (verify-totp). 401 without a session, 422 wrong password (counted like a sign-in: 429
 * beyond the limits), 409 when already on.
 */
function enableHandler(deps: TwoFactorDeps) {
  return async (c: Context<AppEnv>) => {
    const db = c.get("db");
    const checked = await signedInChange(c, deps, enableTwoFactorSchema, (me) =>
      me.twoFactorEnabled === true ? errorResponse(c, 409, "conflict", msg.twoFactor.alreadyOn) : undefined,
    );
    if (checked.refused) return checked.refused;
    const { keys, now } = checked;
    const response = await deps.auth.handler(withJsonBody(c.req.raw, { password: checked.input.password }));
    if (response.status === 200) {
      await forgiveAttempt(db, keys, deps.security, now);
      const { totpURI, backupCodes } = (await response.json()) as { totpURI: string; backupCodes: string[] };
      const answer = c.json({ totpURI, backupCodes }, 200);
      for (const cookie of response.headers.getSetCookie()) answer.headers.append("set-cookie", cookie);
      answer.headers.set("cache-control", "no-store");
      return answer;
    }
    const { code } = await pluginError(response);
    if (code === "TOTP_ALREADY_ENABLED") return errorResponse(c, 409, "conflict", msg.twoFactor.alreadyOn);
    return errorResponse(c, 422, "validation_failed", passwordMessages.wrongCurrent, {
      password: passwordMessages.wrongCurrent,
    });
  };
}

/** Six digits are a code of the authenticator app; anything else a recovery code. */
const isAuthenticatorCode = (code: string) => /^\d{6}$/.test(code);

/**
 * The operator's password checked against the stored hash: "none" for an operator who has none
 * (made by single sign-on). Shared by the steps that ask for the password again (turning
 * two-factor off, confirming it is you).
 */
export async function passwordCheck(
  db: Database,
  operatorId: string,
  password: string,
): Promise<"right" | "wrong" | "none"> {
  const [stored] = await db
    .select({ hash: operator_account.password })
    .from(operator_account)
    .where(and(eq(operator_account.userId, operatorId), eq(operator_account.providerId, "credential")));
  if (!stored?.hash) return "none";
  return (await verifyPassword({ hash: stored.hash, password })) ? "right" : "wrong";
}

/**
 * Checks a second-factor code of the signed-in operator and spends it: an authenticator code
 * (six digits) is marked used before it is checked, so that a replay within its window is "used",
 * and unmarked when wrong; a recovery code is spent by the plugin when right. Starts no session.
 * Shared by the steps that ask for a code again (turning two-factor off, confirming it is you).
 */
export async function spendCode(
  c: Context,
  auth: Auth,
  secret: string,
  operatorId: string,
  code: string,
): Promise<"right" | "used" | "wrong"> {
  const db = (c as Context<AppEnv>).get("db");
  const totp = isAuthenticatorCode(code);
  const mark = totp ? codeMark(secret, operatorId, code) : null;
  if (mark && !(await markCode(db, operatorId, mark))) return "used";
  const verified = await auth.handler(
    totp
      ? internalRequest(c, "/api/auth/two-factor/verify-totp", { code })
      : internalRequest(c, "/api/auth/two-factor/verify-backup-code", {
          code: hashRecoveryCode(code),
          disableSession: true,
        }),
  );
  if (verified.status === 200) return "right";
  if (mark) await unmarkCode(db, operatorId, mark);
  return "wrong";
}

/**
 * POST /api/auth/two-factor/disable `{ password, code }` → `{ status: true }` (signed in): turns
 * one's own two-factor sign-in off. Needs the password and a current code (six digits, refused if
 * already used, or a recovery code, which is spent). 403 when REQUIRE_MFA covers the operator, 409
 * when it is not on, 422 for a wrong password (checked first: no code is spent then), 401
 * `invalid_code` for a wrong code, 429 beyond the limits. Audited `two_factor_disabled`; the session is replaced (new cookie).
 */
function disableHandler(deps: TwoFactorDeps) {
  return async (c: Context<AppEnv>) => {
    const db = c.get("db");
    const checked = await signedInChange(c, deps, disableTwoFactorSchema, (me) => {
      if (mfaRequiredFor(deps.policy, me.role))
        return errorResponse(c, 403, "forbidden", msg.twoFactor.requiredByPolicy);
      if (me.twoFactorEnabled !== true) return errorResponse(c, 409, "conflict", msg.twoFactor.notOn);
    });
    if (checked.refused) return checked.refused;
    const { me, keys, now } = checked;
    const { password, code } = checked.input;
    // The password first: a wrong one must not spend the recovery code sent with it.
    if ((await passwordCheck(db, me.id, password)) !== "right")
      return errorResponse(c, 422, "validation_failed", passwordMessages.wrongCurrent, {
        password: passwordMessages.wrongCurrent,
      });
    const spent = await spendCode(c, deps.auth, deps.secret, me.id, code);
    if (spent === "used") return errorResponse(c, 401, "invalid_code", msg.twoFactor.codeUsed);
    if (spent === "wrong")
      return errorResponse(
        c,
        401,
        "invalid_code",
        isAuthenticatorCode(code) ? msg.twoFactor.wrongCode : msg.twoFactor.wrongRecoveryCode,
      );
    const response = await deps.auth.handler(withJsonBody(c.req.raw, { password }));
    if (response.status !== 200)
      return errorResponse(c, 422, "validation_failed", passwordMessages.wrongCurrent, {
        password: passwordMessages.wrongCurrent,
      });
    await forgiveAttempt(db, keys, deps.security, now);
    await db.delete(operator_totp_used).where(eq(operator_totp_used.operator_id, me.id));
    await writeAudit(db, c, [{ action: "two_factor_disabled", entity: "operator", entity_id: me.id }]);
    return response;
  };
}

/**
 * Mounts the two-factor endpoints under /api/auth (JSON bodies only, 415 otherwise): enable,
 * verify-totp, verify-backup-code, disable. Call before the /api/auth catch-all 404.
 */
export function mountTwoFactor(app: OpenAPIHono<AppEnv>, deps: TwoFactorDeps) {
  app.post("/api/auth/two-factor/enable", jsonOnly, enableHandler(deps));
  app.post("/api/auth/two-factor/verify-totp", jsonOnly, codeStepHandler(deps, "totp"));
  app.post("/api/auth/two-factor/verify-backup-code", jsonOnly, codeStepHandler(deps, "recovery"));
  app.post("/api/auth/two-factor/disable", jsonOnly, disableHandler(deps));
}

/** Where the web app reads the signed-in operator's two-factor state. */
export const twoFactorStatusBase = "/api/account/two-factor";

/**
 * Whether REQUIRE_MFA covers the session's operator. The console's second factor guards its own
 * password sign-in, so an operator with no password (made at first single sign-on) is not covered:
 * they sign in only through the identity provider, whose sign-in stands in for it (and the
 * authenticator app's setup asks for a password they do not have). Looked up only for an operator
 * the policy names who has not set it up.
 */
async function coveredBy(db: Database, session: SessionData, policy: MfaPolicy): Promise<boolean> {
  // The operator's own role, not an API token's lower one: the policy binds the person.
  const user = session.user as { id: string; role?: string; operatorRole?: string };
  if (!mfaRequiredFor(policy, user.operatorRole ?? user.role)) return false;
  const [password] = await db
    .select({ id: operator_account.id })
    .from(operator_account)
    .where(
      and(
        eq(operator_account.userId, user.id),
        eq(operator_account.providerId, "credential"),
        isNotNull(operator_account.password),
      ),
    )
    .limit(1);
  return password !== undefined;
}

/** Whether a session is one REQUIRE_MFA covers and that has not set up two-factor yet. */
export async function setupRequired(db: Database, session: SessionData, policy: MfaPolicy): Promise<boolean> {
  const user = session.user as { twoFactorEnabled?: boolean | null };
  return user.twoFactorEnabled !== true && (await coveredBy(db, session, policy));
}

/** The two-factor state of a session under `policy`. */
export async function twoFactorStatus(db: Database, session: SessionData, policy: MfaPolicy): Promise<TwoFactorStatus> {
  const user = session.user as { twoFactorEnabled?: boolean | null };
  const required = await coveredBy(db, session, policy);
  return {
    enabled: user.twoFactorEnabled === true,
    required,
    setupRequired: required && user.twoFactorEnabled !== true,
  };
}

/** A session answer (GET /api/auth/get-session) with its `twoFactor` state added; null stays null. */
export async function withTwoFactor(db: Database, session: SessionData | null, policy: MfaPolicy) {
  return session ? { ...session, twoFactor: await twoFactorStatus(db, session, policy) } : null;
}

/**
 * The REQUIRE_MFA gate, after the session middleware: a session it covers that has not set up
 * two-factor gets 403 `mfa_setup_required` on every /api route but GET /api/account/two-factor (the
 * /api/auth routes, setup and sign-out among them, are mounted before it).
 */
export function mfaGate(policy: MfaPolicy): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const session = c.get("session");
    if (!session || policy === "none" || !(await setupRequired(c.get("db"), session, policy))) return next();
    if (c.req.method === "GET" && c.req.path === twoFactorStatusBase) return next();
    return errorResponse(c, 403, "mfa_setup_required", msg.twoFactor.setupRequired);
  };
}

/** GET /api/account/two-factor → `{ enabled, required, setupRequired }` for the signed-in operator (any role). */
const statusRoute = apiRoute(twoFactorStatusBase, "viewer", {
  method: "get",
  path: "/",
  tags: ["Account"],
  summary: "Two-factor sign-in state",
  description:
    "Whether the signed-in operator has an authenticator app set up, and whether REQUIRE_MFA covers them. While `setupRequired` is true every other route answers 403 `mfa_setup_required`.",
  responses: { 200: jsonResponse(twoFactorStatusSchema, "The operator's two-factor state") },
});

/** The router of GET /api/account/two-factor, answering under `policy`. */
export function twoFactorStatusRouter(policy: MfaPolicy) {
  return createRouter().openapi(statusRoute, async (c) =>
    c.json(await twoFactorStatus(c.get("db"), c.get("session")!, policy), 200),
  );
}
