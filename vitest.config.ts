import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/api/**/*.test.ts"],
    setupFiles: ["tests/support/setup.ts"],
    // The migrations run once per run (the template databases), not once per test file.
    globalSetup: ["tests/support/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    reporters: ["default", ["json", { outputFile: "test-results/api.json" }]],
  },
});
