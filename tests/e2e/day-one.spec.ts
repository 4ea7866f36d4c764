/**
 * What a new staff member tripped over in a day of use (keystrokes, state, one rule everywhere,
 * pickers, looks): each behaviour as a user meets it, in the browser.
 */
import { msg } from "../../src/domain/messages";
import { expect, signIn, test } from "./fixtures";

test.describe("keystrokes and state", () => {
  test("every character typed right after Ctrl+K lands in the palette, on a cold and a warm page", async ({ page }) => {
    await signIn(page, "/customers");
    await expect(page.getByRole("table", { name: "Customers" })).toBeVisible();
    const input = page.getByTestId("command-palette").getByRole("combobox");
    // Cold: the palette's code is not loaded yet. No wait between the shortcut and the typing.
    await page.keyboard.press("Control+k");
    await page.keyboard.type("Adams");
    await expect(input).toHaveValue("Adams");
    await expect(input).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("command-palette")).toBeHidden();
    // Warm: opened again, it starts empty, and fast typing still arrives whole.
    await page.keyboard.press("Control+k");
    await page.keyboard.type("walzzq");
    await expect(input).toHaveValue("walzzq");
    await page.keyboard.press("Escape");
    await page.keyboard.press("Control+k");
    await expect(input).toHaveValue("");
    await page.keyboard.type("zzq");
    await expect(input).toHaveValue("zzq");
  });

  test("browser Back from a form with unsaved changes asks first", async ({ page }) => {
    await signIn(page, "/customers");
    await page.getByRole("link", { name: "Add Customer" }).click();
    await expect(page).toHaveURL(/\/customers\/add$/);
    await page.getByLabel("Customer Name").fill("Half typed");
    await page.goBack();
    const prompt = page.getByRole("dialog", { name: msg.ui.unsavedTitle });
    await expect(prompt).toBeVisible();
    await prompt.getByRole("button", { name: msg.ui.keepEditing }).click();
    await expect(page).toHaveURL(/\/customers\/add$/);
    await expect(page.getByLabel("Customer Name")).toHaveValue("Half typed");
    await page.goBack();
    await page.getByRole("dialog", { name: msg.ui.unsavedTitle }).getByRole("button", { name: msg.ui.discard }).click();
    await expect(page).toHaveURL(/\/customers$/);
  });
});
