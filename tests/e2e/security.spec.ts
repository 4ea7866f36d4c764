import { msg } from "../../src/domain/messages";
import { e2e } from "../../playwright.config";
import { apiWrite, expect, signIn, test } from "./fixtures";

const hostile = `<img src=x onerror="window.__xss=1">`;

test("a customer named with HTML renders as text everywhere it appears", async ({ page }) => {
  let dialogs = 0;
  page.on("dialog", (d) => {
    dialogs++;
    void d.dismiss();
  });
  await signIn(page, "/customers");
  const created = await (await apiWrite(page, "POST", "/api/customers", { customer_name: hostile })).json();
  const team = await (
    await apiWrite(page, "POST", "/api/teams", { customer_id: created.customer_id, team_name: hostile })
  ).json();

  await page.goto(`/customers?q=${encodeURIComponent("onerror")}`);
  await expect(page.getByRole("table", { name: "Customers" }).getByText(hostile)).toBeVisible();
  await page.goto(`/customers/${created.customer_id}`);
  await expect(page.getByRole("heading", { name: hostile })).toBeVisible();
  await page.goto(`/teams?customer=${created.customer_id}`);
  await expect(page.getByRole("table", { name: "Teams" }).getByText(hostile)).toHaveCount(2);
  await page.goto(`/teams/${team.team_id}`);
  await expect(page.getByRole("heading", { name: hostile })).toBeVisible();
  await expect(page.getByRole("link", { name: `Back to ${hostile}` })).toBeVisible();
  await page.goto(`/audit?entity=customer&entity_id=${created.customer_id}`);
  await expect(page.getByText(hostile).first()).toBeVisible();

  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  expect(dialogs).toBe(0);
});

test("a viewer sees the data but no actions that change it", async ({ page }) => {
  await page.goto("/");
  await page.getByLabel("Email").fill("viewer@pedal.example");
  await page.getByLabel("Password").fill(e2e.password);
  await page.getByRole("button", { name: msg.login.submit }).click();
  await expect(page.getByTestId("operator-role")).toHaveText("Viewer");
  await expect(page.getByText("Administration")).toHaveCount(0);
  await page.goto("/customers");
  await expect(page.getByRole("table", { name: "Customers" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Add Customer" })).toHaveCount(0);
  await page.getByRole("table", { name: "Customers" }).getByRole("row").nth(1).click();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("button", { name: /^(Archive|Unarchive)$/ })).toHaveAttribute("aria-disabled", "true");
  await expect(page.getByRole("link", { name: "Add Team" })).toHaveCount(0);
  await page.goto("/users");
  await expect(page.getByRole("table", { name: "Users" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Add User" })).toHaveCount(0);
  await page.getByRole("table", { name: "Users" }).getByRole("row").nth(1).getByRole("cell").nth(4).click();
  await expect(page.getByRole("heading", { name: "Team Memberships" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Add Team" })).toHaveAttribute("aria-disabled", "true");
  await expect(page.getByRole("button", { name: /^Leave Team/ })).toHaveCount(0);
  // The server refuses as well.
  expect((await apiWrite(page, "POST", "/api/customers", { customer_name: "By a viewer" })).status()).toBe(403);
  expect((await page.request.post("/api/customers", { data: { customer_name: "No origin" } })).status()).toBe(403);
  await page.goto("/operators");
  await expect(page.getByTestId("not-allowed")).toContainText(msg.ui.adminOnly);
  await expect(page.getByRole("button", { name: msg.app.retry })).toHaveCount(0);
});

test("an admin creates an operator, changes their role, deactivates them, and reads the history", async ({ page }) => {
  await signIn(page, "/operators");
  await expect(page.getByRole("heading", { name: msg.operators.title })).toBeVisible();
  const email = `ops${Date.now()}@pedal.example`;
  await page.getByRole("button", { name: "Add Operator" }).click();
  const modal = page.getByRole("dialog", { name: "Add Operator" });
  await modal.getByLabel("Email").fill(email);
  await modal.getByLabel("Name").fill("New Colleague");
  await modal.getByLabel("Role").selectOption("editor");
  const password = await modal.getByLabel("Initial password").inputValue();
  expect(password.length).toBeGreaterThanOrEqual(16);
  await modal.getByRole("button", { name: "Create Operator" }).click();
  await expect(page.getByTestId("success-banner")).toContainText(msg.operators.created);
  await expect(page.getByTestId("success-banner")).toContainText(password);

  const row = page.getByRole("row", { name: new RegExp(email) });
  await expect(row).toBeVisible();
  await row.getByRole("combobox", { name: `Role of ${email}` }).selectOption("viewer");
  await expect(page.getByTestId("success-banner")).toContainText(msg.operators.updated);
  await row.getByRole("button", { name: `Actions for ${email}` }).click();
  await page.getByRole("menuitem", { name: "Deactivate" }).click();
  await page.getByRole("dialog", { name: "Deactivate operator" }).getByRole("button", { name: "Deactivate" }).click();
  await expect(row.getByText("Deactivated")).toBeVisible();

  await row.getByRole("button", { name: `Actions for ${email}` }).click();
  await page.getByRole("menuitem", { name: msg.audit.history }).click();
  await expect(page).toHaveURL(/\/audit\?/);
  const log = page.getByRole("table", { name: msg.audit.title });
  await expect(log.getByText("create")).toBeVisible();
  await expect(log.getByText("update")).toHaveCount(2);
});

test("the built app ships no source maps", async ({ page }) => {
  const index = await (await page.request.get("/")).text();
  const scripts = [...index.matchAll(/<script[^>]+src="([^"]+\.js)"/g)].map((m) => m[1]);
  expect(scripts.length).toBeGreaterThan(0);
  for (const src of scripts) {
    expect((await page.request.get(src)).status(), src).toBe(200);
    expect((await page.request.get(`${src}.map`)).status(), `${src}.map`).toBe(404);
    expect(await (await page.request.get(src)).text(), src).not.toContain("sourceMappingURL");
  }
});
