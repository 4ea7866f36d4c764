#!/usr/bin/env node
/**
 * `npm run check`: the quick loop of daily work, on what changed since the last commit (staged,
 * unstaged and untracked files), in a few minutes; `npm test` stays the whole suite.
 *  1. type check, incremental (`tsc --incremental`: the build info kept under node_modules/.cache),
 *  2. ESLint with its cache on every file (unchanged files are not linted again),
 *  3. Prettier on the changed files,
 *  4. the API and component tests related to the changed files (`vitest run --changed`: the test
 *     files that import a changed module, directly or not), on PGlite, and on PostgreSQL when
 *     TEST_DATABASE_URL is set.
 * Steps 1–3 run side by side (one per core); the tests run after them. Exits non-zero when any
 * step fails, after running every step. `--all` checks every file (the first run fills the caches).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";

const cache = "node_modules/.cache/pedal-check";
mkdirSync(cache, { recursive: true });
const all = process.argv.includes("--all");

/** Files changed since HEAD, staged or not, and untracked ones (deleted files left out). */
function changedFiles() {
  const git = (args) => spawnSync("git", args, { encoding: "utf8" }).stdout.split("\n").filter(Boolean);
  const files = new Set([
    ...git(["diff", "--name-only", "HEAD"]),
    ...git(["ls-files", "--others", "--exclude-standard"]),
  ]);
  return [...files].filter((f) => existsSync(f));
}

/** Runs a command with its output prefixed by `name`; resolves to its exit code and time. */
function step(name, cmd, args) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"] });
    const prefix = (chunk) =>
      chunk
        .toString()
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => `[${name}] ${line}\n`)
        .join("");
    child.stdout.on("data", (d) => process.stdout.write(prefix(d)));
    child.stderr.on("data", (d) => process.stderr.write(prefix(d)));
    child.on("close", (code) => resolve({ name, code: code ?? 1, seconds: (Date.now() - started) / 1000 }));
  });
}

const changed = changedFiles();
const formattable = changed.filter((f) => /\.(ts|tsx|js|mjs|cjs|json|css|html|ya?ml)$/.test(f));
console.log(all ? "Checking every file." : `Changed since the last commit: ${changed.length} file(s).`);

const results = await Promise.all([
  step("typecheck", "npx", [
    "tsc",
    "--noEmit",
    "-p",
    ".",
    "--incremental",
    "--tsBuildInfoFile",
    `${cache}/tsconfig.tsbuildinfo`,
  ]),
  step("lint", "npx", ["eslint", "--cache", "--cache-strategy", "content", "--cache-location", `${cache}/eslint`, "."]),
  all || formattable.length > 0
    ? step("format", "npx", ["prettier", "--check", "--log-level", "warn", ...(all ? ["."] : formattable)])
    : Promise.resolve({ name: "format", code: 0, seconds: 0 }),
]);

const vitestArgs = (config) => [
  "vitest",
  "run",
  ...(config ? ["-c", config] : []),
  ...(all ? [] : ["--changed"]),
  "--passWithNoTests",
];
results.push(await step("api", "npx", vitestArgs()));
results.push(await step("components", "npx", vitestArgs("vitest.components.config.ts")));

console.log("");
for (const r of results)
  console.log(`  ${r.code === 0 ? "ok  " : "FAIL"} ${r.name.padEnd(11)} ${r.seconds.toFixed(1)} s`);
const failed = results.filter((r) => r.code !== 0);
if (failed.some((r) => r.name === "format")) console.log("\n`npx prettier --write <file>` fixes the formatting.");
process.exit(failed.length > 0 ? 1 : 0);
