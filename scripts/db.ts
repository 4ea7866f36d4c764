/**
 * `npm run db:migrate` applies the migrations.
 * `npm run db:seed [-- --scale N] [--seed S] [--replace] [--timings-json FILE]` loads demo data into the configured
 * database (DATABASE_URL, else the embedded one under DATA_DIR): scale 1 is the demo (600 users),
 * scale 1667 about 1,000,000 users. Rows are generated as a stream and written with COPY in
 * batches, with a progress bar per table (a line per table when not on a terminal), then analyzed.
 * A database that already holds customers is refused unless --replace (which empties the eleven
 * data tables first). Ctrl+C stops after the batch in progress and removes what was loaded.
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import cliProgress from "cli-progress";
import { withDatabase } from "../src/server/database";
import { clearDemoData, expectedCounts, isEmpty, loadDemoData } from "../src/server/db/demo-data";
import type { BulkProgress } from "../src/server/db/bulk-load";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    scale: { type: "string", default: "1" },
    seed: { type: "string" },
    replace: { type: "boolean", default: false },
    "batch-rows": { type: "string" },
    "timings-json": { type: "string" },
  },
});
const command = positionals[0];
const scale = Number(values.scale);
if ((command !== "migrate" && command !== "seed") || !Number.isInteger(scale) || scale < 1) {
  console.error("usage: db.ts migrate | seed [--scale N (integer ≥ 1)] [--seed S] [--replace] [--batch-rows N]");
  process.exit(2);
}

const format = (n: number) => n.toLocaleString("en-US");

/** Progress per table: bars on a terminal, one line per finished table otherwise. */
function progressReporter() {
  const tty = process.stdout.isTTY;
  const multibar = tty
    ? new cliProgress.MultiBar(
        {
          format: " {table} |{bar}| {value}/{total} rows  {rate} rows/s  {duration_formatted}",
          hideCursor: true,
          clearOnComplete: false,
          barsize: 30,
        },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  const bars = new Map<string, cliProgress.SingleBar>();
  const timings: Array<{ table: string; rows: number; ms: number }> = [];
  return {
    timings,
    update(p: BulkProgress) {
      const rate = p.ms > 0 ? format(Math.round((p.rows / p.ms) * 1000)) : "";
      if (multibar && p.table !== "analyze") {
        let bar = bars.get(p.table);
        if (!bar) {
          bar = multibar.create(p.expected, 0, { table: p.table.padEnd(16), rate });
          bars.set(p.table, bar);
        }
        if (p.done) bar.setTotal(p.rows);
        else if (p.rows > bar.getTotal()) bar.setTotal(Math.round(p.rows * 1.05));
        bar.update(p.rows, { rate });
      }
      if (p.done) {
        timings.push({ table: p.table, rows: p.rows, ms: p.ms });
        if (!multibar)
          console.log(`  ${p.table.padEnd(16)} ${format(p.rows).padStart(10)} rows in ${(p.ms / 1000).toFixed(1)} s`);
      }
    },
    stop() {
      multibar?.stop();
    },
  };
}

const code = await withDatabase(async (handle, config) => {
  console.log("Migrations applied.");
  if (command !== "seed") return 0;
  if (!(await isEmpty(handle.db))) {
    if (!values.replace) {
      console.error(
        "The database already holds customers; demo data is only loaded into an empty database (--replace empties the eleven data tables first).",
      );
      return 1;
    }
    console.log("--replace: emptying the eleven data tables (operators and the audit log are kept).");
    await clearDemoData(handle.db);
  }
  const expected = expectedCounts(scale);
  console.log(
    `Loading demo data at scale ${scale} (about ${format(expected.users_data)} users) into ${handle.kind === "pglite" ? `PGlite in ${config.dataDir}` : "PostgreSQL"}...`,
  );
  const stop = new AbortController();
  const onSignal = () => {
    if (stop.signal.aborted) return;
    process.stderr.write("\nStopping after the batch in progress...\n");
    stop.abort(new Error("interrupted"));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const progress = progressReporter();
  const started = Date.now();
  try {
    const counts = await loadDemoData(handle.db, {
      seed: values.seed ? Number(values.seed) : config.demoSeed,
      scale,
      batchRows: values["batch-rows"] ? Number(values["batch-rows"]) : undefined,
      onProgress: progress.update,
      signal: stop.signal,
    });
    progress.stop();
    const totalMs = Date.now() - started;
    if (values["timings-json"])
      writeFileSync(
        values["timings-json"],
        JSON.stringify({ scale, totalMs, tables: progress.timings }, null, 2) + "\n",
      );
    console.log(`Demo data loaded in ${((Date.now() - started) / 1000).toFixed(1)} s:`);
    for (const t of progress.timings) {
      const rate = t.ms > 0 && t.rows ? `  ${format(Math.round((t.rows / t.ms) * 1000)).padStart(9)} rows/s` : "";
      console.log(
        `  ${t.table.padEnd(16)} ${t.table === "analyze" ? "".padStart(10) : format(counts[t.table] ?? t.rows).padStart(10)} ${(t.ms / 1000).toFixed(1).padStart(7)} s${rate}`,
      );
    }
    return 0;
  } catch (err) {
    progress.stop();
    if (!stop.signal.aborted) throw err;
    console.error("Interrupted: removing the rows loaded so far...");
    await clearDemoData(handle.db);
    console.error("Removed; the database is as it was.");
    return 130;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
});
process.exit(code);
