import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../src/server/db/client";
import { queryRows } from "../../src/server/db/client";
import { clearDemoData, demoTables, generateDemoData, loadDemoData } from "../../src/server/db/demo-data";
import { freshDatabase, targets } from "../support/databases";

const now = new Date("2026-06-01T12:00:00Z");

describe("demo data variety", () => {
  it("covers every status and type the screens filter on", () => {
    const d = generateDemoData({ seed: 42, now });
    const values = <T>(rows: T[], pick: (r: T) => unknown) => new Set(rows.map(pick));
    expect(values(d.teams, (t) => t.status)).toEqual(new Set(["active", "inactive", "pending"]));
    expect(values(d.users_data, (u) => u.status)).toEqual(new Set(["active", "inactive", "pending"]));
    expect(values(d.users_roles, (r) => r.role)).toEqual(new Set(["admin", "manager", "member"]));
    expect(values(d.skills, (s) => s.is_global)).toEqual(new Set([true, false]));
    expect(values(d.skills, (s) => s.status)).toEqual(new Set(["active", "inactive"]));
    expect(values(d.teams_skills, (s) => s.status)).toEqual(new Set(["active", "inactive"]));
    expect(values(d.pedal_prompts, (p) => p.status)).toEqual(new Set(["active", "inactive", "draft"]));
    expect(values(d.platforms, (p) => p.status)).toEqual(new Set(["active", "inactive", "draft"]));
    expect(values(d.platform_prompts, (p) => p.is_active)).toEqual(new Set([true, false]));
  });

  it("keeps every reference inside the data set at scale", () => {
    const d = generateDemoData({ seed: 3, now, scale: 4 });
    const ids = (rows: Array<Record<string, unknown>>, key: string) => new Set(rows.map((r) => r[key]));
    const users = ids(d.users_data, "user_id");
    const teams = new Map(d.teams.map((t) => [t.team_id, t.customer_id]));
    const userCustomer = new Map(d.users_data.map((u) => [u.user_id, u.customer_id]));
    expect(d.users_data).toHaveLength(2400);
    // A membership joins a user to a team of the user's own customer.
    for (const m of d.teams_users) {
      expect(teams.get(m.team_id)).toBe(m.customer_id);
      expect(userCustomer.get(m.user_id)).toBe(m.customer_id);
    }
    for (const c of d.skill_comments) expect(userCustomer.get(c.user_id)).toBe(c.customer_id);
    expect([...ids(d.users_roles, "user_id")].every((u) => users.has(u))).toBe(true);
    // Team names are unique within a customer.
    const names = d.teams.map((t) => `${t.customer_id}/${t.team_name}`);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe.each(targets)("loading demo data with COPY on %s", (target) => {
  let handle: DatabaseHandle | undefined;
  afterEach(async () => {
    await handle?.close();
    handle = undefined;
  });

  it("stores exactly the generated rows, text with newlines and NULLs included", async () => {
    handle = await freshDatabase(target);
    const counts = await loadDemoData(handle.db, { seed: 42, now });
    const data = generateDemoData({ seed: 42, now });
    for (const table of demoTables) expect(counts[table], table).toBe(data[table].length);
    const customers = await queryRows<{ customer_id: string; valid_domains: string | null; created_at: Date | string }>(
      handle.db,
      sql`select customer_id, valid_domains, created_at from customers`,
    );
    const stored = new Map(customers.map((c) => [c.customer_id, c]));
    expect(data.customers.some((c) => c.valid_domains?.includes("\n"))).toBe(true);
    for (const c of data.customers) {
      expect(stored.get(c.customer_id!)?.valid_domains).toBe(c.valid_domains);
      expect(new Date(stored.get(c.customer_id!)!.created_at).toISOString()).toBe(c.created_at!.toISOString());
    }
    const [row] = await queryRows<{ n: number }>(
      handle.db,
      sql`select count(*)::int as n from users_data where first_name is null`,
    );
    expect(row.n).toBe(data.users_data.filter((u) => u.first_name === null).length);
  });

  it("in batches, a stop keeps the batches committed, and clearDemoData empties the tables", async () => {
    handle = await freshDatabase(target);
    const stop = new AbortController();
    const seen: string[] = [];
    await expect(
      loadDemoData(handle.db, {
        seed: 42,
        now,
        scale: 2,
        commit: "batches",
        batchRows: 20,
        signal: stop.signal,
        onProgress: (p) => {
          seen.push(`${p.table}:${p.rows}`);
          if (p.table === "teams" && p.rows >= 40) stop.abort(new Error("stopped"));
        },
      }),
    ).rejects.toThrow("stopped");
    expect(seen.slice(0, 4)).toEqual(["customers:20", "customers:40", "customers:50", "teams:20"]);
    const count = async (table: string) =>
      (await queryRows<{ n: number }>(handle!.db, sql`select count(*)::int as n from ${sql.identifier(table)}`))[0].n;
    expect([await count("customers"), await count("teams"), await count("users_data")]).toEqual([50, 40, 0]);
    await clearDemoData(handle.db);
    expect(await count("customers")).toBe(0);
  });
});
