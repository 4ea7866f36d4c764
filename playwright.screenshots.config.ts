import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

/**
 * `npm run screenshots`: photographs every screen of the router at 1400 px and 390 px, in the light
 * and dark themes, into test-results/screenshots/ (not kept in git; emptied as each run starts),
 * then copies the pictures README.md and docs/*.md show into docs/screenshots/, the only ones kept
 * in git (tests/screenshots/screens.spec.ts). Not part of `npm test`.
 */
export default defineConfig({
  ...base,
  testDir: "tests/screenshots",
  outputDir: "test-results/screenshots",
  // In order, in one worker: the spec's last test copies the pictures the ones before it took.
  fullyParallel: false,
  workers: 1,
  // One worker, so one console (worker 0's of playwright.config.ts).
  webServer: Array.isArray(base.webServer) ? base.webServer.slice(0, 1) : base.webServer,
  reporter: [["list"]],
  timeout: 180_000,
});
