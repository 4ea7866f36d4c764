import type { Page } from "@playwright/test";
import { msg } from "../../src/domain/messages";
import { apiGet, apiWrite, expect, pickOption, signIn, statCard, test } from "./fixtures";

const stamp = () => `${Date.now()}-${Math.floor(Math.random() * 1000)}`;

async function make<T>(page: Page, path: string, body: Record<string, unknown>): Promise<T> {
  const res = await apiWrite(page, "POST", path, body);
  expect(res.status(), path).toBe(201);
  return res.json();
}
const makeSkill = (page: Page) =>
  make<{ skill_id: string; skill_name: string }>(page, "/api/skills", { skill_name: `E2E Prompt Skill ${stamp()}` });
const makePlatform = (page: Page, body: Record<string, unknown> = {}) =>
  make<{ platform_id: string; platform_name: string }>(page, "/api/platforms", {
    platform_name: `E2E Platform ${stamp()}`,
    ...body,
  });
const makePrompt = (page: Page, skillId: string, body: Record<string, unknown> = {}) =>
  make<{ prompt_id: string; prompt_title: string }>(page, "/api/prompts", {
    prompt_title: `E2E Prompt ${stamp()}`,
    skill_id: skillId,
    ...body,
  });

const banner = (page: Page) => page.getByTestId("success-banner");
const dialog = (page: Page) => page.getByRole("dialog");

test.describe("prompts and platforms", () => {
  // Whole tasks, each of many steps through several screens.
  test.describe.configure({ timeout: 120_000 });

  test("the prompts list shows the cards, the spec's columns and the status filter in the URL", async ({ page }) => {
    await signIn(page, "/prompts");
    const { summary, total } = await apiGet(page, "/api/prompts?limit=1");
    for (const [label, value] of [
      ["Total", summary.total],
      ["Active", summary.active],
      ["Inactive", summary.inactive],
      ["Draft", summary.draft],
    ] as const) {
      await expect(statCard(page, label)).toContainText(String(value));
    }
    const table = page.getByRole("table", { name: msg.prompts.title });
    for (const header of ["Prompt", "Skill", "Platforms", "Status", "Created", "Updated"]) {
      await expect(table.getByRole("columnheader", { name: header })).toBeVisible();
    }
    await expect(table.getByRole("row")).toHaveCount(Math.min(total, 50) + 1);
    await page.getByLabel("Status").selectOption("draft");
    await expect(page).toHaveURL(/status=draft/);
    await expect(table.getByRole("row")).toHaveCount(Math.min(summary.draft, 50) + 1);
    await expect(page.getByText(msg.prompts.noPlatforms).first()).toBeVisible();
  });

  test("create a prompt, edit it twice, view the diff and restore the first version", async ({ page }) => {
    await signIn(page, "/prompts");
    const skill = await makeSkill(page);
    await page.getByRole("link", { name: msg.prompts.addPrompt }).click();
    await expect(page.getByRole("heading", { name: msg.prompts.addTitle })).toBeVisible();
    await expect(page.getByLabel("Prompt Content")).toHaveAttribute("rows", "8");
    await expect(page.getByLabel("Status")).toHaveValue("active");
    await page.getByRole("button", { name: msg.prompts.create }).click();
    await expect(page.getByText(msg.prompts.titleRequired)).toBeVisible();
    await expect(page.getByText(msg.prompts.skillRequired)).toBeVisible();

    const title = `Greeting ${stamp()}`;
    const first = "Hello {name},\nwelcome aboard.\nRegards";
    await page.getByLabel("Prompt Title").fill(`  ${title}  `);
    await pickOption(page, "Skill", skill.skill_name);
    await page.getByLabel("Prompt Content").fill(first);
    await page.getByRole("button", { name: msg.prompts.create }).click();
    await expect(page).toHaveURL(/\/prompts$/);
    await page.getByTestId("success-banner").getByRole("link", { name: title }).click();
    await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible();
    await expect(page.getByTestId("prompt-content")).toHaveText(first);
    await expect(page.getByTestId("associated-skill")).toHaveText(skill.skill_name);

    // Edit twice: the content, then the title.
    for (const change of [
      { field: "Prompt Content", value: "Hello {name},\nwelcome to the team.\nRegards" },
      { field: "Prompt Title", value: `${title} v3` },
    ]) {
      await page.getByRole("link", { name: msg.prompts.editPrompt }).click();
      await expect(page.getByRole("heading", { name: msg.prompts.editTitle })).toBeVisible();
      await expect(page.getByText(msg.prompts.editSubtitle)).toBeVisible();
      await page.getByLabel(change.field).fill(change.value);
      await page.getByRole("button", { name: msg.prompts.update }).click();
      await expect(page).toHaveURL(/\/prompts\/[0-9a-f-]{36}$/);
    }
    await expect(page.getByRole("heading", { name: `${title} v3`, level: 1 })).toBeVisible();
    const versions = page.getByRole("table", { name: msg.prompts.versions });
    await expect(versions.getByRole("row")).toHaveCount(4);

    await versions.getByRole("button", { name: `${msg.prompts.compare} version 1` }).click();
    await expect(dialog(page).getByRole("heading", { name: msg.prompts.diffTitle(1) })).toBeVisible();
    const diff = page.getByTestId("version-diff");
    await expect(diff.locator("del").filter({ hasText: "welcome aboard." })).toBeVisible();
    await expect(diff.locator("ins").filter({ hasText: "welcome to the team." })).toBeVisible();
    await dialog(page).getByRole("button", { name: "Close" }).first().click();

    await versions.getByRole("button", { name: `${msg.prompts.restore} version 1` }).click();
    await expect(dialog(page).getByText(msg.prompts.restoreConfirm(1))).toBeVisible();
    await dialog(page).getByRole("button", { name: msg.prompts.restore }).click();
    await expect(banner(page)).toHaveText(msg.prompts.restored(1));
    await expect(page.getByTestId("prompt-content")).toHaveText(first);
    await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible();
    await expect(versions.getByRole("row")).toHaveCount(5);
    await expect(versions.getByText(msg.prompts.restoredFrom(1))).toBeVisible();
  });

  test("archive and activate, assign two platforms through the modal search, unassign one, delete", async ({
    page,
  }) => {
    await signIn(page, "/prompts");
    const skill = await makeSkill(page);
    const tag = stamp();
    const alpha = await makePlatform(page, { platform_name: `Alpha ${tag}`, platform_description: "Web chat widget" });
    const beta = await makePlatform(page, {
      platform_name: `Beta ${tag}`,
      platform_description: `Mobile KEYWORD-${tag} app`,
    });
    const prompt = await makePrompt(page, skill.skill_id, { prompt_value: "Say hi" });
    await page.goto(`/prompts/${prompt.prompt_id}`);
    await expect(page.getByRole("heading", { name: prompt.prompt_title, level: 1 })).toBeVisible();
    await expect(page.getByText(msg.prompts.noAssignments)).toBeVisible();
    await expect(page.getByText(msg.prompts.noAssignmentsText)).toBeVisible();

    await page.getByRole("button", { name: msg.prompts.archive }).click();
    await expect(banner(page)).toHaveText(msg.prompts.archived);
    await page.getByRole("button", { name: msg.prompts.activate }).click();
    await expect(banner(page)).toHaveText(msg.prompts.activated);
    await expect(page.getByRole("button", { name: msg.prompts.archive })).toBeVisible();

    await page.getByRole("button", { name: msg.prompts.assignPlatform }).click();
    const modal = dialog(page);
    await expect(modal.getByRole("heading", { name: msg.prompts.assignPlatformTitle })).toBeVisible();
    const search = modal.getByPlaceholder(msg.prompts.searchPlatforms);
    await search.fill(`nothing-like-this-${tag}`);
    await expect(modal.getByText(msg.prompts.noPlatformMatch)).toBeVisible();
    await search.fill(`alpha ${tag}`);
    await modal.getByRole("button", { name: `${msg.prompts.assign} ${alpha.platform_name}` }).click();
    await expect(banner(page)).toHaveText(msg.prompts.assigned(alpha.platform_name));
    // By description, case-insensitive.
    await search.fill(`keyword-${tag}`);
    await modal.getByRole("button", { name: `${msg.prompts.assign} ${beta.platform_name}` }).click();
    await expect(banner(page)).toHaveText(msg.prompts.assigned(beta.platform_name));
    await search.fill(`${tag}`);
    await expect(modal.getByText(msg.prompts.noPlatformMatch)).toBeVisible();
    await modal.getByRole("button", { name: "Close" }).first().click();

    const assignments = page.getByRole("table", { name: "Platform Assignments" });
    await expect(assignments.getByRole("row")).toHaveCount(3);
    await expect(assignments.getByRole("link", { name: alpha.platform_name })).toBeVisible();
    await expect(assignments.getByText("Web chat widget")).toBeVisible();
    await assignments.getByRole("button", { name: `${msg.prompts.unassign} ${alpha.platform_name}` }).click();
    await expect(dialog(page).getByText(msg.prompts.unassignConfirm)).toBeVisible();
    await dialog(page).getByRole("button", { name: msg.prompts.unassign }).click();
    await expect(assignments.getByRole("row")).toHaveCount(2);
    await expect(assignments.getByRole("link", { name: beta.platform_name })).toBeVisible();

    await page.goto(`/prompts?q=${encodeURIComponent(prompt.prompt_title)}`);
    await expect(page.getByRole("table", { name: msg.prompts.title }).getByText(beta.platform_name)).toBeVisible();
    await page.goto(`/prompts/${prompt.prompt_id}`);

    await page.getByRole("button", { name: "Delete" }).click();
    await expect(dialog(page).getByText(msg.prompts.deleteConfirm)).toBeVisible();
    await dialog(page).getByRole("button", { name: "Delete" }).click();
    await expect(page).toHaveURL(/\/prompts$/);
    expect((await page.request.get(`/api/prompts/${prompt.prompt_id}`)).status()).toBe(404);
  });

  test("create a platform, open it, see its prompts, edit it and delete it with its assignments", async ({ page }) => {
    await signIn(page, "/platforms");
    const skill = await makeSkill(page);
    const { summary } = await apiGet(page, "/api/platforms?limit=1");
    await expect(statCard(page, "Total")).toContainText(String(summary.total));
    await expect(statCard(page, "Draft")).toContainText(String(summary.draft));
    await page.getByRole("link", { name: msg.platforms.add }).click();
    await expect(page.getByRole("heading", { name: msg.platforms.addTitle })).toBeVisible();
    await page.getByRole("button", { name: msg.platforms.create }).click();
    await expect(page.getByText(msg.platforms.nameRequired)).toBeVisible();
    const name = `Teams Bot ${stamp()}`;
    await page.getByLabel("Platform Name").fill(name);
    await page.getByLabel("Description").fill("Posts into channels");
    await page.getByRole("button", { name: msg.platforms.create }).click();
    await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
    await expect(page.getByText(msg.platforms.noPrompts)).toBeVisible();
    const platformId = page.url().split("/").pop()!;

    const prompt = await makePrompt(page, skill.skill_id);
    expect(
      (
        await apiWrite(page, "POST", `/api/prompts/${prompt.prompt_id}/platforms`, { platform_id: platformId })
      ).status(),
    ).toBe(201);
    await page.reload();
    const table = page.getByRole("table", { name: "Assigned prompts" });
    await expect(table.getByRole("link", { name: prompt.prompt_title })).toBeVisible();

    await page.getByRole("link", { name: "Edit" }).click();
    await expect(page.getByRole("heading", { name: msg.platforms.editTitle })).toBeVisible();
    await page.getByLabel("Platform Name").fill(`${name} 2`);
    await page.getByRole("button", { name: msg.platforms.save }).click();
    await expect(page.getByRole("heading", { name: `${name} 2`, level: 1 })).toBeVisible();

    await page.getByRole("button", { name: "Delete" }).click();
    await expect(dialog(page).getByText(msg.platforms.deleteConfirmCascade(`${name} 2`, 1))).toBeVisible();
    await dialog(page).getByRole("button", { name: "Delete" }).click();
    await expect(page).toHaveURL(/\/platforms$/);
    const assignments = await apiGet(page, `/api/prompts/${prompt.prompt_id}/platforms`);
    expect(assignments.total).toBe(0);
  });

  test("mark a platform reviewed with its variables, see them on its page and filter the list by review", async ({
    page,
  }) => {
    await signIn(page, "/platforms/add");
    const name = `Reviewed Desk ${stamp()}`;
    await page.getByLabel("Platform Name").fill(name);
    await expect(page.getByLabel(msg.platforms.needsReview)).not.toBeChecked();
    await page.getByLabel(msg.platforms.needsReview).check();
    // A bad name is refused on its field; then two names, braces and spaces as typed.
    await page.getByLabel(msg.platforms.providedVariables).fill("customer_name, 9lives");
    await page.getByRole("button", { name: msg.platforms.create }).click();
    await expect(page.getByText(msg.platforms.variableInvalid("9lives"))).toBeVisible();
    await page.getByLabel(msg.platforms.providedVariables).fill("customer_name, {{locale}}  customer_name");
    await page.getByRole("button", { name: msg.platforms.create }).click();
    await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
    const platformId = page.url().split("/").pop()!;
    await expect(page.getByTestId("platform-needs-review")).toHaveText(msg.platforms.needsReviewYes);
    await expect(page.getByTestId("platform-variables")).toHaveText("{{customer_name}}{{locale}}");
    const saved = await apiGet(page, `/api/platforms/${platformId}`);
    expect(saved.needs_review).toBe(true);
    expect(saved.provided_variables).toEqual(["customer_name", "locale"]);

    // The edit form shows them; emptying the variables declares none.
    await page.getByRole("link", { name: "Edit" }).click();
    await expect(page.getByLabel(msg.platforms.needsReview)).toBeChecked();
    await expect(page.getByLabel(msg.platforms.providedVariables)).toHaveValue("customer_name, locale");
    await page.getByLabel(msg.platforms.providedVariables).fill("");
    await page.getByRole("button", { name: msg.platforms.save }).click();
    await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
    await expect(page.getByText(msg.platforms.noDeclaredVariables)).toBeVisible();

    // The list: the Reviewed tag beside the name, and the Review filter in the URL.
    await page.goto("/platforms");
    await page.getByRole("searchbox", { name: msg.platforms.searchPlaceholder }).fill(name);
    const table = page.getByRole("table", { name: msg.platforms.title });
    const row = table.getByRole("row").filter({ hasText: name });
    await expect(row.getByTestId("platform-reviewed")).toHaveText(msg.platforms.reviewed);
    await page.getByRole("combobox", { name: msg.platforms.needsReviewFilter }).selectOption("false");
    await expect(page).toHaveURL(/needs_review=false/);
    await expect(page.getByText(msg.platforms.empty)).toBeVisible();
    await page.getByRole("combobox", { name: msg.platforms.needsReviewFilter }).selectOption("true");
    await expect(page).toHaveURL(/needs_review=true/);
    await expect(row).toBeVisible();
    await page.reload();
    await expect(page.getByRole("combobox", { name: msg.platforms.needsReviewFilter })).toHaveValue("true");
    await expect(row).toBeVisible();
  });

  test("empty and not-found states", async ({ page }) => {
    await signIn(page, "/prompts");
    const skill = await makeSkill(page);
    const bare = await makePrompt(page, skill.skill_id);
    await page.goto(`/prompts/${bare.prompt_id}`);
    await expect(page.getByText(msg.prompts.noContent)).toBeVisible();
    await expect(page.getByText(msg.prompts.noAssignments)).toBeVisible();
    await expect(page.getByText(msg.prompts.noVersions)).toHaveCount(0);

    await page.goto("/prompts/00000000-0000-4000-8000-000000000000");
    await expect(page.getByRole("heading", { name: msg.prompts.notFound })).toBeVisible();
    await expect(page.getByText(msg.prompts.notFoundText)).toBeVisible();
    await page.getByRole("link", { name: msg.prompts.backToPrompts }).click();
    await expect(page).toHaveURL(/\/prompts$/);
    await page.goto("/prompts/00000000-0000-4000-8000-000000000000/edit");
    await expect(page.getByRole("heading", { name: msg.prompts.notFound })).toBeVisible();
    await page.goto("/platforms/00000000-0000-4000-8000-000000000000");
    await expect(page.getByRole("heading", { name: msg.platforms.notFound })).toBeVisible();
  });

  test("error states with Retry", async ({ page }) => {
    await signIn(page, "/prompts");
    const skill = await makeSkill(page);
    const bare = await makePrompt(page, skill.skill_id);
    const failure = {
      status: 503,
      contentType: "application/json",
      body: JSON.stringify({ error: { code: "internal", message: "Service unavailable" } }),
    };
    await page.route(`**/api/prompts/${bare.prompt_id}`, (route) => route.fulfill(failure));
    await page.goto(`/prompts/${bare.prompt_id}`);
    await expect(page.getByRole("heading", { name: msg.prompts.loadOneError })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText("Service unavailable")).toBeVisible();
    await page.unroute(`**/api/prompts/${bare.prompt_id}`);
    await page.getByRole("button", { name: msg.app.retry }).click();
    await expect(page.getByRole("heading", { name: bare.prompt_title, level: 1 })).toBeVisible();

    for (const [path, title] of [
      ["prompts", msg.prompts.loadError],
      ["platforms", msg.platforms.loadError],
    ] as const) {
      await page.route(`**/api/${path}?**`, (route) => route.fulfill(failure));
      await page.goto(`/${path}`);
      await expect(page.getByText(title)).toBeVisible({ timeout: 15_000 });
      await page.unroute(`**/api/${path}?**`);
      await page.getByRole("button", { name: msg.app.retry }).click();
      await expect(page.getByRole("table").getByRole("link").first()).toBeVisible();
    }

    await page.route("**/api/skills/options?**", (route) => route.fulfill(failure));
    await page.goto("/prompts/add");
    await expect(page.getByText(msg.prompts.skillsLoadError("Service unavailable"))).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole("button", { name: msg.prompts.create })).toBeDisabled();
  });
});
