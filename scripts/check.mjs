#!/usr/bin/env node
/**
 * `npm run check`: the quick loop of daily work, on what changed since the last commit (staged,
 * unstaged and untracked files), in a few minutes; `npm test` stays the whole suite.
 *  1. type check, incremental (`tsc --incremental`: the build info kept under node_modules/.cache),
 *  2. ESLint with its cache on every file (unchanged files are not linted again),
 *  3. Prettier on the changed files,
 *  4. the API and component tests of the changed features: the test files named after a changed
 *     file's folders or name (`src/server/prompts/review.ts` → `prompt…`, `…review…`), since nearly
 *     every API test imports the app and so every server module; a change to a shared module
 *     (`http/`, `db/`, the app) names no feature, and then every test file that imports a changed
 *     module runs (`vitest run --changed`), as it does with `--related`. On PGlite, and on
 *     PostgreSQL when TEST_DATABASE_URL is set.
 * Steps 1–3 run side by side (one per core); the tests run after them. Exits non-zero when any
 * step fails, after running every step. `--all` checks every file (the first run fills the caches).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";

const cache = "node_modules/.cache/pedal-check";
mkdirSync(cache, { recursive: true });
const all = process.argv.includes("--all");
const everyRelated = process.argv.includes("--related");

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

/** Folders whose name says nothing of a feature: a file there is shared by many. */
const sharedFolders = new Set(["src", "server", "web", "domain", "http", "db", "components", "lists", "api", "tests"]);

/**
 * The words naming the changed files' features, as test files are named: each changed file's
 * folders below src/ (but the shared ones) and its own name, split at dashes, a plural's `s`
 * dropped. Empty when a changed file is shared (its folder and name name no feature).
 */
function featureWords(files) {
  const words = new Set();
  for (const file of files) {
    if (!/^src\//.test(file)) continue;
    const parts = file
      .replace(/\.[^/.]+$/, "")
      .split("/")
      .filter((p) => !sharedFolders.has(p));
    const own = parts
      .flatMap((p) => p.split("-"))
      .filter((w) => w.length >= 4 && !["index", "routes", "queries"].includes(w));
    if (own.length === 0) return [];
    for (const w of own) words.add(w.replace(/s$/, "").toLowerCase());
  }
  return [...words];
}

const words = all || everyRelated ? [] : featureWords(changed);
if (words.length > 0) console.log(`Tests of: ${words.join(", ")} (--related runs every test the change reaches).`);
const vitestArgs = (config) => [
  "vitest",
  "run",
  ...(config ? ["-c", config] : []),
  // Vitest's --changed and name filters together keep fewer files than either names.
  ...(words.length > 0 ? words : all ? [] : ["--changed"]),
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
