#!/usr/bin/env node
/**
 * `npm test`: every check and test of the console, on a fresh machine.
 *  1. makes sure Debian's Chromium is there (installs it with apt-get when run as root),
 *  2. type-checks, 3. lints (ESLint: TypeScript and React hooks rules, import boundaries and cycles)
 *     and checks the formatting (Prettier),
 *  4. runs the API tests (PGlite, and PostgreSQL when TEST_DATABASE_URL is set),
 *  5. runs the component tests of the shared screen parts (Vitest, Testing Library, happy-dom),
 *  6. builds the web app and the server bundle and runs the browser tests on them,
 * then prints one line `N passed, N failed` summing every suite, and exits non-zero on any failure.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";

const chromium = "/usr/bin/chromium";
const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { stdio: "inherit", ...opts }).status ?? 1;

function ensureChromium() {
  if (existsSync(chromium)) return;
  if (process.getuid?.() !== 0) {
    console.error(
      `Browser tests need Debian's Chromium at ${chromium}. Install it with: sudo apt-get install -y chromium`,
    );
    process.exit(1);
  }
  console.log("Installing Debian's chromium package for the browser tests...");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  if (
    run("apt-get", ["update", "-qq"], { env }) !== 0 ||
    run("apt-get", ["install", "-y", "-qq", "chromium"], { env }) !== 0 ||
    !existsSync(chromium)
  ) {
    console.error("Could not install the chromium package with apt-get.");
    process.exit(1);
  }
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

ensureChromium();
rmSync("test-results", { recursive: true, force: true });
const suites = [];

console.log("\n▶ Type check");
const typecheck = run("npx", ["tsc", "--noEmit", "-p", "."]);
suites.push({ name: "typecheck", passed: typecheck === 0 ? 1 : 0, failed: typecheck === 0 ? 0 : 1 });

console.log("\n▶ Lint (ESLint)");
const lint = run("npx", ["eslint", "."]);
suites.push({ name: "lint", passed: lint === 0 ? 1 : 0, failed: lint === 0 ? 0 : 1 });

console.log("\n▶ Formatting (Prettier; `npm run format` fixes it)");
const format = run("npx", ["prettier", "--check", "--log-level", "warn", "."]);
suites.push({ name: "format", passed: format === 0 ? 1 : 0, failed: format === 0 ? 0 : 1 });

console.log(
  `\n▶ API tests (${process.env.TEST_DATABASE_URL ? "PGlite and PostgreSQL" : "PGlite; set TEST_DATABASE_URL for PostgreSQL too"})`,
);
const apiCode = run("npx", ["vitest", "run"]);
const api = readJson("test-results/api.json");
suites.push({
  name: "api",
  passed: api?.numPassedTests ?? 0,
  failed: api ? api.numFailedTests + (apiCode !== 0 && api.numFailedTests === 0 ? 1 : 0) : 1,
});

console.log("\n▶ Component tests (Vitest, Testing Library, happy-dom)");
const componentsCode = run("npx", ["vitest", "run", "-c", "vitest.components.config.ts"]);
const components = readJson("test-results/components.json");
suites.push({
  name: "components",
  passed: components?.numPassedTests ?? 0,
  failed: components
    ? components.numFailedTests + (componentsCode !== 0 && components.numFailedTests === 0 ? 1 : 0)
    : 1,
});

console.log("\n▶ Browser tests (Playwright, Debian Chromium)");
const buildWeb = run("npx", ["vite", "build", "--logLevel", "warn"]);
const build = buildWeb !== 0 ? buildWeb : run("node", ["scripts/build-server.mjs"]);
const e2eCode = build === 0 ? run("npx", ["playwright", "test"]) : 1;
const e2e = readJson("test-results/e2e.json");
const e2ePassed = (e2e?.stats?.expected ?? 0) + (e2e?.stats?.flaky ?? 0);
const e2eFailed = e2e ? e2e.stats.unexpected + (e2eCode !== 0 && e2e.stats.unexpected === 0 ? 1 : 0) : 1;
suites.push({ name: "e2e", passed: e2ePassed, failed: e2eFailed });

/** The failed tests' names and first message line, so the last lines of a CI log say what broke. */
function failures() {
  const lines = [];
  for (const report of [api, components]) {
    for (const file of report?.testResults ?? []) {
      for (const t of file.assertionResults ?? []) {
        if (t.status !== "failed") continue;
        const why = String(t.failureMessages?.[0] ?? "")
          .split("\n")[0]
          .slice(0, 200);
        lines.push(`  ✗ ${file.name.replace(process.cwd() + "/", "")} › ${t.fullName}\n      ${why}`);
      }
    }
  }
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status !== "unexpected") continue;
        const why = String(t.results?.at(-1)?.error?.message ?? "")
          .split("\n")[0]
          .slice(0, 200);
        lines.push(`  ✗ ${spec.file} › ${[...titles, spec.title].join(" › ")}\n      ${why}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  for (const suite of e2e?.suites ?? []) walk(suite, []);
  return lines;
}

const failedTests = failures();
if (failedTests.length > 0) console.log("\nFailed:\n" + failedTests.join("\n"));
const passed = suites.reduce((n, s) => n + s.passed, 0);
const failed = suites.reduce((n, s) => n + s.failed, 0);
console.log("\n" + suites.map((s) => `  ${s.name.padEnd(10)} ${s.passed} passed, ${s.failed} failed`).join("\n"));
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
