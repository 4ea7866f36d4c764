/**
 * The ways into the console a new developer and an operator take first: `/login` (with and
 * without `redirect`), and `npm run dev`'s Vite server, signed in through its proxy like the
 * built console.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { msg } from "../../src/domain/messages";
import { admin, expect, test } from "./fixtures";
import type { Page } from "@playwright/test";

/** Signs in on the sign-in screen the page shows. */
async function signInByHand(page: Page) {
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Password").fill(admin.password);
  await page.getByRole("button", { name: msg.login.submit }).click();
  await expect(page.getByRole("button", { name: msg.ui.userMenu })).toBeVisible();
}

test("/login signs in to the dashboard, and /login?redirect= to where the operator was going", async ({ page }) => {
  await page.goto("/login");
  await signInByHand(page);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { level: 1, name: msg.dashboard.title })).toBeVisible();
  // Signed in already, /login opens the screen it names.
  await page.goto("/login?redirect=%2Fusers%3Fstatus%3Dactive");
  await expect(page).toHaveURL(/\/users\?status=active$/);
  await expect(page.getByRole("heading", { level: 1, name: msg.nav.users })).toBeVisible();
  // Never another site.
  await page.goto("/login?redirect=%2F%2Fexample.com%2F");
  await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/$/);
  await page.context().clearCookies();
  await page.goto("/login?redirect=%2Fteams");
  await signInByHand(page);
  await expect(page).toHaveURL(/\/teams$/);
});

test("npm run dev serves the console from Vite's dev server: it signs in through its proxy and shows the dashboard", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const devPort = 5290;
  const apiPort = 3290;
  const dataDir = "test-results/dev-server-data";
  rmSync(dataDir, { recursive: true, force: true });
  const dev: ChildProcess = spawn("npm", ["run", "--silent", "dev"], {
    env: {
      ...process.env,
      DEV_PORT: String(devPort),
      PORT: String(apiPort),
      DATA_DIR: dataDir,
      DEMO_OPERATOR_PASSWORD: admin.password,
      ENV_FILE: "/dev/null",
      LOG_LEVEL: "warn",
    },
    stdio: "ignore",
    detached: true,
  });
  try {
    const origin = `http://localhost:${devPort}`;
    // Ready once the API answers through Vite's proxy (a signed-out session is `null`).
    await expect
      .poll(
        async () => {
          try {
            return (await fetch(`${origin}/api/auth/get-session`)).status;
          } catch {
            return 0;
          }
        },
        { timeout: 150_000, intervals: [1_000] },
      )
      .toBe(200);
    // The web app's own module under src/web/api is Vite's, not the API's.
    const client = await fetch(`${origin}/api/client.ts`);
    expect(client.status).toBe(200);
    expect(client.headers.get("content-type")).toContain("javascript");
    await page.goto(`${origin}/`);
    await signInByHand(page);
    await expect(page.getByRole("heading", { level: 1, name: msg.dashboard.title })).toBeVisible();
    await expect(page.getByTestId("attention")).toBeVisible();
  } finally {
    if (dev.pid) process.kill(-dev.pid, "SIGTERM");
  }
});
