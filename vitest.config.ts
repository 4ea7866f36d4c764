import { defineConfig } from "vitest/config";

/**
 * Test files run side by side, one per core (VITEST_MAX_WORKERS, default 2, the machine the suite
 * is sized for): each has its own databases and ports (tests/support/databases.ts, freePort), so
 * two can run at once.
 */
const maxWorkers = Math.max(1, Number(process.env.VITEST_MAX_WORKERS ?? 2));

export default defineConfig({
  test: {
    include: ["tests/api/**/*.test.ts"],
    setupFiles: ["tests/support/setup.ts"],
    // The migrations run once per run (the template databases), not once per test file.
    globalSetup: ["tests/support/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers,
    env: { VITEST_MAX_WORKERS: String(maxWorkers), ENV_FILE: "/dev/null" },
    reporters: ["default", ["json", { outputFile: "test-results/api.json" }]],
  },
});
