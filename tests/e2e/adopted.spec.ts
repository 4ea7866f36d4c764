/**
 * Every screen works on an adopted database (docs/adopting.md): a
 * PostgreSQL database in the shape the console this one replaces left (tests/support/legacy-database.ts,
 * with its bad rows) is adopted with `npm run db:adopt -- --apply`, an operator is made with
 * `npm run operator:create`, and the console started on it (`src/server/main.ts`, as `npm start`
 * runs it after the build). Every route of the router opens on the bad rows' records without an
 * error, and a status outside the spec's list shows in the "other" colour of its kind. Needs a PostgreSQL server:
 * runs when TEST_DATABASE_URL is set, as the API suite's PostgreSQL tests do.
 */
import { spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { freePort, startConsoleProcess, stopCleanly, waitReady, type ConsoleProcess } from "../support/crash";
import { createScratchDatabase, fillLegacyDatabase, legacy, type ScratchDatabase } from "../support/legacy-database";
import { expect, test } from "./fixtures";
import { screens, settled } from "./screens";

const base = process.env.TEST_DATABASE_URL;
const root = path.resolve(import.meta.dirname, "../..");
const dataDir = path.join(root, "test-results", "adopted-e2e-data");
const operator = { email: "admin@pedal.example", password: "adopted-e2e-password" };

/** Runs a console script (`npm run …` without npm) on the database; fails with its output unless it exits 0. */
function script(args: string[], databaseUrl: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    const child = spawn(process.execPath, ["--import", "tsx", ...args], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        DATA_DIR: dataDir,
        LOG_LEVEL: "warn",
        BETTER_AUTH_SECRET: "adopted-e2e-secret-adopted-e2e-secret-01",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("exit", (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${args.join(" ")} exited ${code}:\n${out}`)),
    );
  });
}

/**
 * A pending edit of the legacy prompt (docs/prompt-review.md), as review would have saved it, by
 * an author who is not the signed-in operator: the change's screen opens on a legacy status.
 */
async function proposeLegacyEdit(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ change_id: string }>(
      `insert into prompt_changes (prompt_id, kind, base_title, base_value, base_status, base_skill_id,
        prompt_title, prompt_value, prompt_status, skill_id, proposed_by, proposed_by_email)
      select prompt_id, 'update', prompt_title, prompt_value, status, skill_id,
        prompt_title || ' (proposed)', prompt_value, status, skill_id, 'legacy-author', 'author@legacy.example'
      from pedal_prompts where prompt_id = $1 returning change_id::text`,
      [legacy.publishedPrompt],
    );
    return rows[0].change_id;
  } finally {
    await client.end();
  }
}

test.describe("an adopted database", () => {
  test.skip(!base, "needs a PostgreSQL server: set TEST_DATABASE_URL");
  test.describe.configure({ timeout: 300_000 });
  let database: ScratchDatabase | undefined;
  let server: ConsoleProcess | undefined;

  test.beforeAll(async () => {
    // Two server commands and a console start: past the 30 s a hook gets by default on a busy machine.
    test.setTimeout(180_000);
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });
    database = await createScratchDatabase(base!);
    await fillLegacyDatabase(database.url);
    expect(
      await script(
        ["scripts/adopt.ts", "--apply", "--rollback-file", path.join(dataDir, "rollback.sql")],
        database.url,
      ),
    ).toContain("Adopted:");
    await script(
      ["scripts/operator-create.ts", "--email", operator.email, "--password", operator.password],
      database.url,
    );
    server = startConsoleProcess(
      {
        target: "postgres",
        dataDir,
        password: operator.password,
        authSecret: "adopted-e2e-secret-adopted-e2e-secret-01",
        databaseUrl: database.url,
        dispose: async () => undefined,
      },
      await freePort(),
    );
    await waitReady(server);
  });

  test.afterAll(async () => {
    if (server) await stopCleanly(server);
    await database?.drop();
  });

  test("every screen opens on the existing data; an unknown status is a neutral badge", async ({ page }) => {
    const url = `http://localhost:${server!.port}`;
    await page.goto(url);
    await page.getByLabel("Email").fill(operator.email);
    await page.getByLabel("Password").fill(operator.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByRole("button", { name: "User menu" })).toBeVisible();

    const ids = new Map([
      ["customerId", legacy.archivedCustomer],
      ["teamId", legacy.duplicatedTeam],
      ["userId", legacy.suspendedUser],
      ["skillId", legacy.deprecatedSkill],
      ["promptId", legacy.publishedPrompt],
      ["platformId", legacy.retiredPlatform],
      ["changeId", await proposeLegacyEdit(database!.url)],
    ]);
    for (const screen of await screens(page, ids)) {
      await page.goto(`${url}${screen.path}`);
      await settled(page);
      await expect(page.locator("main"), screen.route).not.toContainText(
        /Error loading|not found|Something went wrong/i,
      );
      await expect(page.locator("main h1").first(), screen.route).toBeVisible();
    }

    await page.goto(`${url}/customers/${legacy.archivedCustomer}`);
    await expect(page.getByRole("heading", { name: legacy.archivedCustomerName })).toBeVisible();
    await expect(page.locator("main [data-tone]", { hasText: /^Archived$/ }).first()).toHaveAttribute(
      "data-tone",
      "neutral",
    );

    await page.goto(`${url}/users?q=${encodeURIComponent(legacy.suspendedUserEmail)}`);
    const row = page.getByRole("table", { name: "Users" }).getByRole("row").nth(1);
    await expect(row.locator("[data-tone]", { hasText: /^Suspended$/ })).toHaveAttribute("data-tone", "neutral");
    await expect(row.getByText("Owner", { exact: true })).toBeVisible();

    // The later screens' statuses outside the spec's lists, in the spec's "other" colour (SPEC.md §4:
    // secondary for prompts and comments; platforms alike; neutral for skills): the skill page
    // (its prompt and comment too), the prompt, the platform.
    const badge = (label: string) => page.locator("main [data-tone]", { hasText: new RegExp(`^${label}$`) }).first();
    await page.goto(`${url}/skills/${legacy.deprecatedSkill}`);
    await expect(badge("Deprecated")).toHaveAttribute("data-tone", "neutral");
    for (const label of ["Published", "Flagged"])
      await expect(badge(label), label).toHaveAttribute("data-tone", "secondary");
    await page.goto(`${url}/prompts/${legacy.publishedPrompt}`);
    await expect(badge("Published")).toHaveAttribute("data-tone", "secondary");
    await page.goto(`${url}/platforms/${legacy.retiredPlatform}`);
    await expect(badge("Retired")).toHaveAttribute("data-tone", "secondary");
    await page.goto(`${url}/customers?q=Zeta`);
    await expect(page.getByRole("table", { name: "Customers" })).toContainText(legacy.archivedCustomerName);
  });
});
