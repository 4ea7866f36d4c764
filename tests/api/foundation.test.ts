import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, environmentVariables, loadConfig, loadEnvFile } from "../../src/server/config";
import { openConfiguredDatabase } from "../../src/server/database";
import { openPostgres, pgliteV8Flags, queryRows } from "../../src/server/db/client";
import { compressJson } from "../../src/server/http/compress-json";
import { projectRoot } from "../../src/server/paths";
import { generateDemoData } from "../../src/server/db/demo-data";
import { routeTable } from "../../src/server/http/route";
import { startConsole, testPassword, type TestConsole } from "../support/app";
import { freshDatabase, targets } from "../support/databases";
import { testFolder } from "../support/server";

const specTables: Record<string, string[]> = {
  customers: ["customer_id", "customer_name", "valid_domains", "status", "created_at", "updated_at"],
  users_data: [
    "user_id",
    "customer_id",
    "email",
    "first_name",
    "last_name",
    "job_title",
    "status",
    "last_login",
    "created_at",
    "updated_at",
  ],
  users_roles: ["user_id", "role"],
  teams: ["team_id", "customer_id", "team_name", "status", "created_at", "updated_at"],
  teams_users: ["team_id", "user_id", "customer_id"],
  teams_skills: ["team_id", "skill_id", "customer_id", "status", "assigned_at", "score", "last_used"],
  skills: ["skill_id", "skill_name", "skill_description", "type", "is_global", "status", "created_at", "updated_at"],
  skill_comments: [
    "comment_id",
    "customer_id",
    "skill_id",
    "user_id",
    "comment_value",
    "status",
    "created_at",
    "updated_at",
  ],
  pedal_prompts: ["prompt_id", "prompt_title", "prompt_value", "skill_id", "status", "created_at", "updated_at"],
  platforms: ["platform_id", "platform_name", "platform_description", "status", "created_at", "updated_at"],
  platform_prompts: ["platform_id", "prompt_id", "assigned_at", "is_active"],
};

describe("demo data generator", () => {
  const now = new Date("2026-06-01T12:00:00Z");
  it("gives the same data for the same seed and different data for another seed", () => {
    const a = generateDemoData({ seed: 7, now });
    const b = generateDemoData({ seed: 7, now });
    const c = generateDemoData({ seed: 8, now });
    expect(a).toEqual(b);
    expect(c.customers[0].customer_id).not.toEqual(a.customers[0].customer_id);
  });

  it("has the documented counts and covers every status", () => {
    const d = generateDemoData({ seed: 42, now });
    expect([
      d.customers.length,
      d.teams.length,
      d.users_data.length,
      d.skills.length,
      d.pedal_prompts.length,
      d.platforms.length,
      d.skill_comments.length,
    ]).toEqual([25, 80, 600, 30, 90, 8, 300]);
    expect(new Set(d.customers.map((c) => c.status))).toEqual(new Set(["active", "trial", "inactive"]));
    expect(new Set(d.skill_comments.map((c) => c.status))).toEqual(
      new Set(["pending", "active", "inactive", "rejected"]),
    );
    expect(new Set(d.skills.map((s) => s.type))).toEqual(new Set(["manual", "agent", "detected"]));
    expect(d.users_data.some((u) => u.last_login === null)).toBe(true);
    const scaled = generateDemoData({ seed: 42, now, scale: 3 });
    expect(scaled.users_data.length).toBe(1800);
  });
});

describe("JSON compression", () => {
  it("leaves answers as text where a middleware reads them back, and gzips them after it as where it does not", async () => {
    const app = new Hono();
    app.use("*", compressJson({ readBackUnder: "/read/" }));
    let readBack: unknown;
    app.use("/read/*", async (c, next) => {
      await next();
      readBack = await c.res.clone().json();
    });
    const big = { text: "x".repeat(4000) };
    app.get("/read/it", (c) => c.json(big));
    app.get("/made/it", (c) => c.json(big));
    for (const path of ["/read/it", "/made/it"]) {
      const res = await app.request(path, { headers: { "accept-encoding": "gzip" } });
      expect(res.headers.get("content-encoding"), path).toBe("gzip");
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(Number(res.headers.get("content-length")), path).toBe(bytes.length);
      expect(JSON.parse(gunzipSync(bytes).toString("utf8")), path).toEqual(big);
    }
    expect(readBack).toEqual(big);
  });
});

describe.each(targets)("foundation on %s", (target) => {
  let app: TestConsole;
  beforeAll(async () => {
    app = await startConsole(target, { demo: true });
  });
  afterAll(() => app.close());

  it("has the spec's eleven tables with their exact columns", async () => {
    const rows = await queryRows<{ table_name: string; column_name: string }>(
      app.handle.db,
      sql`
      select table_name, column_name from information_schema.columns
      where table_schema = 'public' order by table_name, ordinal_position`,
    );
    // The spec's columns first and unchanged; after them only the console's own additions, each
    // nullable for an adopted database (docs/prompt-review.md: a platform's review settings).
    const added: Record<string, string[]> = { platforms: ["needs_review", "provided_variables"] };
    for (const [table, columns] of Object.entries(specTables)) {
      expect(
        rows.filter((r) => r.table_name === table).map((r) => r.column_name),
        table,
      ).toEqual([...columns, ...(added[table] ?? [])]);
    }
  });

  it("reads timestamps for a JSON answer as the ISO text a Date would print, in any session time zone", async () => {
    const values = sql`
      select '2024-05-01 10:00:00+00'::timestamptz as whole, '2024-05-01 10:00:00.5+00'::timestamptz as half,
        '2024-05-01 10:00:00.123999+00'::timestamptz as micro, '1999-12-31 23:59:59.07'::timestamp as plain,
        '0099-03-01 00:00:00+00'::timestamptz as early, 'infinity'::timestamptz as endless,
        '10000-01-01 00:00:00+00'::timestamptz as far, '2024-05-01 10:00:00 BC'::timestamp as bc,
        '2024-05-01 10:00:00.25+00'::timestamptz::text as text_kept`;
    const check = async () => {
      const [asDates] = await queryRows<Record<string, Date | string>>(app.handle.db, values);
      const [asText] = await queryRows<Record<string, string>>(app.handle.db, values, { timestamps: "iso" });
      const printed = Object.fromEntries(
        Object.entries(asDates).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]),
      );
      expect(asText).toEqual(printed);
      return asText;
    };
    const utc = await check();
    expect(utc).toMatchObject({
      whole: "2024-05-01T10:00:00.000Z",
      half: "2024-05-01T10:00:00.500Z",
      micro: "2024-05-01T10:00:00.123Z",
      plain: "1999-12-31T23:59:59.070Z",
      endless: "infinity",
      text_kept: "2024-05-01 10:00:00.25+00",
    });
    // Another session time zone prints offsets; the instants are the same.
    await app.handle.db.transaction(async (tx) => {
      await tx.execute(sql`set local time zone 'Asia/Kolkata'`);
      const [shifted] = await queryRows<Record<string, string>>(tx as never, values, { timestamps: "iso" });
      expect(shifted.whole).toBe(utc.whole);
      expect(shifted.micro).toBe(utc.micro);
    });
    expect(await check()).toEqual(utc);
  });

  it("applies migrations idempotently on restart", async () => {
    await app.handle.migrate();
    await app.handle.migrate();
    const [row] = await queryRows<{ n: number }>(app.handle.db, sql`select count(*)::int as n from customers`);
    expect(row.n).toBe(25);
  });

  it("sends a JSON answer gzipped whole, with its length, to a client that accepts gzip, and as it is to one that does not", async () => {
    const zipped = await app.request("/api/users?limit=50", {
      as: "viewer",
      headers: { "accept-encoding": "gzip, deflate, br" },
    });
    expect(zipped.status).toBe(200);
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(zipped.headers.get("vary")).toMatch(/accept-encoding/i);
    const bytes = Buffer.from(await zipped.arrayBuffer());
    expect(Number(zipped.headers.get("content-length"))).toBe(bytes.length);
    const body = JSON.parse(gunzipSync(bytes).toString("utf8"));
    expect(body.items).toHaveLength(50);
    for (const encoding of [undefined, "identity", "gzip;q=0, br"]) {
      const plain = await app.request("/api/users?limit=50", {
        as: "viewer",
        headers: encoding ? { "accept-encoding": encoding } : {},
      });
      expect(plain.headers.get("content-encoding"), encoding).toBeNull();
      expect((await plain.json()).items, encoding).toEqual(body.items);
    }
  });

  it("answers 401 JSON to every API route without a session", async () => {
    const protectedRoutes = routeTable.filter((r) => r.access !== "public");
    expect(protectedRoutes.length).toBeGreaterThan(0);
    for (const route of protectedRoutes) {
      const path = route.path.replace(/\{[^}]+\}/g, "00000000-0000-4000-8000-000000000000");
      const res = await app.request(path, { method: route.method, json: route.method === "GET" ? undefined : {} });
      expect(res.status, `${route.method} ${route.path}`).toBe(401);
      expect(await res.json()).toEqual({ error: { code: "unauthorized", message: "Sign in to continue" } });
    }
    const unknown = await app.request("/api/nothing-here");
    expect(unknown.status).toBe(401);
  });

  it("refuses a wrong password with the server's message", async () => {
    await app.cookie("admin"); // creates admin@test.example
    const res = await app.request("/api/auth/sign-in/email", {
      method: "POST",
      json: { email: "admin@test.example", password: "not-the-password" },
    });
    expect(res.status).toBe(401);
    expect((await res.json()).message).toBe("Invalid email or password");
  });

  it("has no public sign-up", async () => {
    const res = await app.request("/api/auth/sign-up/email", {
      method: "POST",
      json: { email: "intruder@test.example", password: testPassword, name: "x" },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    const [row] = await queryRows<{ n: number }>(
      app.handle.db,
      sql`select count(*)::int as n from operator where email = 'intruder@test.example'`,
    );
    expect(row.n).toBe(0);
  });

  it("returns dashboard counts equal to SELECT count(*) of each table", async () => {
    const res = await app.request("/api/dashboard", { as: "viewer" });
    expect(res.status).toBe(200);
    const body = await res.json();
    const [expected] = await queryRows<Record<string, number>>(
      app.handle.db,
      sql`
      select (select count(*) from customers)::int as total_customers,
             (select count(*) from users_data)::int as total_users,
             (select count(*) from teams)::int as total_teams,
             (select count(*) from users_data where last_login is not null)::int as active_users`,
    );
    expect(body).toEqual(expected);
    expect(body.total_customers).toBe(25);
  });

  it("ends the session at sign-out", async () => {
    const cookie = await app.cookie("editor");
    expect((await app.request("/api/dashboard", { headers: { cookie } })).status).toBe(200);
    const out = await app.request("/api/auth/sign-out", { method: "POST", headers: { cookie }, json: {} });
    expect(out.status).toBe(200);
    expect((await app.request("/api/dashboard", { headers: { cookie } })).status).toBe(401);
  });

  it("serves the OpenAPI document to a signed-in operator", async () => {
    const res = await app.request("/api/openapi.json", { as: "viewer" });
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.paths["/api/dashboard"].get).toBeDefined();
    const docs = await app.request("/api/docs", { as: "viewer" });
    expect(await docs.text()).toContain("swagger-ui");
  });
});

describe("embedded database", () => {
  it("keeps PGLITE_SHARED_BUFFERS_MB of pages in its own memory, 16 MB unless set, and refuses a value out of range", async () => {
    const folder = testFolder("shared-buffers");
    for (const [env, expected] of [
      [{}, "16MB"],
      [{ PGLITE_SHARED_BUFFERS_MB: "8" }, "8MB"],
    ] as const) {
      const { handle, release } = await openConfiguredDatabase(loadConfig({ DATA_DIR: folder, ...env }));
      try {
        expect(
          (await queryRows<{ shared_buffers: string }>(handle.db, sql`show shared_buffers`))[0].shared_buffers,
        ).toBe(expected);
      } finally {
        await handle.close();
        release();
      }
    }
    for (const value of ["0", "2048", "16MB", "-1"]) {
      expect(() => loadConfig({ DATA_DIR: folder, PGLITE_SHARED_BUFFERS_MB: value }), value).toThrow(ConfigError);
    }
  }, 60_000);

  it("has V8 compile PostgreSQL's WebAssembly with its optimizing compiler alone, no baseline code tiered up on compiler threads (pgliteV8Flags)", () => {
    expect(pgliteV8Flags).toEqual(["--no-liftoff"]);
    // A child process, for V8 to trace the compilations of a database opened as the console opens
    // it; the trace starts after the modules are loaded (the TypeScript loader has WebAssembly too).
    const script = `import v8 from "node:v8";
      const { openPglite } = await import("./src/server/db/client.ts");
      v8.setFlagsFromString("--trace-wasm-compilation-times");
      const handle = await openPglite();
      await handle.pglite.query("select count(*) from pg_class where relname like 'pg%'");
      await handle.close();`;
    const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: projectRoot,
      encoding: "utf8",
      timeout: 120_000,
      maxBuffer: 256 * 1024 * 1024,
    });
    expect(child.status, child.stderr).toBe(0);
    const tiers = (child.stdout.match(/^Compiled function .* using (\w+)/gm) ?? []).map((line) =>
      line.split(" ").pop(),
    );
    expect(tiers.filter((t) => t === "TurboFan").length).toBeGreaterThan(100);
    expect(tiers.filter((t) => t !== "TurboFan")).toEqual([]);
  }, 120_000);
});

describe.each(targets)("empty database on %s", (target) => {
  it("migrates an empty database", async () => {
    const handle = await freshDatabase(target);
    try {
      await handle.migrate();
      const rows = await queryRows<{ n: number }>(
        handle.db,
        sql`select count(*)::int as n from information_schema.tables where table_schema = 'public'`,
      );
      expect(rows[0].n).toBeGreaterThanOrEqual(15);
    } finally {
      await handle.close();
    }
  });
});

// Only where a PostgreSQL server is given (TEST_DATABASE_URL); PGlite has no connections to lose.
describe.each(targets.filter((t) => t === "postgres"))("%s pool", () => {
  it("survives the server ending an idle connection, and reports it", async () => {
    const errors: string[] = [];
    const handle = openPostgres(process.env.TEST_DATABASE_URL!, 2, (err) =>
      errors.push((err as { code?: string }).code ?? err.message),
    );
    try {
      const [me] = await queryRows<{ pid: number }>(handle.db, sql`select pg_backend_pid() as pid`);
      const admin = openPostgres(process.env.TEST_DATABASE_URL!, 1);
      await queryRows(admin.db, sql`select pg_terminate_backend(${me.pid})`);
      await admin.close();
      await new Promise((r) => setTimeout(r, 200));
      expect(errors).toEqual(["57P01"]);
      const [row] = await queryRows<{ n: number }>(handle.db, sql`select 1 as n`);
      expect(row.n).toBe(1);
    } finally {
      await handle.close();
    }
  });
});

describe("the env file", () => {
  it("reads .env (or ENV_FILE) into the environment, the environment winning, and names every variable in .env.example", () => {
    const folder = testFolder("env-file");
    const file = path.join(folder, "console.env");
    writeFileSync(file, "# a comment\nPEDAL_TEST_FROM_FILE=from file\nPEDAL_TEST_BOTH=from file\n");
    process.env.PEDAL_TEST_BOTH = "from environment";
    try {
      loadEnvFile({ ENV_FILE: file });
      expect(process.env.PEDAL_TEST_FROM_FILE).toBe("from file");
      expect(process.env.PEDAL_TEST_BOTH).toBe("from environment");
    } finally {
      delete process.env.PEDAL_TEST_FROM_FILE;
      delete process.env.PEDAL_TEST_BOTH;
    }
    expect(() => loadEnvFile({ ENV_FILE: path.join(folder, "missing.env") })).toThrow(ConfigError);
    // Every variable the console reads is in .env.example, and nothing else.
    const example = readFileSync(path.join(projectRoot, ".env.example"), "utf8");
    const named = [...example.matchAll(/^# ([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
    expect(named.toSorted()).toEqual(environmentVariables.filter((v) => v !== "ENV_FILE").toSorted());
    expect(example).toContain("ENV_FILE");
  });
});
