/**
 * What a new staff member tripped over in a day of use (keystrokes, state, one rule everywhere,
 * pickers, looks): each behaviour as a user meets it, in the browser.
 */
import { e2e } from "../../playwright.config";
import { auditEntityLabels, auditListNames, auditRecordEntities } from "../../src/domain/audit";
import { msg } from "../../src/domain/messages";
import { apiGet, expect, goBack, signIn, test } from "./fixtures";
import { transitionsEnded } from "./axe";

test.describe("keystrokes and state", () => {
  test("every character typed right after Ctrl+K lands in the palette, on a cold and a warm page", async ({ page }) => {
    await signIn(page, "/customers");
    await expect(page.getByRole("table", { name: "Customers" })).toBeVisible();
    const input = page.getByTestId("command-palette").getByRole("combobox");
    // Cold: the palette's code is not loaded yet. No wait between the shortcut and the typing.
    await page.keyboard.press("Control+k");
    await page.keyboard.type("Adams");
    await expect(input).toHaveValue("Adams");
    await expect(input).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("command-palette")).toBeHidden();
    // Warm: opened again, it starts empty, and fast typing still arrives whole.
    await page.keyboard.press("Control+k");
    await page.keyboard.type("walzzq");
    await expect(input).toHaveValue("walzzq");
    await page.keyboard.press("Escape");
    await page.keyboard.press("Control+k");
    await expect(input).toHaveValue("");
    await page.keyboard.type("zzq");
    await expect(input).toHaveValue("zzq");
  });

  test("browser Back from a form with unsaved changes asks first", async ({ page }) => {
    await signIn(page, "/customers");
    await page.getByRole("link", { name: "Add Customer" }).click();
    await expect(page).toHaveURL(/\/customers\/add$/);
    await page.getByLabel("Customer Name").fill("Half typed");
    await goBack(page);
    const prompt = page.getByRole("dialog", { name: msg.ui.unsavedTitle });
    await expect(prompt).toBeVisible();
    await prompt.getByRole("button", { name: msg.ui.keepEditing }).click();
    await expect(page).toHaveURL(/\/customers\/add$/);
    await expect(page.getByLabel("Customer Name")).toHaveValue("Half typed");
    await goBack(page);
    await page.getByRole("dialog", { name: msg.ui.unsavedTitle }).getByRole("button", { name: msg.ui.discard }).click();
    await expect(page).toHaveURL(/\/customers$/);
  });
});

/** Signs in through the login screen as the demo operator of `role`. */
async function signInAs(page: import("@playwright/test").Page, role: "editor" | "viewer", path = "/") {
  await page.goto(path);
  await page.getByLabel("Email").fill(`${role}@pedal.example`);
  await page.getByLabel("Password").fill(e2e.password);
  await page.getByRole("button", { name: msg.login.submit }).click();
  await expect(page.getByRole("button", { name: msg.ui.userMenu })).toBeVisible();
}

test.describe("one rule, wherever it is used", () => {
  test("an unknown customer's Add Team says Customer not found at once: no form, no Retry", async ({ page }) => {
    await signIn(page, "/customers/00000000-0000-4000-8000-000000000000/add-team");
    await expect(page.getByRole("heading", { name: msg.customers.notFound })).toBeVisible();
    await expect(page.getByLabel(/Team Name/)).toHaveCount(0);
    await expect(page.getByRole("button", { name: msg.app.retry })).toHaveCount(0);
    await expect(page.getByRole("link", { name: msg.customers.backToList })).toBeVisible();
  });

  test("records that do not exist offer no Retry: a team, a user, a customer's configuration", async ({ page }) => {
    await signIn(page, "/teams/00000000-0000-4000-8000-000000000000");
    await expect(page.getByText(msg.teams.notFound)).toBeVisible();
    await expect(page.getByRole("button", { name: msg.app.retry })).toHaveCount(0);
    await page.goto("/users/00000000-0000-4000-8000-000000000000");
    await expect(page.getByText(msg.users.notFound)).toBeVisible();
    await expect(page.getByRole("button", { name: msg.app.retry })).toHaveCount(0);
    await page.goto("/config?customer=00000000-0000-4000-8000-000000000000");
    await expect(page.getByText(msg.customers.notFound)).toBeVisible();
    await expect(page.getByRole("button", { name: msg.app.retry })).toHaveCount(0);
  });

  test("an editor who opens an admin screen by URL sees one statement of it: no toolbar, no Retry", async ({
    page,
  }) => {
    await signInAs(page, "editor", "/operators");
    for (const path of ["/operators", "/audit"]) {
      await page.goto(path);
      await expect(page.getByTestId("not-allowed")).toContainText(msg.ui.adminOnly);
      await expect(page.getByRole("button", { name: msg.app.retry })).toHaveCount(0);
      await expect(page.getByRole("button", { name: msg.lists.exportCsv })).toHaveCount(0);
      await expect(page.getByRole("searchbox")).toHaveCount(1); // the top bar's, not a list's
    }
  });

  test("a list that cannot load shows one error with one Retry, and cards that say they could not load", async ({
    page,
  }) => {
    await signIn(page, "/");
    await page.route(/\/api\/(customers|users)(\?|$)/, (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ error: { code: "internal", message: "Broken on purpose" } }),
      }),
    );
    for (const [path, title] of [
      ["/customers", msg.customers.loadError],
      ["/users", msg.users.loadError],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole("heading", { name: title })).toBeVisible();
      await expect(page.getByRole("button", { name: msg.app.retry })).toHaveCount(1);
      const cards = page.getByRole("group").filter({ hasText: msg.lists.cardUnavailable });
      await expect(cards).toHaveCount(4);
      await expect(page.locator(".skeleton")).toHaveCount(0);
    }
  });
});

test.describe("looks", () => {
  test("the comments' five cards share one row at 1400 px, and Export CSV stays on the toolbar's first row", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1400, height: 900 });
    await signIn(page, "/comments");
    const cards = page.getByRole("group").filter({ has: page.locator(".card-body") });
    await expect(cards.first()).toBeVisible();
    const tops = await page
      .locator("[role=group].card")
      .evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
    expect(new Set(tops).size).toBe(1);
    const search = await page.getByPlaceholder(/Search comments/).boundingBox();
    const exportButton = await page.getByRole("button", { name: msg.lists.exportCsv }).boundingBox();
    expect(Math.abs(exportButton!.y - search!.y)).toBeLessThan(12);
  });
});

test.describe("feedback", () => {
  test("assigning a skill from a team's modal moves no row: the confirmation is a notice outside the list", async ({
    page,
  }) => {
    await signIn(page, "/teams");
    const teams = await apiGet<{ items: Array<{ team_id: string }> }>(page, "/api/teams?status=active&limit=1");
    await page.goto(`/teams/${teams.items[0].team_id}`);
    await page.getByRole("button", { name: "Assign Skill" }).click();
    const modal = page.getByRole("dialog", { name: msg.teams.assignSkillTitle });
    const list = modal.getByRole("list", { name: "Assignable skills" });
    await expect(list).toBeVisible();
    // Measured once the modal's opening transition has ended: mid-way its box is still moving
    // (a position 3.8 px off was read so once).
    await transitionsEnded(page);
    const before = (await list.boundingBox())!.y;
    await modal
      .getByRole("button", { name: /^Assign / })
      .first()
      .click();
    await expect(page.getByTestId("success-banner")).toHaveText(msg.teams.skillAssigned);
    expect((await list.boundingBox())!.y).toBe(before);
    await expect(page.getByTestId("success-banner")).toBeHidden({ timeout: 5_000 });
    expect((await list.boundingBox())!.y).toBe(before);
  });
});

test.describe("pickers", () => {
  test("the customer filter scrolls through every customer by name, loading more from the server, and typing still narrows it", async ({
    page,
  }) => {
    await signIn(page, "/teams");
    const all: string[] = [];
    for (let after: string | null = null, first = true; first || after; first = false) {
      const res: { items: Array<{ customer_name: string }>; next: string | null } = await apiGet(
        page,
        `/api/customers/options?limit=50${after ? `&after=${after}` : ""}`,
      );
      all.push(...res.items.map((c) => c.customer_name));
      after = res.next;
    }
    expect(all.length).toBeGreaterThan(20);
    const picker = page.getByRole("combobox", { name: "Customer" });
    await picker.click();
    const listbox = page.getByRole("listbox", { name: "Customer" });
    await expect(listbox.getByRole("option", { name: all[0], exact: true })).toBeVisible();
    const last = listbox.getByRole("option", { name: all.at(-1)!, exact: true });
    await expect(async () => {
      await listbox.evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await expect(last).toBeAttached({ timeout: 1_000 });
    }).toPass({ timeout: 10_000 });
    const names = await listbox.getByRole("option").allTextContents();
    expect(names.slice(1)).toEqual(all); // after "All Customers", every customer in order
    await picker.fill(all.at(-1)!.slice(0, 4));
    await expect(listbox.getByRole("option", { name: all.at(-1)!, exact: true })).toBeVisible();
  });
});

test.describe("looks, continued", () => {
  test("a prompt's and a platform's pages carry their name in the document title", async ({ page }) => {
    await signIn(page, "/");
    const prompt = (
      await apiGet<{ items: Array<{ prompt_id: string; prompt_title: string }> }>(page, "/api/prompts?limit=1")
    ).items[0];
    await page.goto(`/prompts/${prompt.prompt_id}`);
    await expect(page).toHaveTitle(`${prompt.prompt_title} · ${msg.nav.prompts} · ${msg.app.name}`);
    const platform = (
      await apiGet<{ items: Array<{ platform_id: string; platform_name: string }> }>(page, "/api/platforms?limit=1")
    ).items[0];
    await page.goto(`/platforms/${platform.platform_id}`);
    await expect(page).toHaveTitle(`${platform.platform_name} · ${msg.nav.platforms} · ${msg.app.name}`);
  });

  test("the collapsed sidebar's icons name themselves on hover and on keyboard focus", async ({ page }) => {
    await page.setViewportSize({ width: 1400, height: 900 });
    await signIn(page, "/");
    await page.getByRole("button", { name: /Collapse/ }).click();
    const teams = page.getByTestId("sidebar").getByRole("link", { name: msg.nav.teams });
    // The hint's code arrives as the sidebar collapses: a pointer already resting there waits for it.
    await expect(async () => {
      await page.mouse.move(700, 500);
      await teams.hover();
      await expect(page.getByTestId("hint")).toHaveText(msg.nav.teams, { timeout: 1_000 });
    }).toPass({ timeout: 10_000 });
    await page.mouse.move(700, 500);
    await page.getByTestId("sidebar").getByRole("link", { name: msg.nav.users }).focus();
    await expect(page.getByTestId("hint")).toHaveText(msg.nav.users);
  });
});

test("the audit log names records and actions in the console's words, with coloured badges", async ({ page }) => {
  await signIn(page, "/audit");
  const record = page.getByRole("combobox", { name: "Record" });
  // The options are read once the filter is there (allTextContents does not wait for it).
  await expect(record).toContainText("Customer configuration");
  const options = await record.locator("option").allTextContents();
  expect(options).toContain("Customer configuration");
  expect(options.filter((o) => /_|^[a-z]/.test(o))).toEqual([]);
  // Kinds of record apart from the lists whose exports are recorded.
  const grouped = (label: string) => record.locator(`optgroup[label="${label}"] option`).allTextContents();
  expect(await grouped(msg.audit.recordKinds)).toEqual(auditRecordEntities.map((e) => auditEntityLabels[e]));
  expect(await grouped(msg.audit.exportedLists)).toEqual(auditListNames.map((e) => auditEntityLabels[e]));
  await expect(page.getByRole("combobox", { name: "Action" })).toContainText("Skill assigned");
  const actions = await page.getByRole("combobox", { name: "Action" }).locator("option").allTextContents();
  expect(actions).toContain("Skill assigned");
  expect(actions.filter((o) => /_|^[a-z]/.test(o))).toEqual([]);
  const badge = page.getByRole("table", { name: msg.audit.title }).locator(".badge").first();
  await expect(badge).toHaveText(/^[A-Z]/);
  await expect(badge).toHaveClass(/badge-(success|warning|error|neutral)/);
});
