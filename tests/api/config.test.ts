/**
 * Per-customer configuration API (SPEC.md §2 "/config", §9 sample values): the seeded samples and
 * defaults, validation messages, persistence in one transaction with its audit row, the stale-save
 * 409 with who, when and the fresh values, and the change history with field diffs; on PGlite and
 * PostgreSQL.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configDefaults, configSamples, type ConfigValues } from "../../src/domain/config";
import { msg } from "../../src/domain/messages";
import { startConsole, type TestConsole } from "../support/app";
import { targets } from "../support/databases";

describe.each(targets)("configuration API on %s", (target) => {
  let app: TestConsole;
  beforeAll(async () => {
    app = await startConsole(target, { demo: true });
  });
  afterAll(() => app.close());

  /** A customer made for one test, on the defaults. */
  async function newCustomer(): Promise<string> {
    const { status, body } = await app.write("POST", "/api/customers", {
      customer_name: `Config Customer ${randomUUID().slice(0, 8)}`,
    });
    expect(status).toBe(201);
    return body.customer_id;
  }

  const save = (
    customerId: string,
    values: Partial<ConfigValues> & { version: number },
    as: "editor" | "admin" | "viewer" = "editor",
  ) => app.write("PATCH", `/api/config/${customerId}`, { ...configDefaults, ...values }, as);

  it("seeds the spec's two sample configurations and gives every other customer the defaults", async () => {
    const samples = await app.rows<{ customer_id: string; max_users: number }>(
      sql`select customer_id, max_users from customer_settings order by max_users desc`,
    );
    expect(samples.map((s) => s.max_users)).toEqual([500, 100]);
    for (const [i, sample] of samples.entries()) {
      const { status, body } = await app.read(`/api/config/${sample.customer_id}`);
      expect(status).toBe(200);
      expect(body.values).toEqual(configSamples[i]);
      expect(body.version).toBe(1);
    }
    expect([configSamples[0].max_teams, configSamples[0].storage_gb, configSamples[0].session_timeout_minutes]).toEqual(
      [50, 1000, 480],
    );
    expect([configSamples[1].max_teams, configSamples[1].storage_gb, configSamples[1].session_timeout_minutes]).toEqual(
      [20, 250, 240],
    );
    const [other] = await app.rows<{ customer_id: string }>(sql`
      select customer_id from customers c where not exists (select 1 from customer_settings s where s.customer_id = c.customer_id) limit 1`);
    const { body } = await app.read(`/api/config/${other.customer_id}`);
    expect(body).toMatchObject({ values: configDefaults, version: 0, updated_at: null, updated_by: null });
  });

  it("shows the customer's current users and teams next to the limits", async () => {
    const [c] = await app.rows<{ customer_id: string; users: number; teams: number }>(sql`
      select c.customer_id, (select count(*) from users_data u where u.customer_id = c.customer_id)::int as users,
        (select count(*) from teams t where t.customer_id = c.customer_id)::int as teams
      from customers c order by users desc limit 1`);
    const { body } = await app.read(`/api/config/${c.customer_id}`);
    expect(body.usage).toEqual({ users: c.users, teams: c.teams });
    expect(body.usage.users).toBeGreaterThan(0);
  });

  it("answers 404 for an unknown customer and 403 to a viewer saving", async () => {
    expect((await app.read(`/api/config/${randomUUID()}`)).status).toBe(404);
    expect((await save(randomUUID(), { version: 0 })).body.error.message).toBe(msg.customers.notFound);
    const id = await newCustomer();
    expect((await save(id, { version: 0, max_users: 10 }, "viewer")).status).toBe(403);
  });

  it("refuses invalid values with a clear message per field and saves nothing", async () => {
    const id = await newCustomer();
    const cases: Array<[Partial<Record<keyof ConfigValues, unknown>>, string, string]> = [
      [{ max_users: 0 }, "max_users", msg.config.maxUsersInvalid],
      [{ max_users: -5 }, "max_users", msg.config.maxUsersInvalid],
      [{ max_users: 2.5 }, "max_users", msg.config.maxUsersInvalid],
      [{ max_users: "10" }, "max_users", msg.config.maxUsersInvalid],
      [{ max_teams: 0 }, "max_teams", msg.config.maxTeamsInvalid],
      [{ storage_gb: 1.1 }, "storage_gb", msg.config.storageInvalid],
      [{ session_timeout_minutes: 4 }, "session_timeout_minutes", msg.config.timeoutInvalid],
      [{ session_timeout_minutes: 1441 }, "session_timeout_minutes", msg.config.timeoutInvalid],
      [{ session_timeout_minutes: null }, "session_timeout_minutes", msg.config.timeoutInvalid],
      [{ billing_plan: "platinum" }, "billing_plan", msg.config.billingPlanInvalid],
    ];
    for (const [bad, field, message] of cases) {
      const { status, body } = await app.write("PATCH", `/api/config/${id}`, { ...configDefaults, version: 0, ...bad });
      expect(status, JSON.stringify(bad)).toBe(422);
      expect(body.error.fields[field], JSON.stringify(bad)).toBe(message);
    }
    // Several bad fields at once: a message under each.
    const { body } = await app.write("PATCH", `/api/config/${id}`, {
      ...configDefaults,
      version: 0,
      max_users: 0,
      session_timeout_minutes: 2000,
    });
    expect(body.error.fields).toMatchObject({
      max_users: msg.config.maxUsersInvalid,
      session_timeout_minutes: msg.config.timeoutInvalid,
    });
    // The bounds themselves are accepted.
    expect((await save(id, { version: 0, session_timeout_minutes: 5, max_users: 1 })).status).toBe(200);
    expect((await save(id, { version: 1, session_timeout_minutes: 1440, max_users: 1 })).status).toBe(200);
    expect(await app.count(sql`select 1 from customer_settings_changes where customer_id = ${id}`)).toBe(3);
  });

  it("persists a save with its history and audit row in one transaction, and reads it back", async () => {
    const id = await newCustomer();
    const values = {
      max_users: 250,
      max_teams: 30,
      storage_gb: 500,
      session_timeout_minutes: 120,
      require_mfa: true,
      features: { ...configDefaults.features, analytics: true },
    };
    const { status, body } = await save(id, { version: 0, ...values });
    expect(status).toBe(200);
    expect(body.version).toBe(1);
    expect(body.updated_by).toBe("editor@test.example");
    expect(body.values).toEqual({ ...configDefaults, ...values });
    const read = await app.read(`/api/config/${id}`);
    expect(read.body).toEqual(body);

    const audit = await app.rows<{
      changes: { before: Record<string, string>; after: Record<string, string> };
      operator_email: string;
    }>(sql`
      select changes, operator_email from audit_log where entity = 'customer_config' and entity_id = ${id}`);
    expect(audit).toHaveLength(1);
    expect(audit[0].operator_email).toBe("editor@test.example");
    expect(audit[0].changes.after).toEqual({
      max_users: "250",
      max_teams: "30",
      storage_gb: "500",
      session_timeout_minutes: "120",
      require_mfa: "true",
      "features.analytics": "true",
    });
    expect(audit[0].changes.before).toEqual({
      max_users: "50",
      max_teams: "10",
      storage_gb: "100",
      session_timeout_minutes: "60",
      require_mfa: "false",
      "features.analytics": "false",
    });

    // Saving the same values again changes nothing: no new version, history or audit row.
    const again = await save(id, { version: 1, ...values });
    expect(again.body.version).toBe(1);
    expect(await app.count(sql`select 1 from audit_log where entity = 'customer_config' and entity_id = ${id}`)).toBe(
      1,
    );
  });

  it("refuses a stale save with 409, who saved and when, and the fresh values; nothing changes", async () => {
    const id = await newCustomer();
    const first = await save(id, { version: 0, max_users: 80 }, "admin");
    expect(first.status).toBe(200);
    // Another operator still has version 0 on screen.
    const { status, body } = await save(id, { version: 0, max_users: 90, max_teams: 12 });
    expect(status).toBe(409);
    expect(body.error.code).toBe("conflict");
    expect(body.error.message).toContain("admin@test.example");
    expect(body.error.message).toContain(first.body.updated_at);
    expect(body.current).toMatchObject({
      version: 1,
      updated_by: "admin@test.example",
      updated_at: first.body.updated_at,
      values: { max_users: 80, max_teams: 10 },
    });
    expect((await app.read(`/api/config/${id}`)).body.values.max_users).toBe(80);
    expect(await app.count(sql`select 1 from customer_settings_changes where customer_id = ${id}`)).toBe(1);
    // Two first saves at once: one wins, the other is stale.
    const other = await newCustomer();
    const results = await Promise.all([
      save(other, { version: 0, max_users: 11 }),
      save(other, { version: 0, max_users: 12 }, "admin"),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it("lists recent changes newest first, one row per field with its old and new value", async () => {
    const id = await newCustomer();
    await save(id, { version: 0, max_users: 70 });
    await save(id, { version: 1, max_users: 75, allow_guest_users: true }, "admin");
    const { status, body } = await app.read(`/api/config/${id}/changes?limit=10`);
    expect(status).toBe(200);
    const items = body.items.map((c: Record<string, unknown>) => [
      c.version,
      c.field,
      c.old_value,
      c.new_value,
      c.changed_by,
    ]);
    expect(items.slice(0, 2).sort()).toEqual([
      [2, "allow_guest_users", "false", "true", "admin@test.example"],
      [2, "max_users", "70", "75", "admin@test.example"],
    ]);
    expect(items[2]).toEqual([1, "max_users", "50", "70", "editor@test.example"]);
    expect(body.items).toHaveLength(3);
    const times = body.items.map((c: { changed_at: string }) => Date.parse(c.changed_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect((await app.read(`/api/config/${randomUUID()}/changes`)).status).toBe(404);
    const csv = await app.request(`/api/config/${id}/changes/export.csv`, { as: "viewer" });
    expect(csv.status).toBe(200);
    expect((await csv.text()).split("\r\n")[0]).toBe("Changed,By,Field,From,To,Version");
  });
});
