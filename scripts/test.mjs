#!/usr/bin/env node
/**
 * `npm test`: every check and test of the console, on a fresh machine.
 *  1. makes sure Debian's Chromium is there (installs it with apt-get when run as root),
 *  2. side by side (sharing both cores): the type check, lint (ESLint: TypeScript and React hooks
 *     rules, import boundaries and cycles), the formatting check (Prettier), the build of the web
 *     app and the server bundle the browser tests run, and the component tests of the shared screen
 *     parts (Vitest, Testing Library, happy-dom),
 *  3. the API tests (PGlite, and PostgreSQL when TEST_DATABASE_URL is set; two files at a time),
 *  4. the browser tests (Playwright; E2E_WORKERS workers, default 2, each with a console of its own),
 * then prints each stage's time and one line `N passed, N failed` summing every suite, and exits
 * non-zero on any failure.
 */
import { spawn, spawnSync } from "node:child_process";
import { pbkdf2Sync } from "node:crypto";
import { existsSync, readFileSync, rmSync } from "node:fs";

// A developer's `.env` (docs/configuration.md) configures their console, not the tests' servers.
process.env.ENV_FILE ??= "/dev/null";

const chromium = "/usr/bin/chromium";
const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { stdio: "inherit", ...opts }).status ?? 1;

/**
 * How fast this machine's cores are today: the milliseconds one core takes for a fixed task
 * (PBKDF2-SHA256, 1,000,000 rounds), the best of three. Hosts of the same kind differ by half
 * again from day to day, and every stage with them, so stage times are compared with this beside
 * them (docs/testing.md).
 */
function coreSpeedMs() {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    pbkdf2Sync("pedal", "console", 1_000_000, 32, "sha256");
    best = Math.min(best, performance.now() - t);
  }
  return best;
}
const referenceTaskMs = coreSpeedMs();

/** Stage times in seconds, printed at the end (docs/testing.md keeps the figures). */
const times = [];
/** Runs `fn`, records its wall time under `name`, and returns what it returns. */
async function timed(name, fn) {
  const started = Date.now();
  const result = await fn();
  times.push({ name, seconds: (Date.now() - started) / 1000 });
  return result;
}

/**
 * Runs commands side by side, each one's output collected and printed whole when it ends (so that
 * two outputs never interleave); resolves to their exit codes in order.
 */
function parallel(steps) {
  return Promise.all(
    steps.map(
      ({ name, commands }) =>
        new Promise((resolve) => {
          const started = Date.now();
          let output = "";
          const next = (i) => {
            if (i === commands.length) return finish(0);
            const [cmd, ...args] = commands[i];
            const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"] });
            child.stdout.on("data", (d) => (output += d));
            child.stderr.on("data", (d) => (output += d));
            child.on("close", (code) => (code === 0 ? next(i + 1) : finish(code ?? 1)));
          };
          const finish = (code) => {
            const seconds = (Date.now() - started) / 1000;
            times.push({ name, seconds });
            console.log(`\n▶ ${name}: ${code === 0 ? "ok" : "FAILED"} (${seconds.toFixed(0)} s)`);
            if (output.trim()) process.stdout.write(output.endsWith("\n") ? output : output + "\n");
            resolve(code);
          };
          next(0);
        }),
    ),
  );
}

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

const started = Date.now();
ensureChromium();
rmSync("test-results", { recursive: true, force: true });
const suites = [];
const pass = (name, code) => suites.push({ name, passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1 });

console.log("\n▶ Type check, lint, formatting, build and component tests, side by side");
const [typecheck, lint, format, build, componentsCode] = await parallel([
  { name: "typecheck", commands: [["npx", "tsc", "--noEmit", "-p", "."]] },
  { name: "lint (ESLint)", commands: [["npx", "eslint", "."]] },
  {
    name: "formatting (Prettier; `npm run format` fixes it)",
    commands: [["npx", "prettier", "--check", "--log-level", "warn", "."]],
  },
  {
    name: "build (web app and server bundle)",
    commands: [
      ["npx", "vite", "build", "--logLevel", "warn"],
      ["node", "scripts/build-server.mjs"],
    ],
  },
  {
    name: "components (Vitest, Testing Library, happy-dom)",
    commands: [["npx", "vitest", "run", "-c", "vitest.components.config.ts"]],
  },
]);
pass("typecheck", typecheck);
pass("lint", lint);
pass("format", format);

console.log(
  `\n▶ API tests (${process.env.TEST_DATABASE_URL ? "PGlite and PostgreSQL" : "PGlite; set TEST_DATABASE_URL for PostgreSQL too"})`,
);
const apiCode = await timed("api", () => run("npx", ["vitest", "run"]));
const api = readJson("test-results/api.json");
suites.push({
  name: "api",
  passed: api?.numPassedTests ?? 0,
  failed: api ? api.numFailedTests + (apiCode !== 0 && api.numFailedTests === 0 ? 1 : 0) : 1,
});

const components = readJson("test-results/components.json");
suites.push({
  name: "components",
  passed: components?.numPassedTests ?? 0,
  failed: components
    ? components.numFailedTests + (componentsCode !== 0 && components.numFailedTests === 0 ? 1 : 0)
    : 1,
});

console.log("\n▶ Browser tests (Playwright, Debian Chromium)");
const e2eCode = build === 0 ? await timed("browser", () => run("npx", ["playwright", "test"])) : 1;
const e2e = readJson("test-results/e2e.json");
const e2ePassed = (e2e?.stats?.expected ?? 0) + (e2e?.stats?.flaky ?? 0);
const e2eFailed = e2e ? e2e.stats.unexpected + (e2eCode !== 0 && e2e.stats.unexpected === 0 ? 1 : 0) : 1;
suites.push({ name: "e2e", passed: e2ePassed, failed: e2eFailed });

/**
 * The API tests' time on each database: the sum of its tests' durations (a describe block names
 * its database), which runs side by side on two workers, so it adds up to more than the stage.
 */
function apiTimeByDatabase() {
  const sums = { pglite: 0, postgres: 0 };
  for (const file of api?.testResults ?? [])
    for (const t of file.assertionResults ?? []) {
      const where = [...(t.ancestorTitles ?? []), t.title].join(" ");
      const target = /postgres/i.test(where) ? "postgres" : /pglite/i.test(where) ? "pglite" : undefined;
      if (target) sums[target] += (t.duration ?? 0) / 1000;
    }
  return sums;
}

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
const byDatabase = apiTimeByDatabase();
console.log("\nStage times (wall):");
for (const t of times) console.log(`  ${t.name.split(" (")[0].padEnd(12)} ${t.seconds.toFixed(0).padStart(5)} s`);
console.log(
  `  (API tests' own durations: PGlite ${byDatabase.pglite.toFixed(0)} s, PostgreSQL ${byDatabase.postgres.toFixed(0)} s, on two workers)`,
);
console.log(`  total        ${((Date.now() - started) / 1000).toFixed(0).padStart(5)} s`);
console.log(`  (this machine's reference task: ${referenceTaskMs.toFixed(0)} ms on one core; see docs/testing.md)`);
const passed = suites.reduce((n, s) => n + s.passed, 0);
const failed = suites.reduce((n, s) => n + s.failed, 0);
console.log("\n" + suites.map((s) => `  ${s.name.padEnd(10)} ${s.passed} passed, ${s.failed} failed`).join("\n"));
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
