/**
 * The console's keyboard in a real browser (docs/keyboard.md): `g` then a letter goes to a list,
 * `?` lists every shortcut of the screen, and no shortcut takes a keystroke meant for a field.
 */
import { msg } from "../../src/domain/messages";
import { expect, signIn, test } from "./fixtures";

const shortcuts = (page: import("@playwright/test").Page) => page.getByRole("dialog", { name: msg.shortcuts.title });

test.describe("keyboard shortcuts", () => {
  test("g then a letter goes to each list, and ? shows every shortcut of the screen", async ({ page }) => {
    await signIn(page);
    for (const [letter, path, title] of [
      ["c", "/customers", msg.nav.customers],
      ["u", "/users", msg.nav.users],
      ["t", "/teams", msg.nav.teams],
      ["d", "/", msg.dashboard.title],
      ["h", "/audit", msg.nav.audit],
    ] as const) {
      await page.keyboard.press("g");
      await page.keyboard.press(letter);
      await expect(page).toHaveURL(new RegExp(`${path === "/" ? "/$" : `${path}(\\?|$)`}`));
      await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    }

    await page.keyboard.press("?");
    const dialog = shortcuts(page);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("region", { name: msg.shortcuts.goTo })).toContainText(msg.nav.customers);
    await expect(dialog.getByRole("region", { name: msg.shortcuts.goTo })).toContainText(msg.shortcuts.goToKeys("o"));
    await expect(dialog.getByRole("region", { name: msg.shortcuts.anywhere })).toContainText(msg.shortcuts.search);
    // While the list shows, the other keys wait.
    await page.keyboard.press("g");
    await page.keyboard.press("c");
    await expect(page).toHaveURL(/\/audit(\?|$)/);
    await page.keyboard.press("?");
    await expect(dialog).toBeHidden();

    // The user menu names the list too.
    await page.getByRole("button", { name: "User menu" }).click();
    await page.getByRole("menuitem", { name: msg.shortcuts.title }).click();
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
  });

  test("a review queue lists its own keys first", async ({ page }) => {
    await signIn(page, "/comments/review");
    await page.keyboard.press("?");
    const screenKeys = shortcuts(page).getByRole("region", { name: msg.shortcuts.onThisScreen });
    for (const [, text] of msg.comments.keys) await expect(screenKeys).toContainText(text);
  });

  test("no keystroke typed in a field is taken by a shortcut", async ({ page }) => {
    await signIn(page, "/customers");
    const search = page
      .getByRole("searchbox", { name: /search customers/i })
      .or(page.getByPlaceholder("Search customers..."));
    await search.first().click();
    await page.keyboard.type("gc?gu");
    await expect(search.first()).toHaveValue("gc?gu");
    await expect(page).toHaveURL(/\/customers/);
    await expect(shortcuts(page)).toBeHidden();
  });
});
