/**
 * Snapshots are kept for DELETED_RETENTION_DAYS (30 by default), then purged by the server: at
 * start-up and every hour (docs/undo-and-restore.md). Restored ones go too: their audit rows stay.
 * Revoked API tokens are kept as long, listed as revoked, then purged the same way; so are the
 * directory sync's request log and its revoked tokens (docs/onboarding.md).
 */
import { sql } from "drizzle-orm";
import type pino from "pino";
import { queryRows, type Database } from "../db/client";

/**
 * Deletes the snapshots deleted, the API and directory tokens revoked, the directory requests made
 * and the imports last touched (with their rows and parts) before `now` minus `retentionDays` days
 * (by the clock passed, so a test moves time instead of waiting), in one statement.
 * @returns how many rows were purged, of all five.
 */
export async function purgeDeletedRecords(
  db: Database,
  options: { retentionDays: number; now: Date },
): Promise<number> {
  const cutoff = new Date(options.now.getTime() - options.retentionDays * 86_400_000);
  const rows = await queryRows<{ n: number }>(
    db,
    sql`with gone as (delete from deleted_records where deleted_at < ${cutoff.toISOString()}::timestamptz returning 1),
      tokens as (delete from operator_api_token where revoked_at < ${cutoff.toISOString()}::timestamptz returning 1),
      directory as (delete from directory_tokens where revoked_at < ${cutoff.toISOString()}::timestamptz returning 1),
      requests as (delete from directory_requests where created_at < ${cutoff.toISOString()}::timestamptz returning 1),
      imports as (delete from imports where updated_at < ${cutoff.toISOString()}::timestamptz returning 1)
      select ((select count(*) from gone) + (select count(*) from tokens) + (select count(*) from directory)
        + (select count(*) from requests) + (select count(*) from imports))::int as n`,
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * Runs the purge once now and then every `everyMs` (an hour) on an unref'd timer, so it never keeps
 * the process alive; a failed run is logged and the next one tries again.
 * @returns the first run (settled, never rejected) and `stop()`.
 */
export function schedulePurge(
  db: Database,
  options: { retentionDays: number; clock?: () => Date; logger: pino.Logger; everyMs?: number },
): { first: Promise<void>; stop: () => void } {
  const clock = options.clock ?? (() => new Date());
  const run = () =>
    purgeDeletedRecords(db, { retentionDays: options.retentionDays, now: clock() }).then(
      (n) => {
        if (n > 0) options.logger.info({ purged: n }, "deleted records purged");
      },
      (err: unknown) => options.logger.warn({ err }, "purging deleted records failed"),
    );
  const first = run();
  const timer = setInterval(() => void run(), options.everyMs ?? 3_600_000);
  timer.unref();
  return { first, stop: () => clearInterval(timer) };
}
