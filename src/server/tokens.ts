/**
 * Personal API tokens (docs/identity.md "API tokens"): `Authorization: Bearer pedal_…` acts as
 * the token's operator with the lower of the token's role and the operator's current role.
 *
 * - A token is `pedal_` and 32 random bytes in base64url. Only its SHA-256 (hex) is stored: with
 *   256 bits of randomness no guess or dictionary can reach it, so a slow password hash would only
 *   cost time on every request. Its first 12 characters are kept to tell tokens apart in lists.
 * - Requests are counted per token per minute in `auth_throttle` (key `api_token:<id>`), in the
 *   database like the sign-in limits, so that every server copy shares one count; a copy takes
 *   them from the count a few at a time (`TokenRateCounter`).
 * - `last_used_at` is written at most once a minute per token, not on every request.
 * - Demoting an operator lowers their tokens above the new role; deactivating revokes them.
 * - A revoked token is refused from the moment it is revoked and kept, marked, for
 *   DELETED_RETENTION_DAYS (so that "who had which token" is still answered), then purged.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import { apiTokenPattern, apiTokenPrefix, apiTokenShownLength, type ApiTokenRow } from "../domain/api-tokens";
import { operatorRoles, roleAtLeast, type OperatorRole } from "../domain/enums";
import type { AuditEntry, Tx } from "./audit";
import type { CredentialCache } from "./credential-cache";
import type { SessionData } from "./auth";
import { preparedPerDatabase, queryRows, type Database } from "./db/client";
import { operator, operator_api_token } from "./db/schema";
import { sessionUserFields } from "./session-read";
import { asText } from "../domain/text";

/** A new token: the token itself (shown once), what lists show of it, and what is stored. */
export function newApiToken(): { token: string; prefix: string; hash: string } {
  const token = apiTokenPrefix + randomBytes(32).toString("base64url");
  return { token, prefix: token.slice(0, apiTokenShownLength), hash: hashApiToken(token) };
}

/** The stored form of a token: its SHA-256 in hex. */
export function hashApiToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * What the Authorization header carries: nothing for the console (no header, or a scheme other
 * than Bearer: the cookie decides), a well-formed token, or `"malformed"` (a Bearer credential that
 * cannot be a token: answered 401 without a database read).
 */
export function bearerCredential(header: string | undefined): undefined | "malformed" | { token: string } {
  if (!header) return undefined;
  const match = /^\s*bearer(?:\s+(.*))?$/i.exec(header);
  if (!match) return undefined;
  const token = (match[1] ?? "").trim();
  return apiTokenPattern.test(token) ? { token } : "malformed";
}

/** Query parameter names clients commonly use for a bearer token. */
const tokenParameterNames = new Set(["access_token", "api_token", "api_key", "apikey", "bearer", "bearer_token"]);
const tokenInText = /pedal_[A-Za-z0-9_-]{43}/;

/**
 * Whether a URL carries a token in its query string (a token parameter name, or a console token
 * as any value): refused with 400, because URLs end up in proxy logs, browser history and
 * Referer headers. The token is not looked up, so the answer says nothing about it.
 */
export function tokenInQuery(url: string): boolean {
  const query = url.indexOf("?");
  if (query < 0) return false;
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(url.slice(query + 1));
  } catch {
    return false;
  }
  for (const [name, value] of params) {
    if (tokenParameterNames.has(name.toLowerCase())) return true;
    if (value.includes(apiTokenPrefix) && tokenInText.test(value)) return true;
  }
  return false;
}

/** The lower of two roles. */
export function lowerRole(a: OperatorRole, b: OperatorRole): OperatorRole {
  return roleAtLeast(a, b) ? b : a;
}

/** The roles ranked above `role`. */
export function rolesAbove(role: OperatorRole): OperatorRole[] {
  return operatorRoles.filter((r) => r !== role && roleAtLeast(r, role));
}

/** A token found by its hash, with its operator as better-auth's session answer names them. */
export type BearerIdentity = {
  /** A value shaped like a cookie session's, with the effective role: every route reads it unchanged. */
  session: SessionData;
  /** `platformId`: a delivery token, which may read that platform's prompts and nothing else. */
  apiToken: { id: string; role: OperatorRole; platformId: string | null };
};

/** The token read by its hash with its operator: prepared once per database, as the session's read is. */
function prepareTokenRead(db: Database) {
  return db
    .select({
      token_id: operator_api_token.token_id,
      token_role: operator_api_token.role,
      expires_at: operator_api_token.expires_at,
      last_used_at: operator_api_token.last_used_at,
      created_at: operator_api_token.created_at,
      platform_id: operator_api_token.platform_id,
      user: sessionUserFields,
    })
    .from(operator_api_token)
    .innerJoin(operator, eq(operator.id, operator_api_token.operator_id))
    .where(and(eq(operator_api_token.token_hash, sql.placeholder("hash")), isNull(operator_api_token.revoked_at)))
    .limit(1)
    .prepare("pedal_api_token_read");
}

const tokenReadOf = preparedPerDatabase(prepareTokenRead);
type TokenRow = Awaited<ReturnType<ReturnType<typeof prepareTokenRead>["execute"]>>[number];

/**
 * The identity of a well-formed bearer token at `now`, or null when the token is unknown,
 * revoked, expired, or its operator is deactivated. The effective role is the lower of the
 * token's and the operator's current one. Writes `last_used_at` when it is older than a minute.
 * `cache`: this server copy's kept credentials (credential-cache.ts), read before the database.
 * @throws the database's error (the caller answers 503).
 */
export async function resolveApiToken(
  db: Database,
  token: string,
  now: Date,
  cache?: CredentialCache,
): Promise<BearerIdentity | null> {
  const hash = hashApiToken(token);
  const read = async () => (await tokenReadOf(db).execute({ hash }))[0];
  const row = cache ? ((await cache.tokens.get(hash, read)) as TokenRow | undefined) : await read();
  if (!row) return null;
  if (row.expires_at.getTime() <= now.getTime() || row.user.banned === true) return null;
  const operatorRole = row.user.role as OperatorRole;
  if (!(operatorRoles as readonly string[]).includes(operatorRole)) return null;
  const role = lowerRole(row.token_role as OperatorRole, operatorRole);
  if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() >= 60_000) {
    // Conditional, so that concurrent first uses of a minute write once between them.
    const minuteAgo = new Date(now.getTime() - 60_000).toISOString();
    await db.execute(sql`update operator_api_token set last_used_at = ${now.toISOString()}::timestamptz
      where token_id = ${row.token_id} and (last_used_at is null or last_used_at <= ${minuteAgo}::timestamptz)`);
    // A kept row is the same object: the next requests of the minute then write nothing either.
    row.last_used_at = now;
  }
  // `role` is the token's effective role, which every route's access reads; `operatorRole` the
  // person's own, which REQUIRE_MFA reads (a held admin's viewer token is held too). better-auth's
  // user type does not declare `operatorRole`: it is an extra field of the value.
  const user = { ...row.user, role, operatorRole };
  const session: SessionData = {
    session: {
      expiresAt: row.expires_at,
      token: "",
      createdAt: row.created_at,
      updatedAt: row.created_at,
      ipAddress: null,
      userAgent: null,
      userId: row.user.id,
      id: `api_token:${row.token_id}`,
    },
    user,
  };
  return { session, apiToken: { id: row.token_id, role, platformId: row.platform_id } };
}

/** Whether a token's request may go on, or after how many seconds it may. */
export type TokenAdmission = { admitted: true } | { admitted: false; retryAfterSeconds: number };

/**
 * How many requests a copy takes from a token's count at a time: 1 below 200 a minute (the count
 * is then exact request by request), else 1 % of the limit, at most 50.
 */
export function tokenCountChunk(perMinute: number): number {
  return Math.max(1, Math.min(50, Math.floor(perMinute / 100)));
}

type TokenWindow = {
  /** When the window ends (ms since the epoch, the app's clock). */
  endMs: number;
  /** Requests taken from the count and not used yet. */
  left: number;
  /** The count gave nothing more in this window: refuse once `left` is used. */
  refused: boolean;
  /** A request's ask when nothing was left (the others wait for it). */
  asking?: Promise<void>;
  /** The background ask for the next chunk. */
  ahead?: Promise<void>;
};

/**
 * Counts requests of tokens against a per-minute limit in fixed one-minute windows (key
 * `<kind>:<id>` in `auth_throttle`, `api_token` by default, `directory` for a customer's SCIM
 * requests; rows unused for a day are pruned with the sign-in counters), shared by every server
 * copy through the database (docs/identity.md "API tokens").
 *
 * A copy does not write the count on every request: it takes `tokenCountChunk(limit)` requests at
 * a time from the token's row in one atomic statement (a token polling hard used to queue every
 * request on that one row's lock) and admits that many, asking for the next chunk in the
 * background once half a chunk is left; when nothing is left, one ask at a time per token, the
 * token's other requests waiting for it. Taking never goes past the limit, so the copies together
 * never admit more than the limit in a window; what a copy took and did not use by the window's
 * end is lost, so a window can end up to (copies − 1) × 1.5 chunks short of the limit (1.5 % of
 * it per other copy). Once the limit is reached, the copy refuses the token's
 * requests until the window ends without asking the database again.
 */
export class TokenRateCounter {
  private readonly windows = new Map<string, TokenWindow>();
  constructor(private readonly db: Database) {}

  /**
   * Counts one request of token `tokenId` at `now` (the app's clock).
   * @throws the database's error when the count cannot be taken (the caller answers 503).
   */
  async admit(
    tokenId: string,
    perMinute: number,
    now: Date,
    kind: "api_token" | "directory" = "api_token",
  ): Promise<TokenAdmission> {
    const key = `${kind}:${tokenId}`;
    const at = now.getTime();
    const chunk = tokenCountChunk(perMinute);
    for (;;) {
      let w = this.windows.get(key);
      if (w?.asking) {
        await w.asking.catch(() => undefined);
        continue;
      }
      if (w && w.endMs > at) {
        if (w.left > 0) {
          w.left--;
          // Half a chunk before the copy runs out, the next chunk is asked for in the background:
          // a token polling hard never waits for its count.
          if (w.left <= chunk / 2 && chunk > 1 && !w.ahead && !w.refused) this.askAhead(key, w, perMinute, now);
          return { admitted: true };
        }
        if (w.refused) return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil((w.endMs - at) / 1000)) };
        if (w.ahead) {
          await w.ahead;
          continue;
        }
      }
      if (this.windows.size > 10_000) for (const [k, old] of this.windows) if (old.endMs <= at) this.windows.delete(k);
      w ??= { endMs: 0, left: 0, refused: false };
      this.windows.set(key, w);
      const pending = w;
      pending.asking = this.take(key, perMinute, now).then(
        (taken) => {
          pending.endMs = taken.endMs;
          pending.left = taken.granted;
          pending.refused = taken.granted === 0;
          pending.asking = undefined;
        },
        (err: unknown) => {
          pending.asking = undefined;
          this.windows.delete(key);
          throw err;
        },
      );
      await pending.asking;
    }
  }

  /**
   * Takes the next chunk for `w` in the background. A failure is left to the request that finds
   * nothing left: it asks again itself, and answers 503 if that fails too.
   */
  private askAhead(key: string, w: TokenWindow, perMinute: number, now: Date) {
    w.ahead = this.take(key, perMinute, now).then(
      (taken) => {
        w.ahead = undefined;
        // A new window (the one before ended meanwhile) starts from what was taken for it; a chunk
        // of a window that has since ended is of no use.
        if (taken.endMs > w.endMs) {
          w.endMs = taken.endMs;
          w.left = taken.granted;
        } else if (taken.endMs === w.endMs) w.left += taken.granted;
        else return;
        w.refused = taken.granted === 0;
      },
      () => {
        w.ahead = undefined;
      },
    );
  }

  /** Takes up to a chunk of requests from the key's row for the window `now` falls in. */
  private async take(key: string, perMinute: number, now: Date): Promise<{ granted: number; endMs: number }> {
    const chunk = tokenCountChunk(perMinute);
    const at = sql`${now.toISOString()}::timestamptz`;
    const windowStart = sql`${new Date(now.getTime() - 60_000).toISOString()}::timestamptz`;
    const t = sql.raw("auth_throttle");
    // The count's commit does not wait for the WAL to reach the disk (a flush took 2–5 ms of every
    // ask on the benchmark's machine): a crash can lose the last fraction of a second of counts,
    // which only lets a token make a few more requests in that minute.
    const [row] = await this.db.transaction(async (tx) => {
      await tx.execute(sql`set local synchronous_commit = off`);
      return queryRows<{ n: number; window_ms: number }>(
        tx,
        sql`insert into ${t} (key, failures, window_started_at, consecutive_failures, updated_at)
    values (${key}, ${chunk}, ${at}, 0, ${at})
    on conflict (key) do update set
      failures = case when ${t}.window_started_at <= ${windowStart} then ${chunk} else ${t}.failures + ${chunk} end,
      window_started_at = case when ${t}.window_started_at <= ${windowStart} then ${at} else ${t}.window_started_at end,
      updated_at = ${at}
    returning failures as n, (extract(epoch from window_started_at) * 1000)::float8 as window_ms`,
      );
    });
    // The row counts what was taken, refused asks included: before this ask it held n − chunk.
    const before = Number(row.n) - chunk;
    return { granted: Math.max(0, Math.min(chunk, perMinute - before)), endMs: Number(row.window_ms) + 60_000 };
  }
}

/** What an audit row says of a token (never the token or its hash). */
export function tokenFacts(t: { name: string; prefix: string; role: string }) {
  return { name: t.name, prefix: t.prefix, role: t.role };
}

/**
 * Lowers to `role` every token of an operator whose role is above it (the operator was demoted),
 * in `tx`. @returns one `api_token_lowered` audit entry per token changed.
 */
export async function lowerOperatorTokens(tx: Tx, operatorId: string, role: OperatorRole): Promise<AuditEntry[]> {
  const above = rolesAbove(role);
  if (above.length === 0) return [];
  const changed = await queryRows<{ token_id: string; name: string; prefix: string; was: string }>(
    tx,
    sql`with old as (
      select token_id, role from operator_api_token
      where operator_id = ${operatorId} and revoked_at is null and role in (${sql.join(
        above.map((r) => sql`${r}`),
        sql`, `,
      )}) for update)
    update operator_api_token t set role = ${role} from old where t.token_id = old.token_id
    returning t.token_id::text as token_id, t.name, t.prefix, old.role as was`,
  );
  return changed.map((t) => ({
    action: "api_token_lowered",
    entity: "api_token",
    entity_id: t.token_id,
    before: { ...tokenFacts({ ...t, role: t.was }) },
    after: { ...tokenFacts({ ...t, role }) },
  }));
}

/**
 * Revokes every live token of an operator (deactivation, a password reset, sessions ended), in
 * `tx`. @returns one `api_token_revoked` audit entry per token, with the reason.
 */
export async function revokeOperatorTokens(tx: Tx, operatorId: string, reason: string): Promise<AuditEntry[]> {
  const revoked = await tx
    .update(operator_api_token)
    .set({ revoked_at: sql`now()` })
    .where(and(eq(operator_api_token.operator_id, operatorId), isNull(operator_api_token.revoked_at)))
    .returning({
      token_id: operator_api_token.token_id,
      name: operator_api_token.name,
      prefix: operator_api_token.prefix,
      role: operator_api_token.role,
    });
  return revoked.map((t) => ({
    action: "api_token_revoked",
    entity: "api_token",
    entity_id: t.token_id,
    before: tokenFacts(t),
    after: { reason },
  }));
}

/** The columns of a token as lists show them (`t` is operator_api_token), with its platform's name. */
export const tokenColumns = sql`t.token_id, t.name, t.prefix, t.role, t.created_at, t.expires_at, t.last_used_at,
  t.revoked_at, t.platform_id, (select p.platform_name from platforms p where p.platform_id = t.platform_id) as platform_name`;

/**
 * Whether a delivery token (an API token with a platform) may make this request: only
 * GET (or HEAD) /api/delivery/platforms/{its platform}/prompts (docs/prompt-review.md, "Read API").
 */
export function deliveryTokenAllows(platformId: string, method: string, path: string): boolean {
  if (method !== "GET" && method !== "HEAD") return false;
  const match = /^\/api\/delivery\/platforms\/([^/]+)\/prompts$/.exec(path);
  return match !== null && match[1].toLowerCase() === platformId.toLowerCase();
}

/** A token row of `tokenColumns` as the API answers it. */
export function tokenJson(row: Record<string, unknown>): ApiTokenRow {
  const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : (v as string | null));
  return {
    token_id: String(row.token_id),
    name: String(row.name),
    prefix: String(row.prefix),
    role: row.role as OperatorRole,
    created_at: iso(row.created_at)!,
    expires_at: iso(row.expires_at)!,
    last_used_at: iso(row.last_used_at),
    revoked_at: iso(row.revoked_at ?? null),
    platform_id: row.platform_id ? asText(row.platform_id) : null,
    platform_name: row.platform_name ? asText(row.platform_name) : null,
  };
}
