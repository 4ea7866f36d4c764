import type { Page } from "@playwright/test";
import { msg } from "../../src/domain/messages";
import { violations } from "./axe";
import { apiGet, apiWrite, expect, signIn, takeSession, test } from "./fixtures";

/** A new customer of its own (no domains) with one active team, made through the API. */
async function customerWithTeam(page: Page, customerName: string, teamName: string) {
  const customer = await (await apiWrite(page, "POST", "/api/customers", { customer_name: customerName })).json();
  const team = await (
    await apiWrite(page, "POST", "/api/teams", { customer_id: customer.customer_id, team_name: teamName })
  ).json();
  return { customer, team };
}

test.describe("editing", () => {
  test("edit a customer: name, status and domains, normalised and saved", async ({ page }) => {
    const name = `Edit Corp ${Date.now()}`;
    const created = await (async () => {
      await signIn(page, "/customers");
      const res = await apiWrite(page, "POST", "/api/customers", { customer_name: name });
      expect(res.status()).toBe(201);
      return res.json();
    })();
    await page.goto(`/customers/${created.customer_id}`);
    await page.getByRole("link", { name: "Edit" }).click();
    await expect(page.getByRole("heading", { name: msg.customers.editTitle })).toBeVisible();
    await expect(page.getByLabel("Customer Name")).toHaveValue(name);

    await page.getByLabel("Customer Name").fill("");
    await page.getByRole("button", { name: msg.edit.save }).click();
    await expect(page.getByText(msg.customers.nameRequired)).toBeVisible();

    await page.getByLabel("Customer Name").fill(`${name} Renamed`);
    await page.getByLabel("Status").selectOption("trial");
    await page.getByLabel("Valid Domains").fill("not_a domain");
    await page.getByRole("button", { name: msg.edit.save }).click();
    await expect(page.getByText(msg.edit.domainInvalid("not_a"))).toBeVisible();

    const tag = Date.now().toString(36);
    await page.getByLabel("Valid Domains").fill(`HTTPS://Edit-${tag}.Example/path, bücher-${tag}.de`);
    await page.getByRole("button", { name: msg.edit.save }).click();
    await expect(page.getByText(msg.customers.updated)).toBeVisible();
    await expect(page.getByRole("heading", { name: `${name} Renamed` })).toBeVisible();
    await expect(page.getByText(`edit-${tag}.example`)).toBeVisible();
    await expect(page.getByText(`xn--bcher-${tag}-`, { exact: false })).toBeVisible();
    const saved = await apiGet(page, `/api/customers/${created.customer_id}`);
    expect(saved.status).toBe("trial");
  });

  test("a stale save shows who changed what since, and Save anyway overwrites deliberately", async ({ page }) => {
    await signIn(page, "/customers");
    const res = await apiWrite(page, "POST", "/api/customers", { customer_name: `Stale Corp ${Date.now()}` });
    const created = await res.json();
    await page.goto(`/customers/${created.customer_id}/edit`);
    await expect(page.getByLabel("Customer Name")).toHaveValue(created.customer_name);

    // Someone else saves the customer while the form is open.
    const other = await apiWrite(page, "PATCH", `/api/customers/${created.customer_id}`, {
      customer_name: "Changed Elsewhere",
    });
    expect(other.status()).toBe(200);

    await page.getByLabel("Customer Name").fill("Mine Wins");
    await page.getByRole("button", { name: msg.edit.save }).click();
    const panel = page.getByTestId("conflict-panel");
    await expect(panel).toContainText(msg.edit.stale);
    await expect(panel).toContainText(`admin@pedal.example changed Customer Name ${msg.edit.justNow}`);
    await expect(panel.getByRole("button", { name: msg.edit.reload })).toBeVisible();
    await panel.getByRole("button", { name: msg.edit.saveAnyway }).click();
    await expect(page.getByText(msg.customers.updated)).toBeVisible();
    await expect(page.getByRole("heading", { name: "Mine Wins" })).toBeVisible();
    expect((await apiGet(page, `/api/customers/${created.customer_id}`)).customer_name).toBe("Mine Wins");

    // Reload takes the current values instead.
    await page.goto(`/customers/${created.customer_id}/edit`);
    await expect(page.getByLabel("Customer Name")).toHaveValue("Mine Wins");
    await apiWrite(page, "PATCH", `/api/customers/${created.customer_id}`, { customer_name: "Theirs" });
    await page.getByLabel("Customer Name").fill("Not Saved");
    await page.getByRole("button", { name: msg.edit.save }).click();
    await page.getByTestId("conflict-panel").getByRole("button", { name: msg.edit.reload }).click();
    await expect(page.getByLabel("Customer Name")).toHaveValue("Theirs");
    await expect(page.getByTestId("conflict-panel")).toBeHidden();
  });

  test("a colleague's change to another field survives my save; a field we both changed shows both values", async ({
    page,
    browser,
  }) => {
    await signIn(page, "/users");
    const { items } = await apiGet<{
      items: Array<{
        user_id: string;
        first_name: string | null;
        status: string;
        roles: string[];
        directory_managed: boolean;
      }>;
    }>(page, "/api/users?limit=100");
    // Not one a customer's directory provisioned (another test's): its save would ask first.
    const user = items.find(
      (u) => u.status === "active" && u.first_name && !u.roles.includes("admin") && !u.directory_managed,
    )!;
    const edit = `/users/${user.user_id}/edit`;
    // The colleague: another tab of its own, signed in, on the same form.
    const context = await browser.newContext({ baseURL: new URL(page.url()).origin });
    const colleague = await context.newPage();
    await takeSession(colleague);
    await colleague.goto(edit);
    await page.goto(edit);
    await expect(page.getByLabel("First Name")).toHaveValue(user.first_name!);
    await expect(colleague.getByLabel("First Name")).toHaveValue(user.first_name!);

    const tag = Date.now().toString(36);
    await colleague.getByLabel("Job Title").fill(`Team Lead ${tag}`);
    await colleague.getByRole("checkbox", { name: "Admin" }).check();
    await colleague.getByRole("button", { name: msg.edit.save }).click();
    await expect(colleague.getByText(msg.users.updated)).toBeVisible();

    // Mine changes only Last Name: saved as it is, no panel, the colleague's title and role kept.
    await page.getByLabel("Last Name").fill(`Mine ${tag}`);
    await page.getByRole("button", { name: msg.edit.save }).click();
    await expect(page.getByText(msg.users.updated)).toBeVisible();
    const merged = await apiGet(page, `/api/users/${user.user_id}`);
    expect(merged).toMatchObject({ last_name: `Mine ${tag}`, job_title: `Team Lead ${tag}` });
    expect(merged.roles).toContain("admin");

    // Both change Job Title: the panel quotes both; Save anyway keeps mine there and theirs elsewhere.
    await colleague.goto(edit);
    await page.goto(edit);
    await expect(page.getByLabel("Job Title")).toHaveValue(`Team Lead ${tag}`);
    await expect(colleague.getByLabel("Job Title")).toHaveValue(`Team Lead ${tag}`);
    await colleague.getByLabel("Job Title").fill(`Theirs ${tag}`);
    await colleague.getByLabel("First Name").fill(`Colleague ${tag}`);
    await colleague.getByRole("button", { name: msg.edit.save }).click();
    await expect(colleague.getByText(msg.users.updated)).toBeVisible();
    await page.getByLabel("Job Title").fill(`Yours ${tag}`);
    await page.getByRole("button", { name: msg.edit.save }).click();
    const panel = page.getByTestId("conflict-panel");
    await expect(panel.getByTestId("both-changed")).toContainText(
      msg.edit.theirsMine("Job Title", `Theirs ${tag}`, `Yours ${tag}`),
    );
    await panel.getByRole("button", { name: msg.edit.saveAnyway }).click();
    await expect(page.getByText(msg.users.updated)).toBeVisible();
    expect(await apiGet(page, `/api/users/${user.user_id}`)).toMatchObject({
      first_name: `Colleague ${tag}`,
      job_title: `Yours ${tag}`,
    });

    // Both change two fields: field by field, Keep theirs for one and Save anyway keeps mine for the other.
    await colleague.goto(edit);
    await page.goto(edit);
    await expect(page.getByLabel("Job Title")).toHaveValue(`Yours ${tag}`);
    await expect(colleague.getByLabel("Job Title")).toHaveValue(`Yours ${tag}`);
    await colleague.getByLabel("Job Title").fill(`Their title ${tag}`);
    await colleague.getByLabel("Last Name").fill(`Their name ${tag}`);
    await colleague.getByRole("button", { name: msg.edit.save }).click();
    await expect(colleague.getByText(msg.users.updated)).toBeVisible();
    await page.getByLabel("Job Title").fill(`My title ${tag}`);
    await page.getByLabel("Last Name").fill(`My name ${tag}`);
    await page.getByRole("button", { name: msg.edit.save }).click();
    await expect(panel.getByRole("button", { name: msg.edit.keepTheirsFor("Last Name") })).toBeVisible();
    expect(await violations(page, "conflict panel")).toEqual([]);
    await panel.getByRole("button", { name: msg.edit.keepTheirsFor("Job Title") }).click();
    await expect(page.getByLabel("Job Title")).toHaveValue(`Their title ${tag}`);
    await expect(panel.getByTestId("both-changed")).not.toContainText("Job Title");
    await panel.getByRole("button", { name: msg.edit.saveAnyway }).click();
    await expect(page.getByText(msg.users.updated)).toBeVisible();
    expect(await apiGet(page, `/api/users/${user.user_id}`)).toMatchObject({
      job_title: `Their title ${tag}`,
      last_name: `My name ${tag}`,
    });
    await context.close();
  });

  test("a member's roles change from the team page; a colleague's roles changed meanwhile merge with mine", async ({
    page,
  }) => {
    await signIn(page, "/teams");
    const tag = Date.now().toString(36);
    const { customer, team } = await customerWithTeam(page, `Roles Co ${tag}`, `Leads ${tag}`);
    const created = await apiWrite(page, "POST", "/api/users", {
      email: `lin-${tag}@roles.test`,
      customer_id: customer.customer_id,
    });
    expect(created.status()).toBe(201);
    const user = await created.json();
    expect((await apiWrite(page, "PATCH", `/api/users/${user.user_id}`, { roles: ["member"] })).status()).toBe(200);
    await apiWrite(page, "POST", `/api/users/${user.user_id}/teams`, { team_id: team.team_id });

    await page.goto(`/teams/${team.team_id}`);
    const row = page.getByRole("table", { name: "Members" }).getByRole("row", { name: new RegExp(user.email) });
    await row.getByRole("button", { name: msg.users.changeRoles(user.email) }).click();
    const dialog = page.getByRole("dialog", { name: msg.users.rolesOf(user.email) });
    await expect(dialog.getByRole("checkbox", { name: "Member" })).toBeChecked();
    // Meanwhile a colleague makes them an admin and takes Member away.
    expect((await apiWrite(page, "PATCH", `/api/users/${user.user_id}`, { roles: ["admin"] })).status()).toBe(200);
    // I make them a manager: both changes stand, nothing is asked.
    await dialog.getByRole("checkbox", { name: "Manager" }).check();
    await dialog.getByRole("button", { name: msg.users.saveRoles }).click();
    await expect(page.getByText(msg.users.rolesSaved(user.email))).toBeVisible();
    await expect(dialog).toBeHidden();
    expect((await apiGet<{ roles: string[] }>(page, `/api/users/${user.user_id}`)).roles).toEqual(["admin", "manager"]);
    await expect(row.getByText("Manager")).toBeVisible();
    await expect(row.getByText("Admin")).toBeVisible();

    // A change of another kind since (the status) goes through too: only roles are sent.
    await row.getByRole("button", { name: msg.users.changeRoles(user.email) }).click();
    await apiWrite(page, "PATCH", `/api/users/${user.user_id}`, { status: "inactive" });
    await dialog.getByRole("checkbox", { name: "Admin" }).uncheck();
    await dialog.getByRole("button", { name: msg.users.saveRoles }).click();
    await expect(dialog).toBeHidden();
    const after = await apiGet<{ roles: string[]; status: string }>(page, `/api/users/${user.user_id}`);
    expect(after).toMatchObject({ roles: ["manager"], status: "inactive" });
  });

  test("Add Member on the team page lists the customer's active non-members and adds one", async ({ page }) => {
    await signIn(page, "/teams");
    const tag = Date.now().toString(36);
    const { customer, team } = await customerWithTeam(page, `Member Co ${tag}`, `Crew ${tag}`);
    for (const name of ["ada", "grace"]) {
      const res = await apiWrite(page, "POST", "/api/users", {
        email: `${name}-${tag}@member.test`,
        customer_id: customer.customer_id,
      });
      expect(res.status()).toBe(201);
    }
    await page.goto(`/teams/${team.team_id}`);
    await page.getByRole("button", { name: msg.teams.addMemberTitle }).click();
    const dialog = page.getByRole("dialog", { name: msg.teams.addMemberTitle });
    await expect(dialog.getByRole("list", { name: "Available users" }).getByRole("listitem")).toHaveCount(2);
    await dialog.getByRole("searchbox").fill("grace");
    await expect(dialog.getByRole("list", { name: "Available users" }).getByRole("listitem")).toHaveCount(1);
    await dialog.getByRole("button", { name: `Add grace-${tag}@member.test to the team` }).click();
    await expect(page.getByText(msg.teams.memberAdded)).toBeVisible();
    await expect(dialog.getByText(msg.teams.noUserMatch)).toBeVisible();
    await dialog.getByRole("button", { name: "Close" }).first().click();
    await expect(
      page.getByRole("table", { name: "Members" }).getByText(`grace-${tag}@member.test`).first(),
    ).toBeVisible();
  });
});
