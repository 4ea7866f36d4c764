import { readFile } from "node:fs/promises";
import { parse } from "csv-parse/sync";
import { msg } from "../../src/domain/messages";
import { admin, apiGet, expect, goBack, goForward, signIn, test } from "./fixtures";

/**
 * The list kit as a user moves through it: history entries for paging, a page past the end,
 * the search box's length limit, a screen whose code cannot be loaded, and Export CSV.
 */
test.describe("lists: navigation and export", () => {
  test("Back and Forward walk the pages of a list; a page past the end shows the last page", async ({ page }) => {
    await signIn(page, "/");
    await page.getByRole("navigation").getByRole("link", { name: "Users" }).first().click();
    await expect(page).toHaveURL(/\/users$/);
    const pager = page.getByRole("navigation", { name: "Pagination" });
    await expect(pager.getByText(/^Page 1 of /)).toBeVisible();
    await pager.getByRole("button", { name: msg.lists.next }).click();
    await expect(page).toHaveURL(/page=2/);
    await pager.getByRole("button", { name: msg.lists.next }).click();
    await expect(page).toHaveURL(/page=3/);
    await goBack(page);
    await expect(page).toHaveURL(/page=2/);
    await expect(pager.getByText(/^Page 2 of /)).toBeVisible();
    await goBack(page);
    await expect(page).toHaveURL(/\/users$/);
    await expect(pager.getByText(/^Page 1 of /)).toBeVisible();
    await goForward(page);
    await expect(page).toHaveURL(/page=2/);

    const { total } = await apiGet<{ total: number }>(page, "/api/users?limit=1");
    const last = Math.ceil(total / 50);
    await page.goto("/users?page=999");
    await expect(pager.getByText(msg.lists.pageOf(String(last), String(last)))).toBeVisible();
    await expect(page).not.toHaveURL(/page=999/);
    await expect(page.getByRole("table", { name: "Users" }).getByRole("row").nth(1)).toBeVisible();
  });

  test("the search box stops at the server's 200 characters and says so", async ({ page }) => {
    await signIn(page, "/customers");
    const search = page.getByRole("searchbox", { name: "Search customers..." });
    await search.fill("x".repeat(250));
    expect((await search.inputValue()).length).toBe(200);
    await expect(page.getByText(msg.lists.searchLimit(200))).toBeVisible();
    await expect(page.getByText(/too_big|Too big|invalid/i)).toHaveCount(0);
  });

  test.describe(() => {
    // The router reports the failed load on the console; that is the point of this test.
    test.use({ expectedConsoleErrors: [new RegExp(msg.lists.cannotReach)] });
    test("a screen whose code cannot be loaded shows 'Cannot reach the server', and Retry loads it", async ({
      page,
    }) => {
      await signIn(page, "/");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      // From now on every script the app has not loaded yet fails, as when the server is down; the
      // audit log screen has not been visited, so its code is fetched on navigation.
      let block = true;
      await page.route(/\/assets\/.*\.js$/, (route) => (block ? route.abort("connectionrefused") : route.continue()));
      await page.getByRole("link", { name: msg.nav.audit }).first().click();
      await expect(page.getByText(msg.lists.cannotReach, { exact: true })).toBeVisible();
      await expect(page.getByRole("button", { name: "Retry" })).toBeVisible();
      block = false;
      await page.getByRole("button", { name: "Retry" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(msg.audit.title);
    });
  });

  test.describe(() => {
    // The screen's code needs the shell's chunk too, so the router reports its failed load as well.
    test.use({ expectedConsoleErrors: [new RegExp(msg.lists.cannotReach)] });
    test("when the shell's code cannot be loaded after sign-in, 'Cannot reach the server' with Retry, which loads it and the screen", async ({
      page,
    }) => {
      let block = true;
      await page.route(/\/assets\/Shell-[^/]*\.js$/, (route) =>
        block ? route.abort("connectionrefused") : route.continue(),
      );
      await page.goto("/customers");
      await page.getByLabel("Email").fill(admin.email);
      await page.getByLabel("Password").fill(admin.password);
      await page.getByRole("button", { name: "Sign In" }).click();
      await expect(page.getByText(msg.lists.cannotReach, { exact: true })).toBeVisible();
      block = false;
      await page.getByRole("button", { name: "Retry" }).click();
      await expect(page.getByRole("button", { name: "User menu" })).toBeVisible();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(msg.nav.customers);
    });
  });

  test("Export CSV downloads every row of the current search, quoted, with formulas neutralised", async ({ page }) => {
    await signIn(page, "/");
    const first = await apiGet<{ items: Array<{ customer_name: string }> }>(page, "/api/customers?limit=1");
    const q = first.items[0]!.customer_name.slice(0, 4);
    const { total } = await apiGet<{ total: number }>(page, `/api/customers?limit=1&q=${encodeURIComponent(q)}`);
    await page.goto(`/customers?q=${encodeURIComponent(q)}`);
    await expect(page.getByRole("table", { name: "Customers" }).getByRole("row").nth(1)).toBeVisible();
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: msg.lists.exportCsv }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.csv$/);
    const text = await readFile((await file.path())!, "utf8");
    // Parsed as CSV: a customer's valid domains are one quoted field over several lines.
    const [header, ...rows] = parse(text, { bom: true }) as string[][];
    expect(header.join(",")).toBe("Customer ID,Company,Valid Domains,Users,Teams,Status,Created,Last Updated");
    expect(rows.length).toBe(total);
    expect(rows.flat().every((field) => !/^[=+\-@]/.test(field))).toBe(true);
  });
});
