import { rmSync } from "node:fs";
import path from "node:path";
import { test } from "@playwright/test";
import { startConsoleProcess, root, type ConsoleProcess } from "../support/server";

/**
 * A console of the test file's own, for settings the shared server of playwright.config.ts does
 * not have (PROMPT_REVIEW, REQUIRE_MFA, single sign-on): started from the built server before the
 * file's (or the describe block's) tests, on its own embedded database under test-results/, with
 * the demo data and `demoPassword` for the demo operators; stopped and removed after them.
 *
 * `name` and `slot` give it a folder and a port of its own (3210 + E2E_PORT's offset keeps two
 * suites on one machine apart); `env` adds settings, and may be a function run in `beforeAll`
 * (settings that need another server started first, such as an OpenID provider).
 */
export function ownConsole(options: {
  name: string;
  /** Its port is `slot` + E2E_PORT modulo 7. */
  slot: number;
  demoPassword: string;
  env?: Record<string, string> | ((origin: string) => Promise<Record<string, string>>);
}) {
  const port = options.slot + (Number(process.env.E2E_PORT ?? 3210) % 7);
  const origin = `http://localhost:${port}`;
  const dataDir = path.join(root, "test-results", `${options.name}-e2e-${port}`);
  let server: ConsoleProcess | undefined;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    rmSync(dataDir, { recursive: true, force: true });
    const env = typeof options.env === "function" ? await options.env(origin) : (options.env ?? {});
    server = startConsoleProcess(
      {
        PORT: String(port),
        DATA_DIR: dataDir,
        DEMO_OPERATOR_PASSWORD: options.demoPassword,
        PUBLIC_URL: origin,
        ...env,
      },
      { bundle: true },
    );
    await server.started;
  });
  test.afterAll(async () => {
    server?.child.kill("SIGTERM");
    await server?.exited;
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { port, origin };
}
