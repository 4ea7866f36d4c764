/**
 * Undo and restore in the browser (issue 33): a deleted team comes back with its members from the
 * toast's Undo; a deleted skill comes back from Recently deleted.
 */
import { msg, timings } from "../../src/domain/messages";
import { showTheme, violations } from "./axe";
import { apiGet, apiWrite, expect, signIn, test } from "./fixtures";

test.describe("undo and restore", () => {
  test("delete a team, click Undo in the toast: the team is back with its members", async ({ page }) => {
    await signIn(page, "/customers");
    const { items } = await apiGet<{ items: Array<{ user_id: string; customer_id: string }> }>(
      page,
      "/api/users?limit=1",
    );
    const user = items[0];
    const customer = await apiGet<{ customer_name: string }>(page, `/api/customers/${user.customer_id}`);
    const teamName = `Undo Team ${Date.now()}`;
    const team = await (
      await apiWrite(page, "POST", "/api/teams", { customer_id: user.customer_id, team_name: teamName })
    ).json();
    expect((await apiWrite(page, "POST", `/api/users/${user.user_id}/teams`, { team_id: team.team_id })).status()).toBe(
      201,
    );

    await page.clock.install();
    await page.goto(`/teams/${team.team_id}`);
    await page.getByRole("button", { name: "Delete Team" }).click();
    await page.getByRole("dialog", { name: "Delete Team" }).getByRole("button", { name: "Delete Team" }).click();
    // The spec's message on the page, and Undo in the toast beside it.
    await expect(page.getByText(msg.teams.deleted)).toBeVisible();
    await page.getByTestId("undo-notice").getByRole("button", { name: msg.deleted.undo }).click();
    // Named with its customer, and a link to its page (issue 46).
    const restored = page.getByTestId("success-banner").last();
    await expect(restored).toContainText(msg.deleted.restored(msg.teams.named(teamName, customer.customer_name)));
    // Undone before the page goes on to the customer: it stays, showing the team again.
    await expect(page.getByRole("heading", { name: teamName })).toBeVisible();
    await page.clock.runFor(timings.afterTeamDeleteMs * 2);
    await expect(page).toHaveURL(`/teams/${team.team_id}`);
    await expect(page.getByRole("heading", { name: teamName })).toBeVisible();
    expect((await apiGet(page, `/api/users?team_id=${team.team_id}`)).total).toBe(1);
  });

  test("restore a deleted skill from Recently deleted", async ({ page }) => {
    await signIn(page, "/");
    const name = `Undo Skill ${Date.now()}`;
    const skill = await (await apiWrite(page, "POST", "/api/skills", { skill_name: name })).json();
    expect((await apiWrite(page, "DELETE", `/api/skills/${skill.skill_id}`)).status()).toBe(200);

    await page.goto("/deleted");
    await expect(page.getByRole("heading", { name: msg.deleted.title })).toBeVisible();
    const table = page.getByRole("table", { name: msg.deleted.title });
    await table.getByRole("button", { name: `${msg.deleted.restore} ${name}` }).click();
    await expect(page.getByTestId("success-banner")).toContainText(msg.deleted.restored(name));
    // Pointed at, the notice stays (it would leave after 6 s) while the checks below look at it.
    await page.getByTestId("success-banner").hover();
    // The notice reads as well as the page does, in both themes.
    for (const theme of ["light", "dark"] as const) {
      await showTheme(page, theme);
      expect(await violations(page, `restore notice (${theme})`)).toEqual([]);
    }
    await expect(table.getByText(name)).toHaveCount(0);
    expect((await page.request.get(`/api/skills/${skill.skill_id}`)).status()).toBe(200);
    // The notice links to the record it brought back.
    await page.getByTestId("success-banner").getByRole("link", { name: msg.deleted.open }).click();
    await expect(page).toHaveURL(`/skills/${skill.skill_id}`);
    await expect(page.getByRole("heading", { name })).toBeVisible();
  });
});
