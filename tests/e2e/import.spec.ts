import { importMsg } from "../../src/domain/import-messages";
import { msg } from "../../src/domain/messages";
import { violations } from "./axe";
import { apiGet, apiWrite, expect, signIn, statCard, test } from "./fixtures";

type UserItem = { email: string; first_name: string | null; job_title: string | null };

/**
 * A file as Excel writes it on a European Windows machine: Windows-1252 bytes (no BOM), semicolons,
 * CRLF line ends, a quoted job title holding a line break, a blank line, and one address that is
 * not one.
 */
function messyFile(domain: string, team: string): Buffer {
  const lines = [
    "E-mail;Given name;Surname;Job title;Role;Team",
    `zoe@${domain};Zoë;Müller;"Head of\nSales";manager;${team}`,
    `hans@${domain};Hans;Weiß;Engineer;member;`,
    "",
    `not-an-email;Ana;Bär;Designer;member;${team}`,
  ];
  // latin1 is Windows-1252 for every character used here (ë, ü, ß, ä).
  return Buffer.from(lines.join("\r\n") + "\r\n", "latin1");
}

test("an admin imports a messy CSV into a customer, fixes a row in place, applies it and undoes it", async ({
  page,
}) => {
  await signIn(page);
  const tag = Date.now().toString(36);
  const domain = `import-${tag}.example`;
  const team = `Imported ${tag}`;
  const made = await apiWrite(page, "POST", "/api/customers", {
    customer_name: `Import ${tag}`,
    valid_domains: domain,
    status: "active",
  });
  expect(made.status()).toBe(201);
  const { customer_id, customer_name } = (await made.json()) as { customer_id: string; customer_name: string };
  // Hans exists already: the file updates him.
  const hans = await apiWrite(page, "POST", "/api/users", { email: `hans@${domain}`, customer_id });
  expect(hans.status()).toBe(201);
  const usersOf = async () =>
    (await apiGet<{ items: UserItem[] }>(page, `/api/users?customer_id=${customer_id}&sort=email&order=asc`)).items;

  // The customer page's "Import users" opens the import with the customer chosen.
  await page.goto(`/customers/${customer_id}`);
  await page.getByRole("link", { name: importMsg.title }).click();
  await expect(page).toHaveURL(new RegExp(`/users/import\\?customer=${customer_id}`));
  await expect(page.getByRole("combobox", { name: importMsg.customer })).toHaveValue(customer_name);
  await page
    .getByLabel(importMsg.chooseFile)
    .setInputFiles({ name: "people.csv", mimeType: "text/csv", buffer: messyFile(domain, team) });
  await page.getByRole("button", { name: importMsg.upload }).click();

  // Columns: read as Windows-1252 with semicolons, the blank line skipped, every field suggested.
  await expect(page.getByTestId("import-facts")).toHaveText(importMsg.fileFacts(3, "Windows-1252", "semicolons"));
  const field = (f: string) => page.getByRole("combobox", { name: importMsg.fields[f], exact: true });
  await expect(field("email")).toHaveValue("0");
  await expect(field("first_name")).toHaveValue("1");
  await expect(field("last_name")).toHaveValue("2");
  await expect(field("job_title")).toHaveValue("3");
  await expect(field("roles")).toHaveValue("4");
  await expect(field("teams")).toHaveValue("5");
  await expect(field("status")).toHaveValue("");
  // The customer is the import's: no column for it.
  await expect(field("customer")).toHaveCount(0);
  await expect(page.getByText(importMsg.sampleValue(`zoe@${domain}`))).toBeVisible();
  await page.getByRole("checkbox", { name: importMsg.createTeams }).check();
  await page.getByRole("button", { name: importMsg.preview, exact: true }).click();

  // Preview: Zoë new, Hans updated, the bad address in error with its reason.
  await expect(statCard(page, importMsg.counts.create)).toContainText("1");
  await expect(statCard(page, importMsg.counts.update)).toContainText("1");
  await expect(statCard(page, importMsg.counts.unchanged)).toContainText("0");
  await expect(statCard(page, importMsg.counts.error)).toContainText("1");
  const rows = page.getByRole("table", { name: importMsg.rows });
  await expect(rows.getByRole("row")).toHaveCount(4);
  const zoe = rows.getByRole("row").filter({ hasText: `zoe@${domain}` });
  await expect(zoe).toContainText("Zoë");
  await expect(zoe).toContainText("Müller");
  await expect(zoe).toContainText("Head of");
  await expect(zoe).toContainText(importMsg.outcome.create);
  await expect(rows.getByRole("row").filter({ hasText: `hans@${domain}` })).toContainText("Weiß");
  const bad = rows.getByRole("row").filter({ hasText: "not-an-email" });
  await expect(bad).toContainText(importMsg.reasons.emailInvalid("not-an-email"));
  await expect(page.getByRole("button", { name: importMsg.downloadErrors })).toBeVisible();
  expect(await violations(page, "import preview")).toEqual([]);

  // Only the rows in error, then the bad row fixed in place.
  await page.getByRole("combobox", { name: importMsg.outcomeHeader }).selectOption(importMsg.outcome.error);
  await expect(rows.getByRole("row")).toHaveCount(2);
  await bad.getByRole("button", { name: importMsg.fixTitle(3) }).click();
  const dialog = page.getByRole("dialog", { name: importMsg.fixTitle(3) });
  await expect(dialog).toContainText(importMsg.reasons.emailInvalid("not-an-email"));
  await dialog.getByLabel("E-mail").fill(`ana@${domain}`);
  await dialog.getByRole("button", { name: importMsg.save }).click();
  await expect(dialog).toBeHidden();
  await expect(statCard(page, importMsg.counts.error)).toContainText("0");
  await expect(statCard(page, importMsg.counts.create)).toContainText("2");
  await expect(rows).toContainText(importMsg.noRowsMatch);
  await expect(page.getByRole("button", { name: importMsg.downloadErrors })).toHaveCount(0);
  await page.getByRole("combobox", { name: importMsg.outcomeHeader }).selectOption(importMsg.allRows);
  await expect(rows.getByRole("row").filter({ hasText: `ana@${domain}` })).toContainText(importMsg.outcome.create);

  // Apply: the bulk run's progress, then its report.
  await page.getByRole("button", { name: importMsg.apply(3) }).click();
  const progress = page.getByTestId("bulk-progress");
  await expect(progress).toContainText(msg.bulk.status.done);
  await expect(progress).toContainText(msg.bulk.counts(3, 0, 0));
  await expect(page.getByRole("table", { name: msg.bulk.report }).getByRole("row")).toHaveCount(4);
  const imported = await usersOf();
  expect(imported.map((u) => u.email)).toEqual([`ana@${domain}`, `hans@${domain}`, `zoe@${domain}`]);
  expect(imported.find((u) => u.email === `zoe@${domain}`)?.job_title).toBe("Head of\nSales");
  expect(imported.find((u) => u.email === `hans@${domain}`)?.job_title).toBe("Engineer");

  // The customer's users list shows them, names decoded (in a second tab: the import keeps its run).
  const list = await page.context().newPage();
  await list.goto(`/users?customer=${customer_id}`);
  const users = list.getByRole("table", { name: msg.nav.users });
  await expect(users).toContainText("Zoë Müller");
  await expect(users).toContainText("Ana Bär");

  // Undo: the created users are gone, Hans is as he was.
  await page.getByRole("button", { name: msg.bulk.undo }).click();
  await expect(page.getByRole("heading", { name: msg.bulk.undoTitle(importMsg.applyTitle) })).toBeVisible();
  await expect(progress).toContainText(msg.bulk.status.done);
  await expect(page.getByRole("button", { name: msg.bulk.undo })).toHaveCount(0);
  const after = await usersOf();
  expect(after.map((u) => [u.email, u.first_name, u.job_title])).toEqual([[`hans@${domain}`, null, null]]);
  await list.reload();
  await expect(users).toContainText(`hans@${domain}`);
  await expect(users).not.toContainText("Zoë");
  await list.close();
});
