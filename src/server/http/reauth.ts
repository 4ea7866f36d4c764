/**
 * Confirming it is you (docs/identity.md, "Confirming it is you"), GitHub's "sudo mode": an admin
 * action on operators' credentials (a route of `routeTable` with `reauth`: creating an operator,
 * changing one, resetting a password or two-factor, ending sessions, unlocking, revoking a token)
 * needs a session that proved its operator within `reauthWindowMs`: signed in, or confirmed since
 * with the password or a current code (POST /api/account/reauthenticate).
 */
import { sql } from "drizzle-orm";
import type { Context } from "hono";
import { queryRows } from "../db/client";
import type { AppEnv } from "./env";

/** How long a sign-in or a confirmation lets a session act on operators' credentials: 10 minutes. */
export const reauthWindowMs = 10 * 60_000;

/** Wrong answers a session may give before the confirmation ends it (it must sign in again). */
export const reauthMaxFailures = 5;

/**
 * Whether the request's session proved its operator within the window, by the app's clock: its
 * sign-in (the session's creation) or its last confirmation. False without a session (an API
 * token never acts there: those routes are session-only).
 */
export async function recentlyConfirmed(c: Context<AppEnv>): Promise<boolean> {
  const session = c.get("session")?.session as { id?: string; createdAt?: Date | string } | undefined;
  if (!session?.id || c.get("apiToken")) return false;
  const since = c.get("clock")().getTime() - reauthWindowMs;
  if (session.createdAt && new Date(session.createdAt).getTime() >= since) return true;
  const [row] = await queryRows<{ confirmed_at: string | null }>(
    c.get("db"),
    sql`select confirmed_at::text as confirmed_at from operator_reauthentication where session_id = ${session.id}`,
  );
  return !!row?.confirmed_at && new Date(row.confirmed_at).getTime() >= since;
}
