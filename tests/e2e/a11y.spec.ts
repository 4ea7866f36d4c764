import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { msg } from "../../src/domain/messages";
import { expect, signIn, test } from "./fixtures";
import { screens, settled } from "./screens";

/** WCAG 2.0 and 2.1, levels A and AA: every rule with these tags, at any impact. */
const wcag = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/** axe's findings on the page as it is now, one line per failing element. */
async function violations(page: Page, where: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(wcag).analyze();
  return result.violations.flatMap((v) =>
    v.nodes.map(
      (n) =>
        `${where}: ${v.id} (${v.impact}) at ${n.target.join(" ")}: ${n.failureSummary?.split("\n")[1]?.trim() ?? ""}`,
    ),
  );
}

for (const theme of ["light", "dark"] as const) {
  test.describe(`axe-core, ${theme} theme`, () => {
    test.use({ colorScheme: theme });

    test(`every route of the router, the login screen, menus and dialogs have no WCAG A/AA violation (${theme})`, async ({
      page,
    }) => {
      test.setTimeout(480_000); // every route, both modals of a team and of a skill: minutes on a busy 2-core machine
      const found: string[] = [];

      await page.goto("/");
      await expect(page.getByRole("heading", { name: msg.login.title })).toBeVisible();
      found.push(...(await violations(page, "login")));

      await signIn(page);
      // The theme really is the one under test (the console follows the system setting).
      await expect(page.locator("html")).toHaveCSS("color-scheme", theme);
      const all = await screens(page);
      expect(all.length).toBeGreaterThanOrEqual(13);
      for (const screen of all) {
        await page.goto(screen.path);
        await settled(page);
        found.push(...(await violations(page, screen.route)));
      }

      // Overlays: the user menu, a modal with its list, a confirm dialog, the phone menu.
      await page.getByRole("button", { name: msg.ui.userMenu }).click();
      found.push(...(await violations(page, "user menu")));
      await page.keyboard.press("Escape");
      // The list kit's type-ahead customer filter, open with its matches.
      await page.goto("/users");
      await settled(page);
      await page.getByRole("combobox", { name: "Customer" }).click();
      await expect(page.getByRole("listbox", { name: "Customer" }).getByRole("option").nth(1)).toBeVisible();
      found.push(...(await violations(page, "customer picker")));
      await page.keyboard.press("Escape");
      const team = all.find((s) => s.route === "/teams/$teamId")!;
      await page.goto(team.path);
      await page.getByRole("button", { name: "Assign Skill" }).click();
      await settled(page);
      found.push(...(await violations(page, "Assign Skill modal")));
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: "Delete Team" }).click();
      found.push(...(await violations(page, "Delete Team dialog")));
      await page.keyboard.press("Escape");
      // The skill page's Assign modal (type-ahead customer filter, team checkboxes) and Add Prompt form.
      const skill = all.find((s) => s.route === "/skills/$skillId")!;
      await page.goto(skill.path);
      await page.getByRole("button", { name: msg.skills.assignToTeam }).click();
      await settled(page);
      found.push(...(await violations(page, "Assign to Team modal")));
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: msg.skills.addPrompt }).click();
      found.push(...(await violations(page, "Add Prompt modal")));
      await page.keyboard.press("Escape");
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto("/customers");
      await settled(page);
      found.push(...(await violations(page, "/customers at 390 px")));
      await page.getByRole("button", { name: msg.ui.openMenu }).click();
      found.push(...(await violations(page, "phone menu")));

      expect(found, found.join("\n")).toEqual([]);
    });
  });
}
