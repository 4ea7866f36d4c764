import { msg } from "../../src/domain/messages";
import { passwordMessages } from "../../src/domain/password";
import { apiWrite, expect, goBack, signIn, test } from "./fixtures";

test("an operator changes their password from the user menu, with the policy and the current password checked", async ({
  page,
  browser,
}) => {
  await signIn(page);
  const email = `changer-${Date.now()}@pedal.example`;
  const first = "first-password-1";
  const created = await apiWrite(page, "POST", "/api/operators", {
    email,
    name: "Changer",
    role: "viewer",
    password: first,
  });
  expect(created.status()).toBe(201);

  const context = await browser.newContext();
  const own = await context.newPage();
  await own.goto("/");
  await own.getByLabel("Email").fill(email);
  await own.getByLabel("Password").fill(first);
  await own.getByRole("button", { name: msg.login.submit }).click();
  await own.getByRole("button", { name: msg.ui.userMenu }).click();
  await own.getByRole("menuitem", { name: passwordMessages.changeTitle }).click();
  const dialog = own.getByRole("dialog", { name: passwordMessages.changeTitle });
  await expect(dialog.getByRole("textbox", { name: passwordMessages.current, exact: true })).toBeFocused();

  // Keyboard only: the policy is checked before anything is sent.
  await own.keyboard.type("not-my-password");
  await own.keyboard.press("Tab");
  await expect(dialog.getByRole("textbox", { name: passwordMessages.new, exact: true })).toBeFocused();
  await own.keyboard.type("short");
  await own.keyboard.press("Tab");
  await expect(dialog.getByRole("textbox", { name: passwordMessages.confirm, exact: true })).toBeFocused();
  await own.keyboard.type("short");
  await own.keyboard.press("Enter");
  await expect(dialog.getByText(passwordMessages.tooShort)).toBeVisible();

  // A wrong current password is the server's answer, under its field.
  await dialog.getByRole("textbox", { name: passwordMessages.new, exact: true }).fill("second-password-2");
  await dialog.getByRole("textbox", { name: passwordMessages.confirm, exact: true }).fill("second-password-2");
  await dialog.getByRole("button", { name: passwordMessages.submit }).click();
  await expect(dialog.getByText(passwordMessages.wrongCurrent)).toBeVisible();

  await dialog.getByRole("textbox", { name: passwordMessages.current, exact: true }).fill(first);
  await dialog.getByRole("button", { name: passwordMessages.submit }).click();
  await expect(own.getByTestId("success-banner")).toContainText(passwordMessages.changed);
  await expect(dialog).toBeHidden();
  // Still signed in, and the new password is the one that works.
  await own.reload();
  await expect(own.getByRole("button", { name: msg.ui.userMenu })).toBeVisible();
  await context.close();

  const check = await page.request.post("/api/auth/sign-in/email", {
    data: { email, password: "second-password-2" },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(check.status()).toBe(200);
});

test("a database outage shows Cannot reach the server with Retry, and keeps the session", async ({ page, context }) => {
  await signIn(page, "/customers");
  // The server answers 503 while its database is down (tests/api/auth-attacks.test.ts makes it really fail).
  await page.route("**/api/auth/get-session", (route) =>
    route.fulfill({
      status: 503,
      contentType: "application/json",
      body: JSON.stringify({ error: { code: "unavailable", message: msg.api.unavailable } }),
    }),
  );
  await page.reload();
  await expect(page.getByRole("heading", { name: msg.lists.cannotReach })).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveCount(0);
  expect((await context.cookies()).some((c) => c.name.endsWith("session_token"))).toBe(true);

  await page.unroute("**/api/auth/get-session");
  await page.getByRole("button", { name: msg.app.retry }).click();
  await expect(page.getByRole("button", { name: msg.ui.userMenu })).toBeVisible();
  await expect(page).toHaveURL(/\/customers/);
});

test("an operator sees their signed-in browsers and ends another one from the user menu", async ({ page, browser }) => {
  await signIn(page);
  const email = `sessions-${Date.now()}@pedal.example`;
  const password = "sessions-password-1";
  expect(
    (await apiWrite(page, "POST", "/api/operators", { email, name: "Traveller", role: "viewer", password })).status(),
  ).toBe(201);

  // Two browsers of the same operator.
  const signInAs = async () => {
    const context = await browser.newContext();
    const tab = await context.newPage();
    await tab.goto("/");
    await tab.getByLabel("Email").fill(email);
    await tab.getByLabel("Password").fill(password);
    await tab.getByRole("button", { name: msg.login.submit }).click();
    await expect(tab.getByRole("button", { name: msg.ui.userMenu })).toBeVisible();
    return { context, tab };
  };
  const laptop = await signInAs();
  const phone = await signInAs();

  const own = laptop.tab;
  await own.getByRole("button", { name: msg.ui.userMenu }).click();
  await own.getByRole("menuitem", { name: msg.sessions.menu }).click();
  // The dialog has a page address: the same screen with ?account=sessions.
  await expect(own).toHaveURL(/[?&]account=sessions/);
  const dialog = own.getByRole("dialog", { name: msg.sessions.title });
  const table = dialog.getByRole("table", { name: msg.sessions.title });
  await expect(table.getByRole("row")).toHaveCount(3); // the header and two sessions
  await expect(table.getByText(msg.sessions.current)).toHaveCount(1);
  // Each session shows the address it signed in from (this machine's), not "—".
  await expect(table.getByText(/^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/)).toHaveCount(2);
  // The other browser's row is the one without "This browser": ending it signs the phone out.
  const other = table
    .getByRole("row")
    .filter({ hasNot: own.getByText(msg.sessions.current) })
    .last();
  await other.getByRole("button", { name: msg.sessions.end }).click();
  await expect(own.getByTestId("success-banner")).toContainText(msg.sessions.ended);
  await expect(table.getByRole("row")).toHaveCount(2);
  await phone.tab.reload();
  await expect(phone.tab.getByRole("button", { name: msg.login.submit })).toBeVisible();
  await own.reload();
  await expect(own.getByRole("button", { name: msg.ui.userMenu })).toBeVisible();
  await laptop.context.close();
  await phone.context.close();
});

test("the account dialogs have page addresses: a link opens one over its screen, closing leaves the screen, Back closes it", async ({
  page,
}) => {
  await signIn(page, "/customers?account=two-factor");
  const twoFactor = page.getByRole("dialog", { name: msg.twoFactor.title });
  await expect(twoFactor).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: msg.nav.customers })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(twoFactor).toBeHidden();
  await expect(page).toHaveURL(/\/customers$/);
  // From the menu: a new history entry, so Back closes the dialog and stays on the screen.
  await page.getByRole("button", { name: msg.ui.userMenu }).click();
  await page.getByRole("menuitem", { name: msg.sessions.menu }).click();
  const sessions = page.getByRole("dialog", { name: msg.sessions.title });
  await expect(sessions).toBeVisible();
  await goBack(page);
  await expect(sessions).toBeHidden();
  await expect(page).toHaveURL(/\/customers$/);
  await page.goto("/teams?account=password");
  await expect(page.getByRole("dialog", { name: passwordMessages.changeTitle })).toBeVisible();
});
