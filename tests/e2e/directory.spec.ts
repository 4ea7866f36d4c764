import { directoryMsg } from "../../src/domain/directory-messages";
import { msg } from "../../src/domain/messages";
import { violations } from "./axe";
import { apiWrite, expect, signIn, test } from "./fixtures";

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
  await page.goBack();

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
