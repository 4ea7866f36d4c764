/**
 * Directory tokens (docs/onboarding.md "Directory sync"): `Authorization: Bearer scim_…` on
 * /scim/v2 acts for one customer's identity provider, on that customer's users and teams only.
 * Stored as their SHA-256 like API tokens (tokens.ts says why); `last_used_at` is written at most
 * once a minute per token.
 */
import { createHash, randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { directoryTokenPattern, directoryTokenPrefix, directoryTokenShownLength } from "../../domain/directory";
import { queryRows, type Database } from "../db/client";

/** A new directory token: the token itself (shown once), its shown prefix, and its stored hash. */
export function newDirectoryToken(): { token: string; prefix: string; hash: string } {
  const token = directoryTokenPrefix + randomBytes(32).toString("base64url");
  return { token, prefix: token.slice(0, directoryTokenShownLength), hash: hashDirectoryToken(token) };
}

function hashDirectoryToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** The directory a live token acts for. */
export type Directory = { directoryTokenId: string; tokenName: string; customerId: string; customerName: string };

/**
 * The directory of `token` (a `scim_…` bearer credential), or null when it is malformed, unknown
 * or revoked. One indexed read; `last_used_at` moves when it is a minute old.
 */
export async function resolveDirectoryToken(db: Database, token: string, now: Date): Promise<Directory | null> {
  if (!directoryTokenPattern.test(token)) return null;
  const [row] = await queryRows<{
    directory_token_id: string;
    name: string;
    customer_id: string;
    customer_name: string;
  }>(
    db,
    sql`with hit as (
        select t.directory_token_id, t.name, t.customer_id, c.customer_name, t.last_used_at
        from directory_tokens t join customers c on c.customer_id = t.customer_id
        where t.token_hash = ${hashDirectoryToken(token)} and t.revoked_at is null
      ), touched as (
        update directory_tokens set last_used_at = ${now.toISOString()}::timestamptz
        where directory_token_id = (select directory_token_id from hit)
          and (last_used_at is null or last_used_at < ${now.toISOString()}::timestamptz - interval '1 minute')
      )
      select directory_token_id, name, customer_id, customer_name from hit`,
  );
  return row
    ? {
        directoryTokenId: row.directory_token_id,
        tokenName: row.name,
        customerId: row.customer_id,
        customerName: row.customer_name,
      }
    : null;
}
