import { defineConfig } from "vitest/config";

/**
 * Component tests of the shared screen parts (`npm run test:components`): Testing Library in
 * happy-dom, apart from the API tests (vitest.config.ts) so neither setup affects the other.
 */
export default defineConfig({
  test: {
    include: ["tests/components/**/*.test.tsx"],
    environment: "happy-dom",
    setupFiles: ["tests/components/setup.ts"],
    pool: "threads",
    reporters: ["default", ["json", { outputFile: "test-results/components.json" }]],
  },
});
