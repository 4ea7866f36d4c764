import { violations } from "./axe";
import { msg } from "../../src/domain/messages";
import { formatNumber } from "../../src/web/components/format";
import { apiGet, expect, signIn, test } from "./fixtures";

/** Each "Needs attention" figure, its card's label and the list request its link opens (docs/dashboard.md). */
const items = [
  { key: "pending_comments", label: msg.attention.pendingComments, path: "/comments", api: "/api/comments" },
  { key: "trial_customers", label: msg.attention.trialCustomers, path: "/customers", api: "/api/customers" },
  { key: "teams_without_skills", label: msg.attention.teamsWithoutSkills, path: "/teams", api: "/api/teams" },
  { key: "users_never_signed_in", label: msg.attention.usersNeverSignedIn, path: "/users", api: "/api/users" },
  { key: "skills_without_prompts", label: msg.attention.skillsWithoutPrompts, path: "/skills", api: "/api/skills" },
  {
    key: "prompts_without_platforms",
    label: msg.attention.promptsWithoutPlatforms,
    path: "/prompts",
    api: "/api/prompts",
  },
];

test.describe("dashboard", () => {
  test("each needs-attention figure opens its list, whose total equals the figure", async ({ page }) => {
    test.setTimeout(120_000);
    await signIn(page, "/");
    const attention = page.getByTestId("attention");
    for (const item of items) {
      await page.goto("/");
      const card = attention.getByTestId(`attention-${item.key}`);
      await expect(card).toBeVisible();
      const figure = Number(await card.getAttribute("data-count"));
      await card.getByRole("link").click();
      await expect(page).toHaveURL(new RegExp(`${item.path}\\?`));
      const query = new URL(page.url()).search;
      const list = await apiGet<{ total: number }>(page, `${item.api}${query}&limit=25`);
      expect(list.total, item.key).toBe(figure);
      // The list shows that total ("Showing 1–n of total", or "n rows" on one page) or, at zero, its empty state.
      const n = formatNumber(figure);
      if (figure > 0) await expect(page.getByText(new RegExp(`of ${n}\\b|^${n} rows?$`)).first()).toBeVisible();
    }
  });

  test("the trends' data tables are reachable by keyboard, and the screen has no axe violation", async ({ page }) => {
    await signIn(page, "/");
    const trends = page.getByTestId("trends");
    await expect(trends.getByTestId("chart").first().locator("svg.recharts-surface")).toBeVisible();
    const summary = trends.getByTestId("trend-sign-ins").getByText(msg.trends.dataTable);
    await summary.focus();
    await page.keyboard.press("Enter");
    const table = trends.getByRole("table", { name: msg.trends.signIns("30") });
    await expect(table).toBeVisible();
    await expect(table.getByRole("row")).toHaveCount(31);
    await expect(page.getByTestId("activity").getByRole("listitem").first()).toBeVisible();
    expect(await violations(page)).toEqual([]);
  });

  test("the trends cover 7, 30 or 90 days, and a day's link opens the users of that day, as many as the chart says", async ({
    page,
  }) => {
    await signIn(page, "/");
    const trends = page.getByTestId("trends");
    await trends.getByRole("button", { name: msg.trends.rangeOption("90") }).click();
    await expect(page).toHaveURL(/[?&]trends=90/);
    await trends.getByTestId("trend-sign-ins").getByText(msg.trends.dataTable).click();
    const table = trends.getByRole("table", { name: msg.trends.signIns("90") });
    await expect(table.getByRole("row")).toHaveCount(91);
    await trends.getByRole("button", { name: msg.trends.rangeOption("7") }).click();
    const week = trends.getByRole("table", { name: msg.trends.signIns("7") });
    await expect(week.getByRole("row")).toHaveCount(8);
    // The last day with sign-ins: its link opens /users with that day, and the list counts its figure.
    const rows = week.getByRole("row").filter({ has: page.getByRole("link") });
    const figures = await rows.locator("td").allTextContents();
    const last = figures.map((f) => Number(f.replace(/\D/g, ""))).findLastIndex((n) => n > 0);
    expect(last).toBeGreaterThanOrEqual(0);
    await rows.nth(last).getByRole("link").click();
    await expect(page).toHaveURL(/\/users\?.*last_login_from=/);
    await expect(page.getByRole("button", { name: new RegExp(msg.ui.lastLoginDays) })).toBeVisible();
    const n = formatNumber(Number(figures[last].replace(/\D/g, "")));
    await expect(page.getByText(new RegExp(`of ${n}\\b|^${n} rows?$`)).first()).toBeVisible();
    expect(await violations(page)).toEqual([]);
  });
});
