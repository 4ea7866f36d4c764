import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

/**
 * `npm run screenshots`: photographs every screen of the router at 1400 px and 390 px, in the light
 * and dark themes, into docs/screenshots/ (the README shows some). Not part of `npm test`, whose
 * tests write only under test-results/.
 */
export default defineConfig({
  ...base,
  testDir: "tests/screenshots",
  outputDir: "test-results/screenshots",
  reporter: [["list"]],
  timeout: 180_000,
});
