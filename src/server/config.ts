import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { bulkLimits } from "../domain/limits";
import { promptReviewModes, type OperatorRole, type PromptReviewMode } from "../domain/enums";
import { passwordSchema } from "../domain/password";

/** The default of ANALYTICS_REFRESH_SECONDS. */
export const defaultAnalyticsRefreshSeconds = 60;

/** The default of DELETED_RETENTION_DAYS: deleted records can be restored for 30 days (issue 33). */
export const defaultDeletedRetentionDays = 30;

/** The default of MAX_BODY_BYTES: 1 MiB. */
export const defaultMaxBodyBytes = 1_048_576;
/** LIST_BACKGROUND_COUNT_FROM: estimated matching rows from which a search is counted in the background (list engine). */
export const defaultBackgroundCountFrom = 5_000;
/**
 * LIST_COUNT_WAIT_MS on PostgreSQL: how long a search's first request waits for its count before it
 * is answered with the planner's estimate while the count goes on in the background (list engine).
 * The embedded database answers one statement at a time, so its default (0) waits for the count.
 */
export const defaultCountWaitMs = 100;

/**
 * PGLITE_SHARED_BUFFERS_MB: the embedded PostgreSQL's `shared_buffers`, in MB
 * (docs/configuration.md). PostgreSQL's default, 128 MB, lives in the server's own process here,
 * and caches pages the operating system's file cache already holds (a data folder) or that are in
 * memory anyway (tests). At 100,200 users, 16 MB took the server from 422 to 323 MiB at most
 * under the benchmark with the same latencies; 8 MB gave 289 MiB, but comment searches took about
 * twice as long (docs/performance.md).
 */
export const defaultPgliteSharedBuffersMb = 16;

/**
 * Environment of the console, parsed once. This is the only module that reads `process.env`.
 *
 * | variable            | default                   | meaning |
 * | ------------------- | ------------------------- | ------- |
 * | PORT                | 3000                      | HTTP port |
 * | HOST                | 127.0.0.1                 | interface to listen on (`0.0.0.0` for all) |
 * | DATABASE_URL        | (unset)                   | PostgreSQL URL; unset = embedded PGlite under DATA_DIR |
 * | DATA_DIR            | ./data                    | embedded database, lock file, generated secret, demo sign-in |
 * | PGLITE_SHARED_BUFFERS_MB | 16                   | embedded database only: PostgreSQL's shared_buffers, in MB (1–1024) |
 * | PUBLIC_URL          | http://localhost:PORT     | the URL operators open; the auth library trusts this origin |
 * | BETTER_AUTH_SECRET  | generated under DATA_DIR  | signs session cookies; required when NODE_ENV=production |
 * | SEED_DEMO           | (unset)                   | `1`: load demo data into an empty PostgreSQL database at start |
 * | DEMO_SEED           | 42                        | seed of the demo data generator |
 * | DEMO_OPERATOR_PASSWORD | random, kept in DATA_DIR | embedded database only: the demo operator's password |
 * | LOG_LEVEL           | info                      | pino level (silent for none) |
 * | SESSION_IDLE_MINUTES | 30                       | a session unused this long ends |
 * | SESSION_MAX_HOURS   | 12                        | a session ends this long after sign-in, used or not |
 * | SIGNIN_WINDOW_SECONDS | 900                     | window of the sign-in rate limits |
 * | SIGNIN_MAX_PER_IP   | 20                        | failed sign-ins from one address per window |
 * | SIGNIN_MAX_PER_ACCOUNT | 5                      | failed sign-ins for one account per window |
 * | LOCKOUT_FAILURES    | 10                        | failures in a row that lock an account |
 * | LOCKOUT_MINUTES     | 30                        | how long a lock lasts unless an admin unlocks it |
 * | TRUST_PROXY         | (unset)                   | number of reverse proxies in front: the client address is that many entries from the right of X-Forwarded-For |
 * | LIST_EXACT_COUNT_LIMIT | 50000                  | above this many matching rows a list's total is the planner's estimate |
 * | LIST_SUMMARY_REFRESH_SECONDS | 10               | age of a big list's summary cards from which they are counted again in the background |
 * | LIST_BACKGROUND_COUNT_FROM | 5000               | a search estimated to match this many rows or more is counted in the background, its page answered first |
 * | LIST_COUNT_WAIT_MS  | 100 (PostgreSQL), 0 (PGlite) | how long a search estimated below that waits for its count before it too is counted in the background; 0 waits for the count |
 * | ANALYTICS_REFRESH_SECONDS | 60                  | age after which an analytics figure is refreshed in the background |
 * | MAX_BODY_BYTES      | 1048576                   | largest request body accepted (413 above), on every route |
 * | SHUTDOWN_WAIT_SECONDS | 10                      | on SIGTERM/SIGINT, how long requests in flight may take to finish |
 * | HEADERS_TIMEOUT_SECONDS | 10                    | a client must send a request's headers within this long (408 and closed otherwise) |
 * | REQUEST_TIMEOUT_SECONDS | 30                    | a client must send a whole request, body included, within this long (408 and closed otherwise) |
 * | KEEP_ALIVE_TIMEOUT_SECONDS | 65                 | how long an idle connection is kept open for the client's next request (said in `Keep-Alive: timeout=N`) |
 * | DELETED_RETENTION_DAYS | 30                     | how long deleted records are kept for restore; older snapshots are purged (at start and hourly) |
 * | BULK_LEASE_SECONDS  | 30                        | how long a stopped server copy's bulk runs and imports wait before another copy resumes them (PostgreSQL) |
 * | CREDENTIAL_CACHE_SECONDS | 5                    | how long a server copy keeps a session or API token it has read (dropped at once on any change to them); 0 reads them on every request |
 * | SSO_ISSUER          | (unset)                   | OpenID Connect issuer URL (its `/.well-known/openid-configuration` is read); unset = no single sign-on |
 * | SSO_CLIENT_ID       | (unset)                   | the console's client id at the provider (required with SSO_ISSUER) |
 * | SSO_CLIENT_SECRET   | (unset)                   | the console's client secret at the provider (required with SSO_ISSUER) |
 * | SSO_BUTTON_LABEL    | Sign in with single sign-on | the login screen's button, e.g. "Sign in with Okta" |
 * | SSO_ALLOWED_DOMAINS | (unset: any)              | comma-separated e-mail domains single sign-on accepts |
 * | SSO_ROLE_CLAIM      | (unset)                   | ID token or userinfo claim holding the person's groups, e.g. `groups` |
 * | SSO_ROLE_MAP        | (unset)                   | `group=role` pairs, comma-separated, e.g. `console-admins=admin,console-editors=editor` |
 * | SSO_DEFAULT_ROLE    | viewer                    | role of a created operator whom the map gives none |
 * | SSO_CREATE_OPERATORS | false                    | `true`: a verified person from an allowed domain with no operator yet gets one on first sign-in |
 * | SSO_ONLY            | false                     | `true`: password sign-in is off except for SSO_BREAK_GLASS operators |
 * | SSO_BREAK_GLASS     | (unset)                   | comma-separated e-mails of operators who may still sign in with a password under SSO_ONLY |
 * | REQUIRE_MFA         | none                      | `admin` or `all`: operators it covers must set up two-factor sign-in before anything else |
 * | API_TOKEN_RATE_LIMIT | 600                      | requests per minute one API token may make (429 above) |
 * | PROMPT_REVIEW       | off                       | `protected` or `all`: which prompt changes wait for a second operator (docs/prompt-review.md) |
 */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("127.0.0.1"),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default("./data"),
  PGLITE_SHARED_BUFFERS_MB: z.coerce.number().int().min(1).max(1024).default(defaultPgliteSharedBuffersMb),
  PUBLIC_URL: z.string().url().optional(),
  BETTER_AUTH_SECRET: z.string().min(32, "BETTER_AUTH_SECRET must be at least 32 characters").optional(),
  SEED_DEMO: z.enum(["0", "1", "true", "false"]).optional(),
  DEMO_SEED: z.coerce.number().int().default(42),
  DEMO_OPERATOR_PASSWORD: passwordSchema.optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  NODE_ENV: z.string().optional(),
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).default(30),
  SESSION_MAX_HOURS: z.coerce.number().min(0.01).default(12),
  SIGNIN_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
  SIGNIN_MAX_PER_IP: z.coerce.number().int().min(1).default(20),
  SIGNIN_MAX_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
  LOCKOUT_FAILURES: z.coerce.number().int().min(1).default(10),
  LOCKOUT_MINUTES: z.coerce.number().int().min(1).default(30),
  // A hop count; "true"/"false" are read as 1/0, as before hop counts existed.
  TRUST_PROXY: z
    .string()
    .regex(/^(\d{1,2}|true|false)$/, "TRUST_PROXY must be the number of proxies in front of the console (0–10)")
    .transform((v) => (v === "true" ? 1 : v === "false" ? 0 : Number(v)))
    .pipe(z.number().int().min(0).max(10))
    .optional(),
  LIST_EXACT_COUNT_LIMIT: z.coerce.number().int().min(1).default(50_000),
  LIST_SUMMARY_REFRESH_SECONDS: z.coerce.number().min(0).default(10),
  LIST_BACKGROUND_COUNT_FROM: z.coerce.number().int().min(1).default(defaultBackgroundCountFrom),
  LIST_COUNT_WAIT_MS: z.coerce.number().int().min(0).max(60_000).optional(),
  ANALYTICS_REFRESH_SECONDS: z.coerce.number().min(0).default(defaultAnalyticsRefreshSeconds),
  MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(defaultMaxBodyBytes),
  SHUTDOWN_WAIT_SECONDS: z.coerce.number().min(0).default(10),
  HEADERS_TIMEOUT_SECONDS: z.coerce.number().min(1).max(3600).default(10),
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().min(1).max(3600).default(30),
  KEEP_ALIVE_TIMEOUT_SECONDS: z.coerce.number().min(1).max(3600).default(65),
  DELETED_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(defaultDeletedRetentionDays),
  BULK_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(bulkLimits.leaseSeconds),
  CREDENTIAL_CACHE_SECONDS: z.coerce.number().int().min(0).max(60).default(5),
  SSO_ISSUER: z.string().url().optional(),
  SSO_CLIENT_ID: z.string().min(1).optional(),
  SSO_CLIENT_SECRET: z.string().min(1).optional(),
  SSO_BUTTON_LABEL: z.string().min(1).max(80).default("Sign in with single sign-on"),
  SSO_ALLOWED_DOMAINS: z.string().optional(),
  SSO_ROLE_CLAIM: z.string().min(1).max(100).optional(),
  SSO_ROLE_MAP: z
    .string()
    .regex(
      /^\s*[^=,]+=(admin|editor|viewer)\s*(,\s*[^=,]+=(admin|editor|viewer)\s*)*$/,
      "SSO_ROLE_MAP must be group=role pairs (admin, editor or viewer), comma-separated",
    )
    .optional(),
  SSO_DEFAULT_ROLE: z.enum(["admin", "editor", "viewer"]).default("viewer"),
  SSO_CREATE_OPERATORS: z.enum(["0", "1", "true", "false"]).default("false"),
  SSO_ONLY: z.enum(["0", "1", "true", "false"]).default("false"),
  SSO_BREAK_GLASS: z.string().optional(),
  REQUIRE_MFA: z.enum(["none", "admin", "all"]).default("none"),
  API_TOKEN_RATE_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(600),
  PROMPT_REVIEW: z.enum(promptReviewModes).default("off"),
});

const list = (value: string | undefined) =>
  (value ?? "")
    .split(",")
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);
const flag = (value: string) => value === "1" || value === "true";

/** Single sign-on through an OpenID Connect provider (docs/identity.md). */
export type SsoConfig = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  buttonLabel: string;
  /** Lower-case e-mail domains accepted; empty: any. */
  allowedDomains: string[];
  /** The claim holding the person's groups, read for SSO_ROLE_MAP. */
  roleClaim?: string;
  /** Group → role; the highest role any of the person's groups maps to wins. */
  roleMap: ReadonlyMap<string, OperatorRole>;
  /** Role of a created operator whom the map gives none. */
  defaultRole: OperatorRole;
  /** Whether a person with no operator yet gets one on first sign-in (allowed domains only). */
  createOperators: boolean;
  /** Whether password sign-in is off (except for `breakGlass`). */
  only: boolean;
  /** Lower-case e-mails of operators who may sign in with a password under `only`. */
  breakGlass: string[];
};

/** Single sign-on, two-factor and API token settings (docs/identity.md). */
export type IdentityConfig = {
  sso?: SsoConfig;
  /** Which operators must set up two-factor sign-in before anything else. */
  requireMfa: "none" | "admin" | "all";
  /** Requests per minute one API token may make. */
  apiTokenRatePerMinute: number;
};

/** The defaults of IdentityConfig: no single sign-on, two-factor optional. */
export const defaultIdentity: IdentityConfig = { requireMfa: "none", apiTokenRatePerMinute: 600 };

/** Session lifetimes and sign-in limits (docs/security.md). Times in seconds. */
export type SecurityConfig = {
  sessionIdleSeconds: number;
  sessionMaxSeconds: number;
  signInWindowSeconds: number;
  signInMaxPerIp: number;
  signInMaxPerAccount: number;
  lockoutFailures: number;
  lockoutSeconds: number;
  /**
   * How many reverse proxies stand in front of the console (0: none). Each appends the address it
   * received from to X-Forwarded-For, so the client's is that many entries from the right; entries
   * further left were written by the client and are never trusted.
   */
  trustProxy: number;
};

/** The defaults of SecurityConfig. */
export const defaultSecurity: SecurityConfig = {
  sessionIdleSeconds: 30 * 60,
  sessionMaxSeconds: 12 * 3600,
  signInWindowSeconds: 900,
  signInMaxPerIp: 20,
  signInMaxPerAccount: 5,
  lockoutFailures: 10,
  lockoutSeconds: 30 * 60,
  trustProxy: 0,
};

export type Config = {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  /** The embedded database's `shared_buffers`, in MB. */
  pgliteSharedBuffersMb: number;
  publicUrl: string;
  authSecret: string;
  seedDemo: boolean;
  demoSeed: number;
  demoOperatorPassword: string | undefined;
  logLevel: z.infer<typeof envSchema>["LOG_LEVEL"];
  production: boolean;
  security: SecurityConfig;
  /** The list engine (docs/lists.md). */
  lists: {
    exactCountLimit: number;
    summaryRefreshSeconds: number;
    summaryCacheSize?: number;
    summaryReuseFrom?: number;
    backgroundCountFrom?: number;
    countWaitMs?: number;
  };
  /** Analytics snapshots (docs/decisions.md "Analytics"): age in seconds after which a figure is refreshed. */
  analytics: { refreshSeconds: number };
  /** Largest request body accepted, in bytes; larger ones are answered 413 before anything reads them. */
  maxBodyBytes: number;
  /** On SIGTERM/SIGINT, how long requests in flight may take to finish, in seconds. */
  shutdownWaitSeconds: number;
  /**
   * How long a client may take to send a request's headers, and the whole request, in seconds
   * (slow-client bounds); how long an idle connection stays open for the next request.
   */
  timeouts: { headersSeconds: number; requestSeconds: number; keepAliveSeconds: number };
  /** How long deleted records' snapshots are kept for restore, in days (docs/undo-and-restore.md). */
  deletedRetentionDays: number;
  /** How long a server copy's lease on a bulk run holds past its last batch, in seconds (docs/bulk-actions.md "Restart"). */
  bulkLeaseSeconds: number;
  /** CREDENTIAL_CACHE_SECONDS: how long a copy keeps a session or token it read; 0 keeps none. */
  credentialCacheSeconds: number;
  /** Single sign-on, two-factor and API tokens (docs/identity.md). */
  identity: IdentityConfig;
  /**
   * PROMPT_REVIEW (docs/prompt-review.md): `off`, the spec's behaviour (a prompt's edit applies at
   * once); `protected`, a change to a prompt actively assigned to a platform marked "Changes need
   * review" waits for a second operator; `all`, every change to a prompt does.
   */
  promptReview: PromptReviewMode;
};

/** Thrown for an environment the console refuses to start with; `message` says what to change. */
export class ConfigError extends Error {}

/** The variables the console reads (`.env.example` names each: tests/api/foundation.test.ts, "the env file"). */
export const environmentVariables = [...Object.keys(envSchema.shape), "ENV_FILE"];

/**
 * Reads the optional env file into `process.env` before anything reads its settings: `.env` in the
 * working directory, or the file ENV_FILE names (`/dev/null`: none; the tests set that so that a
 * developer's `.env` does not reach them). A variable already set in the environment wins over
 * the file, as with Node's `--env-file`. Parsed by Node's own `process.loadEnvFile`.
 * @throws ConfigError when ENV_FILE names a file that does not exist, or the file cannot be read.
 */
export function loadEnvFile(env: Record<string, string | undefined> = process.env): void {
  const file = env.ENV_FILE || ".env";
  if (!existsSync(file)) {
    if (env.ENV_FILE) throw new ConfigError(`ENV_FILE: ${file} does not exist`);
    return;
  }
  try {
    process.loadEnvFile(file);
  } catch (err) {
    throw new ConfigError(`ENV_FILE: ${file} cannot be read (${err instanceof Error ? err.message : String(err)})`);
  }
}

/**
 * Parses `env` (default `process.env`) into a Config. Creates DATA_DIR when needed and, outside
 * production, generates and keeps an auth secret in `DATA_DIR/auth-secret` if none is given.
 * @throws ConfigError on an invalid variable, or in production without BETTER_AUTH_SECRET.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable counts as unset, as in most shells' `VAR= command`.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ""));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid environment:\n  ${lines.join("\n  ")}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === "production";
  const dataDir = path.resolve(e.DATA_DIR);
  let authSecret = e.BETTER_AUTH_SECRET;
  if (!authSecret) {
    if (production) {
      throw new ConfigError(
        "BETTER_AUTH_SECRET is not set. A production start needs an explicit secret of at least 32 characters, e.g. `openssl rand -base64 32`.",
      );
    }
    authSecret = readOrCreateSecret(dataDir);
  }
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir,
    pgliteSharedBuffersMb: e.PGLITE_SHARED_BUFFERS_MB,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ""),
    authSecret,
    seedDemo: e.SEED_DEMO === "1" || e.SEED_DEMO === "true",
    demoSeed: e.DEMO_SEED,
    demoOperatorPassword: e.DEMO_OPERATOR_PASSWORD,
    logLevel: e.LOG_LEVEL,
    production,
    security: {
      sessionIdleSeconds: e.SESSION_IDLE_MINUTES * 60,
      sessionMaxSeconds: Math.round(e.SESSION_MAX_HOURS * 3600),
      signInWindowSeconds: e.SIGNIN_WINDOW_SECONDS,
      signInMaxPerIp: e.SIGNIN_MAX_PER_IP,
      signInMaxPerAccount: e.SIGNIN_MAX_PER_ACCOUNT,
      lockoutFailures: e.LOCKOUT_FAILURES,
      lockoutSeconds: e.LOCKOUT_MINUTES * 60,
      trustProxy: e.TRUST_PROXY ?? 0,
    },
    lists: {
      exactCountLimit: e.LIST_EXACT_COUNT_LIMIT,
      summaryRefreshSeconds: e.LIST_SUMMARY_REFRESH_SECONDS,
      backgroundCountFrom: e.LIST_BACKGROUND_COUNT_FROM,
      countWaitMs: e.LIST_COUNT_WAIT_MS ?? (e.DATABASE_URL ? defaultCountWaitMs : 0),
    },
    analytics: { refreshSeconds: e.ANALYTICS_REFRESH_SECONDS },
    maxBodyBytes: e.MAX_BODY_BYTES,
    shutdownWaitSeconds: e.SHUTDOWN_WAIT_SECONDS,
    // Node needs the headers' bound within the request's.
    timeouts: {
      headersSeconds: Math.min(e.HEADERS_TIMEOUT_SECONDS, e.REQUEST_TIMEOUT_SECONDS),
      requestSeconds: e.REQUEST_TIMEOUT_SECONDS,
      keepAliveSeconds: e.KEEP_ALIVE_TIMEOUT_SECONDS,
    },
    deletedRetentionDays: e.DELETED_RETENTION_DAYS,
    bulkLeaseSeconds: e.BULK_LEASE_SECONDS,
    credentialCacheSeconds: e.CREDENTIAL_CACHE_SECONDS,
    identity: identityConfig(e),
    promptReview: e.PROMPT_REVIEW,
  };
}

function identityConfig(e: z.infer<typeof envSchema>): IdentityConfig {
  const identity: IdentityConfig = { requireMfa: e.REQUIRE_MFA, apiTokenRatePerMinute: e.API_TOKEN_RATE_LIMIT };
  if (!e.SSO_ISSUER) {
    if (flag(e.SSO_ONLY))
      throw new ConfigError("SSO_ONLY needs single sign-on: set SSO_ISSUER, SSO_CLIENT_ID and SSO_CLIENT_SECRET.");
    return identity;
  }
  if (!e.SSO_CLIENT_ID || !e.SSO_CLIENT_SECRET)
    throw new ConfigError(
      "SSO_ISSUER needs SSO_CLIENT_ID and SSO_CLIENT_SECRET, the console's client at the provider.",
    );
  // A Map, not an object: a group named `constructor`, `toString` or `__proto__` is a group like
  // any other, never a property every object has. The pattern above already refused unknown roles.
  const roleMap = new Map<string, OperatorRole>();
  for (const pair of (e.SSO_ROLE_MAP ?? "").split(",").filter((p) => p.trim())) {
    const [group, role] = pair.split("=").map((v) => v.trim());
    roleMap.set(group, role as OperatorRole);
  }
  identity.sso = {
    issuer: e.SSO_ISSUER.replace(/\/$/, ""),
    clientId: e.SSO_CLIENT_ID,
    clientSecret: e.SSO_CLIENT_SECRET,
    buttonLabel: e.SSO_BUTTON_LABEL,
    allowedDomains: list(e.SSO_ALLOWED_DOMAINS),
    roleClaim: e.SSO_ROLE_CLAIM,
    roleMap,
    defaultRole: e.SSO_DEFAULT_ROLE,
    createOperators: flag(e.SSO_CREATE_OPERATORS),
    only: flag(e.SSO_ONLY),
    breakGlass: list(e.SSO_BREAK_GLASS),
  };
  return identity;
}

function readOrCreateSecret(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, "auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret + "\n", { mode: 0o600 });
  return secret;
}

/**
 * The origins operators may use: PUBLIC_URL's, and for a localhost URL its 127.0.0.1 twin (and the
 * reverse), since both name the same machine.
 */
export function allowedOrigins(publicUrl: string): string[] {
  const url = new URL(publicUrl);
  const origins = [url.origin];
  const twin = url.hostname === "localhost" ? "127.0.0.1" : url.hostname === "127.0.0.1" ? "localhost" : null;
  if (twin) origins.push(`${url.protocol}//${twin}${url.port ? `:${url.port}` : ""}`);
  return origins;
}
