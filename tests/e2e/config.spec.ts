import type { Page } from "@playwright/test";
import { configLabels } from "../../src/domain/config";
import { msg } from "../../src/domain/messages";
import { showTheme, violations } from "./axe";
import { apiGet, apiWrite, expect, signIn, test } from "./fixtures";

/** A new customer of the test's own, on the default configuration. */
async function newCustomer(page: Page, name: string): Promise<string> {
  const res = await apiWrite(page, "POST", "/api/customers", { customer_name: name });
  expect(res.status()).toBe(201);
  return (await res.json()).customer_id;
}

test.describe("configuration", () => {
  test("edit and save a customer's limits, see them after a reload and in recent changes", async ({ page }) => {
    await signIn(page);
    const name = `Config Corp ${Date.now()}`;
    const id = await newCustomer(page, name);
    // The customer page links to its configuration.
    await page.goto(`/customers/${id}`);
    await page.getByRole("main").getByRole("link", { name: msg.config.openConfig }).click();
    await expect(page).toHaveURL(new RegExp(`/config\\?customer=${id}`));
    await expect(page.getByRole("combobox", { name: msg.config.customer })).toHaveValue(name);
    await expect(page.getByTestId("config-last-saved")).toHaveText(msg.config.onDefaults);
    await expect(page.getByText(msg.config.noRecentChanges)).toBeVisible();

    // Validation: a message under each bad field, nothing saved.
    await page.getByLabel(configLabels.max_users).fill("0");
    await page.getByLabel(configLabels.session_timeout_minutes).fill("2000");
    await page.getByRole("button", { name: msg.config.save }).click();
    await expect(page.getByText(msg.config.maxUsersInvalid)).toBeVisible();
    await expect(page.getByText(msg.config.timeoutInvalid)).toBeVisible();

    await page.getByLabel(configLabels.max_users).fill("350");
    await page.getByLabel(configLabels.max_teams).fill("35");
    await page.getByLabel(configLabels.session_timeout_minutes).fill("480");
    await page.getByLabel(configLabels.features.analytics).check();
    await page.getByRole("button", { name: msg.config.save }).click();
    await expect(page.getByText(msg.config.saved)).toBeVisible();

    await page.reload();
    await expect(page.getByLabel(configLabels.max_users)).toHaveValue("350");
    await expect(page.getByLabel(configLabels.max_teams)).toHaveValue("35");
    await expect(page.getByLabel(configLabels.session_timeout_minutes)).toHaveValue("480");
    await expect(page.getByLabel(configLabels.features.analytics)).toBeChecked();
    const changes = page.getByRole("table", { name: msg.config.recentChanges });
    await expect(changes.getByRole("row", { name: /Max Users/ })).toContainText("50");
    await expect(changes.getByRole("row", { name: /Max Users/ })).toContainText("350");
    await expect(changes.getByRole("row", { name: /Feature: Analytics/ })).toContainText("Enabled");
    await expect(changes.getByRole("row")).toHaveCount(5); // header + 4 changed fields

    // A limit below the current usage is flagged.
    const users = (await apiGet(page, `/api/config/${id}`)).usage.users as number;
    expect(users).toBe(0);
  });

  test("a stale save shows who saved and the fresh values", async ({ page }) => {
    await signIn(page);
    const id = await newCustomer(page, `Stale Corp ${Date.now()}`);
    await page.goto(`/config?customer=${id}`);
    await expect(page.getByLabel(configLabels.max_users)).toHaveValue("50");
    // Someone else saves meanwhile.
    const res = await apiWrite(page, "PATCH", `/api/config/${id}`, {
      ...(await apiGet(page, `/api/config/${id}`)).values,
      max_users: 77,
      version: 0,
    });
    expect(res.status()).toBe(200);
    await page.getByLabel(configLabels.max_teams).fill("15");
    await page.getByRole("button", { name: msg.config.save }).click();
    await expect(page.getByTestId("form-error")).toContainText("admin@pedal.example");
    await expect(page.getByLabel(configLabels.max_users)).toHaveValue("77");
    await expect(page.getByLabel(configLabels.max_teams)).toHaveValue("10");
  });

  test("warns when a saved limit is below the customer's users, and has no axe violation", async ({ page }) => {
    await signIn(page);
    const busiest = (await apiGet(page, "/api/customers?limit=1&sort=user_count&order=desc")).items[0];
    await page.goto(`/config?customer=${busiest.customer_id}`);
    await expect(page.getByText(msg.config.usage(String(busiest.user_count), "users"))).toBeVisible();
    await page.getByLabel(configLabels.max_users).fill("1");
    await expect(page.getByTestId("limit-warning")).toHaveText(msg.config.belowUsage(busiest.user_count, "users"));
    expect(await violations(page)).toEqual([]);
    await showTheme(page, "dark");
    expect(await violations(page)).toEqual([]);
  });
});
