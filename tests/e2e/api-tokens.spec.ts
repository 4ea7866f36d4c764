import { msg } from "../../src/domain/messages";
import { expect, signIn, test } from "./fixtures";

test("an operator creates an API token from the user menu, sees it once, uses it, and revokes it", async ({
  page,
  playwright,
}) => {
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page);
  await page.getByRole("button", { name: msg.ui.userMenu }).click();
  await page.getByRole("menuitem", { name: msg.apiTokens.menu }).click();
  await expect(page.getByRole("heading", { level: 1, name: msg.apiTokens.title })).toBeVisible();

  const name = `E2E script ${Date.now()}`;
  await page.getByRole("button", { name: msg.apiTokens.create }).click();
  const form = page.getByRole("dialog", { name: msg.apiTokens.create });
  await form.getByLabel(msg.apiTokens.name).fill(name);
  await expect(form.getByLabel(msg.apiTokens.expiresInDays)).toHaveValue("90");
  await form.getByLabel(msg.apiTokens.role).selectOption("viewer");
  await form.getByRole("button", { name: msg.apiTokens.create }).click();

  // Shown once, with the warning and a Copy button.
  const shown = page.getByRole("dialog", { name: msg.apiTokens.createdTitle });
  await expect(shown.getByText(msg.apiTokens.createdWarning)).toBeVisible();
  const token = await shown.getByTestId("new-token").inputValue();
  expect(token).toMatch(/^pedal_[A-Za-z0-9_-]{43}$/);
  await shown.getByRole("button", { name: msg.apiTokens.copy }).click();
  await expect(shown.getByRole("button", { name: msg.apiTokens.copied })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  await shown.getByRole("button", { name: msg.apiTokens.done }).click();
  await expect(shown).toBeHidden();

  // Listed by its prefix, never in full.
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText(token.slice(0, 12));
  await expect(row).toContainText("Viewer");
  await expect(row).toContainText(msg.apiTokens.neverUsed);
  await expect(page.getByText(token)).toHaveCount(0);

  // A script with the token alone: no cookie, no Origin.
  const script = await playwright.request.newContext({ baseURL: new URL(page.url()).origin });
  const headers = { authorization: `Bearer ${token}` };
  const ok = await script.get("/api/customers?limit=1", { headers });
  expect(ok.status()).toBe(200);
  expect((await ok.json()).items.length).toBe(1);
  expect((await script.post("/api/customers", { headers, data: { customer_name: "No" } })).status()).toBe(403);

  // The last use shows after a reload; then Revoke, confirmed, ends it at once.
  await page.reload();
  await expect(row).not.toContainText(msg.apiTokens.neverUsed);
  await row.getByRole("button", { name: `${msg.apiTokens.revoke} ${name}` }).click();
  const confirm = page.getByRole("dialog", { name: msg.apiTokens.revoke });
  await expect(confirm).toContainText(msg.apiTokens.revokeConfirm(name));
  await confirm.getByRole("button", { name: msg.apiTokens.revoke }).click();
  await expect(page.getByTestId("success-banner")).toContainText(msg.apiTokens.revoked);
  // Still listed, marked revoked, with nothing left to revoke.
  await expect(row).toContainText(msg.apiTokens.revokedTag);
  await expect(row.getByRole("button", { name: `${msg.apiTokens.revoke} ${name}` })).toHaveCount(0);

  const refused = await script.get("/api/customers?limit=1", { headers });
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toEqual({ error: { code: "unauthorized", message: msg.apiTokens.invalid } });
  await script.dispose();
});

test("an admin sees every operator's tokens from the Operators screen and revokes one", async ({
  page,
  playwright,
}) => {
  await signIn(page, "/operators");
  const origin = new URL(page.url()).origin;
  const name = `Admin view ${Date.now()}`;
  const made = await page.request.post("/api/account/tokens", {
    data: { name, role: "editor", expires_in_days: 7 },
    headers: { origin },
  });
  expect(made.status()).toBe(201);
  const { token } = (await made.json()) as { token: string };

  await page.getByRole("link", { name: msg.apiTokens.menu }).click();
  await expect(page.getByRole("heading", { level: 1, name: msg.apiTokens.allTitle })).toBeVisible();
  await page.getByRole("searchbox", { name: msg.apiTokens.searchPlaceholder }).fill(name);
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("admin@pedal.example");
  await expect(row).toContainText("Editor");
  await row.getByRole("button", { name: `${msg.apiTokens.revoke} ${name}` }).click();
  await page
    .getByRole("dialog", { name: msg.apiTokens.revoke })
    .getByRole("button", { name: msg.apiTokens.revoke })
    .click();
  await expect(row).toContainText(msg.apiTokens.revokedTag);
  await expect(row.getByRole("button", { name: `${msg.apiTokens.revoke} ${name}` })).toHaveCount(0);

  const script = await playwright.request.newContext({ baseURL: origin });
  expect((await script.get("/api/customers", { headers: { authorization: `Bearer ${token}` } })).status()).toBe(401);
  await script.dispose();
});

test("Swagger UI at /api/docs calls the API with a token given to Authorize", async ({ page }) => {
  await signIn(page);
  const origin = new URL(page.url()).origin;
  const made = await page.request.post("/api/account/tokens", {
    data: { name: `Swagger ${Date.now()}`, role: "viewer", expires_in_days: 1 },
    headers: { origin },
  });
  const { token, token_id } = (await made.json()) as { token: string; token_id: string };
  await page.goto("/api/docs");
  await page.getByRole("button", { name: "Authorize" }).first().click();
  await page.getByLabel("auth-bearer-value").fill(token);
  const dialog = page.locator(".dialog-ux");
  await dialog.getByRole("button", { name: "Apply credentials" }).last().click();
  await dialog.getByRole("button", { name: "Close" }).last().click();

  // Swagger UI draws the operations as the page scrolls to them (its DOM id is the operationId).
  const operation = page.locator("#operations-Customers-getCustomers");
  await expect(async () => {
    await page.mouse.wheel(0, 600);
    await expect(operation).toBeAttached({ timeout: 300 });
  }).toPass();
  await operation.locator(".opblock-summary-control").click();
  await operation.getByRole("button", { name: "Try it out" }).click();
  await operation.getByRole("button", { name: "Execute" }).click();
  await expect(operation.locator(".live-responses-table .response .response-col_status").first()).toHaveText("200");
  await expect(operation.locator(".curl-command")).toContainText(`Bearer ${token}`);
  // The token reached the server: its last use is recorded.
  const mine = (await (await page.request.get("/api/account/tokens")).json()) as {
    items: Array<{ token_id: string; last_used_at: string | null }>;
  };
  expect(mine.items.find((t) => t.token_id === token_id)?.last_used_at).not.toBeNull();
  await page.request.delete(`/api/account/tokens/${token_id}`, { headers: { origin } });
});

test("an operator makes a delivery token for one platform: it reads that platform's prompts (with 304s) and nothing else", async ({
  page,
  playwright,
}) => {
  await signIn(page, "/account/tokens");
  const origin = new URL(page.url()).origin;
  const platform = await page.request.post("/api/platforms", {
    data: { platform_name: `Delivery E2E ${Date.now()}` },
    headers: { origin },
  });
  expect(platform.status()).toBe(201);
  const { platform_id, platform_name } = (await platform.json()) as { platform_id: string; platform_name: string };

  const name = `Poller ${Date.now()}`;
  await page.getByRole("button", { name: msg.apiTokens.create }).click();
  const form = page.getByRole("dialog", { name: msg.apiTokens.create });
  await form.getByLabel(msg.apiTokens.name).fill(name);
  const picker = form.getByRole("combobox", { name: msg.delivery.tokenPlatform });
  await picker.fill(platform_name);
  await form
    .getByRole("listbox", { name: msg.delivery.tokenPlatform })
    .getByRole("option", { name: platform_name, exact: true })
    .click();
  await expect(picker).toHaveAttribute("placeholder", platform_name);
  await form.getByRole("button", { name: msg.apiTokens.create }).click();

  const shown = page.getByRole("dialog", { name: msg.apiTokens.createdTitle });
  await expect(shown).toContainText(platform_name);
  const token = await shown.getByTestId("new-token").inputValue();
  await shown.getByRole("button", { name: msg.apiTokens.done }).click();
  await expect(page.getByRole("row").filter({ hasText: name })).toContainText(platform_name);

  const script = await playwright.request.newContext({ baseURL: origin });
  const headers = { authorization: `Bearer ${token}` };
  const read = await script.get(`/api/delivery/platforms/${platform_id}/prompts`, { headers });
  expect(read.status()).toBe(200);
  expect(await read.json()).toMatchObject({ platform_id, platform_name, prompts: [] });
  const etag = read.headers()["etag"];
  const again = await script.get(`/api/delivery/platforms/${platform_id}/prompts`, {
    headers: { ...headers, "if-none-match": etag },
  });
  expect(again.status()).toBe(304);
  const elsewhere = await script.get("/api/customers?limit=1", { headers });
  expect(elsewhere.status()).toBe(403);
  expect(await elsewhere.json()).toEqual({ error: { code: "forbidden", message: msg.delivery.platformOnly } });
  await script.dispose();
});
