/**
 * Single sign-on in the browser (docs/identity.md): a console of its own (./own-console.ts), with single
 * sign-on settings (the shared server of playwright.config.ts has none), and a real OpenID provider
 * (tests/support/oidc-provider.ts) on a free port. An operator signs in through the provider's own
 * login page and lands on the dashboard; a person with no operator is sent back to the login
 * screen with the refusal's message.
 */
import { expect, test } from "@playwright/test";
import { msg } from "../../src/domain/messages";
import { startOidcProvider, type TestProvider } from "../support/oidc-provider";
import { ownConsole } from "./own-console";

const label = "Sign in with Okta";

test.describe("single sign-on", () => {
  test.describe.configure({ timeout: 120_000 });
  let provider: TestProvider | undefined;
  const { origin: base } = ownConsole({
    name: "sso",
    slot: 3300,
    demoPassword: "sso-e2e-demo-password",
    env: async (origin) => {
      provider = await startOidcProvider({ redirectUris: [`${origin}/api/auth/callback/sso`] });
      return {
        SSO_ISSUER: provider.issuer,
        SSO_CLIENT_ID: provider.clientId,
        SSO_CLIENT_SECRET: provider.clientSecret,
        SSO_BUTTON_LABEL: label,
        SSO_ALLOWED_DOMAINS: "pedal.example",
      };
    },
  });

  test.afterAll(async () => {
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
