/**
 * Once per API test run (vitest `globalSetup`), not once per test file: builds the server bundle
 * the process tests start (tests/support/server-entry.ts), migrates one embedded
 * database and keeps it as a data-folder archive under test-results/ and as a console's data folder
 * (`migratedFolder`), and, when TEST_DATABASE_URL
 * is set, one PostgreSQL template database. Every test file then starts from a copy of these
 * (tests/support/databases.ts) instead of applying the migrations again. The template is dropped
 * at the end of the run.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openPglite, openPostgres } from "../../src/server/db/client";
import { migratedFolderTemplate } from "./server";
import { serverBundle } from "./server-entry";

export const pgliteTemplateFile = path.resolve(import.meta.dirname, "../../test-results/pglite-template.tar");

declare module "vitest" {
  export interface ProvidedContext {
    /** The PostgreSQL template database every test file's database is created from (undefined without TEST_DATABASE_URL). */
    postgresTemplate: string | undefined;
  }
}

export default async function setup(project: TestProject) {
  // The server bundle the process tests start (tests/support/server-entry.ts), as npm run serve's.
  execFileSync(process.execPath, ["scripts/build-server.mjs", "--outfile", serverBundle], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    stdio: "inherit",
  });

  const pglite = await openPglite();
  await pglite.migrate();
  const archive = await pglite.pglite!.dumpDataDir("none");
  mkdirSync(path.dirname(pgliteTemplateFile), { recursive: true });
  writeFileSync(pgliteTemplateFile, Buffer.from(await archive.arrayBuffer()));
  await pglite.close();
  // The same as a console's data folder, for the tests that start the console process on one.
  rmSync(migratedFolderTemplate, { recursive: true, force: true });
  mkdirSync(migratedFolderTemplate, { recursive: true });
  const folder = await openPglite(path.join(migratedFolderTemplate, "pglite"));
  await folder.migrate();
  await folder.close();

  const base = process.env.TEST_DATABASE_URL;
  if (!base) {
    project.provide("postgresTemplate", undefined);
    return;
  }
  const name = `pedal_tpl_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const handle = openPostgres(url.toString(), 1);
  await handle.migrate();
  await handle.close();
  project.provide("postgresTemplate", name);
  return async () => {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  };
}
