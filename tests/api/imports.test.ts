/**
 * CSV import of users (docs/onboarding.md "Import"): a file as people have them (Windows-1252 from
 * Excel, a UTF-8 byte order mark, semicolons or tabs, quoted line breaks, blank lines, formulas),
 * sent in parts, read, mapped (suggested from the header, then remembered), previewed row by row
 * with every reason a row cannot be imported, fixed in place, applied as a bulk run and undone;
 * the limits refused before any row is kept. On PGlite and PostgreSQL.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importMsg } from "../../src/domain/import-messages";
import { importLimits } from "../../src/domain/imports";
import { bulkIdle } from "../../src/server/bulk/engine";
import { purgeDeletedRecords } from "../../src/server/deleted";
import { startConsole, type TestConsole } from "../support/app";
import { targets } from "../support/databases";

const reasons = importMsg.reasons;

describe.each(targets)("CSV import on %s", (target) => {
  let app: TestConsole;
  let acme: string;
  let globex: string;

  async function customer(name: string, domains: string) {
    const res = await app.write(
      "POST",
      "/api/customers",
      { customer_name: name, valid_domains: domains, status: "active" },
      "admin",
    );
    expect(res.status).toBe(201);
    return res.body.customer_id as string;
  }

  /** Starts an import of `bytes` and reads it: the import as /parse answers it. */
  async function upload(bytes: Buffer, customerId: string | null, partBytes = importLimits.partBytes) {
    const created = await app.write("POST", "/api/imports", { file_name: "people.csv", customer_id: customerId });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.import_id as string;
    for (let index = 0; index * partBytes < bytes.length; index++) {
      const data = bytes.subarray(index * partBytes, (index + 1) * partBytes).toString("base64");
      const sent = await app.write("POST", `/api/imports/${id}/parts`, { index, data });
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    }
    return { id, parsed: await app.write("POST", `/api/imports/${id}/parse`, {}) };
  }

  const rowsOf = async (id: string, query = "") =>
    (await app.read(`/api/imports/${id}/rows?limit=200${query}`, "editor")).body.items as Array<{
      seq: number;
      email: string | null;
      outcome: string;
      reason: string | null;
      cells: string[];
    }>;

  /** Follows a run to its end. */
  async function finished(bulkId: string) {
    await bulkIdle();
    return (await app.read(`/api/bulk/${bulkId}`, "editor")).body;
  }

  beforeAll(async () => {
    app = await startConsole(target);
    acme = await customer("Acme Import", "acme.example");
    globex = await customer("Globex Import", "globex.example");
    const taken = await app.write("POST", "/api/users", { email: "taken@globex.example", customer_id: globex });
    expect(taken.status).toBe(201);
    const team = await app.write(
      "POST",
      "/api/teams",
      { team_name: "Sales", customer_id: acme, status: "active" },
      "admin",
    );
    expect(team.status, JSON.stringify(team.body)).toBe(201);
  });
  afterAll(() => app.close());

  it("reads an Excel file (Windows-1252, semicolons, a quoted line break, blank lines), previews every reason, fixes a row, applies and undoes", async () => {
    const text = [
      "E-mail;Given name;Surname;Job title;Role;Teams",
      'zoe@acme.example;Zoë;Müller;"Head of\nSales";admin, member;Sales',
      "",
      "not-an-email;Bad;Row;;member;",
      "taken@globex.example;Other;Customer;;;",
      "zoe@acme.example;Twice;Again;;;",
      "ana@elsewhere.example;Ana;Out;;;",
      "bo@acme.example;Bo;=SUM(A1);;boss;",
      "cy@acme.example;Cy;New;;;Marketing",
      "",
    ].join("\r\n");
    const { id, parsed } = await upload(Buffer.from(text, "latin1"), acme, 64);
    expect(parsed.status, JSON.stringify(parsed.body)).toBe(200);
    expect(parsed.body).toMatchObject({ status: "mapping", row_count: 7, encoding: "Windows-1252", delimiter: ";" });
    expect(parsed.body.columns).toEqual(["E-mail", "Given name", "Surname", "Job title", "Role", "Teams"]);
    // Suggested from the header by common names.
    expect(parsed.body.mapping).toEqual({ email: 0, first_name: 1, last_name: 2, job_title: 3, roles: 4, teams: 5 });
    expect(parsed.body.sample[0]).toEqual([
      "zoe@acme.example",
      "Zoë",
      "Müller",
      "Head of\nSales",
      "admin, member",
      "Sales",
    ]);

    const previewed = await app.write("POST", `/api/imports/${id}/mapping`, {
      mapping: parsed.body.mapping,
      create_teams: false,
    });
    expect(previewed.status, JSON.stringify(previewed.body)).toBe(200);
    expect(previewed.body.counts).toEqual({ create: 1, update: 0, unchanged: 0, error: 6 });
    const rows = await rowsOf(id);
    expect(rows.map((r) => [r.seq, r.outcome, r.reason])).toEqual([
      [1, "create", null],
      [2, "error", reasons.emailInvalid("not-an-email")],
      [3, "error", reasons.otherCustomer],
      [4, "error", reasons.duplicate(1)],
      [5, "error", reasons.domain("elsewhere.example")],
      [6, "error", reasons.roleUnknown("boss")],
      [7, "error", reasons.teamNotFound("Marketing")],
    ]);
    // A formula stays text.
    expect(rows[5].cells[2]).toBe("=SUM(A1)");

    // The rows in error, as CSV: the file's columns and the reason (a formula neutralised).
    const csv = await (await app.request(`/api/imports/${id}/errors.csv`, { as: "editor" })).text();
    expect(csv.split("\r\n")[0]).toBe("E-mail,Given name,Surname,Job title,Role,Teams,Reason");
    expect(csv).toContain("'=SUM(A1)");
    expect(csv.trim().split("\r\n")).toHaveLength(7);

    // Fixed in place: the row is checked again at once, and the counts follow.
    const fixed = await app.write("PATCH", `/api/imports/${id}/rows`, {
      seq: 2,
      cells: ["dee@acme.example", "Dee", "Fixed", "", "member", ""],
    });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect(fixed.body.row).toMatchObject({ seq: 2, outcome: "create", reason: null, email: "dee@acme.example" });
    expect(fixed.body.counts).toEqual({ create: 2, update: 0, unchanged: 0, error: 5 });
    // With teams created, the Marketing row creates its user too.
    const again = await app.write("POST", `/api/imports/${id}/mapping`, {
      mapping: parsed.body.mapping,
      create_teams: true,
    });
    expect(again.body.counts).toEqual({ create: 3, update: 0, unchanged: 0, error: 4 });

    const applied = await app.write("POST", `/api/imports/${id}/apply`, {});
    expect(applied.status, JSON.stringify(applied.body)).toBe(202);
    const run = await finished(applied.body.bulk_id);
    expect(run).toMatchObject({
      status: "done",
      entity: "users",
      action: "import",
      changed: 3,
      skipped: 4,
      can_undo: true,
    });
    const zoe = await app.rows<{
      first_name: string;
      last_name: string;
      job_title: string;
      roles: string[];
      teams: string[];
    }>(
      sql`select u.first_name, u.last_name, u.job_title,
        array(select role from users_roles r where r.user_id = u.user_id order by role) as roles,
        array(select t.team_name from teams_users tu join teams t using (team_id) where tu.user_id = u.user_id) as teams
        from users_data u where u.email = 'zoe@acme.example'`,
    );
    expect(zoe).toEqual([
      {
        first_name: "Zoë",
        last_name: "Müller",
        job_title: "Head of\nSales",
        roles: ["admin", "member"],
        teams: ["Sales"],
      },
    ]);
    expect(await app.count(sql`select 1 from teams where customer_id = ${acme} and team_name = 'Marketing'`)).toBe(1);
    expect((await app.write("POST", `/api/imports/${id}/apply`, {})).status).toBe(409);
    // The audit log names each created user.
    expect(
      await app.count(sql`select 1 from audit_log where action = 'create' and entity = 'user'
      and entity_id in (select user_id::text from users_data where email like '%@acme.example')`),
    ).toBe(3);

    // Undo: the created users and the team the import made are gone.
    const undo = await app.write("POST", `/api/bulk/${applied.body.bulk_id}/undo`, {});
    expect(undo.status, JSON.stringify(undo.body)).toBe(202);
    expect(await finished(undo.body.bulk_id)).toMatchObject({ status: "done", changed: 3 });
    expect(
      await app.count(
        sql`select 1 from users_data where email in ('zoe@acme.example', 'dee@acme.example', 'cy@acme.example')`,
      ),
    ).toBe(0);
    expect(await app.count(sql`select 1 from teams where customer_id = ${acme} and team_name = 'Marketing'`)).toBe(0);
    expect(await app.count(sql`select 1 from teams where customer_id = ${acme} and team_name = 'Sales'`)).toBe(1);
  });

  it("updates users it finds, leaves empty cells alone, puts them back on undo, and remembers the operator's mapping", async () => {
    const made = await app.write("POST", "/api/users", { email: "keep@acme.example", customer_id: acme });
    expect(made.status).toBe(201);
    await app.rows(
      sql`update users_data set first_name = 'Keep', job_title = 'Engineer' where email = 'keep@acme.example'`,
    );
    // UTF-8 with a byte order mark, tab separated, headers nobody names that way.
    const text = "\uFEFFWho\tFirst\tWhat\r\nkeep@acme.example\tKept\t\r\nnew@acme.example\tNew\tIntern\r\n";
    const first = await upload(Buffer.from(text, "utf8"), acme);
    expect(first.parsed.body).toMatchObject({ encoding: "UTF-8 with BOM", delimiter: "\t" });
    expect(first.parsed.body.mapping).toEqual({ first_name: 1 });
    const mapping = { email: 0, first_name: 1, job_title: 2 };
    const previewed = await app.write("POST", `/api/imports/${first.id}/mapping`, { mapping, create_teams: false });
    expect(previewed.body.counts).toEqual({ create: 1, update: 1, unchanged: 0, error: 0 });
    const applied = await app.write("POST", `/api/imports/${first.id}/apply`, {});
    expect(await finished(applied.body.bulk_id)).toMatchObject({ status: "done", changed: 2 });
    const [kept] = await app.rows<{ first_name: string; job_title: string }>(
      sql`select first_name, job_title from users_data where email = 'keep@acme.example'`,
    );
    expect(kept).toEqual({ first_name: "Kept", job_title: "Engineer" });

    // The same headers again: the operator's mapping is suggested; the same rows are unchanged.
    const second = await upload(Buffer.from(text, "utf8"), acme);
    expect(second.parsed.body.mapping).toEqual(mapping);
    const same = await app.write("POST", `/api/imports/${second.id}/mapping`, { mapping, create_teams: false });
    expect(same.body.counts).toEqual({ create: 0, update: 0, unchanged: 2, error: 0 });
    expect((await app.write("POST", `/api/imports/${second.id}/apply`, {})).status).toBe(422);

    const undo = await app.write("POST", `/api/bulk/${applied.body.bulk_id}/undo`, {});
    expect(await finished(undo.body.bulk_id)).toMatchObject({ status: "done", changed: 2 });
    const [back] = await app.rows<{ first_name: string; job_title: string }>(
      sql`select first_name, job_title from users_data where email = 'keep@acme.example'`,
    );
    expect(back).toEqual({ first_name: "Keep", job_title: "Engineer" });
  });

  it("imports across customers by a customer column, refusing unknown customers", async () => {
    const text =
      "Email,Company\nmia@acme.example,acme import\nmo@globex.example,Globex Import\nx@nowhere.example,Nowhere Ltd\ny@acme.example,\n";
    const { id, parsed } = await upload(Buffer.from(text), null);
    expect(parsed.body.mapping).toEqual({ email: 0, customer: 1 });
    const noCustomer = await app.write("POST", `/api/imports/${id}/mapping`, {
      mapping: { email: 0 },
      create_teams: false,
    });
    expect(noCustomer.status).toBe(422);
    expect(noCustomer.body.error.fields["mapping.customer"]).toBe(importMsg.customerRequired);
    const previewed = await app.write("POST", `/api/imports/${id}/mapping`, {
      mapping: parsed.body.mapping,
      create_teams: false,
    });
    expect(previewed.body.counts).toEqual({ create: 2, update: 0, unchanged: 0, error: 2 });
    expect((await rowsOf(id, "&outcome=error")).map((r) => r.reason)).toEqual([
      reasons.customerNotFound("Nowhere Ltd"),
      reasons.customerMissing,
    ]);
  });

  it("refuses a file over its limits before keeping a row, parts out of order, and a file that is not CSV", async () => {
    const created = await app.write("POST", "/api/imports", { file_name: "big.csv", customer_id: acme });
    const id = created.body.import_id;
    const chunk = Buffer.alloc(importLimits.partBytes, 0x61).toString("base64");
    expect((await app.write("POST", `/api/imports/${id}/parts`, { index: 1, data: chunk })).body.error.message).toBe(
      importMsg.partOrder(0),
    );
    const parts = importLimits.maxBytes / importLimits.partBytes;
    for (let index = 0; index < parts; index++)
      expect((await app.write("POST", `/api/imports/${id}/parts`, { index, data: chunk })).status).toBe(200);
    const over = await app.write("POST", `/api/imports/${id}/parts`, { index: parts, data: "YQ==" });
    expect(over.status).toBe(413);
    expect(over.body.error.message).toBe(importMsg.tooLarge(20));

    const rows = `email\n${"a@acme.example\n".repeat(importLimits.maxRows + 1)}`;
    const tooMany = await upload(Buffer.from(rows), acme);
    expect(tooMany.parsed.status).toBe(413);
    expect(tooMany.parsed.body.error.message).toBe(importMsg.tooManyRows(importLimits.maxRows));
    expect(await app.count(sql`select 1 from import_rows where import_id = ${tooMany.id}`)).toBe(0);

    const broken = await upload(Buffer.from('email,name\n"a@acme.example,unclosed\n'), acme);
    expect(broken.parsed.status).toBe(422);
    const empty = await upload(Buffer.from("email\n\n"), acme);
    expect(empty.parsed.body.error.message).toBe(importMsg.empty);

    // Imports are purged with Recently deleted, their rows with them.
    const later = (days: number) => new Date(Date.now() + days * 86_400_000);
    await purgeDeletedRecords(app.handle.db, { retentionDays: 30, now: later(29) });
    expect(await app.count(sql`select 1 from imports where import_id = ${tooMany.id}`)).toBe(1);
    await purgeDeletedRecords(app.handle.db, { retentionDays: 30, now: later(31) });
    expect(await app.count(sql`select 1 from imports`)).toBe(0);
    expect(await app.count(sql`select 1 from import_rows`)).toBe(0);
  });
});
