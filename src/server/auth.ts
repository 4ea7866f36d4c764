import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { hashPassword } from "better-auth/crypto";
import { eq } from "drizzle-orm";
import type pino from "pino";
import { allowedOrigins, type Config } from "./config";
import type { Database } from "./db/client";
import { authSchema, operator, operator_account } from "./db/schema";
import type { OperatorRole } from "../domain/enums";
import { passwordPolicy } from "../domain/password";

/**
 * The better-auth instance: email + password sign-in for operators, sessions stored in the
 * database (`operator_session`), httpOnly cookies. Public sign-up is disabled; operators are
 * created by `createOperator` (demo start, `npm run operator:create`).
 */
export function createAuth(db: Database, config: Pick<Config, "authSecret" | "publicUrl" | "security">, log: pino.Logger) {
  const idle = config.security.sessionIdleSeconds;
  return betterAuth({
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
    },
    // Sliding expiry: every use (at most once a minute) pushes the end `idle` seconds ahead, so a
    // session ends after that long unused. The absolute limit is enforced in security.ts.
    session: { modelName: "operator_session", expiresIn: idle, updateAge: Math.min(60, Math.max(1, Math.floor(idle / 2))) },
    account: { modelName: "operator_account" },
    verification: { modelName: "operator_verification" },
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: passwordPolicy.minLength, maxPasswordLength: passwordPolicy.maxLength },
    // Sign-in throttling is ours (security.ts): counted in the database, per address and per account.
    rateLimit: { enabled: false },
    advanced: { cookiePrefix: "pedal", useSecureCookies: config.publicUrl.startsWith("https://") },
    telemetry: { enabled: false },
  });
}

export type Auth = ReturnType<typeof createAuth>;
export type SessionData = NonNullable<Awaited<ReturnType<Auth["api"]["getSession"]>>>;

/** Thrown by createOperator when the email is already taken. */
export class OperatorExistsError extends Error {}

/**
 * Creates an operator who signs in with `email` and `password` (hashed by better-auth's scrypt).
 * @returns the new operator's id.
 * @throws OperatorExistsError when an operator with that email exists.
 */
export async function createOperator(
  db: Database,
  input: { email: string; password: string; name?: string; role?: OperatorRole },
): Promise<string> {
  const email = input.email.trim().toLowerCase();
  const existing = await db.select({ id: operator.id }).from(operator).where(eq(operator.email, email));
  if (existing.length > 0) throw new OperatorExistsError(`An operator with email ${email} already exists`);
  const id = crypto.randomUUID();
  const password = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    await tx.insert(operator).values({
      id,
      email,
      name: input.name ?? email.split("@")[0],
      emailVerified: true,
      role: input.role ?? "admin",
    });
    await tx.insert(operator_account).values({
      id: crypto.randomUUID(),
      accountId: id,
      providerId: "credential",
      userId: id,
      password,
    });
  });
  return id;
}
