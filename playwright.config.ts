import { readFileSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";

/** The built server, started as `npm run serve` starts it (package.json). */
const serve = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: { serve: string } }).scripts.serve;

/** Port and sign-in of the console the browser tests start (embedded database, fresh demo data). */
export const e2e = {
  port: Number(process.env.E2E_PORT ?? 3210),
  password: "e2e-demo-password",
  dataDir: process.env.E2E_PORT ? `.e2e-data-${process.env.E2E_PORT}` : ".e2e-data",
};

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI
    ? [["list"], ["json", { outputFile: "test-results/e2e.json" }]]
    : [["list"], ["json", { outputFile: "test-results/e2e.json" }]],
  use: {
    baseURL: `http://localhost:${e2e.port}`,
    trace: "retain-on-failure",
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
  webServer: {
    command: `rm -rf ${e2e.dataDir} && ${serve}`,
    url: `http://localhost:${e2e.port}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      PORT: String(e2e.port),
      DATA_DIR: e2e.dataDir,
      DEMO_OPERATOR_PASSWORD: e2e.password,
      LOG_LEVEL: "warn",
      PUBLIC_URL: `http://localhost:${e2e.port}`,
    },
  },
});
