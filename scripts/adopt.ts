/**
 * `DATABASE_URL=… npm run db:adopt [-- --apply]` (docs/adopting.md): compares a
 * PostgreSQL database that the console this one replaces filled with the schema the console's
 * migrations build, and prints a report table by table and column by column, with the rows that
 * would break each missing constraint. Changes nothing unless `--apply`, which creates the
 * console's own tables, indexes and triggers, adds the constraints the rows satisfy and records the
 * migrations as applied, and writes the SQL that undoes it to `adopt-rollback-<time>.sql` in the
 * current folder (`--rollback-file F` elsewhere). Exit code 0 when done, 1 on failure, 2 on bad usage.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { ConfigError, loadConfig, loadEnvFile } from "../src/server/config";
import { applyPlan, buildReference, formatReport, formatResult, inspect, rollbackSql } from "../src/server/db/adopt";
import { openPostgres } from "../src/server/db/client";

let values: { apply: boolean; "rollback-file"?: string };
try {
  values = parseArgs({ options: { apply: { type: "boolean", default: false }, "rollback-file": { type: "string" } } })
    .values as typeof values;
} catch (err) {
  console.error(`${(err as Error).message}\nusage: DATABASE_URL=… npm run db:adopt [-- --apply [--rollback-file F]]`);
  process.exit(2);
}
let url: string | undefined;
try {
  loadEnvFile();
  url = loadConfig().databaseUrl;
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(2);
}
if (!url) {
  console.error(
    "db:adopt works on an existing PostgreSQL database: set DATABASE_URL (the embedded database is always the console's own).",
  );
  process.exit(2);
}

const handle = openPostgres(url, 2);
let code = 0;
try {
  const plan = await inspect(handle, buildReference);
  process.stdout.write(formatReport(plan, { dryRun: !values.apply }));
  if (values.apply && plan.status === "adoptable") {
    // Written first, so that it also undoes an apply that stops half-way.
    const undo = path.resolve(
      values["rollback-file"] ?? `adopt-rollback-${new Date().toISOString().replace(/[:.]/g, "-")}.sql`,
    );
    mkdirSync(path.dirname(undo), { recursive: true });
    writeFileSync(undo, rollbackSql(plan));
    process.stdout.write("\nApplying...\n");
    process.stdout.write(formatResult(await applyPlan(handle, plan)));
    process.stdout.write(`To undo this adoption: psql "$DATABASE_URL" -f ${undo}\n`);
  }
} catch (err) {
  console.error(
    `db:adopt failed${values.apply ? "; the transaction was rolled back (indexes already built concurrently stay, and a new --apply goes on from there)" : ""}: ${(err as Error).message}`,
  );
  code = 1;
} finally {
  await handle.close();
}
process.exit(code);
