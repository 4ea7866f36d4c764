/**
 * Sign-in and session hardening (README "Security"):
 * - sign-in throttling per client address and per account, counted in `auth_throttle` so that
 *   every server copy shares it, and an account lock after N failures in a row;
 * - the absolute session lifetime, and sessions of deactivated operators ending at once;
 * - an Origin check on every state-changing API request (CSRF);
 * - audit rows for sign-in, failed sign-in, blocked sign-in and sign-out.
 */
import { getConnInfo } from "@hono/node-server/conninfo";
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import { msg } from "../domain/messages";
import type { Auth, SessionData } from "./auth";
import { writeAudit } from "./audit";
import { allowedOrigins, type SecurityConfig } from "./config";
import type { Database } from "./db/client";
import { auth_throttle, operator, operator_session } from "./db/schema";
import { errorResponse } from "./http/errors";
import type { AppEnv } from "./http/route";

/** The client's address: the socket's, or X-Forwarded-For's first entry behind a trusted proxy. */
export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown"; // in-process requests (tests) have no socket
  }
}

type Verdict = { blocked: false } | { blocked: true; retryAfterSeconds: number; locked: boolean };

/** Whether a sign-in for these keys must be refused now, and for how long. */
export async function checkThrottle(db: Database, keys: { ip: string; account: string | null }, security: SecurityConfig, now = new Date()): Promise<Verdict> {
  const wanted = [keys.ip, ...(keys.account ? [keys.account] : [])];
  const rows = await db.select().from(auth_throttle).where(inArray(auth_throttle.key, wanted));
  let wait = 0;
  let locked = false;
  for (const row of rows) {
    if (row.locked_until && row.locked_until > now) {
      wait = Math.max(wait, (row.locked_until.getTime() - now.getTime()) / 1000);
      locked = true;
    }
    const windowEnd = row.window_started_at.getTime() + security.signInWindowSeconds * 1000;
    const max = row.key.startsWith("ip:") ? security.signInMaxPerIp : security.signInMaxPerAccount;
    if (windowEnd > now.getTime() && row.failures >= max) wait = Math.max(wait, (windowEnd - now.getTime()) / 1000);
  }
  return wait > 0 ? { blocked: true, retryAfterSeconds: Math.ceil(wait), locked } : { blocked: false };
}

/** Counts one failed sign-in against each key, atomically; the account is locked at the limit. */
export async function recordFailure(db: Database, keys: string[], security: SecurityConfig, now = new Date()) {
  const windowStart = new Date(now.getTime() - security.signInWindowSeconds * 1000);
  const lockUntil = new Date(now.getTime() + security.lockoutSeconds * 1000);
  for (const key of keys) {
    await db
      .insert(auth_throttle)
      .values({ key, failures: 1, window_started_at: now, consecutive_failures: 1, updated_at: now })
      .onConflictDoUpdate({
        target: auth_throttle.key,
        set: {
          failures: sql`case when ${auth_throttle.window_started_at} < ${windowStart} then 1 else ${auth_throttle.failures} + 1 end`,
          window_started_at: sql`case when ${auth_throttle.window_started_at} < ${windowStart} then ${now} else ${auth_throttle.window_started_at} end`,
          consecutive_failures: sql`${auth_throttle.consecutive_failures} + 1`,
          locked_until: key.startsWith("account:")
            ? sql`case when ${auth_throttle.consecutive_failures} + 1 >= ${security.lockoutFailures} then ${lockUntil} else ${auth_throttle.locked_until} end`
            : sql`${auth_throttle.locked_until}`,
          updated_at: now,
        },
      });
  }
}

/** A successful sign-in clears the account's counters (not the address's). */
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
 * POST /api/auth/sign-in/email, wrapped: refuses throttled or locked attempts with 429 and the
 * wait, counts failures, clears counters on success, ends the session the browser had before
 * (sessions are replaced at sign-in), refuses deactivated operators, and audits each attempt.
 */
export function signInHandler(auth: Auth, security: SecurityConfig) {
  return async (c: Context<AppEnv>) => {
    const db = c.var.db;
    const body = (await c.req.raw.clone().json().catch(() => ({}))) as { email?: unknown };
    const email = typeof body.email === "string" ? body.email.trim().toLowerCase() : "";
    const ip = `ip:${c.var.clientIp}`;
    const account = email ? accountKey(email) : null;
    // Only emails of real operators go into the audit log (a password typed into the email box must not).
    const [known] = email ? await db.select({ id: operator.id, email: operator.email, banned: operator.banned }).from(operator).where(eq(operator.email, email)) : [];
    const attempt = { email: known ? known.email : "(unknown account)" };
    const actor = known ? { id: known.id, email: known.email } : undefined;

    const verdict = await checkThrottle(db, { ip, account }, security);
    if (verdict.blocked) {
      await writeAudit(db, c, [{ action: "sign_in_blocked", entity: "operator", entity_id: known?.id ?? null, after: attempt, operator: actor }]);
      const message = verdict.locked ? msg.auth.locked(waitText(verdict.retryAfterSeconds)) : msg.auth.tooManyAttempts(waitText(verdict.retryAfterSeconds));
      return c.json({ code: verdict.locked ? "ACCOUNT_LOCKED" : "TOO_MANY_ATTEMPTS", message }, 429, { "retry-after": String(verdict.retryAfterSeconds) });
    }

    const previous = await auth.api.getSession({ headers: c.req.raw.headers }).catch(() => null);
    const response = await auth.handler(c.req.raw);
    if (response.status === 200) {
      const data = (await response.clone().json()) as { token?: string; user?: { id: string } };
      if (known?.banned) {
        if (data.token) await db.delete(operator_session).where(eq(operator_session.token, data.token));
        await writeAudit(db, c, [{ action: "sign_in_refused", entity: "operator", entity_id: known.id, after: attempt, operator: actor }]);
        return c.json({ code: "ACCOUNT_DEACTIVATED", message: msg.auth.deactivated }, 403);
      }
      if (email) await clearAccount(db, email);
      if (previous && previous.session.token !== data.token) {
        await db.delete(operator_session).where(eq(operator_session.token, previous.session.token));
      }
      await writeAudit(db, c, [{ action: "sign_in", entity: "operator", entity_id: data.user?.id ?? null, operator: actor }]);
    } else if (response.status === 401 || response.status === 400) {
      await recordFailure(db, account ? [ip, account] : [ip], security);
      await writeAudit(db, c, [{ action: "sign_in_failed", entity: "operator", entity_id: known?.id ?? null, after: attempt, operator: actor }]);
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
      await writeAudit(c.var.db, c, [{ action: "sign_out", entity: "operator", entity_id: session.user.id }]);
    }
    return response;
  };
}

/**
 * The request's operator session, or null: refreshes the sliding expiry (cookie headers are copied
 * to the response), and ends sessions past the absolute lifetime or of deactivated operators.
 */
export async function resolveSession(c: Context<AppEnv>, auth: Auth, security: SecurityConfig): Promise<SessionData | null> {
  const result = await auth.api.getSession({ headers: c.req.raw.headers, returnHeaders: true }).catch(() => null);
  const session = result?.response ?? null;
  for (const cookie of result?.headers?.getSetCookie() ?? []) c.header("set-cookie", cookie, { append: true });
  if (!session) return null;
  const tooOld = Date.now() - new Date(session.session.createdAt).getTime() > security.sessionMaxSeconds * 1000;
  const banned = (session.user as { banned?: boolean | null }).banned === true;
  if (tooOld || banned) {
    await c.var.db.delete(operator_session).where(banned ? eq(operator_session.userId, session.user.id) : eq(operator_session.token, session.session.token));
    return null;
  }
  return session;
}

/** Ends every session of an operator (deactivation, password reset, sign out everywhere). */
export async function revokeSessions(db: Database, operatorId: string): Promise<number> {
  const deleted = await db.delete(operator_session).where(eq(operator_session.userId, operatorId)).returning({ id: operator_session.id });
  return deleted.length;
}

/** Deletes sessions that have expired, so the table does not grow without bound. */
export async function pruneSessions(db: Database) {
  await db.delete(operator_session).where(lt(operator_session.expiresAt, new Date()));
  await db.delete(auth_throttle).where(and(lt(auth_throttle.updated_at, new Date(Date.now() - 86_400_000)), sql`(${auth_throttle.locked_until} is null or ${auth_throttle.locked_until} < now())`));
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
 * header, else Referer). Answers 403 otherwise.
 */
export function sameOrigin(publicUrl: string): MiddlewareHandler<AppEnv> {
  const allowed = allowedOrigins(publicUrl);
  return async (c, next) => {
    if (!unsafe.has(c.req.method)) return next();
    const origin = c.req.header("origin") ?? originOf(c.req.header("referer"));
    if (!origin || !allowed.includes(origin)) return errorResponse(c, 403, "forbidden", msg.api.crossOrigin);
    return next();
  };
}
