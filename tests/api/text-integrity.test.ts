/**
 * Text is stored and answered exactly as typed: every free-text field round-trips byte for byte
 * through POST, the detail GET, the list GET, the options picker and the audit log, including
 * strings shaped like timestamps, dates, numbers, JSON and SQL (timestamps are parsed by column
 * type in `queryRows`, never by what a string looks like). And one rule for every required name
 * (src/domain/text.ts): whitespace and invisible characters at the ends are trimmed, a name of
 * nothing else is refused with the field's own message, bidirectional controls are refused.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { msg } from "../../src/domain/messages";
import { startConsole, type TestConsole } from "../support/app";
import { targets } from "../support/databases";

/** Texts a careless layer would rewrite: timestamps, dates, numbers, JSON, SQL and unusual Unicode. */
const tricky = [
  "2024-05-01 10:00:00+02",
  "2024-05-01 10:00:00.123456+05:30",
  "2024-05-01 10:00:00",
  "2024-05-01T10:00:00Z",
  "2024-05-01T10:00:00.000Z",
  "2024-05-01",
  "1999-12-31 23:59:59-08",
  "infinity",
  "-infinity",
  "epoch",
  "00:00:00",
  "Tue May 01 2024",
  "007",
  "1e3",
  "-0",
  "0x1F",
  "NaN",
  "Infinity",
  "3.14159265358979323846",
  "1,000",
  "99999999999999999999",
  '{"a":1}',
  "[1,2,3]",
  "null",
  "true",
  "false",
  "{}",
  '"quoted"',
  "'; DROP TABLE customers; --",
  "1' OR '1'='1",
  "$1",
  "%s%d",
  "\\N",
  "\\x00",
  "a\\b",
  "E'x'",
  "Zoë – ünïcödé ✓",
  "Ελληνικά",
  "日本語の名前",
  "emoji 👩‍💻 family 👨‍👩‍👧",
  "a  b\tc",
  "line\nbreak",
  "<b>bold</b> &amp;",
];

describe.each(targets)("text round trips on %s", (target) => {
  let app: TestConsole;
  let customerId: string;
  beforeAll(async () => {
    app = await startConsole(target);
    const created = await app.write("POST", "/api/customers", { customer_name: "Round Trip Holder" });
    customerId = created.body.customer_id;
  });
  afterAll(() => app.close());

  // Valid domains are data, normalised and validated (tests/api/editing.test.ts), not free text.
  it("keeps customer names byte for byte: POST, detail, list, options, audit", async () => {
    for (const text of tricky) {
      const created = await app.write("POST", "/api/customers", { customer_name: text });
      expect(created.status, text).toBe(201);
      expect(created.body.customer_name, text).toBe(text);
      const id = created.body.customer_id;
      const detail = await app.read(`/api/customers/${id}`);
      expect(detail.body.customer_name, text).toBe(text);
      const list = await app.read("/api/customers?sort=created_at&order=desc&limit=5");
      expect(list.body.items.find((c: { customer_id: string }) => c.customer_id === id)?.customer_name, text).toBe(
        text,
      );
      const option = await app.read(`/api/customers/${id}/option`);
      expect(option.body.customer_name, text).toBe(text);
      const [audit] = await app.rows<{ changes: { after?: Record<string, unknown> } }>(
        sql`select changes from audit_log where entity = 'customer' and entity_id = ${id} and action = 'create'`,
      );
      expect(JSON.stringify(audit.changes), text).toContain(JSON.stringify(text).slice(1, -1));
    }
  });

  it("keeps team names byte for byte: POST, detail, list", async () => {
    for (const text of tricky) {
      const created = await app.write("POST", "/api/teams", { customer_id: customerId, team_name: text });
      expect(created.status, text).toBe(201);
      expect(created.body.team_name, text).toBe(text);
      const detail = await app.read(`/api/teams/${created.body.team_id}`);
      expect(detail.body.team_name, text).toBe(text);
      const list = await app.read(`/api/teams?customer_id=${customerId}&limit=200`);
      expect(
        list.body.items.find((t: { team_id: string }) => t.team_id === created.body.team_id)?.team_name,
        text,
      ).toBe(text);
    }
  });

  it("keeps the local part of user emails byte for byte (where it is a valid email)", async () => {
    const locals = ["2024-05-01", "2024-05-01t10:00:00+02", "007", "1e3", "nan", '{"a":1}', "null", "'or'1'='1", "zoë"];
    for (const local of locals) {
      const email = `${local}@example.com`;
      const created = await app.write("POST", "/api/users", { email, customer_id: customerId });
      expect(created.status, email).toBe(201);
      expect(created.body.email, email).toBe(email);
      const detail = await app.read(`/api/users/${created.body.user_id}`);
      expect(detail.body.email, email).toBe(email);
    }
  });

  it("keeps operator names byte for byte", async () => {
    for (const [i, text] of tricky.slice(0, 12).entries()) {
      const created = await app.write(
        "POST",
        "/api/operators",
        { email: `text-${i}@test.example`, name: text, role: "viewer", password: "long-enough-password" },
        "admin",
      );
      expect(created.status, text).toBe(201);
      expect(created.body.name, text).toBe(text);
      const renamed = await app.write("PATCH", `/api/operators/${created.body.id}`, { name: `${text} 2` }, "admin");
      expect(renamed.body.name, text).toBe(`${text} 2`);
    }
  });

  it("still answers real timestamps as ISO 8601 in UTC", async () => {
    const created = await app.write("POST", "/api/customers", { customer_name: "Timestamps" });
    const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
    expect(created.body.created_at).toMatch(iso);
    const detail = await app.read(`/api/customers/${created.body.customer_id}`);
    expect(detail.body.created_at).toMatch(iso);
    expect(detail.body.created_at).toBe(created.body.created_at);
    const list = await app.read("/api/customers?sort=created_at&order=desc&limit=1");
    expect(list.body.items[0].created_at).toMatch(iso);
  });
});

describe.each(targets)("required names on %s", (target) => {
  let app: TestConsole;
  let customerId: string;
  beforeAll(async () => {
    app = await startConsole(target);
    customerId = (await app.write("POST", "/api/customers", { customer_name: "Names Holder" })).body.customer_id;
  });
  afterAll(() => app.close());

  const blank = ["\u200B", "\u200B\u200C\u200D", " \u2060 ", "\uFEFF", "\u00AD", "\t\u200B\n", "\u3164", "\u180E"];
  const bidi = ["Acme\u202E", "\u202Egnp.exe", "x\u2066y\u2069", "\u200Fname", "a\u061Cb"];

  /** Each required name field: how to send a value, and the spec's message when it is empty. */
  const fields = () => [
    {
      name: "customer_name",
      required: msg.customers.nameRequired,
      send: (v: string) => app.write("POST", "/api/customers", { customer_name: v }),
    },
    {
      name: "team_name",
      required: msg.teams.nameRequired,
      send: (v: string) => app.write("POST", "/api/teams", { customer_id: customerId, team_name: v }),
    },
    {
      name: "name",
      required: msg.operators.nameRequired,
      send: (v: string) =>
        app.write(
          "POST",
          "/api/operators",
          {
            email: `n-${Math.random().toString(36).slice(2)}@test.example`,
            name: v,
            role: "viewer",
            password: "long-enough-password",
          },
          "admin",
        ),
    },
  ];

  it("refuses names made only of whitespace and invisible characters, with the field's message", async () => {
    for (const field of fields()) {
      for (const value of blank) {
        const { status, body } = await field.send(value);
        expect(status, `${field.name} ${JSON.stringify(value)}`).toBe(422);
        expect(body.error.fields[field.name], `${field.name} ${JSON.stringify(value)}`).toBe(field.required);
      }
    }
  });

  it("refuses bidirectional control characters", async () => {
    for (const field of fields()) {
      for (const value of bidi) {
        const { status, body } = await field.send(value);
        expect(status, `${field.name} ${JSON.stringify(value)}`).toBe(422);
        expect(body.error.fields[field.name], `${field.name} ${JSON.stringify(value)}`).toBe(msg.text.bidi);
      }
    }
  });

  it("trims invisible characters at the ends and keeps the ones inside (emoji joiners)", async () => {
    const customer = await app.write("POST", "/api/customers", { customer_name: "\u200B Acme\u00A0Labs \uFEFF\u2060" });
    expect(customer.body.customer_name).toBe("Acme\u00A0Labs");
    const team = await app.write("POST", "/api/teams", {
      customer_id: customerId,
      team_name: "\u200BDevs 👩‍💻\u200D\u200B",
    });
    expect(team.body.team_name).toBe("Devs 👩‍💻");
    const op = await app.write(
      "POST",
      "/api/operators",
      { email: "trim@test.example", name: " \u200BAda\u200C ", role: "viewer", password: "long-enough-password" },
      "admin",
    );
    expect(op.body.name).toBe("Ada");
    const renamed = await app.write("PATCH", `/api/operators/${op.body.id}`, { name: "\u200B" }, "admin");
    expect(renamed.status).toBe(422);
    expect(renamed.body.error.fields.name).toBe(msg.operators.nameRequired);
  });

  it("refuses invisible and bidirectional characters inside a user's email, and trims them at the ends", async () => {
    for (const email of ["bo\u200Bb@example.com", "bob@exa\u202Emple.com", "\u200B@example.com"]) {
      const { status } = await app.write("POST", "/api/users", { email, customer_id: customerId });
      expect(status, JSON.stringify(email)).toBe(422);
    }
    const created = await app.write("POST", "/api/users", {
      email: "\u200Bcarol@example.com\uFEFF",
      customer_id: customerId,
    });
    expect(created.status).toBe(201);
    expect(created.body.email).toBe("carol@example.com");
  });
});
