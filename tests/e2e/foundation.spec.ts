import { generateDemoData } from "../../src/server/db/demo-data";
import { msg } from "../../src/domain/messages";
import { admin, apiGet, expect, signIn, statCard, test } from "./fixtures";

/** A gate a held network answer waits on, opened by the test once it has seen what it checks. */
function held() {
  let release!: () => void;
  const wait = new Promise<void>((resolve) => (release = resolve));
  return { wait, release };
}

const demo = generateDemoData({ seed: 42 });
const fmt = (n: number) => new Intl.NumberFormat("en-US").format(n);

test.describe("sign-in gate", () => {
  test("shows the spec's login screen", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { name: msg.login.title })).toBeVisible();
    await expect(page.getByText(msg.login.tagline)).toBeVisible();
    const email = page.getByLabel("Email");
    await expect(email).toHaveAttribute("type", "email");
    await expect(email).toHaveAttribute("required", "");
    await expect(page.getByLabel("Password")).toHaveAttribute("required", "");
    await expect(page.getByRole("button", { name: msg.login.submit })).toBeVisible();
    await expect(page.getByText(msg.app.copyright(new Date().getFullYear()))).toBeVisible();
  });

  test("shows Loading... while the session resolves", async ({ page }) => {
    // The session's answer is held until the test has seen the loading state, then let through.
    const answer = held();
    await page.route("**/api/auth/get-session", async (route) => {
      await answer.wait;
      await route.continue();
    });
    await page.goto("/");
    await expect(page.getByRole("status").getByText(msg.app.loading)).toBeVisible();
    answer.release();
    await expect(page.getByRole("heading", { name: msg.login.title })).toBeVisible();
  });

  test("shows the server's message in a red box after a wrong password", async ({ page }) => {
    await page.goto("/");
    await page.getByLabel("Email").fill(admin.email);
    await page.getByLabel("Password").fill("wrong-password");
    const answer = held();
    await page.route("**/api/auth/sign-in/email", async (route) => {
      await answer.wait;
      await route.continue();
    });
    await page.getByRole("button", { name: msg.login.submit }).click();
    await expect(page.getByRole("button", { name: msg.login.submitting })).toBeDisabled();
    answer.release();
    const box = page.getByTestId("login-error");
    await expect(box).toHaveText("Invalid email or password");
    await expect(box).toHaveClass(/alert-error/);
    // The red box stands above the form's fields.
    const boxTop = (await box.boundingBox())!.y;
    expect(boxTop).toBeLessThan((await page.getByLabel("Email").boundingBox())!.y);
  });
});

test.describe("signed in", () => {
  test("dashboard shows the database's totals, survives a reload, and signs out", async ({ page }) => {
    await signIn(page);
    // The demo data, plus whatever other tests added before this one.
    const totals = await apiGet(page, "/api/dashboard");
    expect(totals.total_customers).toBeGreaterThanOrEqual(demo.customers.length);
    expect(totals.total_users).toBeGreaterThanOrEqual(demo.users_data.length);
    const card = (label: string) => statCard(page, label);
    await expect(card(msg.dashboard.totalCustomers)).toHaveText(new RegExp(`${fmt(totals.total_customers)}$`));
    await expect(card(msg.dashboard.totalUsers)).toHaveText(new RegExp(`${fmt(totals.total_users)}$`));
    await expect(card(msg.dashboard.totalTeams)).toHaveText(new RegExp(`${fmt(totals.total_teams)}$`));
    await expect(card(msg.dashboard.signedInUsers)).toContainText(fmt(totals.active_users));
    // "Active" is a status everywhere else (the users list's Active card): the dashboard does not use it.
    await expect(card("Active Users")).toHaveCount(0);

    await page.reload();
    await expect(card(msg.dashboard.totalCustomers)).toHaveText(new RegExp(`${fmt(totals.total_customers)}$`));

    await page.getByRole("button", { name: "User menu" }).click();
    await expect(page.getByTestId("operator-email")).toHaveText(admin.email);
    await expect(page.getByTestId("operator-role")).toHaveText(msg.app.adminLabel);
    await page.getByRole("menuitem", { name: msg.app.signOut, exact: true }).click();
    await expect(page.getByRole("heading", { name: msg.login.title })).toBeVisible();
    await page.reload();
    await expect(page.getByRole("heading", { name: msg.login.title })).toBeVisible();
  });

  test("sidebar lists the spec's entries and collapses to w-16 and expands to w-64", async ({ page }) => {
    await signIn(page);
    const sidebar = page.getByTestId("sidebar");
    for (const label of [
      "Dashboard",
      "Customers",
      "Teams",
      "Users",
      "Skills",
      "Platforms",
      "Prompts",
      "Comments",
      "Analytics",
    ]) {
      await expect(sidebar.getByRole("link", { name: label })).toBeVisible();
    }
    await expect(page.getByPlaceholder(msg.app.searchPlaceholder)).toBeVisible();
    await expect.poll(async () => (await sidebar.boundingBox())!.width).toBe(256);
    await page.getByRole("button", { name: "Collapse sidebar" }).click();
    await expect.poll(async () => (await sidebar.boundingBox())!.width).toBe(64);
    await page.getByRole("button", { name: "Expand sidebar" }).click();
    await expect.poll(async () => (await sidebar.boundingBox())!.width).toBe(256);
  });

  test("dashboard failure shows the spec's message and Retry recovers", async ({ page }) => {
    await signIn(page, "/analytics");
    await expect(page.getByRole("heading", { level: 1, name: msg.analytics.title })).toBeVisible();
    await page.route("**/api/dashboard", (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ error: { code: "internal", message: "Database unavailable" } }),
      }),
    );
    await page.getByRole("link", { name: "Dashboard" }).click();
    await expect(page.getByText(msg.dashboard.loadError)).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText("Database unavailable")).toBeVisible();
    await page.unroute("**/api/dashboard");
    await page.getByRole("button", { name: msg.app.retry }).click();
    await expect(statCard(page, msg.dashboard.totalCustomers)).toContainText(
      fmt((await apiGet(page, "/api/dashboard")).total_customers),
    );
  });

  test("unknown routes show a not-found page with a link home", async ({ page }) => {
    await signIn(page, "/no/such/page");
    await expect(page.getByRole("heading", { name: msg.app.notFoundTitle })).toBeVisible();
    await page.getByRole("link", { name: msg.app.backHome }).click();
    await expect(page.getByRole("heading", { name: msg.dashboard.title })).toBeVisible();
  });

  test("phone width: the mobile menu opens and navigates", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/");
    await page.getByLabel("Email").fill(admin.email);
    await page.getByLabel("Password").fill(admin.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByTestId("sidebar")).toBeHidden();
    await page.getByRole("button", { name: "Open menu" }).click();
    const menu = page.getByRole("dialog", { name: "Menu" });
    await menu.getByRole("link", { name: "Analytics" }).click();
    await expect(menu).toBeHidden();
    await expect(page.getByRole("heading", { level: 1, name: msg.analytics.title })).toBeVisible();
  });
});
