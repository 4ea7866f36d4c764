import { readFileSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";

/** The built server, started as `npm run serve` starts it (package.json). */
const serve = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: { serve: string } }).scripts.serve;

/**
 * Ports and sign-in of the consoles the browser tests start (embedded database, fresh demo data):
 * one console per Playwright worker, so that the workers share no data (worker `i` uses
 * `port + i` and `dataDir-i`). E2E_WORKERS sets how many (default 2, one per core of the machine
 * the suite is sized for); E2E_PORT moves them all.
 */
export const e2e = {
  port: Number(process.env.E2E_PORT ?? 3210),
  password: "e2e-demo-password",
  dataDir: process.env.E2E_PORT ? `.e2e-data-${process.env.E2E_PORT}` : ".e2e-data",
  workers: Math.max(1, Number(process.env.E2E_WORKERS ?? 2)),
};

/** The origin of the console that Playwright worker `parallelIndex` (0-based) tests. */
export const consoleOrigin = (parallelIndex: number) => `http://localhost:${e2e.port + parallelIndex}`;

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results/e2e",
  // A file's tests run in order in one worker (they share its console's data); files spread over
  // the workers, each with its own console.
  fullyParallel: false,
  workers: e2e.workers,
  retries: 0,
  // Bounds against a hang, not speed targets (those are `npm run bench`'s): the longest tests (a
  // directory's sync, Swagger UI, a conflict between two tabs) take 20-30 s on a 2-core host of
  // the slower kind, and hosts of one kind differ by up to 2× (docs/testing.md).
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: "test-results/e2e.json" }]],
  use: {
    // tests/e2e/fixtures.ts points each worker at its own console; this is worker 0's.
    baseURL: consoleOrigin(0),
    // A trace records every action of every test, about a tenth of the suite's time: E2E_TRACE=1
    // keeps one for each failed test (test-results/e2e/…/trace.zip); the failure's screenshot and
    // page snapshot are kept either way.
    trace: process.env.E2E_TRACE ? "retain-on-failure" : "off",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: Array.from({ length: e2e.workers }, (_, i) => ({
    command: `rm -rf ${e2e.dataDir}-${i} && ${serve}`,
    url: `${consoleOrigin(i)}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      PORT: String(e2e.port + i),
      DATA_DIR: `${e2e.dataDir}-${i}`,
      DEMO_OPERATOR_PASSWORD: e2e.password,
      // A developer's .env configures their console, not the tests'.
      ENV_FILE: "/dev/null",
      LOG_LEVEL: "warn",
      PUBLIC_URL: consoleOrigin(i),
      // Live dashboard figures: the tests compare each with its list right after other tests
      // changed the data, which a snapshot up to a minute old would not show yet.
      ANALYTICS_REFRESH_SECONDS: "0",
    },
  })),
});
