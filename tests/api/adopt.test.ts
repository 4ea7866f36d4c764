/**
 * Adopting an existing database (`npm run db:adopt`, docs/adopting.md), on
 * a database built by hand in the looser shape the console this one replaces left (no checks, no
 * foreign keys, no indexes, no keys on the link tables) with a few thousand rows and a few bad ones
 * (tests/support/legacy-database.ts). The adoption itself runs when TEST_DATABASE_URL is set (it is
 * for PostgreSQL servers, as tests/api/scale-out.test.ts); the start-up guard and the migration
 * journal's order are checked on PGlite too.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { analyticsFigures } from "../../src/domain/analytics";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyPlan, buildReference, formatReport, inspect, type Plan, type Reference } from "../../src/server/db/adopt";
import { NotAdoptedError, readCatalog, specTableNames } from "../../src/server/db/catalog";
import { migrationsFolder, openPglite, openPostgres, queryRows, type DatabaseHandle } from "../../src/server/db/client";
import { startConsole, type TestConsole } from "../support/app";
import { createScratchDatabase, fillLegacyDatabase, legacy, type ScratchDatabase } from "../support/legacy-database";

const root = path.resolve(import.meta.dirname, "../..");
const base = process.env.TEST_DATABASE_URL;
const spec = specTableNames();

/** Runs a script of the console as a user would; its exit code and everything it printed. */
function run(args: string[], databaseUrl: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    let out = "";
    const child = spawn(process.execPath, ["--import", "tsx", ...args], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        DATA_DIR: path.join(root, "test-results", "adopt-data"),
        PORT: "0",
        LOG_LEVEL: "warn",
        SEED_DEMO: "",
        NODE_ENV: "",
        BETTER_AUTH_SECRET: "adopt-test-secret-adopt-test-secret-0123",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("exit", (code) => resolve({ code, out }));
  });
}

/** Everything a database holds, to compare before and after: its catalog, schemas and every table's checksum. */
async function snapshot(handle: DatabaseHandle) {
  const catalog = await readCatalog(handle.db);
  const schemas = await queryRows<{ nspname: string }>(
    handle.db,
    sql.raw("select nspname::text from pg_namespace where nspname not like 'pg_%' order by 1"),
  );
  return JSON.stringify({
    tables: [...catalog.tables.values()],
    functions: catalog.functions,
    extensions: catalog.extensions,
    schemas,
    data: await checksums(handle, [...catalog.tables.keys()]),
  });
}

/**
 * md5 of every row of each table (as text, in a fixed order), and its columns with their types;
 * with `only`, of those columns alone (a table's columns before adoption, which adds its own).
 */
async function checksums(handle: DatabaseHandle, tables: string[], only?: Record<string, { columns: string }>) {
  const out: Record<string, { rows: number; md5: string; columns: string }> = {};
  for (const t of tables) {
    const names = only?.[t]?.columns.split(", ").map((c) => c.split(" ")[0]);
    const source = names ? `(select ${names.map((n) => `"${n}"`).join(", ")} from "${t}")` : `"${t}"`;
    const [row] = await queryRows<{ rows: number; md5: string; columns: string }>(
      handle.db,
      sql.raw(`
      select (select count(*)::int from "${t}") as rows,
        (select md5(coalesce(string_agg(x::text, E'\\n' order by x::text), '')) from ${source} x) as md5,
        (select string_agg(attname || ' ' || format_type(atttypid, atttypmod), ', ' order by attnum) from pg_attribute
          where attrelid = '"${t}"'::regclass and attnum > 0 and not attisdropped
          ${names ? `and attname in (${names.map((n) => `'${n}'`).join(", ")})` : ""}) as columns`),
    );
    out[t] = row;
  }
  return out;
}

const finding = (plan: Plan, table: string, name: string) =>
  plan.tables.find((t) => t.name === table)?.findings.find((f) => f.name === name);

describe("the migration journal", () => {
  it("orders its entries by `when`, strictly: drizzle applies only entries newer than the newest recorded one", () => {
    const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as {
      entries: Array<{ when: number; tag: string }>;
    };
    const whens = journal.entries.map((e) => e.when);
    for (let i = 1; i < whens.length; i++) expect(whens[i], journal.entries[i].tag).toBeGreaterThan(whens[i - 1]);
    expect(readMigrationFiles({ migrationsFolder }).map((m) => m.folderMillis)).toEqual(whens);
  });
});

describe("starting on a database of the console this one replaces (PGlite)", () => {
  it("stops before any migration, naming npm run db:adopt, and changes nothing", async () => {
    const handle = await openPglite();
    try {
      await handle.db.execute(
        sql.raw("create table customers (customer_id uuid primary key, customer_name text, status text)"),
      );
      await handle.db.execute(sql.raw("insert into customers values (gen_random_uuid(), 'Old', 'archived')"));
      const error = await handle.migrate().then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(NotAdoptedError);
      expect((error as Error).message).toContain("npm run db:adopt");
      expect((error as Error).message).toContain("customers");
      const catalog = await readCatalog(handle.db);
      expect([...catalog.tables.keys()]).toEqual(["customers"]);
      expect(await queryRows(handle.db, sql.raw("select 1 from pg_namespace where nspname = 'drizzle'"))).toEqual([]);
    } finally {
      await handle.close();
    }
  }, 180_000);
});

describe.runIf(Boolean(base))("adopting a PostgreSQL database of the console this one replaces", () => {
  let reference: Reference;
  let legacyDb: ScratchDatabase;
  let handle: DatabaseHandle;
  let plan: Plan;
  let report: string;
  let before: Awaited<ReturnType<typeof checksums>>;
  const scratch: ScratchDatabase[] = [];

  beforeAll(async () => {
    reference = await buildReference();
    legacyDb = await createScratchDatabase(base!);
    scratch.push(legacyDb);
    await fillLegacyDatabase(legacyDb.url);
    handle = openPostgres(legacyDb.url, 3);
    before = await checksums(handle, spec);
  }, 240_000);

  afterAll(async () => {
    await handle?.close();
    for (const db of scratch) await db.drop();
  });

  it("reports each difference and bad row, with counts and example keys, and changes nothing", async () => {
    const untouched = await snapshot(handle);
    plan = await inspect(handle, async () => reference);
    report = formatReport(plan, { dryRun: true });
    expect(plan.status).toBe("adoptable");
    expect(before.customers.rows).toBeGreaterThan(40);
    expect(Object.values(before).reduce((n, t) => n + t.rows, 0)).toBeGreaterThan(5000);

    // Table by table, column by column.
    for (const table of spec) expect(report).toContain(`\n${table} (`);
    expect(finding(plan, "customers", "customer_name")).toMatchObject({ state: "match" });
    expect(finding(plan, "users_data", "customer_id")).toMatchObject({
      state: "differs",
      detail: expect.stringContaining("nullable here"),
    });
    // A status outside the spec's list: the check is reported with the row, not added.
    expect(finding(plan, "customers", "customers_status_check")).toMatchObject({
      state: "missing",
      action: "not-added",
      breaking: { count: 1, examples: [`customer_id=${legacy.archivedCustomer}, status=archived`] },
    });
    expect(finding(plan, "users_data", "users_data_status_check")?.breaking).toEqual({
      count: 1,
      examples: [`user_id=${legacy.suspendedUser}, status=suspended`],
    });
    expect(finding(plan, "users_roles", "users_roles_role_check")?.breaking?.examples).toEqual([
      `user_id=${legacy.suspendedUser}, role=owner`,
    ]);
    // An orphaned team_id: the foreign key is reported with the row.
    expect(finding(plan, "teams_users", "teams_users_team_id_teams_team_id_fk")).toMatchObject({
      action: "not-added",
      breaking: { count: 1 },
    });
    expect(finding(plan, "teams_users", "teams_users_team_id_teams_team_id_fk")?.breaking?.examples[0]).toContain(
      `team_id=${legacy.orphanTeam}`,
    );
    // A duplicated (team_id, skill_id) pair: the primary key is reported with the pair.
    expect(finding(plan, "teams_skills", "teams_skills_pkey")).toMatchObject({
      action: "not-added",
      breaking: {
        count: 1,
        examples: [`team_id=${legacy.duplicatedTeam}, skill_id=${legacy.duplicatedSkill} (2 rows)`],
      },
    });
    // Constraints the rows satisfy are added; missing indexes built; the console's own tables created.
    expect(finding(plan, "teams", "teams_status_check")).toMatchObject({ state: "missing", action: "create" });
    expect(finding(plan, "teams", "teams_customer_id_customers_customer_id_fk")).toMatchObject({
      state: "missing",
      action: "create",
    });
    expect(finding(plan, "customers", "customers_created_at_idx")).toMatchObject({
      state: "missing",
      action: "create-concurrently",
    });
    expect(finding(plan, "users_data", "users_data_email_key")).toMatchObject({
      state: "missing",
      action: "create-concurrently",
    });
    for (const own of [
      "operator",
      "operator_session",
      "audit_log",
      "auth_throttle",
      "customer_counts",
      "team_counts",
      "status_counts",
    ]) {
      expect(report).toContain(`${own}: MISSING → --apply creates it`);
    }
    expect(report).toContain(
      "→ not added: 1 row breaks it, e.g. customer_id=00000000-0000-4000-8000-00000000a001, status=archived",
    );
    expect(report).toContain("Dry run: nothing was changed.");
    expect(await snapshot(handle)).toEqual(untouched);
  }, 120_000);

  it("--apply keeps every row and column of the eleven tables, adds the console's tables and indexes and records the migrations; a second --apply changes nothing", async () => {
    plan ??= await inspect(handle, async () => reference);
    const result = await applyPlan(handle, plan);
    expect(result.refused).toEqual([]);
    // Every row and column as it was; the columns the console adds (a platform's review flag) are new.
    expect(await checksums(handle, spec, before)).toEqual(before);

    const catalog = await readCatalog(handle.db);
    const notAdded = new Set(
      plan.tables
        .flatMap((t) => t.findings)
        .filter((f) => f.action === "not-added")
        .map((f) => f.name),
    );
    expect(notAdded).toEqual(
      new Set([
        "customers_status_check",
        "users_data_status_check",
        "users_roles_role_check",
        "teams_users_team_id_teams_team_id_fk",
        "teams_skills_pkey",
        "skills_type_check",
        "skills_status_check",
        "pedal_prompts_status_check",
        "platforms_status_check",
        "skill_comments_status_check",
      ]),
    );
    for (const table of reference.catalog.tables.values()) {
      const live = catalog.tables.get(table.name);
      expect(live, table.name).toBeDefined();
      for (const index of table.indexes.filter((i) => !notAdded.has(i.constraint ?? i.name))) {
        expect(
          live!.indexes.find((i) => i.name === index.name),
          index.name,
        ).toMatchObject({ valid: true });
      }
      for (const c of table.constraints) {
        expect(
          live!.constraints.some((x) => x.name === c.name),
          c.name,
        ).toBe(!notAdded.has(c.name));
      }
      for (const t of table.triggers)
        expect(
          live!.triggers.some((x) => x.name === t.name),
          t.name,
        ).toBe(true);
    }
    const recorded = await queryRows<{ hash: string; created_at: string }>(
      handle.db,
      sql.raw("select hash, created_at::text from drizzle.__drizzle_migrations order by id"),
    );
    expect(recorded).toEqual(
      readMigrationFiles({ migrationsFolder }).map((m) => ({ hash: m.hash, created_at: String(m.folderMillis) })),
    );
    // The counters the lists read were built from the existing rows.
    const [counts] = await queryRows<{ archived: number; users: number }>(
      handle.db,
      sql.raw(
        "select (select n::int from status_counts where entity = 'customers' and status = 'archived') as archived, (select sum(user_count)::int from customer_counts) as users",
      ),
    );
    expect(counts).toEqual({ archived: 1, users: before.users_data.rows });

    // Starting the console migrates nothing more; a second --apply is a no-op that says so.
    const adopted = await snapshot(handle);
    await handle.migrate();
    const second = await run(["scripts/adopt.ts", "--apply"], legacyDb.url);
    expect(second.code, second.out).toBe(0);
    const journalLength = readMigrationFiles({ migrationsFolder }).length;
    expect(second.out).toContain(
      `already managed by Pedal Console (${journalLength} migrations recorded): there is nothing to adopt and nothing was changed`,
    );
    expect(await snapshot(handle)).toEqual(adopted);
  }, 180_000);

  describe("then the console", () => {
    let app: TestConsole;
    beforeAll(async () => {
      app = await startConsole("postgres", { handle: openPostgres(legacyDb.url, 3), extensibleEnums: true });
    });
    afterAll(async () => {
      await app?.close();
    });

    it("lists, searches and opens the existing data; the bad rows show as they are", async () => {
      const customers = await app.read("/api/customers?limit=200");
      expect(customers.status).toBe(200);
      expect(customers.body.total).toBe(before.customers.rows);
      expect(customers.body.summary).toMatchObject({ total: before.customers.rows });
      const archived = customers.body.items.find(
        (c: { customer_id: string }) => c.customer_id === legacy.archivedCustomer,
      );
      expect(archived).toMatchObject({ customer_name: legacy.archivedCustomerName, status: "archived", user_count: 1 });
      expect(
        (await app.read(`/api/customers?q=${encodeURIComponent("Zeta Archived")}`)).body.items.map(
          (c: { customer_id: string }) => c.customer_id,
        ),
      ).toEqual([legacy.archivedCustomer]);
      expect((await app.read(`/api/customers/${legacy.archivedCustomer}`)).body).toMatchObject({ status: "archived" });

      const users = await app.read(`/api/users?q=${encodeURIComponent(legacy.suspendedUserEmail)}`);
      expect(users.body.items).toEqual([
        expect.objectContaining({ user_id: legacy.suspendedUser, status: "suspended", roles: ["owner"] }),
      ]);
      expect((await app.read(`/api/users/${legacy.suspendedUser}`)).status).toBe(200);
      expect((await app.read("/api/users?limit=50&sort=name&order=asc")).body.total).toBe(before.users_data.rows);
      // The member of a team that does not exist: their own teams list shows what exists.
      const orphanUser = (
        await app.rows<{ user_id: string }>(
          sql.raw(`select user_id::text from teams_users where team_id = '${legacy.orphanTeam}'`),
        )
      )[0].user_id;
      const memberships = await app.read(`/api/users/${orphanUser}/teams`);
      expect(memberships.status).toBe(200);
      expect(memberships.body.items.every((m: { team_id: string }) => m.team_id !== legacy.orphanTeam)).toBe(true);

      const team = await app.read(`/api/teams/${legacy.duplicatedTeam}`);
      expect(team).toMatchObject({ status: 200, body: { skills_count: 1 } });
      expect((await app.read(`/api/teams/${legacy.duplicatedTeam}/skills`)).status).toBe(200);
      expect((await app.read("/api/teams?limit=200")).body.total).toBe(before.teams.rows);
      expect((await app.read("/api/dashboard")).status).toBe(200);

      // Statuses and types outside the spec's lists in the later screens' tables answer as stored.
      const skill = await app.read(`/api/skills/${legacy.deprecatedSkill}`);
      expect(skill).toMatchObject({ status: 200, body: { status: "deprecated", type: "imported" } });
      expect((await app.read("/api/skills?limit=200")).body.items).toContainEqual(
        expect.objectContaining({ skill_id: legacy.deprecatedSkill, status: "deprecated" }),
      );
      expect((await app.read(`/api/skills/${legacy.deprecatedSkill}/prompts`)).body.items).toEqual([
        expect.objectContaining({ status: "published" }),
      ]);
      expect((await app.read(`/api/skills/${legacy.deprecatedSkill}/comments`)).body.items).toEqual([
        expect.objectContaining({ status: "flagged" }),
      ]);
      expect((await app.read(`/api/prompts/${legacy.publishedPrompt}`)).body).toMatchObject({ status: "published" });
      expect((await app.read("/api/prompts?limit=200")).body.items).toContainEqual(
        expect.objectContaining({ prompt_id: legacy.publishedPrompt, status: "published" }),
      );
      expect((await app.read(`/api/prompts/${legacy.publishedPrompt}/platforms`)).body.items).toEqual([
        expect.objectContaining({ platform_id: legacy.retiredPlatform }),
      ]);
      expect((await app.read(`/api/platforms/${legacy.retiredPlatform}`)).body).toMatchObject({ status: "retired" });
      expect((await app.read(`/api/platforms/${legacy.retiredPlatform}/prompts`)).body.items).toEqual([
        expect.objectContaining({ status: "published" }),
      ]);
      expect((await app.read("/api/comments?limit=200&q=flagged")).body.items).toEqual([
        expect.objectContaining({ comment_id: legacy.flaggedComment, status: "flagged" }),
      ]);
      for (const figure of analyticsFigures)
        expect((await app.read(`/api/analytics/${figure}`)).status, figure).toBe(200);
      expect((await app.read("/api/search?q=Legacy")).status).toBe(200);
    });

    it("changes the existing data, its own validation holding where a constraint is missing", async () => {
      const created = await app.write("POST", "/api/customers", { customer_name: "Adopted New Customer" });
      expect(created.status).toBe(201);
      const customerId = created.body.customer_id as string;
      const team = await app.write("POST", "/api/teams", { customer_id: customerId, team_name: "Adopted Team" });
      expect(team.status).toBe(201);
      // The duplicated pair is already active: assigning it again changes nothing (no key needed).
      expect(
        (await app.write("POST", `/api/teams/${legacy.duplicatedTeam}/skills`, { skill_id: legacy.duplicatedSkill }))
          .status,
      ).toBe(200);
      const skill = (
        await app.rows<{ skill_id: string }>(
          sql.raw("select skill_id::text from skills where status = 'active' order by skill_name limit 1"),
        )
      )[0].skill_id;
      expect((await app.write("POST", `/api/teams/${team.body.team_id}/skills`, { skill_id: skill })).status).toBe(201);
      expect((await app.write("POST", `/api/teams/${team.body.team_id}/skills`, { skill_id: skill })).status).toBe(200);
      expect(
        (await app.rows(sql.raw(`select 1 from teams_skills where team_id = '${team.body.team_id}'`))).length,
      ).toBe(1);

      const user = await app.write("POST", "/api/users", {
        email: "new.person@adopted.example",
        customer_id: customerId,
      });
      expect(user.status).toBe(201);
      expect(
        (await app.write("POST", "/api/users", { email: "USER1@legacy.example", customer_id: customerId })).status,
      ).toBe(409);
      expect(
        (await app.write("POST", `/api/users/${user.body.user_id}/teams`, { team_id: team.body.team_id })).status,
      ).toBe(201);
      expect(
        (await app.write("POST", `/api/users/${user.body.user_id}/teams`, { team_id: team.body.team_id })).status,
      ).toBe(200);
      expect((await app.write("PATCH", `/api/customers/${legacy.archivedCustomer}`, { status: "active" })).status).toBe(
        200,
      );
      expect((await app.write("PATCH", `/api/teams/${legacy.duplicatedTeam}`, { status: "inactive" })).status).toBe(
        200,
      );
      expect((await app.read(`/api/customers/${customerId}`)).body).toMatchObject({
        customer_name: "Adopted New Customer",
      });
      expect((await app.read("/api/customers?limit=1")).body.total).toBe(before.customers.rows + 1);
    });
  });

  it("the rollback SQL written by --apply undoes it: the database is as it was", async () => {
    const old = await createScratchDatabase(base!);
    scratch.push(old);
    await fillLegacyDatabase(old.url);
    const oldHandle = openPostgres(old.url, 2);
    try {
      const original = await snapshot(oldHandle);
      const rollbackFile = path.join(root, "test-results", `adopt-rollback-${old.name}.sql`);
      const applied = await run(["scripts/adopt.ts", "--apply", "--rollback-file", rollbackFile], old.url);
      expect(applied.code, applied.out).toBe(0);
      expect(applied.out).toContain(`To undo this adoption: psql "$DATABASE_URL" -f ${rollbackFile}`);
      expect(await snapshot(oldHandle)).not.toEqual(original);
      const undo = readFileSync(rollbackFile, "utf8");
      expect(undo).toContain('DROP SCHEMA IF EXISTS "drizzle" CASCADE;');
      await oldHandle.db.execute(sql.raw(undo));
      expect(await snapshot(oldHandle)).toEqual(original);
    } finally {
      await oldHandle.close();
    }
  }, 240_000);

  it("npm start on a database of the old shape stops with a message naming npm run db:adopt, and changes nothing", async () => {
    const old = await createScratchDatabase(base!);
    scratch.push(old);
    await fillLegacyDatabase(old.url);
    const oldHandle = openPostgres(old.url, 1);
    try {
      const untouched = await snapshot(oldHandle);
      const started = await run(["src/server/main.ts"], old.url);
      expect(started.code, started.out).toBe(2);
      expect(started.out).toContain("npm run db:adopt");
      expect(started.out).not.toContain("Pedal Console is running");
      expect(await snapshot(oldHandle)).toEqual(untouched);
    } finally {
      await oldHandle.close();
    }
  }, 120_000);

  it("adopting a database that already holds the console's tables is a no-op with a clear message", async () => {
    const ours = await createScratchDatabase(base!);
    scratch.push(ours);
    const oursHandle = openPostgres(ours.url, 1);
    try {
      await oursHandle.migrate();
      const untouched = await snapshot(oursHandle);
      for (const args of [["scripts/adopt.ts"], ["scripts/adopt.ts", "--apply"]]) {
        const result = await run(args, ours.url);
        expect(result.code, result.out).toBe(0);
        expect(result.out).toContain("This database is already managed by Pedal Console");
        expect(result.out).toContain("nothing was changed");
      }
      expect(await snapshot(oursHandle)).toEqual(untouched);
    } finally {
      await oursHandle.close();
    }
  }, 120_000);
});

describe("db:adopt without a PostgreSQL database", () => {
  it("says that it needs DATABASE_URL", { timeout: 120_000 }, async () => {
    const result = await run(["scripts/adopt.ts"], "");
    expect(result.code).toBe(2);
    expect(result.out).toContain("set DATABASE_URL");
  });
});
