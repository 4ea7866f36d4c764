/**
 * The built web app's initial JavaScript (the entry script and the modules index.html preloads,
 * gzip level 9) stays within its budget, `initialBudgetKiB` of scripts/bench/bundle.ts, which the
 * benchmark's goal is too. It measures dist/web as the browser tests are served it: `npm test`
 * builds it (stage 2) before this suite runs; run alone, build first (`npm run build`).
 *
 * That build has no source maps (vite.config.ts), so over the budget the app is built once more,
 * with them, into a scratch folder, and the failure names the largest sources of the initial code.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { initialBudgetKiB, measureBundle, withinBudget, type BundleReport } from "../../scripts/bench/bundle";

const root = path.resolve(import.meta.dirname, "../..");
const budget = initialBudgetKiB * 1024;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** The report with its sources: this one when the build had source maps, else a build with them. */
function withSources(report: BundleReport): BundleReport {
  if (report.initialSources.length > 0) return report;
  const outDir = mkdtempSync(path.join(tmpdir(), "pedal-bundle-"));
  try {
    execFileSync(
      process.execPath,
      ["node_modules/vite/bin/vite.js", "build", "--sourcemap", "--logLevel", "error", "--outDir", outDir],
      { cwd: root, stdio: "pipe" },
    );
    return measureBundle(outDir);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** What fills the initial code, largest first: its files, and its sources from the source maps. */
function explain(report: BundleReport): string {
  return [
    `The initial JavaScript is ${kib(report.initialGzip)} gzipped, over its budget of ${initialBudgetKiB} KiB.`,
    `Files: ${report.initial.map((f) => `${f.file} ${kib(f.gzip)}`).join(", ")}.`,
    "Largest sources of the initial code (uncompressed source bytes):",
    ...report.initialSources.slice(0, 15).map((s) => `  ${s.source.padEnd(40)} ${kib(s.bytes)}`),
    "Load what only some screens need with the screen (import() or its own module), not from the entry or the shell.",
  ].join("\n");
}

test("the initial JavaScript stays within its budget", () => {
  const report = measureBundle(path.join(root, "dist/web"));
  expect(report.initial.length, "dist/web/index.html names the entry script").toBeGreaterThan(0);
  if (withinBudget(report)) return;
  // A second build takes a while on a busy machine.
  test.setTimeout(300_000);
  const detailed = withSources(report);
  expect(detailed.initialGzip, explain(detailed)).toBeLessThanOrEqual(budget);
  // Only dist/web is over: it was built from older sources.
  expect(
    report.initialGzip,
    `dist/web's initial JavaScript is ${kib(report.initialGzip)}, but the sources build to ${kib(detailed.initialGzip)}: dist/web is out of date (npm run build).`,
  ).toBeLessThanOrEqual(budget);
});
