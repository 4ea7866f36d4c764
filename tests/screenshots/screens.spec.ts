import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { test as plain, type Locator, type TestInfo } from "@playwright/test";
import { msg } from "../../src/domain/messages";
import { admin, apiWrite, expect, signIn, test } from "../e2e/fixtures";
import { screens, settled } from "../e2e/screens";

const root = path.resolve(import.meta.dirname, "../..");
/**
 * Every picture goes to the run's output folder (playwright.screenshots.config.ts:
 * test-results/screenshots/, not kept in git, emptied by Playwright as each run starts, so a screen
 * that no longer exists leaves no picture); the last test copies those the documentation shows into
 * docs/screenshots/.
 */
const picture = (info: TestInfo, name: string) => path.join(info.project.outputDir, `${name}.png`);
const docsFolder = path.join(root, "docs/screenshots");
const sizes = [
  { width: 1400, height: 900 },
  { width: 390, height: 844 },
] as const;

for (const theme of ["light", "dark"] as const) {
  for (const size of sizes) {
    test.describe(`${size.width} px, ${theme}`, () => {
      test.use({ colorScheme: theme, viewport: size });

      test(`every screen at ${size.width} px in the ${theme} theme`, async ({ page }, info) => {
        const file = (name: string) => picture(info, `${name}-${size.width}-${theme}`);
        await page.goto("/");
        await expect(page.getByRole("heading", { name: msg.login.title })).toBeVisible();
        await page.screenshot({ path: file("login") });
        await signIn(page);
        for (const screen of await screens(page)) {
          await page.goto(screen.path);
          await settled(page);
          await page.mouse.move(0, 0);
          await page.screenshot({ path: file(screen.name) });
        }
      });
    });
  }
}

/**
 * States that no URL opens: a bulk action's preview and its finished report, a stale save's
 * conflict panel, and the Undo notice after a removal. Each works on records of its own.
 */
for (const theme of ["light", "dark"] as const) {
  for (const size of sizes) {
    test.describe(`states at ${size.width} px, ${theme}`, () => {
      test.use({ colorScheme: theme, viewport: size });

      test(`dialogs and notices at ${size.width} px in the ${theme} theme`, async ({ page }, info) => {
        const file = (name: string) => picture(info, `${name}-${size.width}-${theme}`);
        const shoot = async (name: string, moving?: Locator) => {
          await page.mouse.move(0, 0);
          // A notice slides in: the picture waits until it stands still.
          if (moving) await expect.poll(() => moving.evaluate((el) => el.getAnimations().length)).toBe(0);
          await page.screenshot({ path: file(name) });
        };
        await signIn(page, "/customers");
        const tag = `Shot ${theme} ${size.width} ${Date.now()}`;
        const ids: string[] = [];
        for (const n of [1, 2, 3]) {
          const res = await apiWrite(page, "POST", "/api/customers", { customer_name: `${tag} ${n}` });
          ids.push((await res.json()).customer_id);
        }

        // Bulk: select all matching the search, preview, apply, report.
        await page.goto(`/customers?q=${encodeURIComponent(tag)}`);
        await settled(page);
        for (const n of [1, 2, 3])
          await page.getByRole("checkbox", { name: msg.bulk.selectRow(`${tag} ${n}`) }).check();
        const bar = page.getByTestId("bulk-bar");
        await expect(bar).toContainText(msg.bulk.selectedCount(3));
        await shoot("state-bulk-selection");
        await bar.getByRole("button", { name: msg.bulk.actions.archive, exact: true }).click();
        const dialog = page.getByTestId("modal");
        await expect(dialog.getByTestId("bulk-preview")).toContainText(msg.bulk.willChange(3));
        await shoot("state-bulk-preview");
        await dialog.getByRole("button", { name: msg.bulk.confirm }).click();
        await expect(dialog.getByTestId("bulk-progress")).toContainText(msg.bulk.status.done);
        await expect(dialog.getByRole("table", { name: msg.bulk.report }).getByRole("row")).toHaveCount(4);
        await shoot("state-bulk-report");
        await dialog.getByRole("button", { name: msg.bulk.close }).last().click();

        // A stale save: someone else saved the customer while the form was open.
        await page.goto(`/customers/${ids[0]}/edit`);
        await expect(page.getByLabel("Customer Name")).toHaveValue(`${tag} 1`);
        await apiWrite(page, "PATCH", `/api/customers/${ids[0]}`, { customer_name: `${tag} renamed elsewhere` });
        await page.getByLabel("Customer Name").fill(`${tag} mine`);
        await page.getByRole("button", { name: msg.edit.save }).click();
        await expect(page.getByTestId("conflict-panel")).toContainText(msg.edit.stale);
        await shoot("state-edit-conflict");

        // A team deleted from its page: the notice offers Undo.
        const team = await (
          await apiWrite(page, "POST", "/api/teams", { customer_id: ids[1], team_name: `${tag} team` })
        ).json();
        await page.goto(`/teams/${team.team_id}`);
        // On a phone the header keeps one action on its row and the others under "More actions".
        if (size.width < 640) {
          await page.getByRole("button", { name: msg.ui.moreActions }).click();
          await page.getByRole("menuitem", { name: "Delete Team" }).click();
        } else await page.getByRole("button", { name: "Delete Team" }).click();
        await page.getByRole("dialog", { name: "Delete Team" }).getByRole("button", { name: "Delete Team" }).click();
        const notice = page.getByTestId("undo-notice");
        await expect(notice.getByRole("button", { name: msg.deleted.undo })).toBeVisible();
        await shoot("state-undo-notice", page.locator("[data-sonner-toast]").filter({ has: notice }));

        // The user menu's Sessions, and the two-factor setup at its QR code (not confirmed: the
        // account stays as it was).
        await page.goto("/customers");
        await settled(page);
        await page.getByRole("button", { name: msg.ui.userMenu }).click();
        await page.getByRole("menuitem", { name: msg.sessions.menu }).click();
        const sessions = page.getByRole("dialog", { name: msg.sessions.title });
        await expect(sessions.getByText(msg.sessions.current)).toBeVisible();
        await shoot("state-sessions");
        await page.keyboard.press("Escape");
        await expect(sessions).toBeHidden();
        await page.getByRole("button", { name: msg.ui.userMenu }).click();
        await page.getByRole("menuitem", { name: msg.twoFactor.menuEntry }).click();
        const setup = page.getByRole("dialog", { name: msg.twoFactor.title });
        await setup.getByRole("button", { name: msg.twoFactor.start }).click();
        await setup.getByLabel(msg.twoFactor.password).fill(admin.password);
        await setup.getByRole("button", { name: msg.twoFactor.continue }).click();
        await expect(setup.getByText(msg.twoFactor.setupKey, { exact: true })).toBeVisible();
        await shoot("state-two-factor-setup");
        await page.keyboard.press("Escape");
        await expect(setup).toBeHidden();

        // A list's views menu and its column choices.
        await page.getByRole("button", { name: msg.views.menuLabel(null) }).click();
        await expect(page.getByRole("menu")).toBeVisible();
        await shoot("state-views-menu");
        await page.keyboard.press("Escape");
        await page.getByRole("button", { name: msg.columns.menu, exact: true }).click();
        const columns = page.getByRole("dialog", { name: msg.columns.title });
        await expect(columns).toBeVisible();
        await shoot("state-columns");
        await page.keyboard.press("Escape");
        await expect(columns).toBeHidden();

        // Every shortcut of a screen (?), over the customers list.
        await page.keyboard.press("?");
        await expect(page.getByRole("dialog", { name: msg.shortcuts.title })).toBeVisible();
        await shoot("state-shortcuts");
        await page.keyboard.press("Escape");
      });
    });
  }
}

/**
 * The pictures README.md and docs/*.md show (`screenshots/<name>.png`) are copied from this run into
 * docs/screenshots/, the only ones kept in git; a picture there that no page shows any more is
 * removed. Runs last, after every picture above was taken (`-g` naming other tests leaves it out),
 * without a browser.
 */
plain("the pictures the documentation shows are copied into docs/screenshots/", () => {
  const pages = [
    "README.md",
    ...readdirSync(path.join(root, "docs"))
      .filter((f) => f.endsWith(".md"))
      .map((f) => `docs/${f}`),
  ];
  const shown = new Set(
    pages.flatMap((page) =>
      [...readFileSync(path.join(root, page), "utf8").matchAll(/screenshots\/([\w.-]+\.png)/g)].map((m) => m[1]),
    ),
  );
  expect(shown.size).toBeGreaterThan(0);
  const taken = (file: string) => path.join(plain.info().project.outputDir, file);
  const missing = [...shown].filter((file) => !existsSync(taken(file)));
  mkdirSync(docsFolder, { recursive: true });
  for (const file of shown) if (!missing.includes(file)) copyFileSync(taken(file), path.join(docsFolder, file));
  for (const file of readdirSync(docsFolder))
    if (file.endsWith(".png") && !shown.has(file)) rmSync(path.join(docsFolder, file));
  expect(missing, "pictures the documentation shows that this run did not take").toEqual([]);
});
