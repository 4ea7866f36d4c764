import type { Page } from "@playwright/test";
import { msg } from "../../src/domain/messages";
import type { UserListItem } from "../../src/domain/users";
import { apiGet, expect, goBack, pageOrigin, pickOption, signIn, statCard, test } from "./fixtures";

const unique = () => `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;

/** POST an API path with the page's session (and the console's Origin, as the browser sends it), as JSON. */
async function apiPost<T = any>(page: Page, path: string, data: unknown): Promise<T> {
  const res = await page.request.post(path, { data, headers: { origin: pageOrigin(page) } });
  expect(res.status(), `${path} ${await res.text()}`).toBe(201);
  return res.json();
}

/** A customer of this test's own, with an active and an inactive team, and a user with no team. */
async function ownUserWithTeams(page: Page) {
  const tag = unique();
  const customer = await apiPost(page, "/api/customers", { customer_name: `E2E Users Customer ${tag}` });
  const team = await apiPost(page, "/api/teams", { customer_id: customer.customer_id, team_name: `E2E Alpha ${tag}` });
  const archived = await apiPost(page, "/api/teams", {
    customer_id: customer.customer_id,
    team_name: `E2E Archived ${tag}`,
    status: "inactive",
  });
  const user: UserListItem = await apiPost(page, "/api/users", {
    email: `e2e-member-${tag}@users.test`,
    customer_id: customer.customer_id,
  });
  return { customer, team, archived, user };
}

/** A user holding all three roles, found through the API. */
async function userWithThreeRoles(page: Page): Promise<UserListItem> {
  for (let offset = 0; ; offset += 200) {
    const { items, total } = await apiGet<{ items: UserListItem[]; total: number }>(
      page,
      `/api/users?limit=200&offset=${offset}`,
    );
    const found = items.find((u) => u.roles.length === 3 && u.first_name);
    if (found) return found;
    if (offset + 200 >= total) throw new Error("no user with three roles");
  }
}

test.describe("users", () => {
  test("list shows the cards, columns, role badges with +N more, and opens a user", async ({ page }) => {
    await signIn(page, "/users");
    const { summary, total } = await apiGet(page, "/api/users?limit=1");
    await expect(statCard(page, "Total")).toContainText(String(summary.total));
    await expect(statCard(page, "Active")).toContainText(String(summary.active));
    await expect(statCard(page, "Inactive")).toContainText(String(summary.inactive));
    await expect(statCard(page, "Recent Logins (24h)")).toContainText(String(summary.recent_logins));
    const table = page.getByRole("table", { name: "Users" });
    for (const header of ["User", "Customer", "Roles", "Job Title", "Status", "Last Login", "Created"]) {
      await expect(table.getByRole("columnheader", { name: header })).toBeVisible();
    }
    await expect(table.getByRole("row")).toHaveCount(Math.min(total, 50) + 1);

    const three = await userWithThreeRoles(page);
    await page.getByRole("searchbox", { name: "Search users..." }).fill(three.email.toUpperCase());
    await expect(page).toHaveURL(/q=/);
    await expect(table.getByRole("row")).toHaveCount(2);
    const row = table.getByRole("row").nth(1);
    await expect(row.getByText("Admin", { exact: true })).toBeVisible();
    await expect(row.getByText("Manager", { exact: true })).toBeVisible();
    await expect(row.getByText("Member", { exact: true })).toHaveCount(0);
    await expect(row.getByText(msg.users.moreRoles(1))).toBeVisible();
    await expect(row).toContainText(three.customer_name!);
    await expect(row).toContainText(three.job_title ?? msg.users.noJobTitle);

    await row.getByRole("cell").nth(3).click(); // anywhere on the row but a link or the selection box
    await expect(page).toHaveURL(new RegExp(`/users/${three.user_id}$`));
    const name = `${three.first_name} ${three.last_name}`;
    await expect(page.getByRole("heading", { name })).toBeVisible();
    for (const label of ["Customer", "Status", "Total Teams", "Active Teams"])
      await expect(statCard(page, label)).toBeVisible();
    const roles = page.getByRole("region", { name: "Roles" });
    for (const role of ["Admin", "Manager", "Member"])
      await expect(roles.getByText(role, { exact: true })).toBeVisible();
    await expect(page.getByText(three.user_id)).toBeVisible();
    const detail = await apiGet(page, `/api/users/${three.user_id}`);
    await expect(statCard(page, "Total Teams")).toContainText(String(detail.stats.total_teams));
    await expect(page.getByRole("table", { name: "Team Memberships" }).getByRole("row")).toHaveCount(
      Math.max(1, detail.stats.total_teams) + 1,
    );
    await page.getByRole("link", { name: "Back to Customer" }).click();
    await expect(page).toHaveURL(new RegExp(`/customers/${three.customer_id}$`));
  });

  test("filters by customer, with cards and rows of that customer only", async ({ page }) => {
    await signIn(page, "/users");
    const { items: customers } = await apiGet(page, "/api/customers?limit=200&sort=user_count&order=desc");
    const customer = customers[0];
    const picker = page.getByRole("combobox", { name: "Customer" });
    await expect(picker).toHaveValue(msg.teams.allCustomers);
    await picker.fill(customer.customer_name);
    await page
      .getByRole("listbox", { name: "Customer" })
      .getByRole("option", { name: customer.customer_name, exact: true })
      .click();
    await expect(page).toHaveURL(new RegExp(`customer=${customer.customer_id}`));
    const filtered = await apiGet(page, `/api/users?customer_id=${customer.customer_id}&limit=1`);
    expect(filtered.total).toBeGreaterThan(1);
    await expect(statCard(page, "Total")).toContainText(String(filtered.summary.total));
    await expect(statCard(page, "Active")).toContainText(String(filtered.summary.active));
    await expect(statCard(page, "Inactive")).toContainText(String(filtered.summary.inactive));
    await expect(statCard(page, "Recent Logins (24h)")).toContainText(String(filtered.summary.recent_logins));
    const table = page.getByRole("table", { name: "Users" });
    await expect(table.getByRole("row")).toHaveCount(Math.min(filtered.total, 50) + 1);
    const customerCells = table.getByRole("row").locator("td:nth-child(3)"); // after the selection box and the name
    for (const text of await customerCells.allTextContents()) expect(text).toBe(customer.customer_name);

    await page.reload();
    await expect(picker).toHaveValue(customer.customer_name);
    await page.getByRole("button", { name: "Clear Customer" }).click();
    await expect(page).not.toHaveURL(/customer=/);
    // Back returns to the filtered list (a filter change is a history entry).
    await goBack(page);
    await expect(page).toHaveURL(new RegExp(`customer=${customer.customer_id}`));
  });

  test("filters by status: the pending users only, cards over them, the filter in the URL", async ({ page }) => {
    await signIn(page, "/users");
    const pending = await apiGet(page, "/api/users?status=pending&limit=1");
    expect(pending.total).toBeGreaterThan(0);
    await page.getByLabel(msg.attention.statusFilter).selectOption("pending");
    await expect(page).toHaveURL(/status=pending/);
    await expect(statCard(page, "Total")).toContainText(String(pending.summary.total));
    await expect(statCard(page, "Active")).toContainText("0");
    const table = page.getByRole("table", { name: "Users" });
    await expect(table.getByRole("row")).toHaveCount(Math.min(pending.total, 50) + 1);
    await expect(table.getByText("Pending", { exact: true })).toHaveCount(Math.min(pending.total, 50));
    await expect(table.getByText("Active", { exact: true })).toHaveCount(0);

    // The bulk dialog names the statuses as the badges do, not as the API spells them.
    await page.getByRole("checkbox", { name: msg.bulk.selectPage }).click();
    await page.getByTestId("bulk-bar").getByRole("button", { name: msg.bulk.actions.set_status, exact: true }).click();
    const status = page.getByTestId("modal").getByLabel(msg.bulk.chooseStatus);
    await expect(status.getByRole("option")).toHaveText([msg.bulk.paramsRequired, "Active", "Inactive", "Pending"]);
  });

  test("add a user to a team from the modal and leave it with the confirm dialog", async ({ page }) => {
    await signIn(page, "/users");
    const { customer, team, archived, user } = await ownUserWithTeams(page);
    await page.goto(`/users/${user.user_id}`);
    await expect(page.getByRole("heading", { name: user.email })).toBeVisible();
    await expect(statCard(page, "Customer")).toContainText(customer.customer_name);
    await expect(statCard(page, "Total Teams")).toContainText("0");
    await expect(page.getByText(msg.users.notProvided)).toBeVisible();
    await expect(page.getByText(msg.users.notSpecified)).toBeVisible();
    await expect(page.getByText(msg.users.noRolesAssigned)).toBeVisible();
    await expect(page.getByText(msg.users.neverLoggedIn)).toBeVisible();
    const memberships = page.getByRole("table", { name: "Team Memberships" });
    await expect(memberships.getByText(msg.users.noMemberships)).toBeVisible();

    await page.getByRole("button", { name: "Add Team" }).click();
    const modal = page.getByRole("dialog", { name: msg.users.addTeamTitle });
    const offered = modal.getByRole("list", { name: "Available teams" }).getByRole("listitem");
    await expect(offered).toHaveCount(1);
    await expect(offered).toContainText(team.team_name);
    await expect(modal.getByText(archived.team_name)).toHaveCount(0);
    await offered.getByRole("button", { name: "Add to Team" }).click();
    await expect(page.getByTestId("success-banner")).toHaveText(msg.users.addedToTeam);
    await expect(modal.getByText(team.team_name)).toHaveCount(0);
    await expect(modal.getByText(msg.users.allTeamsJoined)).toBeVisible();
    await modal.getByRole("button", { name: "Close" }).first().click();
    await expect(memberships.getByRole("link", { name: team.team_name })).toBeVisible();
    await expect(statCard(page, "Total Teams")).toContainText("1");
    await expect(statCard(page, "Active Teams")).toContainText("1");

    await memberships.getByRole("button", { name: `Leave Team ${team.team_name}` }).click();
    const confirm = page.getByRole("dialog", { name: "Leave Team" });
    await expect(confirm).toContainText(team.team_name);
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(memberships.getByRole("link", { name: team.team_name })).toBeVisible();
    await memberships.getByRole("button", { name: `Leave Team ${team.team_name}` }).click();
    await confirm.getByRole("button", { name: "Leave Team" }).click();
    await expect(page.getByTestId("success-banner")).toHaveText(msg.users.leftTeam);
    await expect(memberships.getByRole("link", { name: team.team_name })).toHaveCount(0);
    await expect(statCard(page, "Total Teams")).toContainText("0");
    expect((await apiGet(page, `/api/users/${user.user_id}/teams`)).total).toBe(0);
    // The confirmation offers Undo for 10 s (issue 33), then goes.
    await expect(page.getByTestId("success-banner")).toBeHidden({ timeout: 12_000 });
  });

  test("create a user: validation messages, then /users with the new user listed; a taken email is refused", async ({
    page,
  }) => {
    await signIn(page, "/users");
    const customer = await apiPost(page, "/api/customers", { customer_name: `E2E Add User ${unique()}` });
    await page.getByRole("link", { name: "Add User" }).first().click();
    await expect(page).toHaveURL(/\/users\/add$/);
    await expect(page.getByRole("heading", { name: msg.users.addTitle })).toBeVisible();
    await expect(page.getByLabel("Status")).toHaveValue("active");
    // The customer picker offers active customers by name, 20 at most, narrowed by typing.
    await page.getByRole("combobox", { name: "Customer" }).click();
    const offered = page.getByRole("listbox", { name: "Customer" }).getByRole("option");
    const active = (await apiGet(page, "/api/customers/options?active=true")).items.map(
      (c: { customer_name: string }) => c.customer_name,
    );
    await expect(offered).toHaveText(active);
    await page.getByRole("combobox", { name: "Customer" }).press("Escape");

    await page.getByRole("button", { name: "Create User" }).click();
    await expect(page.getByText(msg.users.emailRequired)).toBeVisible();
    await expect(page.getByText(msg.users.customerRequired)).toBeVisible();
    await page.getByLabel("Email Address").fill("not an email");
    await page.getByRole("button", { name: "Create User" }).click();
    await expect(page.getByText(msg.users.emailInvalid)).toBeVisible();

    const local = `E2E.New.${unique()}`;
    await page.getByLabel("Email Address").fill(`  ${local}@Users.TEST `);
    await pickOption(page, "Customer", customer.customer_name);
    await page.getByLabel("Status").selectOption("pending");
    await page.getByRole("button", { name: "Create User" }).click();
    await expect(page).toHaveURL(/\/users$/);
    const email = `${local.toLowerCase()}@users.test`;
    // "User created", with a link to the new user.
    await expect(page.getByTestId("success-banner")).toContainText(msg.users.created);
    await expect(page.getByTestId("success-banner").getByRole("link", { name: email })).toHaveAttribute(
      "href",
      /\/users\/[0-9a-f-]{36}$/,
    );
    const table = page.getByRole("table", { name: "Users" });
    const row = table.getByRole("row").filter({ hasText: email });
    await expect(row).toBeVisible();
    await expect(row).toContainText(customer.customer_name);
    await expect(row).toContainText("Pending");
    await expect(row).toContainText(msg.users.noRoles);
    await expect(row).toContainText(msg.fallbacks.neverLoggedIn);

    await page.goto("/users/add");
    await page.getByLabel("Email Address").fill(email.toUpperCase());
    await pickOption(page, "Customer", customer.customer_name);
    await page.getByRole("button", { name: "Create User" }).click();
    // The duplicate email is said once, under its field.
    await expect(page.getByTestId("field-error")).toHaveText(msg.users.emailTaken);
    await expect(page.getByText(msg.users.emailTaken)).toHaveCount(1);
    await expect(page.getByTestId("form-error")).toHaveCount(0);
    await expect(page).toHaveURL(/\/users\/add$/);
    // Cancel with the form filled asks before the typing is lost.
    await page.getByRole("link", { name: "Cancel" }).click();
    await page.getByRole("dialog", { name: msg.ui.unsavedTitle }).getByRole("button", { name: msg.ui.discard }).click();
    await expect(page).toHaveURL(/\/users$/);
  });

  test("error and empty states: list failure with Retry, empty list, unknown user, customer list problems", async ({
    page,
  }) => {
    const failure = {
      status: 503,
      contentType: "application/json",
      body: JSON.stringify({ error: { code: "internal", message: "Service unavailable" } }),
    };
    await page.route("**/api/users?**", (route) => route.fulfill(failure));
    await signIn(page, "/users");
    await expect(page.getByText(msg.users.loadError)).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText("Service unavailable")).toBeVisible();
    await expect(page.getByText(msg.users.noData)).toBeVisible();
    await expect(statCard(page, "Total")).toContainText(msg.lists.cardUnavailable);
    await page.unroute("**/api/users?**");
    await page.getByRole("button", { name: msg.app.retry }).click();
    await expect(page.getByText(msg.users.loadError)).toBeHidden();
    await expect(page.getByRole("table", { name: "Users" }).getByRole("row")).not.toHaveCount(1);

    const empty = {
      items: [],
      total: 0,
      total_exact: true,
      summary: { total: 0, active: 0, inactive: 0, recent_logins: 0 },
      summary_exact: true,
      summary_as_of: null,
      counting: false,
      next_cursor: null,
      prev_cursor: null,
    };
    await page.route("**/api/users?**", (route) =>
      route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(empty) }),
    );
    await page.goto("/users");
    await expect(page.getByText(msg.users.empty)).toBeVisible();
    await expect(page.getByText(msg.users.emptyHint)).toBeVisible();
    await page.unroute("**/api/users?**");

    await page.goto("/users/00000000-0000-4000-8000-000000000000");
    await expect(page.getByRole("heading", { name: msg.users.loadOneError })).toBeVisible();
    await expect(page.getByText(msg.users.notFound)).toBeVisible();
    await expect(page.getByRole("button", { name: msg.app.retry })).toHaveCount(0);
    await page.getByRole("link", { name: "Back to Users" }).click();
    await expect(page).toHaveURL(/\/users$/);

    await page.route("**/api/customers/options?**", (route) => route.fulfill(failure));
    await page.goto("/users/add");
    await expect(page.getByText(msg.customers.loadErrorWith("Service unavailable"))).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole("button", { name: "Create User" })).toBeDisabled();
    await page.unroute("**/api/customers/options?**");
    await page.route("**/api/customers/options?**", (route) =>
      route.fulfill({
        status: 200,
        contentType: "application/json",
        body: JSON.stringify({ items: [], more: false, next: null }),
      }),
    );
    await page.goto("/users/add");
    await expect(page.getByText(msg.users.noActiveCustomers)).toBeVisible();
    await expect(page.getByRole("button", { name: "Create User" })).toBeDisabled();
  });
});
