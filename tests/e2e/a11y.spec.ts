/**
 * Accessibility sweep: axe-core runs every WCAG 2.0 and 2.1 rule of levels A and AA, at any
 * impact, on every screen of the router (tests/e2e/screens.ts reads them from the features'
 * `routes.ts`, so a new screen is swept the day it exists) at 1400 px and 390 px in the light and
 * the dark theme, on the login screen the same four ways, and on the overlays: the user menu, the
 * type-ahead customer filter, a team's Assign Skill modal and Delete Team dialog, a skill's Assign
 * to Team and Add Prompt modals (1400 px, both themes) and the phone menu (390 px, both themes).
 * It must find nothing.
 *
 * Each screen is loaded once and looked at four ways: the theme is the system setting, which the
 * stylesheet follows live (`prefers-color-scheme`, src/web/lib/theme.ts), and the width a resize.
 * At each width the second theme runs only the colour rules when the markup has not changed (a
 * theme changes colours alone), which saves about a quarter of the sweep.
 * One test per screen, so that the screens spread over the workers.
 */
import type { Page } from "@playwright/test";
import { msg } from "../../src/domain/messages";
import { type Theme, showTheme, violations } from "./axe";
import { expect, signIn, takeSession, test } from "./fixtures";
import { routePaths, screenOf, settled } from "./screens";

type Look = { width: number; theme: Theme };
const themes: Theme[] = ["light", "dark"];
const wide = (theme: Theme): Look => ({ width: 1400, theme });
const phone = (theme: Theme): Look => ({ width: 390, theme });
/** The four ways a screen is looked at (ordered so that each step changes one thing). */
const everyLook: Look[] = [wide("light"), wide("dark"), phone("dark"), phone("light")];

/** Shows the page as `look`: its width, and its theme checked on the page itself. */
async function show(page: Page, look: Look) {
  await page.setViewportSize({ width: look.width, height: look.width > 600 ? 900 : 844 });
  await showTheme(page, look.theme);
}

/**
 * The rules of those tags whose outcome the colours alone can change: a theme changes nothing else
 * (the same markup, the same layout), so on markup already checked in the other theme at that
 * width, these are the rules left to run.
 */
const colourRules = ["color-contrast", "link-in-text-block"];

/**
 * axe's findings on the page in each of `looks`: every rule in the first theme at a width, and in
 * the other theme the colour rules when the page's markup is the same as then (else every rule);
 * and, at each width, whether the page scrolls sideways.
 */
async function violationsIn(page: Page, where: string, looks: Look[]): Promise<string[]> {
  const found: string[] = [];
  const checked = new Map<number, string>();
  for (const look of looks) {
    await show(page, look);
    const markup = await page.evaluate(() => document.body.outerHTML);
    const sameMarkup = checked.get(look.width) === markup;
    found.push(
      ...(await violations(page, `${where} at ${look.width} px, ${look.theme}`, sameMarkup ? colourRules : undefined)),
    );
    // Reflow (WCAG 1.4.10): nothing makes the page scroll sideways (a header's button past the edge).
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    if (scrollWidth > look.width) found.push(`${where} at ${look.width} px scrolls sideways (${scrollWidth} px wide)`);
    if (!sameMarkup) checked.set(look.width, markup);
  }
  return found;
}

test.describe.configure({ mode: "parallel" });

test.describe("axe-core, 1400 and 390 px, light and dark", () => {
  test("the login screen has no WCAG A/AA violation", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { name: msg.login.title })).toBeVisible();
    const found = await violationsIn(page, "login", everyLook);
    expect(found, found.join("\n")).toEqual([]);
  });

  const routes = routePaths();
  test("the router has the screens to sweep", () => {
    expect(routes.length).toBeGreaterThanOrEqual(13);
  });

  for (const route of routes) {
    test(`${route} has no WCAG A/AA violation`, async ({ page }) => {
      test.slow(); // four axe runs: 31-39 s on a loaded 2-core machine (list screens), past the 30 s default
      await takeSession(page);
      const screen = await screenOf(page, route);
      await page.goto(screen.path);
      await expect(page.getByRole("button", { name: msg.ui.userMenu })).toBeVisible();
      await settled(page);
      const found = await violationsIn(page, route, everyLook);
      expect(found, found.join("\n")).toEqual([]);
    });
  }

  for (const theme of themes) {
    test(`menus, the customer filter, modals and dialogs have no WCAG A/AA violation (${theme})`, async ({ page }) => {
      test.slow(); // seven overlays, each opened on its screen
      const found: string[] = [];
      const look = [wide(theme)];
      await signIn(page);
      await show(page, wide(theme));
      await page.getByRole("button", { name: msg.ui.userMenu }).click();
      found.push(...(await violationsIn(page, "user menu", look)));
      await page.keyboard.press("Escape");
      // The list kit's type-ahead customer filter, open with its matches.
      await page.goto("/users");
      await settled(page);
      await page.getByRole("combobox", { name: "Customer" }).click();
      await expect(page.getByRole("listbox", { name: "Customer" }).getByRole("option").nth(1)).toBeVisible();
      found.push(...(await violationsIn(page, "customer picker", look)));
      await page.keyboard.press("Escape");
      const team = await screenOf(page, "/teams/$teamId");
      await page.goto(team.path);
      await page.getByRole("button", { name: "Assign Skill" }).click();
      found.push(...(await violationsIn(page, "Assign Skill modal", look)));
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: "Delete Team" }).click();
      found.push(...(await violationsIn(page, "Delete Team dialog", look)));
      await page.keyboard.press("Escape");
      // The skill page's Assign modal (type-ahead customer filter, team checkboxes) and Add Prompt form.
      const skill = await screenOf(page, "/skills/$skillId");
      await page.goto(skill.path);
      await page.getByRole("button", { name: msg.skills.assignToTeam }).click();
      found.push(...(await violationsIn(page, "Assign to Team modal", look)));
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: msg.skills.addPrompt }).click();
      found.push(...(await violationsIn(page, "Add Prompt modal", look)));
      await page.keyboard.press("Escape");
      await show(page, phone(theme));
      await page.goto("/customers");
      await settled(page);
      await page.getByRole("button", { name: msg.ui.openMenu }).click();
      found.push(...(await violationsIn(page, "phone menu", [phone(theme)])));
      expect(found, found.join("\n")).toEqual([]);
    });
  }
});
