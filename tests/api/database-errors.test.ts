/**
 * Database refusals caused by the request are answered in one place (src/server/http/errors.ts):
 * a data exception (SQLSTATE class 22, such as a date out of range) is a 422 and a unique
 * violation (23505, such as two requests creating one email at the same moment) a 409, both in
 * the standard error body; never a 500.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { msg } from "../../src/domain/messages";
import { recordsOf, uniqueIndexesOf } from "../../src/server/db/records";
import { customers, operator, saved_views, users_data } from "../../src/server/db/schema";
import { startConsole, type TestConsole } from "../support/app";
import { targets } from "../support/databases";

describe.each(targets)("database refusals on %s", (target) => {
  let app: TestConsole;
  beforeAll(async () => {
    app = await startConsole(target);
  });
  afterAll(() => app.close());

  it.each(["from=0000-01-01", "to=0000-01-01", "from=0000-01-01T00:00:00Z", "to=0000-12-31T23:59:59%2B14:00"])(
    "GET /api/audit?%s is a 422, not a 500",
    async (query) => {
      const { status, body } = await app.read(`/api/audit?${query}`, "admin");
      expect(status).toBe(422);
      expect(body).toEqual({ error: { code: "validation_failed", message: msg.api.outOfRange } });
    },
  );

  it("answers 409 to the loser of two simultaneous POST /api/operators with one email", async () => {
    for (let trial = 0; trial < 3; trial++) {
      const email = `race-${trial}-${target}@test.example`;
      const create = () =>
        app.request("/api/operators", {
          as: "admin",
          method: "POST",
          json: { email, name: "Race", role: "viewer", password: "long-enough-password" },
        });
      const answers = await Promise.all([create(), create()]);
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses, `trial ${trial}`).toEqual([201, 409]);
      const refused = await answers.find((r) => r.status === 409)!.json();
      expect(refused).toEqual({
        error: { code: "conflict", message: msg.operators.emailTaken, fields: { email: msg.operators.emailTaken } },
      });
      expect(await app.count(sql`select 1 from operator where email = ${email}`)).toBe(1);
    }
  });
});

describe("unique indexes declare their 409 (recordsOf's `unique`)", () => {
  it("reads each table's unique indexes and columns with the columns they cover, expressions included", () => {
    expect(uniqueIndexesOf(users_data)).toContainEqual({ name: "users_data_email_key", columns: ["email"] });
    expect(uniqueIndexesOf(operator)).toContainEqual({ name: "operator_email_unique", columns: ["email"] });
    expect(uniqueIndexesOf(saved_views)).toContainEqual({
      name: "saved_views_owner_name_idx",
      columns: ["operator_id", "list", "name"],
    });
  });

  it("refuses at start-up a message for a column no unique index covers alone", () => {
    const declare = () =>
      recordsOf({
        table: customers,
        id: customers.customer_id,
        entity: "customer",
        notFound: msg.customers.notFound,
        unique: { customer_name: "taken" },
      });
    expect(declare).toThrow("customers.customer_name has no unique index of its own");
  });
});
