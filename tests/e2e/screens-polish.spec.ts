import type { Page } from "@playwright/test";
import { e2e } from "../../playwright.config";
import { msg } from "../../src/domain/messages";
import { apiGet, apiWrite, expect, goBack, signIn, statCard, test } from "./fixtures";
import { settled } from "./screens";

const unique = () => `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;

async function signInAs(page: Page, email: string) {
  await page.goto("/");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(e2e.password);
  await page.getByRole("button", { name: msg.login.submit }).click();
  await expect(page.getByRole("button", { name: msg.ui.userMenu })).toBeVisible();
}

/** The element that has focus, described by its role-ish tag and text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      tag: el?.tagName.toLowerCase(),
      text: el?.textContent?.trim().slice(0, 80) ?? "",
      inDialog: Boolean(el?.closest("dialog[open]")),
    };
  });

test.describe("keyboard", () => {
  test("a list row is one Tab stop; arrows move between rows; Enter opens the record", async ({ page }) => {
    await signIn(page, "/customers");
    const table = page.getByRole("table", { name: "Customers" });
    const rows = table.getByRole("row");
    await expect(rows.nth(3)).toBeVisible();
    await rows.nth(1).focus();
    await expect(rows.nth(1)).toBeFocused();
    // Tab goes to the next row, not to the link inside the first one.
    await page.keyboard.press("Tab");
    await expect(rows.nth(2)).toBeFocused();
    expect(await rows.nth(1).getByRole("link").first().getAttribute("tabindex")).toBe("-1");
    await page.keyboard.press("ArrowDown");
    await expect(rows.nth(3)).toBeFocused();
    await page.keyboard.press("ArrowUp");
    await expect(rows.nth(2)).toBeFocused();
    await page.keyboard.press("Home");
    await expect(rows.nth(1)).toBeFocused();
    // Focus is visible: the row draws an outline.
    expect(await rows.nth(1).evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe("none");
    const name = (await rows.nth(1).getByRole("link").first().textContent())!;
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/customers\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  });

  test("the user menu's items are out of the Tab order until it opens; keys open, move and close it", async ({
    page,
  }) => {
    await signIn(page);
    const button = page.getByRole("button", { name: msg.ui.userMenu });
    await expect(page.getByRole("menuitem", { name: msg.app.signOut })).toHaveCount(0);
    await button.focus();
    await page.keyboard.press("Tab");
    expect((await focused(page)).text).not.toContain(msg.app.signOut);
    await button.focus();
    // The key goes to the button only once it holds the focus (a busy page may still be settling).
    await expect(button).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(button).toHaveAttribute("aria-expanded", "true");
    await expect(page.getByRole("menuitemradio", { name: msg.ui.themeSystem })).toBeFocused();
    await page.keyboard.press("End");
    await expect(page.getByRole("menuitem", { name: msg.app.signOutEverywhere })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("menu")).toHaveCount(0);
    await expect(button).toBeFocused();
  });

  test("a modal focuses its search box; the phone menu holds focus while open", async ({ page }) => {
    await signIn(page, "/teams");
    await page.getByRole("table", { name: "Teams" }).getByRole("row").nth(1).getByRole("cell").nth(3).click(); // past the selection box and the name
    await page.getByRole("button", { name: "Assign Skill" }).click();
    await expect(
      page.getByRole("dialog", { name: msg.teams.assignSkillTitle }).getByPlaceholder(msg.teams.searchSkills),
    ).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog", { name: msg.teams.assignSkillTitle })).toBeHidden();

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole("button", { name: msg.ui.openMenu }).click();
    const drawer = page.getByRole("dialog", { name: msg.ui.menu });
    await expect(drawer).toBeVisible();
    for (let i = 0; i < 16; i++) {
      await page.keyboard.press("Tab");
      const now = await focused(page);
      // The page behind is inert: focus is in the menu, or on the browser's own controls past its end.
      expect(now.tag === "body" || now.inDialog, `Tab ${i + 1} left the menu for ${now.tag} "${now.text}"`).toBe(true);
    }
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();
    await expect(page.getByRole("button", { name: msg.ui.openMenu })).toBeFocused();
  });
});

test.describe("layout and content", () => {
  test("document titles name the screen, then the record", async ({ page }) => {
    await page.goto("/customers");
    await expect(page).toHaveTitle(`${msg.login.title} · ${msg.app.name}`);
    await signIn(page, "/customers");
    await expect(page).toHaveTitle(`${msg.nav.customers} · ${msg.app.name}`);
    const customer = (await apiGet(page, "/api/customers?limit=1")).items[0];
    await page.goto(`/customers/${customer.customer_id}`);
    await expect(page).toHaveTitle(`${customer.customer_name} · ${msg.nav.customers} · ${msg.app.name}`);
    await page.goto("/users/add");
    await expect(page).toHaveTitle(`${msg.users.addTitle} · ${msg.nav.users} · ${msg.app.name}`);
    await page.goto("/customers/00000000-0000-4000-8000-000000000000");
    await expect(page).toHaveTitle(`${msg.customers.notFound} · ${msg.nav.customers} · ${msg.app.name}`);
  });

  test("a 200-character name is cut once with an ellipsis at 1400 px, readable in full on hover and by screen readers", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1400, height: 900 });
    await signIn(page, "/customers");
    const name = `Extremely Long Customer Name ${unique()} `.padEnd(200, "Wordy ").slice(0, 200).trim();
    const customer = await (await apiWrite(page, "POST", "/api/customers", { customer_name: name })).json();
    const team = await (
      await apiWrite(page, "POST", "/api/teams", { customer_id: customer.customer_id, team_name: "Platform" })
    ).json();

    await page.goto(`/customers/${customer.customer_id}`);
    const heading = page.getByRole("heading", { level: 1 });
    await expect(heading).toHaveText(name);
    await expect(heading).toHaveAttribute("title", name);
    const cut = await heading.evaluate((el) => ({
      overflow: el.scrollWidth > el.clientWidth,
      ellipsis: getComputedStyle(el).textOverflow,
      lines: Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)),
    }));
    expect(cut).toEqual({ overflow: true, ellipsis: "ellipsis", lines: 1 });
    // The header's buttons stay on one row beside the title.
    const history = (await page.getByRole("link", { name: msg.audit.history }).boundingBox())!;
    const archive = (await page.getByRole("button", { name: "Archive" }).boundingBox())!;
    expect(Math.abs(history.y - archive.y)).toBeLessThan(2);
    expect(
      Math.abs(
        history.y + history.height / 2 - ((await heading.boundingBox())!.y + (await heading.boundingBox())!.height / 2),
      ),
    ).toBeLessThan(12);

    // The team page: the back link on one line, the customer card cut with its full name on hover.
    await page.goto(`/teams/${team.team_id}`);
    const back = page.getByRole("link", { name: `Back to ${name}` });
    await expect(back).toBeVisible();
    expect((await back.boundingBox())!.height).toBeLessThan(40);
    const card = statCard(page, "Customer").getByTitle(name);
    await expect(card).toHaveText(name);
    expect(await card.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
  });

  test("phone width: /customers stacks rows as label: value cards without sideways scrolling; search and actions fit", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, "/customers");
    await settled(page);
    const table = page.getByRole("table", { name: "Customers" });
    const row = table.getByRole("row").nth(1);
    await expect(row).toBeVisible();
    // Each value is labelled with its column ("Users", "Last Updated"...).
    // The cells of the record (the selection box's cell aside).
    const cells = row.locator("td:not(:has(input[type=checkbox]))");
    const labels = await cells.evaluateAll((cells) => cells.map((c) => getComputedStyle(c, "::before").content));
    expect(labels).toEqual(["none", '"Users"', '"Teams"', '"Status"', '"Created"', '"Last Updated"']);
    // One card per row: the name on top, then the labelled values under it.
    const nameBox = (await row.getByRole("link").first().boundingBox())!;
    const usersBox = (await cells.nth(1).boundingBox())!;
    expect(usersBox.y).toBeGreaterThan(nameBox.y + nameBox.height - 1);
    expect(usersBox.width).toBeGreaterThan(300);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // The top bar's search box is usable.
    const search = page.getByRole("searchbox", { name: msg.app.searchPlaceholder });
    expect((await search.boundingBox())!.width).toBeGreaterThan(180);
    await search.fill("acme");
    await expect(search).toHaveValue("acme");
    // Typing there opens the global search palette, which fits the phone too.
    const palette = page.getByRole("dialog", { name: msg.search.dialog });
    await expect(palette).toBeVisible();
    expect((await palette.boundingBox())!.width).toBeLessThanOrEqual(390);
    await page.keyboard.press("Escape");
    await expect(palette).toBeHidden();
    // A detail page keeps its actions on one row, the rest in "More actions".
    await row.click();
    const primary = (await page.getByRole("button", { name: "Archive" }).boundingBox())!;
    const more = (await page.getByRole("button", { name: msg.ui.moreActions }).boundingBox())!;
    expect(Math.abs(primary.y - more.y)).toBeLessThan(2);
    await page.getByRole("button", { name: msg.ui.moreActions }).click();
    await expect(page.getByRole("menuitem", { name: msg.audit.history })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // A list's pager fits too, with First / Previous / Next / Last on one row.
    await page.goto("/users?page=3");
    const pager = page.getByRole("navigation", { name: "Pagination" });
    await expect(pager).toContainText("Page 3 of");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const first = (await pager.getByRole("button", { name: msg.lists.first }).boundingBox())!;
    const last = (await pager.getByRole("button", { name: msg.lists.last }).boundingBox())!;
    expect(Math.abs(first.y - last.y)).toBeLessThan(2);
    expect(last.x + last.width).toBeLessThanOrEqual(390);
  });

  test("one relative-time format, numbers right-aligned in tabular figures, times with their zone on hover; /users shows e-mails and job titles at 1400 px", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1400, height: 900 });
    await signIn(page, "/users");
    await settled(page);
    // The User column takes the spare width: most e-mails show in full (the demo's run to 46 characters).
    const emails = page.getByRole("table", { name: "Users" }).getByRole("row").locator("td:nth-child(2) [title*='@']"); // the first column after the selection box
    const cut = await emails.evaluateAll((els) => els.filter((el) => el.scrollWidth > el.clientWidth).length);
    expect(await emails.count()).toBeGreaterThan(20);
    expect(cut / (await emails.count())).toBeLessThan(0.25);
    // And the Job Title column is wide enough for most titles on its two lines (not 111 px of it).
    const titles = page.getByRole("table", { name: "Users" }).getByRole("row").locator("td:nth-child(5) [title]");
    const clipped = await titles.evaluateAll((els) => els.filter((el) => el.scrollHeight > el.clientHeight + 1).length);
    expect(await titles.count()).toBeGreaterThan(20);
    expect(clipped / (await titles.count())).toBeLessThan(0.25);
    const times = page.getByRole("table", { name: "Users" }).locator("time");
    const texts = await times.allTextContents();
    expect(texts.length).toBeGreaterThan(10);
    expect(texts.filter((t) => /about|almost|over|less than/.test(t))).toEqual([]);
    expect(await times.first().getAttribute("title")).toMatch(/\d{2}:\d{2}:\d{2} (UTC|GMT[+-]?\d*|[A-Z]{2,5})$/);
    await page.goto("/customers");
    await settled(page);
    // The Users column: after the selection box and the name.
    const users = page.getByRole("table", { name: "Customers" }).getByRole("row").nth(1).getByRole("cell").nth(2);
    expect(
      await users.evaluate((el) => [getComputedStyle(el).textAlign, getComputedStyle(el).fontVariantNumeric]),
    ).toEqual(["right", "tabular-nums"]);
  });
});

test.describe("feedback and roles", () => {
  test("dashboard cards open their lists; Signed in at least once opens those users", async ({ page }) => {
    await signIn(page);
    const stats = await apiGet(page, "/api/dashboard");
    await statCard(page, msg.dashboard.totalTeams).getByRole("link").click();
    await expect(page).toHaveURL(/\/teams$/);
    await goBack(page);
    await statCard(page, msg.dashboard.signedInUsers).getByRole("link").click();
    await expect(page).toHaveURL(/\/users\?signed_in=true$/);
    const filtered = await apiGet(page, "/api/users?signed_in=true&limit=1");
    expect(filtered.total).toBe(stats.active_users);
    await expect(statCard(page, "Total")).toContainText(new Intl.NumberFormat("en-US").format(stats.active_users));
    await expect(page.getByRole("table", { name: "Users" }).getByText(msg.fallbacks.neverLoggedIn)).toHaveCount(0);
    await page.getByRole("button", { name: msg.ui.clearFilter(msg.ui.signedInFilter) }).click();
    await expect(page).toHaveURL(/\/users$/);
  });

  test("a form with unsaved changes asks before leaving", async ({ page }) => {
    await signIn(page, "/customers/add");
    await page.getByLabel("Customer Name").fill("Half typed");
    await page.getByTestId("sidebar").getByRole("link", { name: msg.nav.teams }).click();
    const prompt = page.getByRole("dialog", { name: msg.ui.unsavedTitle });
    await expect(prompt).toBeVisible();
    await prompt.getByRole("button", { name: msg.ui.keepEditing }).click();
    await expect(page).toHaveURL(/\/customers\/add$/);
    await expect(page.getByLabel("Customer Name")).toHaveValue("Half typed");
    await page.getByTestId("sidebar").getByRole("link", { name: msg.nav.teams }).click();
    await prompt.getByRole("button", { name: msg.ui.discard }).click();
    await expect(page).toHaveURL(/\/teams$/);
    // Cancel asks too: a slip of the mouse would lose the typing.
    await page.goto("/customers/add");
    await page.getByLabel("Customer Name").fill("Changed my mind");
    await page.getByRole("link", { name: msg.ui.cancel }).click();
    await expect(prompt).toBeVisible();
    await prompt.getByRole("button", { name: msg.ui.keepEditing }).click();
    await expect(page.getByLabel("Customer Name")).toHaveValue("Changed my mind");
    await page.getByRole("link", { name: msg.ui.cancel }).click();
    await prompt.getByRole("button", { name: msg.ui.discard }).click();
    await expect(page).toHaveURL(/\/customers$/);
    // Unchanged, Cancel leaves at once.
    await page.goto("/customers/add");
    await page.getByRole("link", { name: msg.ui.cancel }).click();
    await expect(page).toHaveURL(/\/customers$/);
  });

  test("the Excel-friendly box is drawn as the list's other check boxes are, square and of one size", async ({
    page,
  }) => {
    await signIn(page, "/customers");
    // Measured once drawn: the table's header box is in the page, empty, while its rows load.
    const shape = async (name: string) => {
      const box = page.getByRole("checkbox", { name, exact: true });
      await expect(box).toBeVisible();
      return box.evaluate((el) => {
        const style = getComputedStyle(el);
        return { width: el.getBoundingClientRect().width, radius: parseFloat(style.borderTopLeftRadius) };
      });
    };
    const excel = await shape(msg.lists.exportBom);
    const page_ = await shape(msg.bulk.selectPage);
    expect(excel.width).toBe(page_.width);
    // A radius of half the width or more draws a circle (a radio button's shape).
    expect(excel.radius).toBeLessThan(excel.width / 2);
  });

  test("the theme follows the system until chosen in the user menu, and the choice is remembered", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    await signIn(page);
    const html = page.locator("html");
    await expect(html).toHaveCSS("color-scheme", "dark");
    await page.getByRole("button", { name: msg.ui.userMenu }).click();
    await page.getByRole("menuitemradio", { name: msg.ui.themeLight }).click();
    await expect(html).toHaveAttribute("data-theme", "light");
    await expect(html).toHaveCSS("color-scheme", "light");
    await page.reload();
    await expect(html).toHaveAttribute("data-theme", "light");
    await page.getByRole("button", { name: msg.ui.userMenu }).click();
    await expect(page.getByRole("menuitemradio", { name: msg.ui.themeLight })).toHaveAttribute("aria-checked", "true");
    await page.getByRole("menuitemradio", { name: msg.ui.themeSystem }).click();
    await expect(html).not.toHaveAttribute("data-theme");
    await expect(html).toHaveCSS("color-scheme", "dark");
  });

  test("a viewer sees 'Your role can view but not change this' on add routes, and disabled actions with the reason", async ({
    page,
  }) => {
    await signInAs(page, "viewer@pedal.example");
    const customer = (await apiGet(page, "/api/customers?limit=1")).items[0];
    for (const path of ["/customers/add", "/users/add", `/customers/${customer.customer_id}/add-team`]) {
      await page.goto(path);
      await expect(page.getByText(msg.ui.readOnly), path).toBeVisible();
      await expect(page.getByRole("textbox"), path).toHaveCount(0);
      await expect(page.getByRole("button", { name: /^Create/ }), path).toHaveCount(0);
    }
    await page.goto(`/customers/${customer.customer_id}`);
    const archive = page.getByRole("button", { name: /^(Archive|Unarchive)$/ });
    await expect(archive).toHaveAttribute("aria-disabled", "true");
    await expect(archive).toHaveAccessibleDescription(msg.ui.readOnly);
    await expect(archive).toHaveAttribute("title", msg.ui.readOnly);
    const addTeam = page.getByRole("button", { name: "Add Team" });
    await expect(addTeam).toHaveAttribute("aria-disabled", "true");
    await expect(page.getByRole("button", { name: msg.audit.history })).toHaveAccessibleDescription(msg.ui.adminOnly);
    await addTeam.click({ force: true });
    await expect(page).toHaveURL(new RegExp(`/customers/${customer.customer_id}$`));
  });

  test("creating a customer confirms it with a link; Add Team names the customer it is for", async ({ page }) => {
    await signIn(page, "/customers/add");
    const name = `Confirmed Co ${unique()}`;
    await page.getByLabel("Customer Name").fill(name);
    await page.getByRole("button", { name: msg.customers.create }).click();
    const banner = page.getByTestId("success-banner");
    await expect(banner).toContainText(msg.customers.created);
    await expect(banner.getByRole("link", { name })).toBeVisible();
    await page.getByRole("link", { name: "Add Team" }).click();
    await expect(page.getByText(msg.teams.addFor(name))).toBeVisible();
  });
});
