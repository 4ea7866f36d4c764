/**
 * Time from navigation to a list screen's first data row, in Chromium (Debian's, with the flags of
 * playwright.config.ts). Each screen is loaded `runs` times in one signed-in browser context: the
 * first load fetches the app's code, the next ones find it cached, as an operator would.
 */
import { chromium } from "@playwright/test";

export type PageTiming = { page: string; loads: number[]; rows: number | null; error?: string };

const rowSelector = 'table tbody tr:not([data-testid="skeleton-row"]) td';

/** Measures each of `pages` (paths of the web app) on the running console at `baseUrl`. */
export async function measurePages(
  baseUrl: string,
  pages: string[],
  operator: { email: string; password: string },
  runs = 3,
): Promise<PageTiming[]> {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const results: PageTiming[] = [];
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const signIn = await context.request.post(`${baseUrl}/api/auth/sign-in/email`, {
      data: operator,
      headers: { origin: baseUrl },
    });
    if (signIn.status() !== 200) throw new Error(`browser sign-in answered ${signIn.status()}`);
    const page = await context.newPage();
    for (const path of pages) {
      const timing: PageTiming = { page: path, loads: [], rows: null };
      try {
        for (let i = 0; i < runs; i++) {
          await page.goto("about:blank");
          const started = performance.now();
          await page.goto(`${baseUrl}${path}`, { waitUntil: "commit" });
          await page.locator(rowSelector).first().waitFor({ state: "visible", timeout: 30_000 });
          timing.loads.push(performance.now() - started);
        }
        timing.rows = await page.locator('table tbody tr:not([data-testid="skeleton-row"])').count();
      } catch (err) {
        timing.error = (err as Error).message.split("\n")[0];
      }
      results.push(timing);
    }
  } finally {
    await browser.close();
  }
  return results;
}
