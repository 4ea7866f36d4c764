import type { Page } from "@playwright/test";
import { msg } from "../../src/domain/messages";
import { e2e } from "../../playwright.config";
import { apiGet, apiWrite, expect, pickOption, signIn, test } from "./fixtures";

/** Signs in through the login screen, as `email` (a demo operator), landing on `path`. */
async function signInThroughLogin(page: Page, email: string, path: string) {
  await page.goto(path);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(e2e.password);
  await page.getByRole("button", { name: msg.login.submit }).click();
  await expect(page.getByRole("button", { name: msg.ui.userMenu })).toBeVisible();
}

/**
 * The table's column headers, in order, as written (the stylesheet shows them in capitals), once
 * the table has loaded: until the operator's column choice has arrived it is busy.
 */
async function headers(page: Page, table: string): Promise<string[]> {
  const shown = page.getByRole("table", { name: table });
  await expect(shown).not.toHaveAttribute("aria-busy", "true");
  return (await shown.getByRole("columnheader").allTextContents()).map((text) => text.trim());
}

/** Opens the Columns dialog, runs `change` in it, and closes it. */
async function inColumns(page: Page, change: (dialog: ReturnType<Page["getByRole"]>) => Promise<void>) {
  await page.getByRole("button", { name: msg.columns.menu, exact: true }).click();
  const dialog = page.getByRole("dialog", { name: msg.columns.title });
  await change(dialog);
  await dialog.getByRole("button", { name: msg.columns.done }).click();
  await expect(dialog).toBeHidden();
}

test.describe("saved views and columns (docs/saved-views.md)", () => {
  test("a shared view opens the same for another operator; a changed filter shows Modified and Reset restores it", async ({
    page,
    browser,
  }) => {
    const tag = `Views ${Date.now()}`;
    await signIn(page, "/");
    const first = await (await apiWrite(page, "POST", "/api/customers", { customer_name: `${tag} A` })).json();
    const second = await (await apiWrite(page, "POST", "/api/customers", { customer_name: `${tag} B` })).json();
    for (const [customer, team] of [
      [first, "Alpha"],
      [first, "Beta"],
      [second, "Gamma"],
    ] as const) {
      const res = await apiWrite(page, "POST", "/api/teams", { customer_id: customer.customer_id, team_name: team });
      expect(res.status()).toBe(201);
    }

    // A filter, a sort and a hidden column, saved as a shared view.
    await page.goto("/teams");
    await pickOption(page, "Customer", `${tag} A`);
    await expect(page).toHaveURL(new RegExp(`customer=${first.customer_id}`));
    await page.getByRole("button", { name: "Team Name" }).click();
    await expect(page).toHaveURL(/sort=team_name/);
    await inColumns(page, (dialog) => dialog.getByRole("checkbox", { name: "Skills" }).uncheck());
    expect(await headers(page, msg.nav.teams)).not.toContain("Skills");

    await page.getByRole("button", { name: msg.views.menuLabel(null) }).click();
    await page.getByRole("menuitem", { name: msg.views.saveView }).click();
    const save = page.getByRole("dialog", { name: msg.views.saveTitle });
    await save.getByRole("button", { name: msg.views.create }).click();
    await expect(save.getByTestId("field-error")).toHaveText(msg.views.enterName);
    await save.getByLabel(msg.views.nameLabel).fill(tag);
    await save.getByRole("checkbox", { name: new RegExp(msg.views.sharedLabel) }).check();
    await save.getByRole("button", { name: msg.views.create }).click();
    await expect(save).toBeHidden();
    await expect(page).toHaveURL(/view=[0-9a-f-]{36}/);
    const viewId = new URL(page.url()).searchParams.get("view")!;
    await expect(page.getByRole("button", { name: msg.views.menuLabel(tag) })).toBeVisible();

    // The same name again is refused with the server's message under the field.
    await page.getByRole("button", { name: msg.views.menuLabel(tag) }).click();
    await page.getByRole("menuitem", { name: msg.views.saveAs }).click();
    await save.getByLabel(msg.views.nameLabel).fill(tag);
    await save.getByRole("button", { name: msg.views.create }).click();
    await expect(save.getByTestId("field-error")).toBeVisible();
    await save.getByRole("button", { name: msg.ui.cancel }).click();

    // Under My views, the owner's view says it is shared.
    await page.getByRole("button", { name: msg.views.menuLabel(tag) }).click();
    await expect(page.getByRole("menuitemradio", { name: `${tag} · ${msg.views.sharedMark}` })).toBeVisible();
    await page.keyboard.press("Escape");
    // With the view open, a column change is the view's (Modified), not the list's without a view.
    await inColumns(page, async (dialog) => {
      await expect(dialog).toContainText(msg.columns.forView(tag));
      await dialog.getByRole("checkbox", { name: "Users" }).uncheck();
    });
    await expect(page.getByTestId("view-modified")).toHaveText(msg.views.modified);
    await page.getByRole("button", { name: msg.views.reset, exact: true }).click();
    await page.goto("/teams");
    await expect(page.getByRole("table", { name: msg.nav.teams }).getByRole("row").nth(1)).toBeVisible();
    expect(await headers(page, msg.nav.teams)).toContain("Users");
    await inColumns(page, async (dialog) => expect(dialog).toContainText(msg.columns.forList));
    await page.goto(`/teams?view=${viewId}`);

    // Another operator opens its link: the same filter, sort and columns.
    const other = await browser.newContext();
    const editor = await other.newPage();
    await signInThroughLogin(editor, "editor@pedal.example", `/teams?view=${viewId}`);
    if (!editor.url().includes("view=")) await editor.goto(`/teams?view=${viewId}`);
    await expect(editor).toHaveURL(new RegExp(`customer=${first.customer_id}`));
    await expect(editor).toHaveURL(/sort=team_name/);
    await expect(editor.getByRole("combobox", { name: "Customer" })).toHaveValue(`${tag} A`);
    const rows = editor.getByRole("table", { name: msg.nav.teams }).getByRole("row");
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(1)).toContainText("Alpha");
    await expect(rows.nth(2)).toContainText("Beta");
    expect(await headers(editor, msg.nav.teams)).not.toContain("Skills");
    await expect(editor.getByRole("button", { name: msg.views.menuLabel(tag) })).toBeVisible();
    await expect(editor.getByTestId("view-modified")).toHaveCount(0);

    // A changed filter: Modified, no Save (the admin's view), and Reset brings the view back.
    await pickOption(editor, "Customer", `${tag} B`);
    await expect(editor.getByTestId("view-modified")).toHaveText(msg.views.modified);
    await expect(rows.nth(1)).toContainText("Gamma");
    await expect(editor.getByRole("button", { name: msg.views.save, exact: true })).toHaveCount(0);
    await editor.getByRole("button", { name: msg.views.reset, exact: true }).click();
    await expect(editor.getByTestId("view-modified")).toHaveCount(0);
    await expect(editor).toHaveURL(new RegExp(`customer=${first.customer_id}`));
    await expect(rows.nth(1)).toContainText("Alpha");

    // The search palette lists the shared view: Enter opens it from another screen.
    await editor.goto("/customers");
    // As a user does, once the screen is there: before the console has started, no shortcut works.
    await expect(editor.getByRole("table", { name: msg.nav.customers })).toBeVisible();
    await editor.keyboard.press("Control+k");
    const palette = editor.getByRole("dialog", { name: msg.search.dialog });
    await editor.keyboard.type(tag);
    const option = palette
      .getByRole("option")
      .filter({ hasText: msg.search.viewSubtitle(msg.nav.teams, true, "admin@pedal.example") });
    await expect(option).toContainText(tag);
    await option.click();
    await expect(editor).toHaveURL(new RegExp(`/teams\\?.*customer=${first.customer_id}`));
    await expect(editor.getByRole("button", { name: msg.views.menuLabel(tag) })).toBeVisible();
    await other.close();

    expect((await apiWrite(page, "DELETE", `/api/views/${viewId}`)).status()).toBe(204);
  });

  test("a hidden column stays hidden after signing out and in again; Reset columns restores the spec's", async ({
    page,
  }) => {
    await signInThroughLogin(page, "viewer@pedal.example", "/users");
    await expect(page.getByRole("table", { name: msg.nav.users }).getByRole("columnheader")).not.toHaveCount(0);
    await inColumns(page, (dialog) => dialog.getByRole("checkbox", { name: "Job Title" }).uncheck());
    expect(await headers(page, msg.nav.users)).not.toContain("Job Title");
    await expect
      .poll(async () => (await apiGet(page, "/api/list-preferences/users")).columns as string[] | null)
      .not.toBeNull();

    await page.getByRole("button", { name: msg.ui.userMenu }).click();
    await page.getByRole("menuitem", { name: msg.app.signOut, exact: true }).click();
    // The operator's choice held back until the rows have come: the table stays busy meanwhile, so
    // the spec's columns never show to be rearranged a moment later.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/list-preferences/users", async (route) => {
      await held;
      await route.continue();
    });
    const rowsCame = page.waitForResponse((res) => new URL(res.url()).pathname === "/api/users" && res.ok());
    await signInThroughLogin(page, "viewer@pedal.example", "/users");
    await rowsCame;
    await expect(page.getByRole("table", { name: msg.nav.users })).toHaveAttribute("aria-busy", "true");
    const choiceCame = page.waitForResponse((res) => new URL(res.url()).pathname === "/api/list-preferences/users");
    release();
    await choiceCame;
    await page.unroute("**/api/list-preferences/users");
    const shown = await headers(page, msg.nav.users);
    expect(shown).toContain("Customer");
    expect(shown).not.toContain("Job Title");

    // A column added to the list after the choice was made (neither shown nor hidden in it) shows at its place.
    const stored = await apiGet<{ columns: string[]; hidden_columns: string[] }>(page, "/api/list-preferences/users");
    expect(stored.hidden_columns.length).toBeGreaterThan(0);
    const [, ...olderChoice] = stored.columns;
    const put = await apiWrite(page, "PUT", "/api/list-preferences/users", {
      columns: olderChoice,
      hidden_columns: stored.hidden_columns,
    });
    expect(put.status()).toBe(200);
    await page.reload();
    await expect.poll(() => headers(page, msg.nav.users)).toEqual(shown);

    await inColumns(page, (dialog) => dialog.getByRole("button", { name: msg.columns.reset }).click());
    await expect(
      page.getByRole("table", { name: msg.nav.users }).getByRole("columnheader", { name: /Job Title/ }),
    ).toBeVisible();
  });

  test("a view whose customer was deleted opens without that filter, and says so", async ({ page }) => {
    const tag = `Gone ${Date.now()}`;
    await signIn(page, "/");
    // Customers are not deleted through the API: a customer id no longer in the database stands for one.
    const created = await apiWrite(page, "POST", "/api/views", {
      list: "teams",
      name: tag,
      shared: false,
      state: { filters: { customer_id: crypto.randomUUID() }, sort: "team_name", order: "asc" },
    });
    expect(created.status()).toBe(201);
    const view = await created.json();

    await page.goto(`/teams?view=${view.view_id}`);
    const notes = page.getByTestId("view-notes");
    await expect(notes).toContainText(
      msg.views.dropped(msg.views.partFilter("Customer"), msg.views.reasons.not_found("customer")),
    );
    await expect(page.getByRole("heading", { name: msg.nav.teams })).toBeVisible();
    await expect(page).toHaveURL(/sort=team_name/);
    await expect(page).not.toHaveURL(/customer=/);
    await notes.getByRole("button", { name: msg.views.dismiss }).click();
    await expect(notes).toBeHidden();

    expect((await apiWrite(page, "DELETE", `/api/views/${view.view_id}`)).status()).toBe(204);
  });
});
