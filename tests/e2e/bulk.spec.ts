import { msg } from "../../src/domain/messages";
import { violations } from "./axe";
import { apiGet, apiWrite, expect, signIn, test } from "./fixtures";

type Customer = { customer_id: string; customer_name: string; status: string };

test.describe("bulk actions", () => {
  test("a report longer than the dialog scrolls in a region the keyboard reaches; axe finds nothing", async ({
    page,
  }) => {
    await signIn(page, "/customers");
    const tag = `Long report ${Date.now()}`;
    for (let n = 1; n <= 20; n++)
      await apiWrite(page, "POST", "/api/customers", { customer_name: `${tag} ${n}`, status: "active" });
    await page.goto(`/customers?q=${encodeURIComponent(tag)}`);
    await expect(page.getByRole("table", { name: msg.nav.customers }).getByRole("row")).toHaveCount(21);
    await page.getByRole("checkbox", { name: msg.bulk.selectPage }).click();
    await page.getByTestId("bulk-bar").getByRole("button", { name: msg.bulk.actions.archive, exact: true }).click();
    const dialog = page.getByTestId("modal");
    await dialog.getByRole("button", { name: msg.bulk.confirm }).click();
    await expect(dialog.getByRole("table", { name: msg.bulk.report }).getByRole("row")).toHaveCount(21);
    const body = dialog.getByRole("region");
    await body.focus();
    await page.keyboard.press("End");
    await expect.poll(() => body.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
    expect(await violations(page, "bulk report")).toEqual([]);
  });

  test("select customers (click, Shift+click, Space), archive them after a preview, follow progress, read the report", async ({
    page,
  }) => {
    await signIn(page, "/customers");
    // Three customers of their own, found by a search, so that the test shares no rows.
    const tag = `Bulk e2e ${Date.now()}`;
    for (const n of [1, 2, 3])
      await apiWrite(page, "POST", "/api/customers", { customer_name: `${tag} ${n}`, status: "active" });
    await page.goto(`/customers?q=${encodeURIComponent(tag)}`);
    const table = page.getByRole("table", { name: msg.nav.customers });
    await expect(table.getByRole("row")).toHaveCount(4);
    const { items } = await apiGet<{ items: Customer[] }>(page, `/api/customers?q=${encodeURIComponent(tag)}`);
    const [first, second, third] = items;

    // A click, then Shift+click selects the range; Space on a focused row toggles it.
    await page.getByRole("checkbox", { name: msg.bulk.selectRow(first.customer_name) }).click();
    await page.getByRole("checkbox", { name: msg.bulk.selectRow(third.customer_name) }).click({ modifiers: ["Shift"] });
    const bar = page.getByTestId("bulk-bar");
    await expect(bar).toContainText(msg.bulk.selectedCount(3));
    await table.getByRole("row").nth(2).focus();
    await page.keyboard.press("Space");
    await expect(bar).toContainText(msg.bulk.selectedCount(2));
    await page.keyboard.press("Space");
    await expect(bar).toContainText(msg.bulk.selectedCount(3));

    // Preview: how many change, then Apply; the progress ends Done with the report.
    await bar.getByRole("button", { name: msg.bulk.actions.archive, exact: true }).click();
    const dialog = page.getByTestId("modal");
    await expect(dialog.getByTestId("bulk-preview")).toContainText(msg.bulk.willChange(3));
    await dialog.getByRole("button", { name: msg.bulk.confirm }).click();
    await expect(dialog.getByTestId("bulk-progress")).toContainText(msg.bulk.status.done);
    await expect(dialog.getByTestId("bulk-progress")).toContainText(msg.bulk.counts(3, 0, 0));
    await expect(dialog.getByRole("progressbar", { name: msg.bulk.progressLabel })).toBeVisible();
    const report = dialog.getByRole("table", { name: msg.bulk.report });
    await expect(report.getByRole("row")).toHaveCount(4);
    await expect(report).toContainText(second.customer_name);
    const download = page.waitForEvent("download");
    await dialog.getByRole("button", { name: msg.bulk.downloadReport }).click();
    expect((await download).suggestedFilename()).toMatch(/^bulk-customers-archive-.*\.csv$/);
    await dialog.getByRole("button", { name: msg.bulk.close }).last().click();

    const after = await apiGet<{ items: Customer[] }>(page, `/api/customers?q=${encodeURIComponent(tag)}`);
    expect(after.items.map((c) => c.status)).toEqual(["inactive", "inactive", "inactive"]);
    await expect(table.getByRole("row").nth(1)).toContainText("Inactive");

    // The closed dialog leaves its notice with Undo: it runs the undo, shown as the action was.
    const notice = page.getByTestId("undo-notice");
    await expect(notice).toContainText(msg.bulk.finished(msg.bulk.actions.archive, 3));
    await notice.getByRole("button", { name: msg.bulk.undo }).click();
    await expect(dialog.getByRole("heading", { name: msg.bulk.undoTitle(msg.bulk.actions.archive) })).toBeVisible();
    await expect(dialog.getByTestId("bulk-progress")).toContainText(msg.bulk.status.done);
    await expect(dialog.getByTestId("bulk-progress")).toContainText(msg.bulk.counts(3, 0, 0));
    // An undo offers no Undo of its own.
    await expect(dialog.getByRole("button", { name: msg.bulk.undo })).toHaveCount(0);
    await dialog.getByRole("button", { name: msg.bulk.close }).last().click();
    const back = await apiGet<{ items: Customer[] }>(page, `/api/customers?q=${encodeURIComponent(tag)}`);
    expect(back.items.map((c) => c.status)).toEqual(["active", "active", "active"]);
    await expect(table.getByRole("row").nth(1)).toContainText("Active");
  });
});
