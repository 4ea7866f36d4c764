/**
 * Each list's page query is pinned to the index that serves it (docs/lists.md: "each sort needs
 * an index on (keys…, id)"; issue "Lists at a million rows": a slow query gets its index, with a
 * test that pins the plan's use of it where the planner allows). On PGlite and PostgreSQL.
 *
 * How: the real app answers real requests (every sort of every list in both orders, its next page
 * by cursor, the last page, each filter, a search) on the demo data, through a second Drizzle
 * instance on the same connection whose logger records each statement's text and parameters. The
 * page statement of each request (the one selecting the sort keys `__k0…`) is then run again
 * under `EXPLAIN (FORMAT JSON)`, with its parameters, in a transaction that sets
 * `enable_seqscan = off` and `enable_sort = off`.
 *
 * Why those settings: the demo data has 600 users, and on tables that small the planner rightly
 * prefers a sequential scan and a sort, which says nothing about a million rows. The two settings
 * do not forbid those plans, they make them cost 10^10 more, so the planner picks an index path
 * whenever one exists: a sequential scan or a full Sort left in the plan means that no index can
 * serve that filter or that order, which is what goes slow at scale. So the test asserts, for every
 * page statement: no Seq Scan on any table; no Sort node over the whole result (an Incremental Sort
 * over presorted leading keys is allowed: customers walked by name, then each customer's few rows;
 * so is a Sort above a Limit, which orders a page's ids picked in index order below it)
 * unless a filter or a nested list's scope narrows it to a bounded set first; and that the index
 * named for that sort, filter or search is in the plan. Searches are explained with only
 * `enable_seqscan` off, as at scale: they must find their rows through the trigram indexes.
 * Timing is left to `npm run bench` (docs/performance.md), which EXPLAINs the same statements at
 * a million users.
 */
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/server/app";
import { createOperator } from "../../src/server/auth";
import { defaultSecurity } from "../../src/server/config";
import { queryRows, type Database, type DatabaseHandle } from "../../src/server/db/client";
import { loadDemoData } from "../../src/server/db/demo-data";
import * as schema from "../../src/server/db/schema";
import { publicUrl, testPassword } from "../support/app";
import { freshDatabase, targets } from "../support/databases";

type PlanNode = {
  "Node Type": string;
  "Parent Relationship"?: string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PlanNode[];
};
type Statement = { query: string; params: unknown[] };

/** Every node of a plan, depth first. */
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];
/** The nodes that produce the page's rows, leaving out subqueries run per row (a user's roles) or once. */
const mainNodesOf = (node: PlanNode): PlanNode[] => [
  node,
  ...(node.Plans ?? []).filter((p) => !/SubPlan|InitPlan/.test(p["Parent Relationship"] ?? "")).flatMap(mainNodesOf),
];

/**
 * The expected index of each case. `sorted`: a Sort over the rows is fine there, because a filter
 * or the scope has already narrowed them to a bounded set (a team's members, a user's teams).
 */
/**
 * `index`: every one of these is used by each statement; `anyIndex`: at least one of these (a
 * statement that several indexes serve equally, such as a count of active rows).
 */
type Case = {
  path: string;
  index: string | string[];
  anyIndex?: string[];
  search?: boolean;
  sorted?: boolean;
  statement?: RegExp;
};

const sortIndexes: Record<string, Record<string, string>> = {
  "/api/users": {
    name: "users_data_name_sort_idx",
    email: "users_data_email_sort_idx",
    customer_name: "customers_name_lower_idx",
    job_title: "users_data_job_title_sort_idx",
    status: "users_data_status_idx",
    last_login: "users_data_last_login_idx",
    created_at: "users_data_created_at_idx",
  },
  "/api/customers": {
    customer_name: "customers_name_lower_idx",
    user_count: "customer_counts_user_count_idx",
    team_count: "customer_counts_team_count_idx",
    status: "customers_status_idx",
    created_at: "customers_created_at_idx",
    updated_at: "customers_updated_at_idx",
  },
  "/api/teams": {
    team_name: "teams_name_lower_idx",
    customer_name: "customers_name_lower_idx",
    user_count: "team_counts_user_count_idx",
    skills_count: "team_counts_skills_count_idx",
    status: "teams_status_idx",
    created_at: "teams_created_at_idx",
  },
  "/api/audit": { created_at: "audit_log_created_at_idx" },
};

describe.each(targets)("list query plans on %s", (target) => {
  let handle: DatabaseHandle;
  let request: (path: string) => Promise<{ status: number; body: any }>;
  const statements: Statement[] = [];
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    handle = await freshDatabase(target);
    await loadDemoData(handle.db, { seed: 42 });
    const logger = { logQuery: (query: string, params: unknown[]) => void statements.push({ query, params }) };
    const logged = (handle.kind === "pglite"
      ? drizzlePglite({ client: handle.pglite!, schema, logger })
      : drizzlePg({ client: handle.pool!, schema, logger })) as unknown as Database;
    const { app } = createApp({
      db: logged,
      config: { authSecret: "test-secret-test-secret-test-secret-0123", publicUrl, security: defaultSecurity },
      logger: pino({ level: "silent" }),
    });
    await createOperator(handle.db, { email: "plans@test.example", password: testPassword, role: "admin" });
    const signIn = await app.request("/api/auth/sign-in/email", {
      method: "POST",
      headers: { "content-type": "application/json", origin: publicUrl },
      body: JSON.stringify({ email: "plans@test.example", password: testPassword }),
    });
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    request = async (path) => {
      const res = await app.request(path, { headers: { cookie, origin: publicUrl } });
      return { status: res.status, body: await res.json() };
    };
    await request("/api/customers?limit=1"); // an audit row or two exist from sign-in; the lists are warm
    const one = async (query: ReturnType<typeof sql>) =>
      String(Object.values((await queryRows<Record<string, unknown>>(handle.db, query))[0])[0]);
    ids.customer = await one(
      sql`select customer_id from users_data group by customer_id order by count(*) desc, customer_id limit 1`,
    );
    ids.team = await one(sql`select team_id from teams_users group by team_id order by count(*) desc, team_id limit 1`);
    ids.user = await one(sql`select user_id from teams_users group by user_id order by count(*) desc, user_id limit 1`);
    await queryRows(handle.db, sql`analyze`);
  }, 180_000);
  afterAll(() => handle?.close());

  /** The page statements one request sends (those selecting the sort keys, or matching `statement`). */
  async function pageStatements(path: string, statement = /"__k0"/) {
    statements.length = 0;
    const res = await request(path);
    expect(res.status, path).toBe(200);
    const pages = statements.filter((s) => statement.test(s.query));
    expect(pages.length, path).toBeGreaterThan(0);
    return { body: res.body, pages: [...pages] };
  }

  /** EXPLAIN of a recorded statement, with sequential scans (and, unless `allowSort`, sorts) made the last resort. */
  async function explain(statement: Statement, c: Case): Promise<PlanNode> {
    const settings = ["set local enable_seqscan = off"];
    if (!c.sorted && !c.search) settings.push("set local enable_sort = off");
    // A search must be able to find its rows by the trigram indexes' bitmaps (on 600 users walking
    // the sort's index and testing each row is cheaper, and is what a common word does at scale).
    // The same for a filter that narrows the list to a few rows (a team's members): at scale the
    // planner starts from the filter's index and sorts what it finds.
    if (c.search || c.sorted) settings.push("set local enable_indexscan = off", "set local enable_indexonlyscan = off");
    const text = `explain (format json) ${statement.query}`;
    if (handle.pglite) {
      return handle.pglite.transaction(async (tx) => {
        for (const s of settings) await tx.exec(s);
        const { rows } = await tx.query<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>(text, statement.params as any[]);
        return rows[0]["QUERY PLAN"][0].Plan;
      });
    }
    const client = await handle.pool!.connect();
    try {
      await client.query("begin");
      for (const s of settings) await client.query(s);
      const { rows } = await client.query(text, statement.params as any[]);
      return rows[0]["QUERY PLAN"][0].Plan;
    } finally {
      await client.query("rollback");
      client.release();
    }
  }

  async function check(c: Case) {
    const { body, pages } = await pageStatements(c.path, c.statement);
    const checked = [...pages];
    const next = `${c.path.replace(/&(offset|at)=[^&]+/, "")}&cursor=${encodeURIComponent(body.next_cursor)}`;
    // A search's next page adds the keyset condition, and with plain index scans disabled a tiny
    // table then prefers a bitmap over that condition: its first page is the one that says.
    if (body.next_cursor && !c.search) checked.push(...(await pageStatements(next, c.statement)).pages);
    for (const statement of checked) {
      const plan = await explain(statement, c);
      const nodes = nodesOf(plan);
      const describe = `${c.path}\n${JSON.stringify(plan, ["Node Type", "Parent Relationship", "Relation Name", "Index Name", "Plans"], 1)}`;
      if (process.env.PLANS_DUMP) console.log(describe);
      expect(
        nodes.filter((n) => n["Node Type"] === "Seq Scan").map((n) => n["Relation Name"]),
        describe,
      ).toEqual([]);
      // A Sort above a Limit only orders the page's few rows, picked in index order below it.
      const fullSorts = mainNodesOf(plan).filter(
        (n) => n["Node Type"] === "Sort" && !nodesOf(n).some((m) => m["Node Type"] === "Limit"),
      );
      if (!c.sorted && !c.search) expect(fullSorts.length, describe).toBe(0);
      const used = new Set(nodes.map((n) => n["Index Name"]).filter(Boolean));
      if (c.anyIndex)
        expect(
          c.anyIndex.some((i) => used.has(i)),
          describe,
        ).toBe(true);
      else for (const index of [c.index].flat()) expect(used, describe).toContain(index);
    }
  }

  it("pages every sort of every top-level list in both orders through its own index, first page and next", async () => {
    for (const [path, sorts] of Object.entries(sortIndexes)) {
      for (const [sort, index] of Object.entries(sorts)) {
        for (const order of ["asc", "desc"])
          await check({ path: `${path}?limit=5&sort=${sort}&order=${order}`, index });
      }
    }
  });

  it("jumps to the last page and to a bounded offset through the same index", async () => {
    await check({ path: "/api/users?limit=5&at=end", index: "users_data_created_at_idx" });
    await check({ path: "/api/users?limit=5&offset=50", index: "users_data_created_at_idx" });
    await check({
      path: "/api/customers?limit=5&at=end&sort=customer_name&order=asc",
      index: "customers_name_lower_idx",
    });
  });

  it("filters through the filter's index", async () => {
    await check({ path: `/api/users?limit=5&customer_id=${ids.customer}`, index: "users_data_customer_idx" });
    await check({ path: `/api/users?limit=5&team_id=${ids.team}`, index: "teams_users_pkey", sorted: true });
    await check({
      path: "/api/users?limit=5&signed_in=true&sort=last_login&order=desc",
      index: "users_data_last_login_idx",
    });
    await check({
      path: `/api/teams?limit=5&customer_id=${ids.customer}&sort=team_name&order=asc`,
      index: "teams_customer_idx",
      sorted: true,
    });
    await check({ path: "/api/audit?limit=5&action=create", index: "audit_log_action_idx" });
    await check({ path: `/api/users/${ids.user}/teams?limit=5`, index: "teams_users_user_idx", sorted: true });
  });

  it("serves the Assign Skill picker from the active skills' name index, first page, next page and its count", async () => {
    const path = `/api/teams/${ids.team}/assignable-skills?limit=5`;
    // Pages (first and keyset next) walk the partial index in name order; the count of active
    // skills may as well read the skills list's (status, skill_id) index.
    await check({ path, index: "skills_active_name_lower_idx" });
    await check({
      path,
      index: "skills_active_name_lower_idx",
      anyIndex: ["skills_active_name_lower_idx", "skills_status_sort_idx"],
      statement: /count\(\*\)/,
    });
    // Its search is left to the benchmark: among the demo's 30 skills the planner rightly reads
    // all active ones from the partial index rather than combine two trigram bitmaps.
  });

  it("searches through the trigram indexes (3 characters or more)", async () => {
    await check({
      path: "/api/users?limit=5&q=son",
      index: ["users_data_name_trgm", "users_data_email_trgm", "users_data_job_title_trgm", "customers_name_trgm"],
      search: true,
    });
    await check({ path: "/api/customers?limit=5&q=son", index: "customers_name_trgm", search: true });
    await check({ path: "/api/teams?limit=5&q=son", index: ["teams_name_trgm", "customers_name_trgm"], search: true });
  });

  it("answers the global search from the title indexes: below 3 characters by their ranges alone, from 3 by the trigram indexes too", async () => {
    // From 3 characters explained as the lists' searches are (index scans off: on the demo's few
    // rows walking a name index and testing each row is cheaper than the trigram bitmaps).
    const indexesOf = async (q: string) => {
      const { pages } = await pageStatements(`/api/search?q=${q}`, /count\(\*\) over \(\)/);
      expect(pages).toHaveLength(6); // one statement per kind
      const used: string[][] = [];
      for (const statement of pages) {
        const nodes = nodesOf(await explain(statement, { path: "/api/search", index: [], search: q.length >= 3 }));
        expect(
          nodes.filter((n) => n["Node Type"] === "Seq Scan").map((n) => n["Relation Name"]),
          q,
        ).toEqual([]);
        used.push(nodes.map((n) => n["Index Name"]).filter((i): i is string => !!i));
      }
      return used;
    };
    // A two-letter prefix is in too many rows' trigrams (13–21 ms per kind at a million users).
    const short = await indexesOf("an");
    expect(short.flat().filter((i) => i.endsWith("_trgm"))).toEqual([]);
    const users = short.find((u) => u.includes("users_data_name_sort_idx"));
    expect(users, JSON.stringify(short)).toBeDefined();
    expect(
      users!.some((i) => i === "users_data_email_sort_idx" || i === "users_data_email_key"),
      JSON.stringify(users),
    ).toBe(true);
    for (const index of [
      "customers_name_lower_idx",
      "teams_name_lower_idx",
      "skills_name_lower_idx",
      "pedal_prompts_title_lower_idx",
      "platforms_name_idx",
    ])
      expect(short.flat()).toContain(index);
    const long = (await indexesOf("son")).flat();
    for (const index of [
      "customers_name_trgm",
      "users_data_name_trgm",
      "users_data_email_trgm",
      "teams_name_trgm",
      "skills_name_trgm",
      "pedal_prompts_title_trgm",
      "platforms_name_trgm",
    ])
      expect(long).toContain(index);
  });
});

// PostgreSQL only: PGlite's single connection keeps PostgreSQL's defaults (the Memoize cost was
// measured on PostgreSQL at a million users; the embedded database's tables are ten times smaller).
describe.each(targets.filter((t) => t === "postgres"))("pooled connections on %s", (target) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await freshDatabase(target);
  });
  afterAll(() => handle?.close());

  it("plan without Memoize caches on every connection of the pool (a page's join is sized for its rows, not the table's)", async () => {
    // Five at once take five connections of the pool (its size in the tests).
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        queryRows<{ enable_memoize: string; pid: number }>(
          handle.db,
          sql`select current_setting('enable_memoize') as enable_memoize, pg_backend_pid() as pid, pg_sleep(0.05)`,
        ),
      ),
    );
    expect(new Set(answers.map((rows) => rows[0].pid)).size).toBe(5);
    expect(answers.map((rows) => rows[0].enable_memoize)).toEqual(["off", "off", "off", "off", "off"]);
  });
});
