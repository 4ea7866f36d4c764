import type { Page } from "@playwright/test";
import { msg } from "../../src/domain/messages";
import { showTheme, violations } from "./axe";
import { apiGet, expect, signIn, test } from "./fixtures";

const palette = (page: Page) => page.getByRole("dialog", { name: msg.search.dialog });
const paletteInput = (page: Page) => palette(page).getByRole("combobox", { name: msg.search.dialog });

test.describe("global search", () => {
  test("Ctrl+K, type part of a customer's name, Enter opens it; it is then among the recent records", async ({
    page,
  }) => {
    await signIn(page);
    const { items } = await apiGet(page, "/api/customers?limit=1&sort=customer_name&order=asc");
    const customer = items[0] as { customer_id: string; customer_name: string };
    await page.keyboard.press("Control+k");
    await expect(palette(page)).toBeVisible();
    await expect(paletteInput(page)).toBeFocused();
    await expect(palette(page).getByText(msg.search.noRecent)).toBeVisible();
    await page.keyboard.type(customer.customer_name.slice(0, -2).toLowerCase());
    const first = palette(page).getByRole("option").first();
    await expect(first).toContainText(customer.customer_name);
    await expect(first).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/customers/${customer.customer_id}$`));
    await expect(page.getByRole("heading", { level: 1, name: customer.customer_name })).toBeVisible();
    await expect(palette(page)).toBeHidden();

    // Empty box: the record just opened is the first recent one.
    await page.keyboard.press("Control+k");
    await page.keyboard.press("Control+a");
    await page.keyboard.press("Backspace");
    await expect(
      palette(page).getByRole("group", { name: msg.search.recent }).getByRole("option").first(),
    ).toContainText(customer.customer_name);
    await page.keyboard.press("Escape");
    await expect(palette(page)).toBeHidden();
  });

  test("groups results by kind, arrows move, See all opens the list filtered, and the palette has no axe violation", async ({
    page,
  }) => {
    await signIn(page);
    // Typing in the top bar's box opens the palette with the text.
    await page.getByRole("searchbox", { name: msg.app.searchPlaceholder }).fill("an");
    await expect(paletteInput(page)).toHaveValue("an");
    const users = palette(page).getByRole("group", { name: "Users" });
    await expect(users.getByRole("option")).toHaveCount(6); // 5 users and "See all users"
    await expect(palette(page).getByRole("group", { name: "Teams" })).toBeHidden(); // no team name starts with "an"
    expect(await violations(page)).toEqual([]);
    await showTheme(page, "dark");
    expect(await violations(page)).toEqual([]);
    // ArrowDown moves the selection.
    const options = palette(page).getByRole("option");
    await expect(options.first()).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("ArrowDown");
    await expect(options.nth(1)).toHaveAttribute("aria-selected", "true");
    await users.getByRole("option", { name: msg.search.seeAll("Users") }).click();
    await expect(page).toHaveURL(/\/users\?q=an$/);
    await expect(page.getByRole("searchbox", { name: "Search users..." })).toHaveValue("an");
  });
});
