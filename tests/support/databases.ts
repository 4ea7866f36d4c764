/**
 * Real databases for the API tests: PGlite in memory always, and PostgreSQL when TEST_DATABASE_URL
 * is set (each test file gets its own throwaway database, dropped at the end).
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { inject } from "vitest";
import { defaultPgliteSharedBuffersMb } from "../../src/server/config";
import { pgliteTemplateFile } from "./global-setup";
import pg from "pg";
import { openPglite, openPostgres, wrapPglite, type DatabaseHandle } from "../../src/server/db/client";

export type TargetName = "pglite" | "postgres";

/** The databases every API suite runs against. */
export const targets: TargetName[] = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

let template: Promise<PGlite> | undefined;

/**
 * A migrated in-memory PGlite: the archive the run's global setup migrated once
 * (tests/support/global-setup.ts) is loaded once per test worker, then cloned per database (about
 * 0.5 s). Without it (a test run outside vitest's setup), this worker migrates its own.
 */
async function freshPglite(): Promise<DatabaseHandle> {
  template ??= (async () => {
    if (existsSync(pgliteTemplateFile)) {
      const startParams = [...PGlite.defaultStartParams, "-c", `shared_buffers=${defaultPgliteSharedBuffersMb}MB`];
      return PGlite.create({
        loadDataDir: new Blob([readFileSync(pgliteTemplateFile)]),
        extensions: { pg_trgm },
        startParams,
      });
    }
    const handle = await openPglite();
    await handle.migrate();
    return handle.pglite!;
  })();
  const clone = (await (await template).clone()) as PGlite;
  return wrapPglite(clone);
}

/**
 * A new, migrated PostgreSQL database on the TEST_DATABASE_URL server, a copy of the run's
 * template (`create database … template …`) when the global setup made one; close() drops it.
 */
async function freshPostgres(): Promise<DatabaseHandle> {
  const base = new URL(process.env.TEST_DATABASE_URL!);
  const name = `pedal_test_${randomBytes(6).toString("hex")}`;
  const templateName = inject("postgresTemplate");
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  await admin.query(templateName ? `create database ${name} template ${templateName}` : `create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const handle = openPostgres(url.toString(), 5);
  if (!templateName) await handle.migrate();
  return {
    ...handle,
    close: async () => {
      await handle.close();
      const dropper = new pg.Client({ connectionString: base.toString() });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/** A fresh, migrated, empty database of the given kind. */
export function freshDatabase(target: TargetName): Promise<DatabaseHandle> {
  return target === "pglite" ? freshPglite() : freshPostgres();
}
