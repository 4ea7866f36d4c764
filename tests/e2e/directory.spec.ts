import { directoryMsg } from "../../src/domain/directory-messages";
import { msg } from "../../src/domain/messages";
import { violations } from "./axe";
import type { Locator } from "@playwright/test";
import { apiGet, apiWrite, expect, signIn, test } from "./fixtures";

test("an admin turns on a customer's directory sync, sees its token once, and the page shows the directory's work", async ({
  page,
  playwright,
}) => {
  await signIn(page);
  const made = await apiWrite(page, "POST", "/api/customers", {
    customer_name: `Directory ${Date.now()}`,
    valid_domains: "directory.example",
    status: "active",
  });
  expect(made.status()).toBe(201);
  const { customer_id } = (await made.json()) as { customer_id: string };
  await page.goto(`/customers/${customer_id}`);
  const section = page.getByRole("region", { name: directoryMsg.title });
  await expect(section).toContainText(directoryMsg.off);
  await expect(section).toContainText(directoryMsg.offHint);
  await expect(section).toContainText(directoryMsg.noTokens);

  await section.getByRole("button", { name: directoryMsg.createToken }).click();
  const form = page.getByRole("dialog", { name: directoryMsg.createToken });
  await form.getByLabel(directoryMsg.tokenName).fill("Okta");
  await form.getByRole("button", { name: directoryMsg.createToken }).click();
  const shown = page.getByRole("dialog", { name: directoryMsg.createdTitle });
  const token = await shown.getByTestId("new-token").inputValue();
  expect(token).toMatch(/^scim_[A-Za-z0-9_-]{43}$/);
  await expect(shown).toContainText("/scim/v2");
  expect(await violations(page, "new directory token")).toEqual([]);
  await shown.getByRole("button", { name: msg.apiTokens.done }).click();
  await expect(section).toContainText(directoryMsg.on);
  await expect(section.getByRole("row").filter({ hasText: "Okta" })).toContainText(token.slice(0, 12));

  // The identity provider provisions one user and is refused another.
  const idp = await playwright.request.newContext({ baseURL: new URL(page.url()).origin });
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/scim+json" };
  const user = { schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"], userName: "new.hire@directory.example" };
  const provisioned = await idp.post("/scim/v2/Users", { headers, data: user });
  expect(provisioned.status()).toBe(201);
  const { id: userId } = (await provisioned.json()) as { id: string };
  const outside = await idp.post("/scim/v2/Users", { headers, data: { ...user, userName: "x@elsewhere.example" } });
  expect(outside.status()).toBe(400);

  await page.reload();
  await expect(section).toContainText(directoryMsg.todayCounts(1, 0, 0));
  await expect(section).toContainText(directoryMsg.managedCounts(1, 0));
  const refusals = section.getByRole("table", { name: directoryMsg.errors });
  await expect(refusals).toContainText("POST /scim/v2/Users");
  await expect(refusals).toContainText(msg.edit.domainMismatch("elsewhere.example"));
  await expect(page.getByRole("table", { name: "Users" })).toContainText("new.hire@directory.example");
  expect(await violations(page, "directory section")).toEqual([]);

  // The user it made carries the mark, with what it means on hover.
  await page.goto(`/users/${userId}`);
  const mark = page.getByText(directoryMsg.managedMark);
  await expect(mark).toBeVisible();
  await expect(page.locator(`[title="${directoryMsg.managedHint}"]`)).toBeVisible();

  // The lists mark the directory's user and team beside their names, and not the console's.
  const group = await idp.post("/scim/v2/Groups", {
    headers,
    data: { schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"], displayName: "Directory Crew", members: [] },
  });
  expect(group.status()).toBe(201);
  const consoleUser = await apiWrite(page, "POST", "/api/users", {
    email: "console.hire@directory.example",
    customer_id,
  });
  expect(consoleUser.status()).toBe(201);
  const consoleTeam = await apiWrite(page, "POST", "/api/teams", { customer_id, team_name: "Console Crew" });
  expect(consoleTeam.status()).toBe(201);
  const marked = (row: Locator) => row.getByRole("img", { name: directoryMsg.managedMark });
  await page.goto(`/users?customer=${customer_id}`);
  const userRow = page.getByRole("row").filter({ hasText: "new.hire@directory.example" });
  await expect(marked(userRow)).toBeVisible();
  expect(await marked(userRow).getAttribute("title")).toContain(directoryMsg.managedHint);
  await expect(page.getByRole("row").filter({ hasText: "console.hire@directory.example" })).toBeVisible();
  await expect(marked(page.getByRole("row").filter({ hasText: "console.hire@directory.example" }))).toHaveCount(0);
  expect(await violations(page, "users list with the directory's mark")).toEqual([]);
  await page.goto(`/teams?customer=${customer_id}`);
  await expect(marked(page.getByRole("row").filter({ hasText: "Directory Crew" }))).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "Console Crew" })).toBeVisible();
  await expect(marked(page.getByRole("row").filter({ hasText: "Console Crew" }))).toHaveCount(0);

  // A new first name asks first (the next sync overwrites it): Cancel keeps the form unsaved, Save anyway saves.
  await page.goto(`/users/${userId}/edit`);
  await page.getByLabel("First Name").fill("Ada");
  await page.getByRole("button", { name: msg.edit.save }).click();
  const ask = page.getByRole("dialog", { name: directoryMsg.overwriteTitle });
  await expect(ask).toContainText(directoryMsg.overwriteConfirm("user", ["First Name"]));
  await ask.getByRole("button", { name: msg.ui.cancel }).click();
  await expect(ask).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/users/${userId}/edit$`));
  await expect(page.getByLabel("First Name")).toHaveValue("Ada");
  expect((await apiGet(page, `/api/users/${userId}`)).first_name).toBeNull();
  await page.getByRole("button", { name: msg.edit.save }).click();
  await ask.getByRole("button", { name: msg.edit.saveAnyway }).click();
  await expect(page.getByText(msg.users.updated)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/users/${userId}$`));
  expect((await apiGet(page, `/api/users/${userId}`)).first_name).toBe("Ada");
  // Roles are the console's own: saved without asking.
  await page.goto(`/users/${userId}/edit`);
  await page.getByRole("checkbox", { name: "Manager" }).check();
  await page.getByRole("button", { name: msg.edit.save }).click();
  await expect(page).toHaveURL(new RegExp(`/users/${userId}$`));
  await expect(ask).toHaveCount(0);
  expect((await apiGet(page, `/api/users/${userId}`)).roles).toContain("manager");
  await page.goto(`/customers/${customer_id}`);

  // Revoked: refused at once.
  await section.getByRole("button", { name: `${directoryMsg.revoke} Okta` }).click();
  const confirm = page.getByRole("dialog", { name: directoryMsg.revoke });
  await expect(confirm).toContainText(directoryMsg.revokeConfirm("Okta"));
  await confirm.getByRole("button", { name: directoryMsg.revoke }).click();
  await expect(page.getByTestId("success-banner")).toContainText(directoryMsg.revoked);
  await expect(section).toContainText(directoryMsg.off);
  expect((await idp.get("/scim/v2/Users", { headers })).status()).toBe(401);
  await idp.dispose();
});
