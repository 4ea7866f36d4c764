import { test as base, expect, type Cookie, type Page } from "@playwright/test";
import { consoleOrigin, e2e } from "../../playwright.config";

export const admin = { email: "admin@pedal.example", password: e2e.password };

/** The demo admin's session cookies, signed in once and reused by every test of this worker. */
let adminCookies: Cookie[] | undefined;
/**
 * When they signed in. An admin action on operators' credentials asks a session older than 10
 * minutes to confirm it is them (docs/identity.md): a session is reused for 5 minutes at most.
 */
let adminSignedInAt = 0;
const sessionReuseMs = 5 * 60_000;

/**
 * Opens `path` signed in as the demo admin. The login screen itself is tested in
 * foundation.spec.ts: other tests reuse one stored session (its cookies added to the page's
 * context), signing in again through the API only when a test ended it.
 */
export async function signIn(page: Page, path = "/") {
  await takeSession(page);
  await page.goto(path);
  await expect(page.getByRole("button", { name: "User menu" })).toBeVisible();
}

/**
 * Browser Back, as the toolbar's button does it. Playwright's `goBack` takes the entry before the
 * browser's current one, and a same-document navigation the page has just made (a `pushState`, or
 * the router's `history.go` after a blocked Back) reaches the browser's history a moment after the
 * page's URL has changed; so Back is pressed only once the browser's current entry is the page's
 * URL, or it could skip an entry (and leave the document, past the form's in-page prompt).
 */
export async function goBack(page: Page) {
  await historySettled(page);
  await page.goBack();
}

/** Browser Forward, once the browser's history has caught up with the page (see `goBack`). */
export async function goForward(page: Page) {
  await historySettled(page);
  await page.goForward();
}

async function historySettled(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const url = page.url();
    await expect
      .poll(async () => {
        const history = await cdp.send("Page.getNavigationHistory");
        return history.entries[history.currentIndex]?.url;
      })
      .toBe(url);
  } finally {
    await cdp.detach();
  }
}

/**
 * Gives the page the demo admin's session (the worker's stored one, or a new sign-in through the
 * API) without opening a screen: for a test that reads the API before it knows which screen to open.
 */
export async function takeSession(page: Page) {
  const context = page.context();
  const stored = adminCookies && Date.now() - adminSignedInAt < sessionReuseMs ? adminCookies : undefined;
  if (stored) await context.addCookies(stored);
  const session = stored ? await page.request.get("/api/auth/get-session") : undefined;
  if (!session || !(await session.json())) {
    await context.clearCookies();
    const res = await page.request.post("/api/auth/sign-in/email", {
      data: { email: admin.email, password: admin.password },
      headers: { origin: pageOrigin(page) },
    });
    expect(res.status(), "admin sign-in").toBe(200);
    adminCookies = await context.cookies();
    adminSignedInAt = Date.now();
  }
}

/**
 * Chooses `name` in the type-ahead picker labelled `label` as a user does: types it, clicks the
 * option, and sees the picker show it. On a loaded machine the option can be re-rendered by the
 * search's answer between finding it and the click; then the user types and clicks again.
 */
export async function pickOption(page: Page, label: string, name: string) {
  const picker = page.getByRole("combobox", { name: label });
  await expect(async () => {
    await picker.fill(name);
    await page
      .getByRole("listbox", { name: label })
      .getByRole("option", { name, exact: true })
      .click({ timeout: 5_000 });
    await expect(picker).toHaveValue(name, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}

/** A summary card by its exact label. */
export const statCard = (page: Page, label: string) => page.getByRole("group", { name: label, exact: true });

/** GET an API path with the page's session, as JSON. */
export async function apiGet<T = any>(page: Page, path: string): Promise<T> {
  const res = await page.request.get(path);
  expect(res.status(), path).toBe(200);
  return res.json();
}

/** Sends a JSON write to the API with the page's session, from the console's origin as the browser would. */
export async function apiWrite(page: Page, method: "POST" | "PUT" | "PATCH" | "DELETE", path: string, data?: unknown) {
  return page.request.fetch(path, { method, data, headers: { origin: pageOrigin(page) } });
}

/** The origin of the console `page` tests (its worker's: playwright.config.ts), as the browser sends it. */
export function pageOrigin(page: Page): string {
  const url = page.url();
  return url.startsWith("http") ? new URL(url).origin : consoleOrigin(base.info().parallelIndex);
}

/**
 * A page whose console errors and uncaught exceptions fail the test, on the console of its worker
 * (each Playwright worker has one of its own: playwright.config.ts).
 */
export const test = base.extend<{ consoleErrors: string[]; expectedConsoleErrors: RegExp[] }>({
  // Playwright reads a fixture's dependencies from its first parameter, which must be a pattern.
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use, testInfo) => {
    await use(consoleOrigin(testInfo.parallelIndex));
  },
  /** Console errors a test provokes on purpose (`test.use({ expectedConsoleErrors: [/…/] })`). */
  expectedConsoleErrors: [[], { option: true }],
  consoleErrors: [
    async ({ page, expectedConsoleErrors }, use) => {
      const errors: string[] = [];
      page.on("pageerror", (err) => errors.push(err.message));
      page.on("console", (m) => {
        // A failed request logs a console error; tests that provoke one declare it in `allowed`.
        if (
          m.type() === "error" &&
          !/Failed to load resource/.test(m.text()) &&
          !expectedConsoleErrors.some((re) => re.test(m.text()))
        )
          errors.push(m.text());
      });
      await use(errors);
      expect(errors, "console errors").toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };
