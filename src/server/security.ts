/**
 * Sign-in and session hardening (docs/security.md):
 * - the auth endpoints read JSON bodies only (415 otherwise);
 * - sign-in and password-change throttling per client address and per account, each attempt
 *   counted atomically in `auth_throttle` before its password is checked (every server copy shares
 *   the counts), and an account lock after N failures in a row;
 * - the client address behind `TRUST_PROXY` proxies, counted from the right of X-Forwarded-For;
 * - the absolute session lifetime, and sessions of deactivated operators ending at once;
 * - an Origin check on every state-changing API request (CSRF);
 * - audit rows for sign-in, failed, blocked and refused sign-in, sign-out and password changes;
 * - a database outage while reading the session answers 503, never "signed out".
 */
import { createHash } from "node:crypto";
import { getConnInfo } from "@hono/node-server/conninfo";
import { and, eq, lt, sql } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import type { z } from "zod";
import { msg } from "../domain/messages";
import { changePasswordSchema, passwordMessages, signInBoundsSchema } from "../domain/password";
import type { Auth, SessionData } from "./auth";
import { writeAudit } from "./audit";
import { allowedOrigins, type IdentityConfig, type SecurityConfig } from "./config";
import { passwordSignInOff } from "./identity/sso";
import { queryRows, type Database } from "./db/client";
import { auth_throttle, operator, operator_session } from "./db/schema";
import { errorResponse, fieldMessages, HttpError } from "./http/errors";
import type { AppEnv } from "./http/env";
import { readSessionDirect } from "./session-read";

/** The console's clock: every time-dependent decision here takes it, so tests move time instead of waiting. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

/**
 * The client's address. Without proxies (`hops` 0) the socket's. Behind `hops` reverse proxies,
 * each of which appends the address it received from to X-Forwarded-For, the entry `hops` places
 * from the right: entries further left were written by the client and are never trusted.
 */
export function clientIp(c: Context, hops: number): string {
  if (hops > 0) {
    const entries = (c.req.header("x-forwarded-for") ?? "")
      .split(",")
      .map((e) => e.trim())
      .filter(Boolean);
    if (entries.length > 0) return boundedAddress(entries[Math.max(0, entries.length - hops)]);
  }
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown"; // in-process requests (tests) have no socket
  }
}

/**
 * An address as a header gave it, bounded: an IPv6 address with its zone is under 64 characters, so
 * anything longer (a client's text that reached the entry a proxy should have written) is kept as
 * its SHA-256, never whole in a throttle key, an audit row or the log.
 */
function boundedAddress(address: string): string {
  return address.length <= 64 ? address : `sha256:${createHash("sha256").update(address).digest("hex")}`;
}

/** Whether an attempt may go on to the password check, or for how long it is refused. */
export type Admission = { admitted: true } | { admitted: false; retryAfterSeconds: number; locked: boolean };

type Counted = { failures: number; consecutive: number; window_ms: number; locked_ms: number | null };

/**
 * Counts one attempt against `key` before its password is checked, in one atomic statement
 * (`insert … on conflict do update … returning`), and says whether it is within the limits: under
 * any concurrency at most `max` attempts of a window get through. An attempt that succeeds is
 * taken back (`forgiveAttempt`).
 *
 * Account keys also count attempts in a row (`consecutive_failures`, only those the window lets
 * through): the one that reaches `lockoutFailures` is still checked and sets `locked_until`; later
 * ones are refused until the lock expires (then one more attempt is let through, which locks again
 * if it fails) or an admin, or `npm run operator:unlock`, unlocks the account.
 */
async function countAttempt(db: Database, key: string, security: SecurityConfig, now: Date): Promise<Admission> {
  const isAccount = key.startsWith("account:");
  const max = isAccount ? security.signInMaxPerAccount : security.signInMaxPerIp;
  const at = sql`${now.toISOString()}::timestamptz`;
  const windowStart = sql`${new Date(now.getTime() - security.signInWindowSeconds * 1000).toISOString()}::timestamptz`;
  const lockUntil = sql`${new Date(now.getTime() + security.lockoutSeconds * 1000).toISOString()}::timestamptz`;
  const lf = security.lockoutFailures;
  const t = sql.raw("auth_throttle");
  const failures = sql`(case when ${t}.window_started_at < ${windowStart} then 1 else ${t}.failures + 1 end)`;
  const consecutive = isAccount
    ? sql`(case when ${failures} > ${max} then ${t}.consecutive_failures
               when ${t}.locked_until is not null and ${t}.locked_until <= ${at} then ${lf}::int
               else ${t}.consecutive_failures + 1 end)`
    : sql`${t}.consecutive_failures`;
  const lockedUntil = isAccount
    ? sql`(case when ${consecutive} >= ${lf} then (case when ${t}.locked_until > ${at} then ${t}.locked_until else ${lockUntil} end) else ${t}.locked_until end)`
    : sql`null::timestamptz`;
  const firstConsecutive = isAccount ? 1 : 0;
  const firstLock = isAccount && lf <= 1 ? lockUntil : sql`null::timestamptz`;
  const [row] = await queryRows<Counted>(
    db,
    sql`
    insert into ${t} (key, failures, window_started_at, consecutive_failures, locked_until, updated_at)
    values (${key}, 1, ${at}, ${firstConsecutive}, ${firstLock}, ${at})
    on conflict (key) do update set
      failures = ${failures},
      window_started_at = case when ${t}.window_started_at < ${windowStart} then ${at} else ${t}.window_started_at end,
      consecutive_failures = ${consecutive},
      locked_until = ${lockedUntil},
      updated_at = ${at}
    returning failures, consecutive_failures as consecutive,
      (extract(epoch from window_started_at) * 1000)::float8 as window_ms,
      (extract(epoch from locked_until) * 1000)::float8 as locked_ms`,
  );
  const failuresNow = Number(row.failures);
  const overWindow = failuresNow > max;
  const overLock = isAccount && Number(row.consecutive) > lf;
  if (!overWindow && !overLock) return { admitted: true };
  const nowMs = now.getTime();
  const lockWait = row.locked_ms !== null && row.locked_ms > nowMs ? (row.locked_ms - nowMs) / 1000 : 0;
  const windowWait = overWindow ? (Number(row.window_ms) + security.signInWindowSeconds * 1000 - nowMs) / 1000 : 0;
  const locked = overLock || (lockWait > 0 && Number(row.consecutive) >= lf);
  return {
    admitted: false,
    retryAfterSeconds: Math.max(1, Math.ceil(Math.max(locked ? lockWait : 0, windowWait))),
    locked,
  };
}

/**
 * Counts a sign-in (or password change) attempt against the client address and then the account,
 * before any password is checked. Refused attempts by the address are not counted against the
 * account.
 */
export async function admitAttempt(
  db: Database,
  keys: { ip: string; account: string | null },
  security: SecurityConfig,
  now: Date,
): Promise<Admission> {
  const byIp = await countAttempt(db, keys.ip, security, now);
  if (!byIp.admitted || !keys.account) return byIp;
  return countAttempt(db, keys.account, security, now);
}

/** A successful attempt: clears the account's counters and takes the attempt back from the address's. */
export async function forgiveAttempt(
  db: Database,
  keys: { ip: string; account: string | null },
  security: SecurityConfig,
  now: Date,
) {
  if (keys.account) await db.delete(auth_throttle).where(eq(auth_throttle.key, keys.account));
  const windowStart = new Date(now.getTime() - security.signInWindowSeconds * 1000).toISOString();
  await db.execute(sql`update auth_throttle set failures = greatest(failures - 1, 0)
    where key = ${keys.ip} and window_started_at >= ${windowStart}::timestamptz`);
}

/**
 * A right password whose sign-in still needs its second factor: not a failure, so the attempt is
 * taken back (from the window and from the failures in a row, with a lock it alone set), but the
 * earlier failures stay until the code is right (`forgiveAttempt` then).
 */
export async function takeBackAttempt(
  db: Database,
  keys: { ip: string; account: string | null },
  security: SecurityConfig,
  now: Date,
) {
  const windowStart = new Date(now.getTime() - security.signInWindowSeconds * 1000).toISOString();
  if (keys.account)
    await db.execute(sql`update auth_throttle set failures = greatest(failures - 1, 0),
      consecutive_failures = greatest(consecutive_failures - 1, 0),
      locked_until = case when consecutive_failures - 1 < ${security.lockoutFailures} then null else locked_until end
      where key = ${keys.account}`);
  await db.execute(sql`update auth_throttle set failures = greatest(failures - 1, 0)
    where key = ${keys.ip} and window_started_at >= ${windowStart}::timestamptz`);
}

/** Clears an account's counters and lock (admin unlock, `npm run operator:unlock`). */
export async function clearAccount(db: Database, email: string) {
  await db.delete(auth_throttle).where(eq(auth_throttle.key, accountKey(email)));
}

export const accountKey = (email: string) => `account:${email.trim().toLowerCase()}`;

function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/**
 * The auth endpoints read JSON only: any other body (form, multipart, text) or none is answered
 * 415 with the error body before better-auth or our wrappers see it, so that the limits, the lock,
 * the deactivation check and the audit always read the same fields as the library.
 */
export const jsonOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  const type = c.req.header("content-type")?.split(";")[0].trim().toLowerCase();
  if (type !== "application/json") return errorResponse(c, 415, "unsupported_media_type", msg.api.jsonOnly);
  return next();
};

/**
 * The JSON body and what `schema` makes of it, or the answer refusing it: 400 `bad_request` when the
 * body is not a JSON object, 422 `validation_failed` (the first field's message, every field's) when
 * it does not pass.
 */
export async function checkedJsonBody<T>(
  c: Context,
  schema: z.ZodType<T>,
): Promise<{ body: Record<string, unknown>; data: T; refused?: undefined } | { refused: Response }> {
  const body = (await c.req.raw
    .clone()
    .json()
    .catch(() => undefined)) as unknown;
  if (!body || typeof body !== "object" || Array.isArray(body))
    return { refused: errorResponse(c, 400, "bad_request", msg.api.badJson) };
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const fields = fieldMessages(parsed.error);
    return {
      refused: errorResponse(c, 422, "validation_failed", Object.values(fields)[0] ?? msg.api.malformed, fields),
    };
  }
  return { body: body as Record<string, unknown>, data: parsed.data };
}

/** A copy of `request` with `body` as its JSON body: the library reads exactly what we checked. */
export function withJsonBody(request: Request, body: Record<string, unknown>): Request {
  const headers = new Headers(request.headers);
  headers.delete("content-length");
  return new Request(request.url, { method: request.method, headers, body: JSON.stringify(body) });
}

/** The 429 message: locked, or too many attempts, with the wait. */
export function tooManyMessage(admission: Extract<Admission, { admitted: false }>) {
  return admission.locked
    ? msg.auth.locked(waitText(admission.retryAfterSeconds))
    : msg.auth.tooManyAttempts(waitText(admission.retryAfterSeconds));
}

/**
 * POST /api/auth/sign-in/email `{ email, password }` (JSON only, else 415), wrapped around
 * better-auth: counts the attempt against the address and the account before the password is
 * checked (429 `{ code, message }` with Retry-After beyond the limits or while locked); a
 * deactivated operator gets exactly the wrong-password answer (401) and an audit row
 * `sign_in_refused`; success clears the account's counters and replaces the browser's previous
 * session. Every attempt is audited. docs/security.md.
 * Under SSO_ONLY a password sign-in by anyone but a break-glass operator (SSO_BREAK_GLASS) is
 * answered 403 `{ code: "PASSWORD_SIGN_IN_OFF", message }` before any password is checked, with a
 * `sign_in_refused` row (`reason: "sso_only"`). docs/identity.md.
 */
export function signInHandler(auth: Auth, security: SecurityConfig, clock: Clock, identity?: IdentityConfig) {
  return async (c: Context<AppEnv>) => {
    const db = c.get("db");
    const now = clock();
    const checked = await checkedJsonBody(c, signInBoundsSchema);
    if (checked.refused) return checked.refused;
    const { body } = checked;
    const email = typeof body.email === "string" ? body.email.trim().toLowerCase() : "";
    const password = typeof body.password === "string" ? body.password : "";
    const keys = { ip: `ip:${c.get("clientIp")}`, account: email ? accountKey(email) : null };
    // Only emails of real operators go into the audit log (a password typed into the email box must not).
    const [known] = email
      ? await db
          .select({ id: operator.id, email: operator.email, banned: operator.banned })
          .from(operator)
          .where(eq(operator.email, email))
      : [];
    const attempt = { email: known ? known.email : "(unknown account)" };
    const actor = known ? { id: known.id, email: known.email } : undefined;

    // SSO_ONLY (docs/identity.md): no password is checked or counted, except a break-glass operator's.
    if (passwordSignInOff(identity, email)) {
      await writeAudit(db, c, [
        {
          action: "sign_in_refused",
          entity: "operator",
          entity_id: known?.id ?? null,
          after: { ...attempt, method: "password", reason: "sso_only" },
          operator: actor,
        },
      ]);
      return c.json({ code: "PASSWORD_SIGN_IN_OFF", message: msg.sso.passwordOff }, 403);
    }

    const admission = await admitAttempt(db, keys, security, now);
    if (!admission.admitted) {
      await writeAudit(db, c, [
        {
          action: "sign_in_blocked",
          entity: "operator",
          entity_id: known?.id ?? null,
          after: attempt,
          operator: actor,
        },
      ]);
      return c.json(
        { code: admission.locked ? "ACCOUNT_LOCKED" : "TOO_MANY_ATTEMPTS", message: tooManyMessage(admission) },
        429,
        { "retry-after": String(admission.retryAfterSeconds) },
      );
    }

    // A deactivated operator's password is never checked: the library is asked with a password that
    // cannot match, so the answer (and the time it takes) is exactly that of a wrong password.
    const banned = known?.banned === true;
    const forwarded: Record<string, unknown> = {
      email,
      password: banned ? `deactivated:${crypto.randomUUID()}` : password,
    };
    if (typeof body.rememberMe === "boolean") forwarded.rememberMe = body.rememberMe;
    const previous = await auth.api.getSession({ headers: c.req.raw.headers }).catch(() => null);
    const response = await auth.handler(withJsonBody(c.req.raw, forwarded));
    if (response.status === 200 && !banned) {
      const data = (await response.clone().json()) as { token?: string; user?: { id: string } };
      // Password right, second factor still to come (identity/two-factor-routes.ts): no session yet,
      // so not a sign-in; the counters are forgiven only once the code is right.
      if ((data as { twoFactorRedirect?: boolean }).twoFactorRedirect === true) {
        await takeBackAttempt(db, keys, security, now);
        return response;
      }
      await forgiveAttempt(db, keys, security, now);
      if (previous && previous.session.token !== data.token) {
        await db.delete(operator_session).where(eq(operator_session.token, previous.session.token));
      }
      await writeAudit(db, c, [
        { action: "sign_in", entity: "operator", entity_id: data.user?.id ?? null, operator: actor },
      ]);
      return response;
    }
    if (response.status === 200) {
      // Unreachable (the password cannot match); never let a deactivated operator keep a session.
      const data = (await response.clone().json()) as { token?: string };
      if (data.token) await db.delete(operator_session).where(eq(operator_session.token, data.token));
      return c.json({ code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" }, 401);
    }
    await writeAudit(db, c, [
      {
        action: banned ? "sign_in_refused" : "sign_in_failed",
        entity: "operator",
        entity_id: known?.id ?? null,
        after: attempt,
        operator: actor,
      },
    ]);
    return response;
  };
}

/**
 * POST /api/auth/change-password `{ currentPassword, newPassword, revokeOtherSessions? }` (JSON
 * only), for the signed-in operator: 401 without a session (a deactivated operator has none), 422
 * when the new password breaks the policy (src/domain/password.ts) or the current one is wrong,
 * 429 beyond the sign-in limits of the address and the account (counted before the check, like
 * sign-in). Audited: change_password, change_password_failed, change_password_blocked.
 */
export function changePasswordHandler(auth: Auth, security: SecurityConfig, clock: Clock) {
  return async (c: Context<AppEnv>) => {
    const db = c.get("db");
    const now = clock();
    const session = await resolveSession(c, auth, security, clock);
    if (!session) return errorResponse(c, 401, "unauthorized", msg.api.unauthorized);
    c.set("session", session);
    const parsed = await checkedJsonBody(c, changePasswordSchema);
    if (parsed.refused) return parsed.refused;
    const me = session.user;
    const keys = { ip: `ip:${c.get("clientIp")}`, account: accountKey(me.email) };
    const admission = await admitAttempt(db, keys, security, now);
    if (!admission.admitted) {
      await writeAudit(db, c, [{ action: "change_password_blocked", entity: "operator", entity_id: me.id }]);
      c.header("retry-after", String(admission.retryAfterSeconds));
      return errorResponse(c, 429, "rate_limited", tooManyMessage(admission));
    }
    const response = await auth.handler(withJsonBody(c.req.raw, { ...parsed.data }));
    if (response.status === 200) {
      await forgiveAttempt(db, keys, security, now);
      await writeAudit(db, c, [
        {
          action: "change_password",
          entity: "operator",
          entity_id: me.id,
          after: { revokeOtherSessions: parsed.data.revokeOtherSessions ?? false },
        },
      ]);
      return response;
    }
    await writeAudit(db, c, [{ action: "change_password_failed", entity: "operator", entity_id: me.id }]);
    if (response.status === 400 || response.status === 401) {
      return errorResponse(c, 422, "validation_failed", passwordMessages.wrongCurrent, {
        currentPassword: passwordMessages.wrongCurrent,
      });
    }
    return response;
  };
}

/** POST /api/auth/sign-out, wrapped to audit who signed out. */
export function signOutHandler(auth: Auth) {
  return async (c: Context<AppEnv>) => {
    const session = await auth.api.getSession({ headers: c.req.raw.headers }).catch(() => null);
    const response = await auth.handler(c.req.raw);
    if (session && response.ok) {
      c.set("session", session);
      await writeAudit(c.get("db"), c, [{ action: "sign_out", entity: "operator", entity_id: session.user.id }]);
    }
    return response;
  };
}

/**
 * The request's operator session, or null when there is none (no cookie, unknown, expired, past
 * the absolute lifetime, or of a deactivated operator: those are deleted). Refreshes the sliding
 * expiry (cookie headers are copied to the response).
 * @throws HttpError 503 when the sessions cannot be read (the database is unreachable): an outage
 * is not "signed out", so the browser keeps its session. Logged with the request id.
 */
export async function resolveSession(
  c: Context<AppEnv>,
  auth: Auth,
  security: SecurityConfig,
  clock: Clock = systemClock,
): Promise<SessionData | null> {
  let result: Awaited<ReturnType<typeof readSession>>;
  try {
    result = await readSession(c, auth);
    // The library answers null on some storage errors: a cookie with no session is checked against
    // the database itself, so that an outage is never taken for a signed-out browser.
    if (!result?.response && hasSessionCookie(c)) await c.get("db").execute(sql`select 1`);
  } catch (err) {
    c.get("logger").error({ requestId: c.get("requestId"), err }, "sessions cannot be read");
    throw new HttpError(503, "unavailable", msg.api.unavailable);
  }
  const session = result?.response ?? null;
  for (const cookie of result?.headers?.getSetCookie() ?? []) c.header("set-cookie", cookie, { append: true });
  if (!session) return null;
  const tooOld = clock().getTime() - new Date(session.session.createdAt).getTime() > security.sessionMaxSeconds * 1000;
  const banned = (session.user as { banned?: boolean | null }).banned === true;
  if (tooOld || banned) {
    await c
      .get("db")
      .delete(operator_session)
      .where(banned ? eq(operator_session.userId, session.user.id) : eq(operator_session.token, session.session.token));
    return null;
  }
  return session;
}

/** The session: read directly in its common case (session-read.ts), else by better-auth. */
async function readSession(c: Context<AppEnv>, auth: Auth) {
  const direct = await readSessionDirect(c.get("db"), auth, c.req.header("cookie"), c.get("credentials"));
  if (direct) return { response: direct, headers: undefined };
  return auth.api.getSession({ headers: c.req.raw.headers, returnHeaders: true });
}

function hasSessionCookie(c: Context): boolean {
  return /(^|;\s*)(__Secure-)?pedal\.session_token=/.test(c.req.header("cookie") ?? "");
}

/** Ends every session of an operator (deactivation, password reset, sign out everywhere). */
export async function revokeSessions(db: Database, operatorId: string): Promise<number> {
  const deleted = await db
    .delete(operator_session)
    .where(eq(operator_session.userId, operatorId))
    .returning({ id: operator_session.id });
  return deleted.length;
}

/** Deletes sessions that have expired, so the table does not grow without bound. */
export async function pruneSessions(db: Database) {
  await db.delete(operator_session).where(lt(operator_session.expiresAt, new Date()));
  await db
    .delete(auth_throttle)
    .where(
      and(
        lt(auth_throttle.updated_at, new Date(Date.now() - 86_400_000)),
        sql`(${auth_throttle.locked_until} is null or ${auth_throttle.locked_until} < now())`,
      ),
    );
}

function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

const unsafe = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * CSRF protection: a state-changing request must come from the console's own origin (Origin
 * header, else Referer). Answers 403 otherwise. Not asked of a request with a personal API token
 * (`Authorization: Bearer`, an empty or malformed one too: it is then answered 401 about the token)
 * and no cookie outside /api/auth: a browser never adds that header to a cross-site request by
 * itself, so such a request cannot be forged (docs/identity.md). With a cookie too, the check
 * applies as to any cookie request.
 */
export function sameOrigin(publicUrl: string): MiddlewareHandler<AppEnv> {
  const allowed = allowedOrigins(publicUrl);
  return async (c, next) => {
    if (!unsafe.has(c.req.method)) return next();
    if (
      !c.req.header("cookie") &&
      /^\s*bearer(\s|$)/i.test(c.req.header("authorization") ?? "") &&
      !c.req.path.startsWith("/api/auth/")
    )
      return next();
    const origin = c.req.header("origin") ?? originOf(c.req.header("referer"));
    if (!origin || !allowed.includes(origin)) return errorResponse(c, 403, "forbidden", msg.api.crossOrigin);
    return next();
  };
}
