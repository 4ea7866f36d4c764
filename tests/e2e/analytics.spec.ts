import { showTheme, violations } from "./axe";
import { readFileSync } from "node:fs";
import { analyticsFigures, analyticsInfo } from "../../src/domain/analytics";
import { msg } from "../../src/domain/messages";
import { titleCase } from "../../src/web/components/case";
import { apiGet, expect, signIn, test } from "./fixtures";

test.describe("analytics", () => {
  test("renders each chart with its table fallback and CSV, switches the sign-in range, and has no axe violation", async ({
    page,
  }) => {
    test.setTimeout(60_000);
    await signIn(page, "/analytics");
    await expect(page.getByRole("heading", { level: 1, name: msg.analytics.title })).toBeVisible();
    for (const figure of analyticsFigures) {
      const card = page.getByTestId(`figure-${figure}`);
      await expect(card.getByRole("heading", { name: analyticsInfo[figure].title })).toBeVisible();
      await expect(card.getByTestId("chart").locator("svg.recharts-surface").first()).toBeVisible();
      // When the figure's aggregate ran (the costly ones come from a snapshot of at most a minute).
      await expect(card.getByTestId("as-of")).toHaveText(
        new RegExp(`^${msg.analytics.asOf("")}\\w{3} \\d{1,2}, \\d{4}, \\d{2}:\\d{2}$`),
      );
    }
    // The table fallback holds the API's figures.
    const statuses = await apiGet(page, "/api/analytics/customers-by-status");
    const card = page.getByTestId("figure-customers-by-status");
    await card.getByText(msg.analytics.dataTable).click();
    const table = card.getByRole("table", { name: analyticsInfo["customers-by-status"].title });
    await expect(table.getByRole("row")).toHaveCount(statuses.rows.length + 1);
    // Labels as the console writes them ("Active", not "active"), with the API's figures.
    await expect(table.getByRole("row", { name: new RegExp(`^${titleCase(statuses.rows[0].label)}`) })).toContainText(
      String(statuses.rows[0].values.customers),
    );
    await expect(table).not.toContainText(/\b(active|inactive|trial)\b/);

    // CSV download of a chart's data.
    const [file] = await Promise.all([
      page.waitForEvent("download"),
      card.getByRole("button", { name: msg.analytics.downloadCsv(analyticsInfo["customers-by-status"].title) }).click(),
    ]);
    const csv = readFileSync((await file.path())!, "utf8");
    expect(csv.split("\r\n")[0]).toBe("Status,Customers");
    expect(csv).toContain(`active,${statuses.rows[0].values.customers}`);

    // The sign-in range.
    const signIns = page.getByTestId("figure-sign-ins");
    await signIns.getByRole("combobox", { name: msg.analytics.range }).selectOption("7");
    await signIns.getByText(msg.analytics.dataTable).click();
    await expect(signIns.getByRole("table").getByRole("row")).toHaveCount(8);
    // Days as the console writes dates ("Nov 3"), not ISO text.
    await expect(signIns.getByRole("table").getByRole("rowheader").first()).toHaveText(/^[A-Z][a-z]{2} \d{1,2}$/);

    for (const scheme of ["light", "dark"] as const) {
      await showTheme(page, scheme);
      expect(await violations(page, scheme)).toEqual([]);
    }
  });
});
