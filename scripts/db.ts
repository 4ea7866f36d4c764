/**
 * `npm run db:migrate` applies the migrations; `npm run db:seed [-- --scale N] [-- --seed S]` loads
 * demo data into the configured database (DATABASE_URL, else the embedded one under DATA_DIR),
 * refusing a database that already holds customers.
 */
import { parseArgs } from "node:util";
import { withDatabase } from "../src/server/database";
import { isEmpty, loadDemoData } from "../src/server/db/demo-data";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { scale: { type: "string", default: "1" }, seed: { type: "string" } },
});
const command = positionals[0];
if (command !== "migrate" && command !== "seed") {
  console.error("usage: db.ts migrate | seed [--scale N] [--seed S]");
  process.exit(2);
}
const code = await withDatabase(async (handle, config) => {
  console.log("Migrations applied.");
  if (command !== "seed") return 0;
  if (!(await isEmpty(handle.db))) {
    console.error("The database already holds customers; demo data is only loaded into an empty database.");
    return 1;
  }
  const started = Date.now();
  const counts = await loadDemoData(handle.db, { seed: values.seed ? Number(values.seed) : config.demoSeed, scale: Number(values.scale) });
  console.log(`Demo data loaded in ${Date.now() - started} ms:`, counts);
  return 0;
});
process.exit(code);
