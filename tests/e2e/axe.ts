/**
 * axe-core for the browser suite: one way to switch the theme and one way to read the findings, so
 * that every spec looks at the colours a theme ends on (tests/e2e/a11y.spec.ts sweeps every screen;
 * feature specs check their own overlays and states).
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect } from "./fixtures";
import { settled } from "./screens";

/** WCAG 2.0 and 2.1, levels A and AA: every rule with these tags, at any impact. */
export const wcag = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

export type Theme = "light" | "dark";

/**
 * Puts the page in `theme` (the system setting, which the stylesheet follows live) and waits until
 * the page shows it: the `color-scheme` is the theme's and the colour transitions a theme change
 * starts (buttons, badges) have ended, so axe never measures a colour half-way (a contrast of 1.03
 * was measured mid-way once).
 */
export async function showTheme(page: Page, theme: Theme) {
  await page.emulateMedia({ colorScheme: theme });
  await expect(page.locator("html")).toHaveCSS("color-scheme", theme);
  await transitionsEnded(page);
  await settled(page);
}

/**
 * Waits until every transition and every time-based animation running now has ended (a theme
 * change's colours, a modal fading in). Endless ones (a spinner) and scroll-driven ones (daisyUI's
 * `set-page-has-scroll`, whose end is a scroll position, not a time) are not waited for.
 */
export async function transitionsEnded(page: Page) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => {
          const end = a.effect?.getComputedTiming().endTime;
          return typeof end === "number" && Number.isFinite(end);
        })
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

/**
 * axe's findings on the page once its transitions have ended (every WCAG A/AA rule, or only
 * `rules`), one line per failing element, prefixed with `where`. Measuring a dialog mid-fade reads
 * its text at a fraction of its opacity: 41 false contrast findings on one run.
 */
export async function violations(page: Page, where = "page", rules?: string[]): Promise<string[]> {
  await transitionsEnded(page);
  // Only the violations are gathered in full: axe then skips building selectors and snippets for
  // the thousands of elements that pass, most of a run's time on a list screen.
  const axe = new AxeBuilder({ page }).options({ resultTypes: ["violations"] });
  const result = await (rules ? axe.withRules(rules) : axe.withTags(wcag)).analyze();
  return result.violations.flatMap((v) =>
    v.nodes.map(
      (n) =>
        `${where}: ${v.id} (${v.impact}) at ${n.target.join(" ")}: ${n.failureSummary?.split("\n")[1]?.trim() ?? ""}`,
    ),
  );
}
