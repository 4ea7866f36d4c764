/**
 * The list contract, generated from every list declaration (`listTable`): each sort in both
 * directions paged forward with cursors and back from the last page against direct SQL over the
 * declaration's FROM and keys; each filter and a search against direct SQL counts; at most 3 SQL
 * statements per request (counted through the driver); malformed and mismatched cursors (422);
 * estimated totals above LIST_EXACT_COUNT_LIMIT; the CSV export of each list (all rows, BOM,
 * formula neutralising, audit row). On PGlite and PostgreSQL.
 */
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql, type SQL } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { msg } from "../../src/domain/messages";
import { createApp } from "../../src/server/app";
import { createOperator } from "../../src/server/auth";
import { defaultSecurity } from "../../src/server/config";
import { queryRows, wrapPglite, type DatabaseHandle } from "../../src/server/db/client";
import { loadDemoData } from "../../src/server/db/demo-data";
import {
  allOf,
  searchMatch,
  type ListDeclaration,
  type ListSettings,
  type SummaryCache,
} from "../../src/server/http/lists";
import { listTable } from "../../src/server/http/list-routes";
import { publicUrl, startConsole, testPassword, type TestConsole } from "../support/app";
import { targets } from "../support/databases";

type Entry = (typeof listTable)[number];
const lists = () => [...new Map(listTable.map((e) => [e.path, e])).values()];

/** Path parameters of the nested lists: a record with rows in it. */
async function pathFor(app: TestConsole, entry: Entry): Promise<{ url: string; scope?: SQL }> {
  if (!entry.path.includes("{")) return { url: entry.path };
  if (entry.path.includes("{skillId}")) {
    const skillId = await busiestSkill(app);
    return { url: entry.path.replace("{skillId}", skillId), scope: entry.scope!.where({ skillId }) };
  }
  if (entry.path.includes("{promptId}")) {
    const promptId = await busiestPrompt(app);
    return { url: entry.path.replace("{promptId}", promptId), scope: entry.scope!.where({ promptId }) };
  }
  if (entry.path.includes("{platformId}")) {
    const [{ platform_id }] = await app.rows<{ platform_id: string }>(
      sql`select platform_id from platform_prompts group by platform_id order by count(*) desc, platform_id limit 1`,
    );
    return {
      url: entry.path.replace("{platformId}", platform_id),
      scope: entry.scope!.where({ platformId: platform_id }),
    };
  }
  if (entry.path.includes("{teamId}")) {
    // The team with most active skills: its picker leaves those out.
    const [{ team_id }] = await app.rows<{ team_id: string }>(
      sql`select team_id from teams_skills where status = 'active' group by team_id order by count(*) desc, team_id limit 1`,
    );
    return { url: entry.path.replace("{teamId}", team_id), scope: entry.scope!.where({ teamId: team_id }) };
  }
  if (entry.path.includes("{importId}")) {
    // The demo data's import (its rows have every outcome it shows).
    const [{ import_id }] = await app.rows<{ import_id: string }>(
      sql`select import_id from import_rows group by import_id order by count(*) desc, import_id limit 1`,
    );
    return { url: entry.path.replace("{importId}", import_id), scope: entry.scope!.where({ importId: import_id }) };
  }
  if (entry.path.includes("{customerId}")) {
    const [{ customer_id }] = await app.rows<{ customer_id: string }>(
      sql`select customer_id from customer_settings_changes group by customer_id order by count(*) desc, customer_id limit 1`,
    );
    return {
      url: entry.path.replace("{customerId}", customer_id),
      scope: entry.scope!.where({ customerId: customer_id }),
    };
  }
  const [{ user_id }] = await app.rows<{ user_id: string }>(
    sql`select user_id from teams_users group by user_id order by count(*) desc, user_id limit 1`,
  );
  return { url: entry.path.replace("{userId}", user_id), scope: entry.scope!.where({ userId: user_id }) };
}

/** The skill with the most team assignments (it has prompts and comments too in the demo data). */
async function busiestSkill(app: { rows: TestConsole["rows"] }): Promise<string> {
  const [{ skill_id }] = await app.rows<{ skill_id: string }>(sql`
    select s.skill_id from skills s
    where exists (select 1 from pedal_prompts p where p.skill_id = s.skill_id) and exists (select 1 from skill_comments c where c.skill_id = s.skill_id)
    order by (select count(*) from teams_skills ts where ts.skill_id = s.skill_id) desc, s.skill_id limit 1`);
  return skill_id;
}

/** The prompt with the most platform assignments; given a few versions by the suite's set-up. */
async function busiestPrompt(app: { rows: TestConsole["rows"] }): Promise<string> {
  const [{ prompt_id }] = await app.rows<{ prompt_id: string }>(sql`
    select prompt_id from platform_prompts group by prompt_id order by count(*) desc, prompt_id limit 1`);
  return prompt_id;
}

/** Sample values of each filter, read from the data. */
async function filterSamples(app: TestConsole, name: string, path = ""): Promise<string[]> {
  const one = async (query: SQL) => (await app.rows<{ v: string }>(query)).map((r) => String(r.v));
  switch (name) {
    case "customer_id":
      return one(
        sql`select customer_id as v from users_data group by customer_id order by count(*) desc, customer_id limit 1`,
      );
    case "team_id":
      return one(sql`select team_id as v from teams_users group by team_id order by count(*) desc, team_id limit 1`);
    case "status":
      // Proposed prompt changes have their own states (pending by default, or all).
      return path.includes("changes") && !path.includes("config") ? ["pending", "all"] : ["active", "inactive"];
    case "needs_review":
      return ["true", "false"];
    case "platform_id":
      return one(
        sql`select coalesce((select platform_id from prompt_changes where platform_id is not null limit 1),
          (select platform_id from platform_prompts group by platform_id order by count(*) desc, platform_id limit 1)) as v`,
      );
    case "proposed_by":
      return one(sql`select proposed_by as v from prompt_changes group by proposed_by order by count(*) desc limit 1`);
    case "skill_id":
      return one(
        sql`select skill_id as v from pedal_prompts group by skill_id order by count(*) desc, skill_id limit 1`,
      );
    case "type":
      return ["manual", "agent", "detected"];
    case "scope":
      return ["global", "local"];
    case "signed_in":
      return ["true", "false"];
    case "operator_id":
      return one(sql`select operator_id as v from audit_log where operator_id is not null limit 1`);
    case "entity":
      // Recently deleted lists kinds of deleted record; the audit log kinds of audited record.
      return path === "/api/deleted" ? ["team"] : ["customer"];
    case "import_id":
      return one(sql`select import_id as v from import_rows group by import_id order by count(*) desc limit 1`);
    case "outcome":
      return ["unchanged", "create", "error"];
    case "entity_id":
      return one(sql`select entity_id as v from audit_log where entity_id is not null limit 1`);
    case "action":
      return ["create"];
    // The saved views' list (its views are those of the saved views' own lists) and sharing.
    case "list":
      return ["customers", "teams"];
    case "shared":
      return ["true", "false"];
    case "skills":
    case "prompts":
    case "platforms":
      // The dashboard's "Needs attention" filters (docs/dashboard.md): their one value.
      return ["none"];
    case "from":
    case "to":
    case "last_login_from":
    case "last_login_to":
    case "created_from":
    case "created_to":
      return [new Date().toISOString().slice(0, 10)];
    default:
      throw new Error(`no sample for filter ${name}`);
  }
}

const keysOf = (list: ListDeclaration<any, any, any>, sort: string) => {
  const own = list.sorts[sort];
  return own[own.length - 1]?.unique ? own : [...own, list.id];
};

describe.each(targets)("list contract on %s", (target) => {
  let app: TestConsole;
  beforeAll(async () => {
    app = await startConsole(target, { demo: true });
    // Audit rows (and an operator) so that those lists have rows to page.
    await app.write("POST", "/api/customers", { customer_name: "=cmd|' /C calc'!A0" });
    await app.write("POST", "/api/customers", { customer_name: "Contract Audit Customer" });
    await app.cookie("admin");
    // Saved views to page: shared ones (every operator's list holds them, and so does the
    // declaration's SQL read outside a request) and one personal view the admin never sees.
    for (const [i, name] of [
      "Active customers",
      "Anson's teams",
      "Trial accounts",
      "Big teams",
      "Son of a view",
    ].entries())
      expect(
        (await app.write("POST", "/api/views", { list: i % 2 ? "teams" : "customers", name, shared: true, state: {} }))
          .status,
      ).toBe(201);
    expect((await app.write("POST", "/api/views", { list: "customers", name: "Editor's own", state: {} })).status).toBe(
      201,
    );
    // Versions of the busiest prompt, so that the versions list has pages.
    const promptId = await busiestPrompt(app);
    for (let i = 1; i <= 7; i++)
      await app.write("PATCH", `/api/prompts/${promptId}`, { prompt_value: `Contract version ${i}` });
    // Configuration changes, so that a customer's change history has rows to page.
    const { body } = await app.read("/api/customers?limit=1&sort=customer_name&order=asc");
    const configId = body.items[0].customer_id;
    const { body: config } = await app.read(`/api/config/${configId}`);
    let version = config.version;
    for (const n of [1, 2, 3]) {
      const saved = await app.write("PATCH", `/api/config/${configId}`, {
        ...config.values,
        max_users: 60 + n,
        max_teams: 11 + n,
        storage_gb: 101 + n,
        version,
      });
      expect(saved.status).toBe(200);
      version = saved.body.version;
    }
  });
  afterAll(() => app.close());

  const idsBySql = async (list: ListDeclaration<any, any, any>, where: SQL, sort: string, order: "asc" | "desc") => {
    const keys = keysOf(list, sort);
    const rows = await app.rows<{ id: string }>(sql`
      select (${list.id.expr})::text as id from ${list.from} where ${where}
      order by ${sql.join(
        keys.map((k) => sql`${k.expr} ${sql.raw(order)}`),
        sql`, `,
      )}`);
    return rows.map((r) => r.id);
  };
  const idOf = (list: ListDeclaration<any, any, any>, item: Record<string, unknown>) => {
    const name = (
      list.id.expr.queryChunks
        .map((c: any) => c.value?.join?.("") ?? "")
        .join("")
        .split(".")
        .pop() ?? ""
    ).trim();
    return String(item[name]);
  };
  /** A page size giving about six pages, so that every list is paged in a few requests. */
  const sizeFor = async (url: string, params: string) =>
    Math.max(3, Math.ceil((await app.read(`${url}?limit=1&${params}`, "admin")).body.total / 6));
  const pageAll = async (entry: Entry, url: string, params: string) => {
    const limit = await sizeFor(url, params);
    const seen: string[] = [];
    let cursor: string | null = null;
    let first: any;
    for (let i = 0; i < 500; i++) {
      const { status, body } = await app.read(
        `${url}?limit=${limit}&${params}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
        "admin",
      );
      expect(status, `${url}?${params}`).toBe(200);
      first ??= body;
      seen.push(...body.items.map((it: Record<string, unknown>) => idOf(entry.list, it)));
      cursor = body.next_cursor;
      if (!cursor) break;
    }
    return { seen, first };
  };
  const pageBack = async (entry: Entry, url: string, params: string) => {
    const limit = await sizeFor(url, params);
    const seen: string[][] = [];
    let { body } = await app.read(`${url}?limit=${limit}&at=end&${params}`, "admin");
    seen.unshift(body.items.map((it: Record<string, unknown>) => idOf(entry.list, it)));
    for (let i = 0; i < 500 && body.prev_cursor; i++) {
      ({ body } = await app.read(
        `${url}?limit=${limit}&${params}&cursor=${encodeURIComponent(body.prev_cursor)}`,
        "admin",
      ));
      seen.unshift(body.items.map((it: Record<string, unknown>) => idOf(entry.list, it)));
    }
    return seen.flat();
  };

  it("has every list of the console declared", () => {
    expect(
      lists()
        .map((e) => e.path)
        .toSorted(),
    ).toEqual([
      "/api/api-tokens",
      "/api/audit",
      "/api/comments",
      "/api/config/{customerId}/changes",
      "/api/customers",
      "/api/deleted",
      "/api/imports/{importId}/rows",
      "/api/operators",
      "/api/platforms",
      "/api/platforms/{platformId}/prompts",
      "/api/prompt-changes",
      "/api/prompts",
      "/api/prompts/{promptId}/assignable-platforms",
      "/api/prompts/{promptId}/changes",
      "/api/prompts/{promptId}/platforms",
      "/api/prompts/{promptId}/versions",
      "/api/skills",
      "/api/skills/{skillId}/assignable-teams",
      "/api/skills/{skillId}/comments",
      "/api/skills/{skillId}/prompts",
      "/api/skills/{skillId}/teams",
      "/api/teams",
      "/api/teams/{teamId}/assignable-skills",
      "/api/teams/{teamId}/available-users",
      "/api/users",
      "/api/users/{userId}/teams",
      "/api/views",
    ]);
  });

  for (const order of ["asc", "desc"] as const) {
    it(`pages every sort ${order} forward with cursors and back from the last page, as direct SQL orders them`, async () => {
      for (const entry of lists()) {
        const { url, scope } = await pathFor(app, entry);
        for (const sort of Object.keys(entry.list.sorts)) {
          const expected = await idsBySql(entry.list, allOf([scope]), sort, order);
          const { seen, first } = await pageAll(entry, url, `sort=${sort}&order=${order}`);
          expect(seen, `${url} ${sort} ${order}`).toEqual(expected);
          expect(first.total).toBe(expected.length);
          expect(first.total_exact).toBe(true);
          expect(first.prev_cursor).toBeNull();
          expect(
            await pageBack(entry, url, `sort=${sort}&order=${order}`),
            `${url} ${sort} ${order} backwards`,
          ).toEqual(expected);
        }
      }
    }, 240_000); // every sort of every list, both ways: eleven lists
  }

  it("filters by each filter and searches (contains from 3 characters, prefix below), totals equal to direct SQL", async () => {
    for (const entry of lists()) {
      const { url, scope } = await pathFor(app, entry);
      for (const [name, spec] of Object.entries(entry.list.filters)) {
        for (const value of await filterSamples(app, name, entry.path)) {
          const where = allOf([scope, (spec as { where: (v: string) => SQL }).where(value)]);
          const expected = await idsBySql(entry.list, where, entry.list.defaultSort, entry.list.defaultOrder);
          const { seen, first } = await pageAll(entry, url, `${name}=${encodeURIComponent(value)}`);
          expect(seen, `${url} ${name}=${value}`).toEqual(expected);
          expect(first.total).toBe(expected.length);
        }
      }
      if (!entry.list.search) continue;
      for (const q of ["an", "son", "Act", "zzzq"]) {
        const forms = entry.list.search(searchMatch(q));
        const [gather, test] = "gather" in forms ? [forms.gather, forms.test] : [forms, forms];
        const expected = await idsBySql(
          entry.list,
          allOf([scope, gather]),
          entry.list.defaultSort,
          entry.list.defaultOrder,
        );
        // The form a page walking the sort's index tests row by row matches the same rows.
        expect(
          await idsBySql(entry.list, allOf([scope, test]), entry.list.defaultSort, entry.list.defaultOrder),
          `${url} q=${q} test form`,
        ).toEqual(expected);
        const { seen, first } = await pageAll(entry, url, `q=${q}`);
        expect(seen, `${url} q=${q}`).toEqual(expected);
        expect(first.total).toBe(expected.length);
      }
    }
  });

  it("answers 422 with the error shape to a malformed or mismatched cursor and to two paging parameters", async () => {
    for (const entry of lists()) {
      const { url } = await pathFor(app, entry);
      const { body } = await app.read(`${url}?limit=1`, "admin");
      const sorts = Object.keys(entry.list.sorts);
      const bad = [
        "x",
        "eyJ9",
        Buffer.from(JSON.stringify({ s: sorts[0], o: "asc", d: "after", k: ["a", "b", "c", "d"] })).toString(
          "base64url",
        ),
      ];
      if (body.next_cursor && sorts.length > 1)
        bad.push(`${body.next_cursor}&sort=${sorts.find((s) => s !== entry.list.defaultSort)}`);
      if (body.next_cursor) bad.push(`${body.next_cursor}&order=${entry.list.defaultOrder === "asc" ? "desc" : "asc"}`);
      for (const cursor of bad) {
        const res = await app.read(`${url}?cursor=${cursor}`, "admin");
        expect(res.status, `${url} ${cursor}`).toBe(422);
        expect(res.body.error.code).toBe("validation_failed");
        expect(res.body.error.message).toBe(msg.api.badCursor);
      }
      const both = await app.read(`${url}?offset=1&at=end`, "admin");
      expect(both.status).toBe(422);
      expect((await app.read(`${url}?offset=10001`, "admin")).status).toBe(422);
      expect((await app.read(`${url}?limit=201`, "admin")).status).toBe(422);
    }
  });

  it("exports every matching row as CSV, with a BOM on request, formulas neutralised, and an audit row", async () => {
    for (const entry of lists()) {
      const { url } = await pathFor(app, entry);
      const { body } = await app.read(`${url}?limit=1`, "admin");
      const res = await app.request(`${url}/export.csv?bom=1`, { as: "admin" });
      expect(res.status, url).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/csv");
      expect(res.headers.get("content-disposition")).toContain(".csv");
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const text = new TextDecoder().decode(bytes.slice(3));
      const lines = text.split("\r\n").filter(Boolean);
      expect(lines[0]).toBe(entry.list.csv.map((c) => c.header).join(","));
      if (!["/api/audit"].includes(entry.path)) expect(lines.length - 1, url).toBe(body.total);
    }
    const res = await app.request(`/api/customers/export.csv?q=${encodeURIComponent("cmd|")}`, { as: "viewer" });
    const text = await res.text();
    expect(text.charCodeAt(0)).not.toBe(0xfeff);
    expect(text).toContain(`,'=cmd|' /C calc'!A0,`);
    const [audit] = await app.rows<{ operator_email: string; changes: { after: Record<string, unknown> } }>(sql`
      select operator_email, changes from audit_log where action = 'export' and entity = 'customers' order by created_at desc limit 1`);
    expect(audit.operator_email).toBe("viewer@test.example");
    expect(audit.changes.after).toMatchObject({ q: "cmd|", rows: 1, complete: true });
  });
});

describe("list statements and estimates (PGlite)", () => {
  let handle: DatabaseHandle;
  let request: (path: string) => Promise<Response>;
  const statements: string[] = [];
  /** The next statement matching `match` calls `reached`, then waits for `until` (a count that takes long, or fails). */
  let hold: { match: RegExp; reached: () => void; until: Promise<void> } | undefined;

  beforeAll(async () => {
    const client = await PGlite.create({ extensions: { pg_trgm } });
    const query = client.query.bind(client);
    client.query = (async (text: string, ...rest: unknown[]) => {
      statements.push(text);
      const held = hold;
      if (held?.match.test(text)) {
        hold = undefined;
        held.reached();
        await held.until;
      }
      return (query as (...args: unknown[]) => ReturnType<PGlite["query"]>)(text, ...rest);
    }) as PGlite["query"];
    handle = wrapPglite(client);
    await handle.migrate();
    await loadDemoData(handle.db, { seed: 42 });
    await createOperator(handle.db, { email: "lists@test.example", password: testPassword, role: "admin" });
    request = await signedIn({
      exactCountLimit: 100,
      summaryRefreshSeconds: 3600,
      summaryCacheSize: 2,
      summaryReuseFrom: 2_500,
    });
  });
  afterAll(() => handle.close());

  /**
   * An app on the database with these list settings (and clock), and GET as its signed-in operator;
   * `summaries` is the app's summary memory. Memories are kept for an hour unless a test moves its
   * clock, so that no background refresh adds to the statements a request is measured by.
   */
  async function signedIn(
    lists: Omit<ListSettings, "backgroundCountFrom" | "countWaitMs"> & Partial<ListSettings>,
    clock?: () => Date,
  ): Promise<((path: string) => Promise<Response>) & { summaries: SummaryCache }> {
    const { app, listSummaries } = createApp({
      db: handle.db,
      config: { authSecret: "test-secret-test-secret-test-secret-0123", publicUrl, security: defaultSecurity, lists },
      logger: pino({ level: "silent" }),
      clock,
    });
    const signIn = await app.request("/api/auth/sign-in/email", {
      method: "POST",
      headers: { "content-type": "application/json", origin: publicUrl },
      body: JSON.stringify({ email: "lists@test.example", password: testPassword }),
    });
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    return Object.assign(async (path: string) => app.request(path, { headers: { cookie, origin: publicUrl } }), {
      summaries: listSummaries,
    });
  }

  /** Statements one request sends (through `get`, default the describe's app), leaving out the session and sign-in bookkeeping. */
  async function measure(path: string, get = request) {
    statements.length = 0;
    const res = await get(path);
    expect(res.status, path).toBe(200);
    const body = await res.json();
    return { body, count: statementCount() };
  }

  /** Statements sent since the last `measure` began, without the session's. */
  const statementCount = () =>
    statements.filter((s) => !/"operator_session"|"operator"|"auth_throttle"/.test(s)).length;

  it("sends at most 3 statements per request on every list: first, cursor and last pages, offsets, filters, searches", async () => {
    const [{ user_id }] = (
      await handle.pglite!.query<{ user_id: string }>(
        "select user_id from teams_users group by user_id order by count(*) desc limit 1",
      )
    ).rows;
    const [{ customer_id }] = (
      await handle.pglite!.query<{ customer_id: string }>(
        "select customer_id from users_data group by customer_id order by count(*) desc limit 1",
      )
    ).rows;
    const skillId = await busiestSkill({ rows: (q) => queryRows(handle.db, q) });
    const promptId = await busiestPrompt({ rows: (q) => queryRows(handle.db, q) });
    const [{ config_customer }] = (
      await handle.pglite!.query<{ config_customer: string }>(
        "select customer_id as config_customer from customers limit 1",
      )
    ).rows;
    const [{ platform_id }] = (
      await handle.pglite!.query<{ platform_id: string }>(
        "select platform_id from platform_prompts group by platform_id order by count(*) desc limit 1",
      )
    ).rows;
    const [{ team_id }] = (
      await handle.pglite!.query<{ team_id: string }>(
        "select team_id from teams_skills group by team_id order by count(*) desc limit 1",
      )
    ).rows;
    const [{ import_id }] = (
      await handle.pglite!.query<{ import_id: string }>("select import_id from imports order by created_at limit 1")
    ).rows;
    for (const entry of lists()) {
      const url = entry.path
        .replace("{importId}", import_id)
        .replace("{userId}", user_id)
        .replace("{teamId}", team_id)
        .replace("{skillId}", skillId)
        .replace("{promptId}", promptId)
        .replace("{platformId}", platform_id)
        .replace("{customerId}", config_customer);
      const paths = [`${url}?limit=5`, `${url}?limit=5&at=end`, `${url}?limit=5&offset=5`, `${url}?limit=200`];
      if (entry.list.search) paths.push(`${url}?limit=5&q=son`, `${url}?limit=5&q=a`);
      for (const name of Object.keys(entry.list.filters))
        if (name === "customer_id") paths.push(`${url}?limit=5&customer_id=${customer_id}`);
      for (const name of Object.keys(entry.list.filters))
        if (name === "status")
          paths.push(
            `${url}?limit=5&status=${url.includes("changes") && !url.includes("config") ? "pending" : "active"}&q=an`,
          );
      for (const path of paths) {
        const first = await measure(path);
        expect(first.count, path).toBeGreaterThan(0);
        expect(first.count, `${path}: ${statements.join("\n")}`).toBeLessThanOrEqual(3);
        if (first.body.next_cursor) {
          const next = await measure(
            `${path.replace(/&(offset|at)=[^&]+/, "")}&cursor=${encodeURIComponent(first.body.next_cursor)}`,
          );
          expect(next.count, `${path} next`).toBeLessThanOrEqual(3);
        }
      }
    }
  });

  it("reads the operator's session with one statement, so that a page costs the session's and its own", async () => {
    const get = await signedIn({
      exactCountLimit: 100,
      summaryRefreshSeconds: 3600,
      summaryCacheSize: 2,
      summaryReuseFrom: 2_500,
    });
    for (let i = 0; i < 2; i++) {
      statements.length = 0;
      expect((await get("/api/users?limit=5")).status).toBe(200);
      expect(
        statements.filter((s) => /"operator_session"|"operator"/.test(s)),
        statements.join("\n"),
      ).toHaveLength(1);
    }
  });

  it("gives the planner's estimate above the exact-count limit, and reuses a big list's summary with its time", async () => {
    // "act" matches the statuses active and inactive: every user, above the limit (100 here).
    const users = await measure("/api/users?limit=5&q=act");
    expect(users.body.total_exact).toBe(false);
    expect(users.body.total).toBeGreaterThan(100);
    const teams = await measure("/api/teams?limit=5");
    expect(teams.body.total_exact).toBe(true); // 80 teams: under the limit
    const all = await measure("/api/users?limit=5");
    expect(all.body.total).toBe(600);
    expect(all.body.summary_as_of).toEqual(expect.any(String));
    const again = await measure("/api/users?limit=5");
    expect(again.body.summary_as_of).toBe(all.body.summary_as_of);
    expect(again.body.summary).toEqual(all.body.summary);
  });

  it("keeps the summaries of the newest big lists only (2 here), so distinct searches cannot fill the memory", async () => {
    const first = await measure("/api/users?limit=5&status=active");
    expect(first.body.total).toBeGreaterThan(100);
    const reused = await measure("/api/users?limit=5&status=active");
    expect(reused.body.summary_as_of).toBe(first.body.summary_as_of);
    expect(reused.count).toBeLessThan(first.count);
    // Two other big lists take the memory's two places.
    for (const path of ["/api/users?limit=5&q=act", "/api/users?limit=5&q=tive"]) {
      const other = await measure(path);
      expect(other.body.total, path).toBeGreaterThan(100);
    }
    const recounted = await measure("/api/users?limit=5&status=active");
    expect(recounted.count).toBe(first.count);
    expect(recounted.body.summary).toEqual(first.body.summary);
  });

  it("reuses the summary of a list with summaryReuseFrom matching rows or more, its total exact, and counts smaller lists every time", async () => {
    const get = await signedIn({
      exactCountLimit: 100_000,
      summaryRefreshSeconds: 3600,
      summaryCacheSize: 10,
      summaryReuseFrom: 100,
    });
    const read = (path: string) => measure(path, get);
    const big = await read("/api/users?limit=5&status=active");
    expect(big.body.total).toBeGreaterThanOrEqual(100);
    expect(big.body.total_exact).toBe(true);
    expect(big.body.summary_as_of).toEqual(expect.any(String));
    const again = await read("/api/users?limit=5&status=active");
    expect(again.body.summary_as_of).toBe(big.body.summary_as_of);
    expect(again.body.total).toBe(big.body.total);
    expect(again.count).toBeLessThan(big.count);

    const [{ customer_id }] = (
      await handle.pglite!.query<{ customer_id: string }>(
        "select customer_id from users_data group by customer_id order by count(*) desc limit 1",
      )
    ).rows;
    const small = await read(`/api/users?limit=5&customer_id=${customer_id}`);
    expect(small.body.total).toBeLessThan(100);
    expect(small.body.summary_as_of).toBeNull();
    const recounted = await read(`/api/users?limit=5&customer_id=${customer_id}`);
    expect(recounted.body.summary_as_of).toBeNull();
    expect(recounted.count).toBe(small.count);
  });

  it("reuses a counted total of a list whose cards are counters (prompts, skills, teams, customers, platforms), and keeps its unfiltered total and cards live", async () => {
    const get = await signedIn({
      exactCountLimit: 100_000,
      summaryRefreshSeconds: 3600,
      summaryCacheSize: 10,
      summaryReuseFrom: 5,
    });
    const read = (path: string) => measure(path, get);
    for (const list of ["prompts", "skills", "teams", "customers", "platforms"]) {
      const whole = await read(`/api/${list}?limit=5`);
      expect(whole.body.total, list).toBeGreaterThanOrEqual(5);
      expect(whole.body.summary_as_of, list).toBeNull();
      const wholeAgain = await read(`/api/${list}?limit=5`);
      expect(wholeAgain.count, list).toBe(whole.count);
      expect(wholeAgain.body.summary_as_of, list).toBeNull();
    }
    // "act" matches the statuses active and inactive: most prompts, counted once, then reused.
    const searched = await read("/api/prompts?limit=5&q=act");
    expect(searched.body.total).toBeGreaterThanOrEqual(5);
    expect(searched.body.total_exact).toBe(true);
    expect(searched.body.summary_as_of).toEqual(expect.any(String));
    const [{ n }] = (
      await handle.pglite!.query<{ n: number }>(
        "select count(*)::int as n from pedal_prompts where prompt_title ilike '%act%' or prompt_value ilike '%act%' or status in ('active', 'inactive') or skill_id in (select skill_id from skills where skill_name ilike '%act%')",
      )
    ).rows;
    expect(searched.body.total).toBe(n);
    const again = await read("/api/prompts?limit=5&q=act");
    expect(again.count).toBe(1); // the page alone
    expect(again.body.total).toBe(searched.body.total);
    expect(again.body.summary_as_of).toBe(searched.body.summary_as_of);
    expect((await read("/api/prompts?limit=5")).body.summary_as_of).toBeNull();
    // The teams' cards under a search count its matches: kept with the total.
    const teams = await read("/api/teams?limit=5&q=act");
    expect(teams.body.summary.total).toBe(teams.body.total);
    expect(teams.body.summary_as_of).toEqual(expect.any(String));
    const teamsAgain = await read("/api/teams?limit=5&q=act");
    expect(teamsAgain.count).toBe(1);
    expect(teamsAgain.body.summary).toEqual(teams.body.summary);
  });

  it("gives each search cards of its own matches (users, teams), never the list's without the search", async () => {
    const settings = {
      exactCountLimit: 100_000,
      summaryRefreshSeconds: 3600,
      summaryCacheSize: 10,
      summaryReuseFrom: 100,
    };
    const read = async (get: Awaited<ReturnType<typeof signedIn>>, path: string) => measure(path, get);
    const get = await signedIn(settings);
    const all = await read(get, "/api/users?limit=5");
    expect(all.body.total).toBe(600);
    for (const list of ["users", "teams"]) {
      const none = await read(get, `/api/${list}?limit=5&q=zzzz`);
      expect(none.body.total, list).toBe(0);
      expect(none.body.summary.total, list).toBe(0);
      const some = await read(get, `/api/${list}?limit=5&q=son`);
      expect(some.body.summary.total, list).toBe(some.body.total);
      expect(some.body.total_exact, list).toBe(true);
    }
    // The list without the search keeps its own cards, and reads its total from them.
    const whole = await read(get, "/api/users?limit=5");
    expect(whole.body.summary).toEqual(all.body.summary);
    expect(whole.body.total).toBe(600);
  });

  it("reuses the total of a big list without cards (the Assign picker's teams), and counts it again when not asked for twice summaryRefreshSeconds", async () => {
    let clock = Date.parse("2026-11-23T10:00:00Z");
    const get = await signedIn(
      { exactCountLimit: 100_000, summaryRefreshSeconds: 10, summaryCacheSize: 10, summaryReuseFrom: 20 },
      () => new Date(clock),
    );
    const read = (path: string) => measure(path, get);
    const skillId = await busiestSkill({ rows: (q) => queryRows(handle.db, q) });
    const path = `/api/skills/${skillId}/assignable-teams?limit=5`;
    const first = await read(path);
    expect(first.body.total).toBeGreaterThanOrEqual(20);
    expect(first.body.total_exact).toBe(true);
    expect(first.body.summary_as_of).toBeNull();
    const again = await read(path);
    expect(again.body.total).toBe(first.body.total);
    expect(again.count).toBe(1); // the page alone
    // Another skill's picker is its own list: its total is counted, not the first skill's reused.
    const [other] = await queryRows<{ skill_id: string; n: number }>(
      handle.db,
      sql`
      select s.skill_id, (select count(*)::int from teams t where t.status = 'active'
        and not exists (select 1 from teams_skills x where x.team_id = t.team_id and x.skill_id = s.skill_id)) as n
      from skills s where s.skill_id <> ${skillId} order by n, s.skill_id limit 1`,
    );
    expect(other.n).not.toBe(first.body.total);
    const otherPage = await read(`/api/skills/${other.skill_id}/assignable-teams?limit=5`);
    expect(otherPage.body.total).toBe(other.n);
    clock += 21_000;
    const later = await read(path);
    expect(later.count).toBeGreaterThan(1);
    expect(later.body.total).toBe(first.body.total);
  });

  it("answers a search the planner guesses big with its page and counting, counts it in the background, then answers the count", async () => {
    // Every search is "big" here (backgroundCountFrom 1), so the demo data shows the behaviour.
    const get = await signedIn({
      exactCountLimit: 100_000,
      summaryRefreshSeconds: 3600,
      summaryCacheSize: 10,
      summaryReuseFrom: 100,
      backgroundCountFrom: 1,
    });
    const direct = async (text: string) => (await handle.pglite!.query<Record<string, number>>(text)).rows[0];
    // Comments: the cards count the search's matches, so they wait for the count.
    const path = "/api/comments?limit=5&q=act";
    const first = await measure(path, get);
    await get.summaries.settled();
    // The request's estimate and page, then the background's estimate, summary and 1-row page.
    expect(statementCount()).toBeLessThanOrEqual(5);
    expect(first.body).toMatchObject({
      counting: true,
      summary: null,
      summary_exact: false,
      total_exact: false,
      summary_as_of: null,
    });
    expect(first.body.items).toHaveLength(5);
    expect(first.body.total).toBeGreaterThan(0);
    const counted = await measure(path, get);
    expect(counted.count).toBe(1); // the page alone
    expect(counted.body.counting).toBe(false);
    expect(counted.body.items).toEqual(first.body.items);
    const expected = await direct(`select count(*)::int as total,
        count(*) filter (where status = 'pending')::int as pending, count(*) filter (where status = 'active')::int as active,
        count(*) filter (where status = 'inactive')::int as inactive, count(*) filter (where status = 'rejected')::int as rejected
      from skill_comments sm where comment_value ilike '%act%' or status in ('active', 'inactive')
        or user_id in (select user_id from users_data where (first_name || ' ' || last_name) ilike '%act%')
        or skill_id in (select skill_id from skills where skill_name ilike '%act%')
        or customer_id in (select customer_id from customers where customer_name ilike '%act%')`);
    expect(counted.body.summary).toEqual(expected);
    expect(counted.body).toMatchObject({
      total: expected.total,
      total_exact: true,
      summary_exact: true,
      summary_as_of: expect.any(String),
    });

    // Prompts: the cards are counters, read live; only the total waits for the count.
    const prompts = await measure("/api/prompts?limit=5&q=act", get);
    await get.summaries.settled();
    expect(statementCount()).toBeLessThanOrEqual(6); // with the live cards
    expect(prompts.body).toMatchObject({ counting: true, total_exact: false, summary_exact: true });
    expect(prompts.body.summary).toEqual((await measure("/api/prompts?limit=5", get)).body.summary);
    await get.summaries.settled();
    const promptsCounted = await measure("/api/prompts?limit=5&q=act", get);
    expect(promptsCounted.body.counting).toBe(false);
    expect(promptsCounted.body.total).toBe(
      (
        await direct(
          "select count(*)::int as n from pedal_prompts where prompt_title ilike '%act%' or prompt_value ilike '%act%' or status in ('active', 'inactive') or skill_id in (select skill_id from skills where skill_name ilike '%act%')",
        )
      ).n,
    );

    // A search with few matches (below summaryReuseFrom) keeps what the background counted, so that
    // it is not answered with counting again and again.
    const rare = "/api/comments?limit=5&q=zzqx";
    const rareFirst = await measure(rare, get);
    expect(rareFirst.body.counting).toBe(true);
    expect(rareFirst.body.items).toEqual([]);
    await get.summaries.settled();
    const rareCounted = await measure(rare, get);
    expect(rareCounted.body).toMatchObject({ counting: false, total: 0, total_exact: true, items: [] });
    expect((await measure(rare, get)).body.counting).toBe(false);
    // The same where a recount's one-row page holds every match (a list whose cards are counters, its last page).
    const rareEnd = "/api/platforms?limit=5&q=zzqx&at=end";
    expect((await measure(rareEnd, get)).body.counting).toBe(true);
    await get.summaries.settled();
    expect((await measure(rareEnd, get)).body).toMatchObject({ counting: false, total: 0, total_exact: true });

    // With LIST_SUMMARY_REFRESH_SECONDS=0 nothing is kept, so every search is counted for its request.
    const uncached = await signedIn({
      exactCountLimit: 100_000,
      summaryRefreshSeconds: 0,
      summaryCacheSize: 10,
      summaryReuseFrom: 100,
      backgroundCountFrom: 1,
    });
    expect((await measure(path, uncached)).body).toMatchObject({
      counting: false,
      total: expected.total,
      summary: expected,
    });

    // With the default threshold (5,000 matches) the demo data's searches are counted for their request.
    const defaults = await signedIn({
      exactCountLimit: 100_000,
      summaryRefreshSeconds: 3600,
      summaryCacheSize: 10,
      summaryReuseFrom: 100,
    });
    expect((await measure(path, defaults)).body).toMatchObject({
      counting: false,
      total: expected.total,
      summary: expected,
    });
  });

  it("answers counting when a search's count outlasts countWaitMs and keeps that count; after a count failed, counts for the request", async () => {
    const settings = {
      exactCountLimit: 100_000,
      summaryRefreshSeconds: 3600,
      summaryCacheSize: 10,
      summaryReuseFrom: 100,
    };
    let clock = Date.parse("2026-11-24T10:00:00Z");
    const get = await signedIn({ ...settings, countWaitMs: 100 }, () => new Date(clock));
    // Counted for the request (the default countWaitMs 0 waits), to compare with.
    const waited = await signedIn(settings);
    /** Holds the next summary-and-count statement: `atCount` once it is reached, then its release (or failure). */
    const holdCount = () => {
      let release!: () => void;
      let fail!: () => void;
      let reached!: () => void;
      const atCount = new Promise<void>((resolve) => (reached = resolve));
      hold = {
        match: /__count/,
        reached,
        until: new Promise<void>((resolve, reject) => {
          release = resolve;
          fail = () => reject(new Error("count failed"));
        }),
      };
      return { atCount, release, fail };
    };
    /** Sends a request whose count is held: resolves once the count is reached, with the answer (pending). */
    const withHeldCount = async (path: string) => {
      const held = holdCount();
      const answer = measure(path, get);
      await held.atCount;
      return { ...held, answer };
    };
    // The count's wait is moved by the test's clock, not waited for.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      // The demo data's searches are guessed below backgroundCountFrom (5,000): counted for the request.
      const path = "/api/comments?limit=5&q=act";
      const expected = (await measure(path, waited)).body;
      expect(expected).toMatchObject({ counting: false, total_exact: true });
      const first = await withHeldCount(path);
      vi.advanceTimersByTime(100);
      const answered = (await first.answer).body;
      expect(answered).toMatchObject({
        counting: true,
        summary: null,
        summary_exact: false,
        total_exact: false,
        summary_as_of: null,
      });
      expect(answered.items).toEqual(expected.items);
      expect(answered.total).toBeGreaterThan(0);
      // Asked again while that count runs: answered at once, and no second count is sent.
      const meanwhile = await measure(path, get);
      expect(meanwhile.body).toMatchObject({ counting: true, total: answered.total, summary: null });
      expect(statements.filter((s) => s.includes("__count"))).toEqual([]);
      first.release();
      await get.summaries.settled();
      // The count went on and was kept: the next request reads it with its page.
      const counted = await measure(path, get);
      expect(counted.count).toBe(1);
      expect(counted.body).toMatchObject({
        counting: false,
        total: expected.total,
        total_exact: true,
        summary: expected.summary,
        summary_exact: true,
      });

      // A count that fails in the background is not started again by the next request: that one
      // counts for itself, however long that takes, rather than answering `counting` again.
      const other = "/api/comments?limit=5&q=ing";
      const failing = await withHeldCount(other);
      vi.advanceTimersByTime(100);
      expect((await failing.answer).body.counting).toBe(true);
      failing.fail();
      await get.summaries.settled();
      const again = await withHeldCount(other);
      vi.advanceTimersByTime(100);
      again.release();
      const recounted = (await again.answer).body;
      expect(recounted).toMatchObject({ counting: false, total_exact: true, summary_exact: true });
      expect(recounted.total).toBe((await measure(other, waited)).body.total);

      // The same when the request that stopped waiting failed itself (its page): the count it left
      // running is still the memory's, and its failure is remembered.
      const third = "/api/comments?limit=5&q=ver";
      const thirdCount = holdCount();
      const broken = get(third);
      await thirdCount.atCount;
      // The page's statement (it reads the sort keys as __k0...) fails.
      hold = { match: /__k0/, reached: () => undefined, until: Promise.reject(new Error("page failed")) };
      hold.until.catch(() => undefined);
      vi.advanceTimersByTime(100);
      expect((await broken).status).toBe(500);
      thirdCount.fail();
      await get.summaries.settled();
      const thirdAgain = await withHeldCount(third);
      vi.advanceTimersByTime(100);
      thirdAgain.release();
      expect((await thirdAgain.answer).body).toMatchObject({ counting: false, total_exact: true });

      // The users' cards count the search's matches too: they wait with the count, which is kept as
      // of when it began.
      clock += 5_000;
      const search = "/api/users?limit=5&q=ola";
      const held = await withHeldCount(search);
      vi.advanceTimersByTime(100);
      expect((await held.answer).body).toMatchObject({ counting: true, summary: null });
      held.release();
      await get.summaries.settled();
      const users = (await measure(search, waited)).body;
      expect((await measure(search, get)).body).toMatchObject({
        counting: false,
        total_exact: true,
        total: users.total,
        summary: users.summary,
        summary_as_of: "2026-11-24T10:00:05.000Z",
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it("counts a big list's cards again in the background once older than summaryRefreshSeconds, and for the request once older than twice that", async () => {
    let clock = Date.parse("2026-11-23T10:00:00Z");
    const get = await signedIn(
      { exactCountLimit: 100_000, summaryRefreshSeconds: 10, summaryCacheSize: 10, summaryReuseFrom: 100 },
      () => new Date(clock),
    );
    const path = "/api/users?limit=5";
    const first = await measure(path, get);
    expect(first.body.summary_as_of).toBe("2026-11-23T10:00:00.000Z");
    // One active user becomes inactive: the maintained counters change at once.
    const [{ user_id }] = await queryRows<{ user_id: string }>(
      handle.db,
      sql`select user_id from users_data where status = 'active' order by user_id limit 1`,
    );
    await queryRows(handle.db, sql`update users_data set status = 'inactive' where user_id = ${user_id}`);
    try {
      clock += 9_000;
      const young = await measure(path, get);
      expect(young.body.summary).toEqual(first.body.summary);
      expect(young.count).toBe(1); // the page alone
      // 11 s old: answered as it is, while it is counted again in the background.
      clock += 2_000;
      const stale = await measure(path, get);
      expect(stale.body.summary).toEqual(first.body.summary);
      expect(stale.body.summary_as_of).toBe(first.body.summary_as_of);
      await get.summaries.settled();
      const refreshed = await measure(path, get);
      expect(refreshed.body.summary).toEqual({
        ...first.body.summary,
        active: first.body.summary.active - 1,
        inactive: first.body.summary.inactive + 1,
      });
      expect(refreshed.body.summary_as_of).toBe("2026-11-23T10:00:11.000Z");
      expect(refreshed.count).toBe(1);
      // Not asked for twice summaryRefreshSeconds: counted for the request, which waits for it.
      clock += 21_000;
      const late = await measure(path, get);
      expect(late.body.summary_as_of).toBe("2026-11-23T10:00:32.000Z");
      expect(late.body.summary).toEqual(refreshed.body.summary);
      expect(late.count).toBeGreaterThan(1);
    } finally {
      await queryRows(handle.db, sql`update users_data set status = 'active' where user_id = ${user_id}`);
    }
  });
});
