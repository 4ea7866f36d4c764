/**
 * Prompt review in the browser (docs/prompt-review.md), on a console of its own with
 * PROMPT_REVIEW=protected: an editor (an operator of its own) edits a prompt assigned to a platform
 * that needs review; the prompt says a change is pending and stays as it was; the editor cannot
 * approve their own change (the button says why); the admin sees the count in the sidebar, opens
 * the change from the Reviews queue; the editor saves again meanwhile, so approving what the admin
 * read applies nothing and offers the new revision, which the admin approves with a comment; the
 * prompt shows its text as a new version.
 */
import type { Browser, Page } from "@playwright/test";
import { msg } from "../../src/domain/messages";
import { expect, test } from "./fixtures";
import { ownConsole } from "./own-console";

const adminEmail = "admin@pedal.example";
const demoPassword = "reviews-e2e-password";
const { origin } = ownConsole({ name: "reviews", slot: 3280, demoPassword, env: { PROMPT_REVIEW: "protected" } });

/** A page of a new browser context signed in as `email` through the login screen. */
async function signedIn(browser: Browser, email: string, password: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${origin}/`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: msg.login.submit }).click();
  await expect(page.getByRole("button", { name: msg.ui.userMenu })).toBeVisible();
  return page;
}

async function get<T = any>(page: Page, url: string): Promise<T> {
  const res = await page.request.get(`${origin}${url}`);
  expect(res.status(), url).toBe(200);
  return res.json();
}

test("an edit under review waits for another operator, who approves it as a new version", async ({ browser }) => {
  test.setTimeout(90_000);
  const admin = await signedIn(browser, adminEmail, demoPassword);

  // Operator A: an editor of its own.
  const editorEmail = `reviews-editor-${Date.now()}@pedal.example`;
  const editorPassword = "reviews-editor-password-1";
  const created = await admin.request.post(`${origin}/api/operators`, {
    data: { email: editorEmail, name: "Reviews Editor", role: "editor", password: editorPassword },
    headers: { origin },
  });
  expect(created.status()).toBe(201);

  // A prompt with content, actively assigned to a platform that needs review, with nothing pending.
  const platforms = await get<{ items: Array<{ platform_id: string; needs_review: boolean }> }>(
    admin,
    "/api/platforms?limit=100",
  );
  const reviewed = platforms.items.filter((p) => p.needs_review).map((p) => p.platform_id);
  expect(reviewed.length).toBeGreaterThan(0);
  const pending = await get<{ items: Array<{ prompt_id: string }> }>(admin, "/api/prompt-changes?limit=100");
  const busy = new Set(pending.items.map((c) => c.prompt_id));
  let prompt: { prompt_id: string; prompt_title: string; prompt_value: string } | undefined;
  for (const platformId of reviewed) {
    const assigned = await get<{ items: Array<{ prompt_id: string; is_active: boolean }> }>(
      admin,
      `/api/platforms/${platformId}/prompts?limit=100`,
    );
    for (const a of assigned.items.filter((a) => a.is_active && !busy.has(a.prompt_id))) {
      const p = await get(admin, `/api/prompts/${a.prompt_id}`);
      if (p.prompt_value && p.status === "active") {
        prompt = p;
        break;
      }
    }
    if (prompt) break;
  }
  expect(prompt, "a prompt on a reviewed platform").toBeTruthy();
  const { prompt_id: promptId, prompt_value: before } = prompt!;
  const added = `Always greet {{user_name}} first. (${Date.now()})`;

  // A edits it: the change is saved for review, the live prompt stays as it was.
  const editor = await signedIn(browser, editorEmail, editorPassword);
  await editor.goto(`${origin}/prompts/${promptId}/edit`);
  const content = editor.getByLabel("Prompt Content");
  await expect(content).toHaveValue(before);
  await content.fill(`${before}\n${added}`);
  await editor.getByRole("button", { name: msg.prompts.update }).click();
  // The save says it was sent for review (a notice, or the prompt's pending banner).
  await expect(
    editor
      .getByText(msg.reviews.proposed)
      .or(editor.getByText(msg.reviews.pending, { exact: true }))
      .first(),
  ).toBeVisible();
  expect((await get(editor, `/api/prompts/${promptId}`)).prompt_value).toBe(before);
  const mine = await get<{ items: Array<{ change_id: string; prompt_id: string }> }>(
    editor,
    `/api/prompt-changes?q=${encodeURIComponent(prompt!.prompt_title)}&limit=100`,
  );
  const change = mine.items.find((c) => c.prompt_id === promptId);
  expect(change, "the pending change").toBeTruthy();

  // Opened again, the form starts from A's change that waits (not the live text), and says so;
  // a {{variable}} a platform does not provide is named as it is typed, before any save.
  await editor.goto(`${origin}/prompts/${promptId}/edit`);
  await expect(editor.getByText(msg.prompts.editingProposal("").split(" (")[0])).toBeVisible();
  await expect(content).toHaveValue(`${before}\n${added}`);
  const [platform] = (await get(editor, `/api/prompts/${promptId}`)).platform_variables;
  await content.fill(`${before}\n${added} {{zz_not_provided}}`);
  await expect(
    editor.getByText(msg.prompts.undeclaredVariable("zz_not_provided", platform.platform_name)),
  ).toBeVisible();
  await content.fill(`${before}\n${added}`);
  await expect(
    editor.getByText(msg.prompts.undeclaredVariable("zz_not_provided", platform.platform_name)),
  ).toBeHidden();

  // A cannot approve their own change: the button says why.
  await editor.goto(`${origin}/reviews/${change!.change_id}`);
  const decision = editor.getByTestId("decision");
  const own = decision.getByRole("button", { name: msg.reviews.approve });
  await expect(own).toHaveAttribute("aria-disabled", "true");
  await expect(own).toHaveAttribute("title", msg.reviews.selfReview);
  await expect(decision.getByRole("button", { name: msg.reviews.withdraw })).toBeVisible();

  // B (the admin) sees the count, opens the queue and the change, and approves it with a comment.
  await admin.goto(`${origin}/`);
  const nav = admin.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Reviews/ });
  await expect(nav.getByTestId("nav-count")).toHaveText(/^\d+/);
  await nav.click();
  await expect(admin.getByRole("heading", { name: msg.reviews.title, level: 1 })).toBeVisible();
  // The queue names the platforms the edit reaches.
  const reaches = (await get(admin, `/api/prompt-changes/${change!.change_id}`)).platform_names as string[];
  expect(reaches).toContain(platform.platform_name);
  await expect(
    admin.getByRole("row").filter({ hasText: prompt!.prompt_title }).first().getByText(reaches.join(", ")),
  ).toBeVisible();
  await admin.getByRole("link", { name: prompt!.prompt_title }).first().click();
  await expect(admin).toHaveURL(new RegExp(`/reviews/${change!.change_id}`));
  await expect(admin.getByTestId("version-diff")).toContainText(added);
  await expect(admin.getByTestId("variable-changes")).toContainText("{{user_name}}");

  // Meanwhile A saves again: a new revision. Approving what B read applies nothing, and says so.
  const revised = `${added} Then thank them.`;
  const again = await editor.request.patch(`${origin}/api/prompts/${promptId}`, {
    data: { prompt_value: `${before}\n${revised}` },
    headers: { origin },
  });
  expect(again.status()).toBe(202);
  const revision2 = ((await again.json()) as { change_id: string }).change_id;
  await editor.context().close();
  await admin.getByTestId("decision").getByRole("button", { name: msg.reviews.approve }).click();
  await expect(admin.getByText(msg.reviews.superseded(2))).toBeVisible();
  expect((await get(admin, `/api/prompts/${promptId}`)).prompt_value).toBe(before);
  await admin
    .getByRole("link", { name: msg.reviews.openRevision(2) })
    .first()
    .click();
  await expect(admin).toHaveURL(new RegExp(`/reviews/${revision2}`));
  await expect(admin.getByTestId("version-diff")).toContainText("Then thank them.");
  await admin.getByLabel(msg.reviews.decisionLabel).fill("Reads well.");
  await admin.getByTestId("decision").getByRole("button", { name: msg.reviews.approve }).click();
  await expect(admin.getByText(msg.reviews.approved)).toBeVisible();
  const decided = admin.getByTestId("decided");
  await expect(decided).toContainText(adminEmail);
  await expect(decided).toContainText("Reads well.");
  await expect(decided).toContainText(/Applied as version \d+/);
  // Applied, the diff is no longer the live prompt's: it compares with the prompt as proposed against.
  await expect(admin.getByRole("heading", { name: msg.reviews.againstBase })).toBeVisible();
  await expect(admin.getByRole("heading", { name: msg.reviews.againstLive })).toHaveCount(0);
  const approved = await get(admin, `/api/prompt-changes/${revision2}`);
  expect(approved.status).toBe("approved");

  // The prompt shows the new text, as a new version.
  await decided.getByRole("link", { name: msg.reviews.viewPrompt }).click();
  await expect(admin.getByTestId("prompt-content")).toContainText(revised);
  const versions = await get(admin, `/api/prompts/${promptId}/versions?sort=version&order=desc&limit=1`);
  expect(versions.items[0].version).toBe(approved.applied_version);
  await admin.context().close();
});

test("the queue approves a selection at once, each change on its own", async ({ browser }) => {
  const admin = await signedIn(browser, adminEmail, demoPassword);
  const before = await get<{ pending: number; mode: string }>(admin, "/api/prompt-changes/summary");
  expect(before.mode).toBe("protected");
  expect(before.pending).toBeGreaterThanOrEqual(2);
  await admin.goto(`${origin}/reviews`);
  const table = admin.getByRole("table", { name: msg.reviews.title });
  const rows = table.getByRole("row").filter({ has: admin.getByRole("checkbox") });
  await rows.nth(1).getByRole("checkbox").click();
  await rows.nth(2).getByRole("checkbox").click();
  await expect(admin.getByTestId("selection-count")).toHaveText(msg.reviews.selectedCount(2));
  await admin.getByRole("button", { name: msg.reviews.approveSelected }).click();
  const dialog = admin.getByRole("dialog", { name: msg.reviews.approveSelectedTitle(2) });
  await dialog.getByRole("button", { name: msg.reviews.approve }).click();
  await expect(admin.getByText(/^\d approved/)).toBeVisible();
  // The sidebar's count follows.
  const after = await get<{ pending: number }>(admin, "/api/prompt-changes/summary");
  expect(after.pending).toBeLessThan(before.pending);
  if (after.pending > 0) await expect(admin.getByTestId("nav-count")).toHaveText(new RegExp(`^${after.pending}`));
  await admin.context().close();
});
