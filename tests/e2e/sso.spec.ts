/**
 * Single sign-on in the browser (docs/identity.md): the built console, started here with single
 * sign-on settings (the shared server of playwright.config.ts has none), and a real OpenID provider
 * (tests/support/oidc-provider.ts) on a free port. An operator signs in through the provider's own
 * login page and lands on the dashboard; a person with no operator is sent back to the login
 * screen with the refusal's message.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { msg } from "../../src/domain/messages";
import { freePort } from "../support/crash";
import { startOidcProvider, type TestProvider } from "../support/oidc-provider";

const root = path.resolve(import.meta.dirname, "../..");
const dataDir = path.join(root, "test-results", "sso-e2e-data");
const label = "Sign in with Okta";

test.describe("single sign-on", () => {
  test.describe.configure({ timeout: 120_000 });
  let provider: TestProvider | undefined;
  let server: ChildProcess | undefined;
  let base = "";
  let output = "";

  test.beforeAll(async () => {
    const port = await freePort();
    base = `http://localhost:${port}`;
    provider = await startOidcProvider({ redirectUris: [`${base}/api/auth/callback/sso`] });
    rmSync(dataDir, { recursive: true, force: true });
    // The built server, as `npm run serve` starts it (scripts/serve.sh), with its own data folder.
    server = spawn("sh", ["scripts/serve.sh"], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        DATA_DIR: dataDir,
        DATABASE_URL: "",
        NODE_ENV: "",
        LOG_LEVEL: "warn",
        PUBLIC_URL: base,
        DEMO_OPERATOR_PASSWORD: "sso-e2e-demo-password",
        SSO_ISSUER: provider.issuer,
        SSO_CLIENT_ID: provider.clientId,
        SSO_CLIENT_SECRET: provider.clientSecret,
        SSO_BUTTON_LABEL: label,
        SSO_ALLOWED_DOMAINS: "pedal.example",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    server.stdout!.on("data", (d) => (output += d));
    server.stderr!.on("data", (d) => (output += d));
    await expect(async () => {
      expect(server!.exitCode, output).toBeNull();
      const res = await fetch(`${base}/healthz`);
      expect(res.ok).toBe(true);
    }).toPass({ timeout: 90_000 });
  });

  test.afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once("exit", resolve));
      server.kill("SIGTERM");
      await exited;
    }
    await provider?.close();
  });

  test("an operator signs in through the provider's login page and lands on the dashboard", async ({ page }) => {
    await page.goto(`${base}/`);
    // The spec's form is still there, with the provider's button under it.
    await expect(page.getByRole("button", { name: msg.login.submit, exact: true })).toBeVisible();
    await page.getByRole("button", { name: label }).click();

    // The provider's own login page (oidc-provider's), on its own origin.
    await expect(page).toHaveURL(new RegExp(`^${provider!.issuer}/interaction/`));
    await page.locator('input[name="login"]').fill("admin@pedal.example");
    await page.locator('input[name="password"]').fill("provider password");
    await page.locator('button[type="submit"]').click();

    await expect(page).toHaveURL(`${base}/`);
    await expect(page.getByRole("button", { name: "User menu" })).toBeVisible();
    await expect(page.getByRole("heading", { name: msg.dashboard.title, level: 1 })).toBeVisible();
    const session = await (await page.request.get(`${base}/api/auth/get-session`)).json();
    expect(session.user.email).toBe("admin@pedal.example");
  });

  test("a person with no operator is sent back to the login screen with the reason", async ({ page }) => {
    await page.goto(`${base}/customers`);
    await page.getByRole("button", { name: label }).click();
    await expect(page).toHaveURL(new RegExp(`^${provider!.issuer}/interaction/`));
    await page.locator('input[name="login"]').fill("stranger@pedal.example");
    await page.locator('input[name="password"]').fill("provider password");
    await page.locator('button[type="submit"]').click();

    await expect(page.getByRole("alert")).toHaveText(msg.sso.refused.unknown_operator);
    await expect(page.getByRole("button", { name: msg.login.submit, exact: true })).toBeVisible();
    // Back on the page the attempt started from, the reason taken out of the address.
    await expect(page).toHaveURL(`${base}/customers`);
    const session = await (await page.request.get(`${base}/api/auth/get-session`)).json();
    expect(session).toBeNull();
  });
});
