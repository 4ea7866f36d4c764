/**
 * Two-factor sign-in in the browser (docs/identity.md): an operator of its own (the demo admin is
 * shared with other specs) sets it up from the user menu, reading the setup key off the screen and
 * computing the code with otplib, sees the ten recovery codes, signs out, and signs in with the
 * password and then a computed code; an admin sees it on the Operators screen and resets it.
 * REQUIRE_MFA=admin is checked on a console of its own.
 */
import { violations } from "./axe";
import type { Page } from "@playwright/test";
import { generateSync } from "otplib";
import { msg } from "../../src/domain/messages";
import { apiWrite, expect, signIn, test } from "./fixtures";
import { ownConsole } from "./own-console";

/** The code of `secret` for the step `offset` steps from now. */
const codeFor = (secret: string, offset = 0) =>
  generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 });

/** axe's WCAG findings on the page once its transitions have ended. */
const axeFindings = (page: Page) => violations(page);

async function passwordStep(page: Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: msg.login.submit }).click();
}

/** From the setup's password prompt to the recovery codes: returns the secret and the codes. */
async function setUp(page: Page, password: string) {
  await page.getByLabel(msg.twoFactor.password).fill(password);
  await page.getByRole("button", { name: msg.twoFactor.continue }).click();
  await expect(page.getByRole("img", { name: msg.twoFactor.qrLabel })).toBeVisible();
  const secret = (await page.getByTestId("two-factor-setup-key").innerText()).replace(/\s/g, "");
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  // The code of this step: one step of skew is accepted, so it still holds when a step boundary
  // passes before the server checks it (the previous step's code was then two steps old and
  // refused). The sign-in after it uses the next step's, a different code.
  await page.getByLabel(msg.twoFactor.code).fill(codeFor(secret, 0));
  await page.getByRole("button", { name: msg.twoFactor.confirm }).click();
  const codes = page.getByTestId("recovery-codes").getByRole("listitem");
  await expect(codes).toHaveCount(10);
  return { secret, codes: await codes.allInnerTexts() };
}

test("an operator sets up two-factor from the user menu and signs in with a computed code", async ({
  page,
  browser,
}) => {
  // Two sessions and an authenticator step: 20–23 s in CI, near the default 30 s on a busy machine.
  test.slow();
  await signIn(page);
  const email = `two-factor-${Date.now()}@pedal.example`;
  const password = "two-factor-password-1";
  const created = await apiWrite(page, "POST", "/api/operators", {
    email,
    name: "Two Factor",
    role: "editor",
    password,
  });
  expect(created.status()).toBe(201);

  const context = await browser.newContext();
  const own = await context.newPage();
  await own.goto("/");
  await passwordStep(own, email, password);
  await own.getByRole("button", { name: msg.ui.userMenu }).click();
  await own.getByRole("menuitem", { name: msg.twoFactor.menuEntry }).click();
  const dialog = own.getByRole("dialog", { name: msg.twoFactor.title });
  await expect(dialog.getByTestId("two-factor-state")).toHaveText(msg.twoFactor.statusOff);
  await dialog.getByRole("button", { name: msg.twoFactor.start }).click();
  const { secret, codes } = await setUp(own, password);
  expect(codes.every((c) => /^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/.test(c))).toBe(true);
  expect(await axeFindings(own)).toEqual([]);
  await dialog.getByRole("button", { name: msg.twoFactor.done }).click();
  await expect(dialog).toBeHidden();

  // Sign out, then the password and a code.
  await own.getByRole("button", { name: msg.ui.userMenu }).click();
  await own.getByRole("menuitem", { name: msg.app.signOut, exact: true }).click();
  await passwordStep(own, email, password);
  const step = own.getByRole("form", { name: msg.twoFactor.stepTitle });
  await expect(step.getByText(msg.twoFactor.stepText)).toBeVisible();
  expect(await axeFindings(own)).toEqual([]);
  await step.getByLabel(msg.twoFactor.code).fill(codeFor(secret, 1));
  await step.getByRole("button", { name: msg.twoFactor.verify }).click();
  await expect(own.getByRole("button", { name: msg.ui.userMenu })).toBeVisible();

  // The dialog now says it is on.
  await own.getByRole("button", { name: msg.ui.userMenu }).click();
  await own.getByRole("menuitem", { name: msg.twoFactor.menuEntry }).click();
  await expect(dialog.getByTestId("two-factor-state")).toHaveText(msg.twoFactor.statusOn);
  await own.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  // Once more with a recovery code instead.
  await own.getByRole("button", { name: msg.ui.userMenu }).click();
  await own.getByRole("menuitem", { name: msg.app.signOut, exact: true }).click();
  await passwordStep(own, email, password);
  await step.getByRole("button", { name: msg.twoFactor.useRecovery }).click();
  await step.getByLabel(msg.twoFactor.recoveryCode).fill(codes[0]);
  await step.getByRole("button", { name: msg.twoFactor.verify }).click();
  await expect(own.getByRole("button", { name: msg.ui.userMenu })).toBeVisible();
  await context.close();

  // The admin sees it on, and resets it.
  await page.goto(`/operators?q=${encodeURIComponent(email)}`);
  const row = page.getByRole("row").filter({ hasText: email });
  await expect(row.getByText(msg.twoFactor.on, { exact: true })).toBeVisible();
  await row.getByRole("button", { name: `Actions for ${email}` }).click();
  await page.getByRole("menuitem", { name: msg.twoFactor.reset }).click();
  const confirm = page.getByRole("dialog", { name: msg.twoFactor.reset });
  await expect(confirm.getByText(msg.twoFactor.resetTitle(email))).toBeVisible();
  await confirm.getByRole("button", { name: msg.twoFactor.reset }).click();
  await expect(page.getByText(msg.twoFactor.resetDone(email))).toBeVisible();
  await expect(row.getByText(msg.twoFactor.off, { exact: true })).toBeVisible();
});

test.describe("REQUIRE_MFA=admin", () => {
  const demoPassword = "require-mfa-e2e-password";
  const { origin } = ownConsole({ name: "two-factor", slot: 3290, demoPassword, env: { REQUIRE_MFA: "admin" } });

  test("an admin without two-factor sees only the setup and Sign out, then the console once it is on", async ({
    page,
  }) => {
    await page.goto(`${origin}/customers`);
    await passwordStep(page, "admin@pedal.example", demoPassword);
    await expect(page.getByRole("heading", { name: msg.twoFactor.requiredTitle })).toBeVisible();
    await expect(page.getByRole("button", { name: msg.ui.userMenu })).toHaveCount(0);
    await expect(page.getByRole("button", { name: msg.app.signOut })).toBeVisible();
    expect(await axeFindings(page)).toEqual([]);
    // The API refuses everything else meanwhile.
    const refused = await page.request.get(`${origin}/api/customers`);
    expect(refused.status()).toBe(403);
    expect((await refused.json()).error.code).toBe("mfa_setup_required");

    await setUp(page, demoPassword);
    await page.getByRole("button", { name: msg.twoFactor.done }).click();
    await expect(page.getByRole("button", { name: msg.ui.userMenu })).toBeVisible();
    await expect(page).toHaveURL(/\/customers/);
  });
});
