import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { hashPassword } from "better-auth/crypto";
import { eq } from "drizzle-orm";
import type pino from "pino";
import { allowedOrigins, defaultIdentity, type Config } from "./config";
import { ssoAuthOptions, ssoDiagnosis, ssoPlugin } from "./identity/sso";
import { twoFactorPlugin } from "./identity/two-factor";
import type { Database } from "./db/client";
import { auth_throttle, authSchema, operator, operator_account } from "./db/schema";
import { writeAuditRows } from "./audit";
import { quietAuth } from "./async-context";
import type { OperatorRole } from "../domain/enums";
import { passwordPolicy } from "../domain/password";

/**
 * The better-auth instance: email + password sign-in for operators, sessions stored in the
 * database (`operator_session`), httpOnly cookies. Public sign-up is disabled; operators are
 * created by `createOperator` (demo start, `npm run operator:create`).
 */
export function createAuth(
  db: Database,
  config: Pick<Config, "authSecret" | "publicUrl" | "security"> & Partial<Pick<Config, "identity">>,
  log: pino.Logger,
) {
  const identity = config.identity ?? defaultIdentity;
  const sso = identity.sso ? ssoAuthOptions(identity.sso, db) : undefined;
  const idle = config.security.sessionIdleSeconds;
  // Its AsyncLocalStorage is switched off between its calls (async-context.ts).
  return quietAuth(
    betterAuth({
      logger: {
        level: "warn",
        log: (level, message, ...args) => log[level === "debug" ? "debug" : level]({ source: "auth", args }, message),
      },
      appName: "Pedal Console",
      secret: config.authSecret,
      baseURL: config.publicUrl,
      basePath: "/api/auth",
      trustedOrigins: allowedOrigins(config.publicUrl),
      database: drizzleAdapter(db, { provider: "pg", schema: authSchema }),
      user: {
        modelName: "operator",
        additionalFields: {
          role: { type: "string", required: false, defaultValue: "viewer", input: false },
          banned: { type: "boolean", required: false, defaultValue: false, input: false },
        },
        ...(sso ? { validateUserInfo: sso.validateUserInfo } : {}),
      },
      ...(sso ? { databaseHooks: sso.databaseHooks } : {}),
      plugins: [twoFactorPlugin(), ...(identity.sso ? [ssoPlugin(identity.sso), ssoDiagnosis(identity.sso)] : [])],
      // Sliding expiry: every use (at most once a minute) pushes the end `idle` seconds ahead, so a
      // session ends after that long unused. The absolute limit is enforced in security.ts.
      session: {
        modelName: "operator_session",
        expiresIn: idle,
        updateAge: Math.min(60, Math.max(1, Math.floor(idle / 2))),
      },
      account: { modelName: "operator_account", ...(sso ? { accountLinking: sso.accountLinking } : {}) },
      verification: { modelName: "operator_verification" },
      emailAndPassword: {
        enabled: true,
        disableSignUp: true,
        minPasswordLength: passwordPolicy.minLength,
        maxPasswordLength: passwordPolicy.maxLength,
      },
      // Sign-in throttling is ours (security.ts): counted in the database, per address and per account.
      rateLimit: { enabled: false },
      advanced: {
        cookiePrefix: "pedal",
        useSecureCookies: config.publicUrl.startsWith("https://"),
        // The address the console resolved (app.ts), not a header the client could write.
        ipAddress: { ipAddressHeaders: [clientIpHeader] },
      },
      telemetry: { enabled: false },
    }),
  );
}

/**
 * The header the sign-in library reads a new session's address from (`advanced.ipAddress`): set on
 * every /api/auth request to `clientIp` (app.ts), replacing whatever the client sent, so that a
 * session's address is the one the console trusts (TRUST_PROXY), never a forged X-Forwarded-For.
 */
export const clientIpHeader = "x-pedal-client-ip";

export type Auth = ReturnType<typeof createAuth>;
export type SessionData = NonNullable<Awaited<ReturnType<Auth["api"]["getSession"]>>>;

/** Thrown by createOperator when the email is already taken. */
export class OperatorExistsError extends Error {}

/**
 * Creates an operator who signs in with `email` and `password` (hashed by better-auth's scrypt).
 * With `audit`, a `create` audit row is written in the same transaction, attributed to no operator
 * and tagged with `audit.requestId` (the server command that ran, e.g. "cli:operator:create").
 * @returns the new operator's id.
 * @throws OperatorExistsError when an operator with that email exists.
 */
export async function createOperator(
  db: Database,
  input: { email: string; password: string; name?: string; role?: OperatorRole },
  audit?: { requestId: string },
): Promise<string> {
  const email = input.email.trim().toLowerCase();
  const existing = await db.select({ id: operator.id }).from(operator).where(eq(operator.email, email));
  if (existing.length > 0) throw new OperatorExistsError(`An operator with email ${email} already exists`);
  const id = crypto.randomUUID();
  const password = await hashPassword(input.password);
  const role = input.role ?? "admin";
  const name = input.name ?? email.split("@")[0];
  await db.transaction(async (tx) => {
    await tx.insert(operator).values({ id, email, name, emailVerified: true, role });
    await tx.insert(operator_account).values({
      id: crypto.randomUUID(),
      accountId: id,
      providerId: "credential",
      userId: id,
      password,
    });
    if (audit)
      await writeAuditRows(
        tx,
        [{ action: "create", entity: "operator", entity_id: id, after: { email, name, role } }],
        { requestId: audit.requestId, ip: null },
      );
  });
  return id;
}

/**
 * Releases the sign-in lock and counters of the operator with `email` (the server's way back in
 * when every admin is locked out: `npm run operator:unlock`), with an `unlock` audit row tagged
 * "cli:operator:unlock". @returns false when no operator has that email.
 */
export async function unlockOperator(db: Database, email: string): Promise<boolean> {
  const normalized = email.trim().toLowerCase();
  return db.transaction(async (tx) => {
    const [found] = await tx.select({ id: operator.id }).from(operator).where(eq(operator.email, normalized));
    if (!found) return false;
    const released = await tx
      .delete(auth_throttle)
      .where(eq(auth_throttle.key, `account:${normalized}`))
      .returning({ locked_until: auth_throttle.locked_until });
    await writeAuditRows(
      tx,
      [
        {
          action: "unlock",
          entity: "operator",
          entity_id: found.id,
          after: { was_locked: released.some((r) => r.locked_until !== null && r.locked_until > new Date()) },
        },
      ],
      { requestId: "cli:operator:unlock", ip: null },
    );
    return true;
  });
}
