import { mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { msg } from "../../src/domain/messages";
import { expect, signIn, test } from "../e2e/fixtures";
import { screens, settled } from "../e2e/screens";

const folder = path.resolve(import.meta.dirname, "../../docs/screenshots");
const sizes = [
  { width: 1400, height: 900 },
  { width: 390, height: 844 },
] as const;

test.beforeAll(() => {
  // A refresh: screens that no longer exist leave no picture behind.
  mkdirSync(folder, { recursive: true });
  for (const file of readdirSync(folder)) if (file.endsWith(".png")) rmSync(path.join(folder, file));
});

for (const theme of ["light", "dark"] as const) {
  for (const size of sizes) {
    test.describe(`${size.width} px, ${theme}`, () => {
      test.use({ colorScheme: theme, viewport: size });

      test(`every screen at ${size.width} px in the ${theme} theme`, async ({ page }) => {
        const file = (name: string) => path.join(folder, `${name}-${size.width}-${theme}.png`);
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
