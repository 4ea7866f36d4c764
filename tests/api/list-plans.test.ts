/**
 * Each list's page query is pinned to the index that serves it (docs/lists.md: "each sort needs
 * an index on (keys…, id)"; issue "Lists at a million rows": a slow query gets its index, with a
 * test that pins the plan's use of it where the planner allows). On PGlite and PostgreSQL.
 *
 * How: on the demo data, every declared sort of every list the app mounts (the list engine's own
 * table `listTable`) is paged in both orders, with a top-level list's next page by cursor, by the
 * list's engine run as its route runs it (after showing, list by list, that it sends the very page
 * statement the real request does; else by real requests); the real app answers real requests for
 * the last page, each filter and a search. Statements go through a second Drizzle instance on the
 * same connection whose logger records each statement's text and parameters. A nested list's path
 * names the parent that the most rows refer to (tests/support/derive-rows.ts).
 * The page statement of each page (the one selecting the sort keys `__k0…`) is then run again
 * under `EXPLAIN (FORMAT JSON)`, with its parameters, in a transaction that sets
 * `enable_seqscan = off` and `enable_sort = off`.
 *
 * Why those settings: the demo data has 600 users, and on tables that small the planner rightly
 * prefers a sequential scan and a sort, which says nothing about a million rows. The two settings
 * do not forbid those plans, they make them cost 10^10 more, so the planner picks an index path
 * whenever one exists: a sequential scan or a full Sort left in the plan means that no index can
 * serve that filter or that order, which is what goes slow at scale. So the test asserts, for every
 * page statement of every declared sort: no Seq Scan on any table; no Sort or Incremental Sort of
 * rows that no index condition found (a Sort above a Limit, which orders a page's ids picked in
 * index order below it, is allowed; so is an Incremental Sort within one joined record's rows:
 * customers walked by name, then each customer's few rows); without a sort, an index scan gives the
 * order. A nested list may instead find its rows through its scope's index and sort them (its
 * scope bounds them). A sort may go without an index only where its list's declaration says why
 * (`unindexedSorts`: the operators, a few tens of rows). The hand-written cases below also name the
 * index that serves a filter, a search or a jump to the last page. Searches are explained with only
 * `enable_seqscan` off, as at scale: they must find their rows through the trigram indexes.
 * Timing is left to `npm run bench` (docs/performance.md), which EXPLAINs the same statements at
 * a million users.
 */
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { PgDialect } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/server/app";
import { createOperator } from "../../src/server/auth";
import { defaultSecurity } from "../../src/server/config";
import { queryRows, type Database, type DatabaseHandle } from "../../src/server/db/client";
import { loadDemoData } from "../../src/server/db/demo-data";
import * as schema from "../../src/server/db/schema";
import { listTable } from "../../src/server/http/list-routes";
import {
  defaultListSettings,
  listQuerySchema,
  runList,
  type ListQuery,
  type SortKey,
} from "../../src/server/http/lists";
import { publicUrl, testPassword } from "../support/app";
import { freshDatabase, targets } from "../support/databases";
import { busiestIdOf, fillPath, paramsOf, type Rows } from "../support/derive-rows";

type PlanNode = {
  "Node Type": string;
  "Parent Relationship"?: string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Index Cond"?: string;
  "Presorted Key"?: string[];
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
 * A case of the hand-written checks below: `index`, every one of these is used by each statement;
 * `anyIndex`, at least one of these (a statement that several indexes serve equally, such as a count
 * of active rows); `sorted`, a Sort over the rows is fine there, because a filter or the scope has
 * already narrowed them to a bounded set (a team's members, a user's teams).
 */
type Case = {
  path: string;
  index: string | string[];
  anyIndex?: string[];
  search?: boolean;
  sorted?: boolean;
  statement?: RegExp;
};

type ListEntry = (typeof listTable)[number];
/** Every list the app mounts, once each (the list engine's declarations, as list-routes.ts mounts them). */
const lists: ListEntry[] = [...new Map(listTable.map((e) => [e.path, e])).values()];

const dialect = new PgDialect();
/**
 * A sort key as EXPLAIN prints it, for comparing with a declared one: no spaces, parentheses,
 * quotes or table aliases (a join makes `t.customer_id` and `c.customer_id` one key), lower case.
 */
const keyText = (text: string) =>
  text
    .replace(/\b[a-z_][a-z0-9_]*\.(?=[a-z_"])/gi, "")
    .replace(/[\s()"]/g, "")
    .toLowerCase();
/** The fields of a plan a failure shows. */
const planFields = [
  "Node Type",
  "Parent Relationship",
  "Relation Name",
  "Index Name",
  "Index Cond",
  "Presorted Key",
  "Plans",
];

/** The nodes that read a table or an index (a Bitmap Heap Scan reads what its Bitmap Index Scans found). */
const isScan = (n: PlanNode) => /^(Seq|Index|Index Only|Bitmap Index) Scan$/.test(n["Node Type"]);
/** Whether a scan reads only the rows an index condition finds (not a whole table or index). */
const narrowed = (n: PlanNode) => Boolean(n["Index Cond"]);

describe.each(targets)("list query plans on %s", (target) => {
  let handle: DatabaseHandle;
  let request: (path: string) => Promise<{ status: number; body: any }>;
  /** The app's database, through the Drizzle instance whose logger records each statement. */
  let logged: Database;
  const statements: Statement[] = [];
  /** Ids of the path parameters and filters, by parameter name (`customerId`). */
  const ids: Record<string, string> = {};
  const rowsOf: Rows = (query) => queryRows(handle.db, query);

  beforeAll(async () => {
    handle = await freshDatabase(target);
    await loadDemoData(handle.db, { seed: 42 });
    const logger = { logQuery: (query: string, params: unknown[]) => void statements.push({ query, params }) };
    logged = (handle.kind === "pglite"
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
    // The parents with the most rows to list (tests/support/derive-rows.ts): the customer, team
    // and user the filters below narrow to, and each nested list's parent.
    for (const param of ["customerId", "teamId", "userId"]) ids[param] = await busiestIdOf(rowsOf, param);
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
    return (await explainAll([statement], c))[0];
  }

  /** EXPLAIN of recorded statements, in one transaction with the settings of `explain`. */
  async function explainAll(recorded: Statement[], c: Omit<Case, "path" | "index">): Promise<PlanNode[]> {
    const settings = ["set local enable_seqscan = off"];
    if (!c.sorted && !c.search) settings.push("set local enable_sort = off");
    // A search must be able to find its rows by the trigram indexes' bitmaps (on 600 users walking
    // the sort's index and testing each row is cheaper, and is what a common word does at scale).
    // The same for a filter that narrows the list to a few rows (a team's members): at scale the
    // planner starts from the filter's index and sorts what it finds.
    if (c.search || c.sorted) settings.push("set local enable_indexscan = off", "set local enable_indexonlyscan = off");
    // The settings in one round trip, and every statement in one transaction: a list's sorts are
    // explained together (a few hundred statements in all).
    const set = settings.join("; ");
    const plans: PlanNode[] = [];
    type Explained = { rows: Array<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }> };
    if (handle.pglite) {
      await handle.pglite.transaction(async (tx) => {
        await tx.exec(set);
        for (const statement of recorded) {
          const { rows } = (await tx.query(
            `explain (format json) ${statement.query}`,
            statement.params as any[],
          )) as Explained;
          plans.push(rows[0]["QUERY PLAN"][0].Plan);
        }
      });
      return plans;
    }
    const client = await handle.pool!.connect();
    try {
      await client.query(`begin; ${set}`);
      for (const statement of recorded) {
        const { rows } = (await client.query(
          `explain (format json) ${statement.query}`,
          statement.params as any[],
        )) as Explained;
        plans.push(rows[0]["QUERY PLAN"][0].Plan);
      }
      return plans;
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
    for (const plan of await explainAll(checked, c)) {
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

  /**
   * Whether a plan walks an index in the sort's order (`enable_sort` off: a Sort is the last
   * resort): no Seq Scan; no Sort of the list's rows (one above a Limit orders only a page's rows
   * picked in index order below it) and no Incremental Sort, unless an index condition found every
   * row it sorts (a nested list's scope), or, for an Incremental Sort, its presorted keys hold one
   * of the sort's uuid keys (users walked by customer name, then each customer's users by id); and
   * without any sort, an index scan gives the order. Answers the problem, or undefined.
   */
  function indexOrderProblem(plan: PlanNode, uuidKeys: string[]): string | undefined {
    if (nodesOf(plan).some((n) => n["Node Type"] === "Seq Scan")) return "a Seq Scan";
    const sorts = mainNodesOf(plan).filter(
      (n) => /^(Incremental )?Sort$/.test(n["Node Type"]) && !nodesOf(n).some((m) => m["Node Type"] === "Limit"),
    );
    for (const sort of sorts) {
      const bounded = mainNodesOf(sort).every((m) => !isScan(m) || narrowed(m));
      const perRecord = (sort["Presorted Key"] ?? []).some((k) => uuidKeys.includes(keyText(k)));
      if (!bounded && !(sort["Node Type"] === "Incremental Sort" && perRecord))
        return `${sort["Node Type"] === "Sort" ? "a" : "an"} ${sort["Node Type"]} of rows no index condition found`;
    }
    const ordered = mainNodesOf(plan).some((n) => /^Index (Only )?Scan$/.test(n["Node Type"]));
    if (sorts.length === 0 && !ordered) return "no index scan gives the order";
    return undefined;
  }

  /**
   * Runs a list's engine as its route does (`mountList`: the query parsed by the list's own schema,
   * the filters it names, the scope of the path's ids), without the HTTP layer, session and summary
   * memory around it: its page statements (those selecting the sort keys) and its next cursor. A
   * third of a request's cost, for the hundreds of pages below; `sortStatements` checks, list by
   * list, that it sends the very statements the route does.
   */
  async function enginePage(entry: ListEntry, params: Record<string, string>, query: Record<string, string>) {
    statements.length = 0;
    const parsed = listQuerySchema(entry.list).parse(query) as ListQuery;
    const filters = Object.fromEntries(Object.keys(entry.list.filters).map((k) => [k, parsed[k]]));
    const page = await runList(
      logged,
      entry.list,
      { query: parsed, filters, scope: entry.scope?.where(params), parentExists: entry.scope?.exists(params) },
      { settings: defaultListSettings },
    );
    return { body: page, pages: statements.filter((s) => /"__k0"/.test(s.query)) };
  }

  /**
   * The page statements of every declared sort of a list in both orders, first page and (for a
   * top-level list) next, each with the uuid keys of its sort (see `indexOrderProblem`). A nested
   * list's next page reads its scope's rows again past the cursor: its first page says how they are
   * found. A sort the declaration names in `unindexedSorts` (with why) is left out: it is not held
   * to an index, and the list contract (lists.test.ts) pages it. The pages come from the list's
   * engine run directly (`enginePage`) when its first page there is the statement the real request
   * sends, text and parameters (a list whose SQL reads the request, such as the asking operator's
   * views, differs): else from real requests.
   */
  async function sortStatements(entry: ListEntry) {
    const sorts = Object.entries(entry.list.sorts as Record<string, SortKey[]>).filter(
      ([sort]) => !entry.list.unindexedSorts?.sorts.includes(sort),
    );
    if (sorts.length === 0) return [];
    const params: Record<string, string> = {};
    for (const param of paramsOf(entry.path)) params[param] = ids[param] ??= await busiestIdOf(rowsOf, param);
    const url = fillPath(entry.path, params);
    const same = (a: Statement[], b: Statement[]) => JSON.stringify(a) === JSON.stringify(b);
    const first = { limit: "5", sort: entry.list.defaultSort, order: entry.list.defaultOrder };
    const direct = same(
      (await enginePage(entry, params, first)).pages,
      (await pageStatements(`${url}?${new URLSearchParams(first)}`)).pages,
    );
    const pageOf = async (query: Record<string, string>) => {
      if (direct) return enginePage(entry, params, query);
      const answer = await pageStatements(`${url}?${new URLSearchParams(query)}`);
      return { body: answer.body as { next_cursor: string | null }, pages: answer.pages };
    };
    const found: Array<{ path: string; statement: Statement; uuidKeys: string[] }> = [];
    for (const [sort, keys] of sorts) {
      const uuidKeys = keys.filter((k) => k.type === "uuid").map((k) => keyText(dialect.sqlToQuery(k.expr).sql));
      for (const order of ["asc", "desc"]) {
        const query = { limit: "5", sort, order };
        const path = `${url}?${new URLSearchParams(query)}`;
        const { body, pages } = await pageOf(query);
        expect(pages.length, path).toBeGreaterThan(0);
        const next =
          body.next_cursor && !entry.scope ? (await pageOf({ ...query, cursor: body.next_cursor })).pages : [];
        if (body.next_cursor && !entry.scope) expect(next.length, `${path}: its next page`).toBeGreaterThan(0);
        for (const statement of [...pages, ...next]) found.push({ path, statement, uuidKeys });
      }
    }
    return found;
  }

  it("mounts lists to check", () => {
    expect(lists.length).toBeGreaterThan(10);
  });

  it.each(lists.map((entry) => [entry.path, entry] as const))(
    "%s: pages every declared sort in both orders through an index, or says why not",
    async (_path, entry) => {
      for (const sort of entry.list.unindexedSorts?.sorts ?? [])
        expect(entry.list.unindexedSorts!.reason.length, `why ${sort} needs no index`).toBeGreaterThan(20);
      // Explained with `enable_sort` off, each page must come in its sort's order from an index. A
      // nested list may instead find its rows through an index condition and sort them, the scope
      // bounding what is sorted (a skill's assignments by team name): explained with plain index
      // scans off too, it then has no Seq Scan.
      const found = await sortStatements(entry);
      const plans = await explainAll(
        found.map((f) => f.statement),
        {},
      );
      const problems = found.map((f, i) => ({
        ...f,
        plan: plans[i],
        problem: indexOrderProblem(plans[i], f.uuidKeys),
      }));
      let failing = problems.filter((p) => p.problem !== undefined);
      if (entry.scope && failing.length > 0) {
        const scoped = await explainAll(
          failing.map((f) => f.statement),
          { sorted: true },
        );
        failing = failing.filter((_, i) => nodesOf(scoped[i]).some((n) => n["Node Type"] === "Seq Scan"));
      }
      const scope = entry.scope ? ", and its scope's rows are not found through an index" : "";
      expect(failing.map((f) => `${f.path}: ${f.problem}${scope}\n${JSON.stringify(f.plan, planFields, 1)}`)).toEqual(
        [],
      );
      if (process.env.PLANS_DUMP)
        for (const p of problems) console.log(`${p.path}\n${JSON.stringify(p.plan, planFields, 1)}`);
    },
  );

  it("jumps to the last page and to a bounded offset through the same index", async () => {
    await check({ path: "/api/users?limit=5&at=end", index: "users_data_created_at_idx" });
    await check({ path: "/api/users?limit=5&offset=50", index: "users_data_created_at_idx" });
    await check({
      path: "/api/customers?limit=5&at=end&sort=customer_name&order=asc",
      index: "customers_name_lower_idx",
    });
  });

  it("filters through the filter's index", async () => {
    await check({ path: `/api/users?limit=5&customer_id=${ids.customerId}`, index: "users_data_customer_idx" });
    await check({ path: `/api/users?limit=5&team_id=${ids.teamId}`, index: "teams_users_pkey", sorted: true });
    await check({
      path: "/api/users?limit=5&signed_in=true&sort=last_login&order=desc",
      index: "users_data_last_login_idx",
    });
    await check({
      path: `/api/teams?limit=5&customer_id=${ids.customerId}&sort=team_name&order=asc`,
      index: "teams_customer_idx",
      sorted: true,
    });
    await check({ path: "/api/audit?limit=5&action=create", index: "audit_log_action_idx" });
    await check({ path: `/api/users/${ids.userId}/teams?limit=5`, index: "teams_users_user_idx", sorted: true });
  });

  it("serves the Assign Skill picker from the active skills' name index, first page, next page and its count", async () => {
    const path = `/api/teams/${ids.teamId}/assignable-skills?limit=5`;
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
