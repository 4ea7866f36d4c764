/**
 * Customers, teams and users API: lists (counts, summaries, search, sort, paging) checked against
 * direct SQL, and every customer and team mutation with its validation messages, its effect on the
 * rows and its audit trail, on PGlite and PostgreSQL.
 */
import { randomUUID } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerSortKeys, type CustomerListItem } from "../../src/domain/customers";
import { userRoles, type OperatorRole, type UserRole } from "../../src/domain/enums";
import { msg } from "../../src/domain/messages";
import { teamSortKeys, type TeamListItem } from "../../src/domain/teams";
import { routeTable } from "../../src/server/http/route";
import { startConsole, type TestConsole } from "../support/app";
import { targets } from "../support/databases";

/** A short unique suffix, so that rows made by one test never collide with another's. */
const uid = () => randomUUID().slice(0, 8);
/** Milliseconds since the epoch, truncated as timestamps are in the API's JSON. */
const epochMs = (column: SQL) => sql`(extract(epoch from date_trunc('milliseconds', ${column})) * 1000)::float8`;
const orders = ["asc", "desc"] as const;

/** Per sort key: the database's value for the row (alias c) and the same value read from an API item. */
const customerSorts: Record<(typeof customerSortKeys)[number], [SQL, (item: CustomerListItem) => unknown]> = {
  customer_name: [sql`lower(c.customer_name)`, (i) => i.customer_name.toLowerCase()],
  user_count: [sql`(select count(*) from users_data u where u.customer_id = c.customer_id)::int`, (i) => i.user_count],
  team_count: [sql`(select count(*) from teams t where t.customer_id = c.customer_id)::int`, (i) => i.team_count],
  status: [sql`c.status`, (i) => i.status],
  created_at: [epochMs(sql`c.created_at`), (i) => Date.parse(i.created_at)],
  updated_at: [epochMs(sql`c.updated_at`), (i) => Date.parse(i.updated_at)],
};

/** Per sort key: the database's value for the team (alias t, its customer c) and the API item's. */
const teamSorts: Record<(typeof teamSortKeys)[number], [SQL, (item: TeamListItem) => unknown]> = {
  team_name: [sql`lower(t.team_name)`, (i) => i.team_name.toLowerCase()],
  customer_name: [sql`lower(c.customer_name)`, (i) => i.customer_name?.toLowerCase()],
  user_count: [sql`(select count(*) from teams_users tu where tu.team_id = t.team_id)::int`, (i) => i.user_count],
  skills_count: [
    sql`(select count(*) from teams_skills ts where ts.team_id = t.team_id and ts.status = 'active')::int`,
    (i) => i.skills_count,
  ],
  status: [sql`t.status`, (i) => i.status],
  created_at: [epochMs(sql`t.created_at`), (i) => Date.parse(i.created_at)],
};

describe.each(targets)("customers, teams and users API on %s", (target) => {
  let app: TestConsole;
  beforeAll(async () => {
    app = await startConsole(target, { demo: true });
  });
  afterAll(() => app.close());

  const rows = <T>(query: SQL) => app.rows<T>(query);
  const count = (query: SQL) => app.count(query);

  /** A read as the viewer (the lowest role). */
  const get = (path: string) => app.read(path);

  /** A mutation, as the editor unless `as` says otherwise. */
  const send = (method: string, path: string, json?: unknown, as: OperatorRole = "editor") =>
    app.write(method, path, json, as);

  async function newCustomer(): Promise<{ customer_id: string; customer_name: string; updated_at: string }> {
    const { status, body } = await send("POST", "/api/customers", { customer_name: `Test Customer ${uid()}` });
    expect(status).toBe(201);
    return body;
  }

  async function newTeam(customerId?: string): Promise<{ team_id: string; customer_id: string }> {
    const customer_id = customerId ?? (await newCustomer()).customer_id;
    const { status, body } = await send("POST", "/api/teams", { customer_id, team_name: `Test Team ${uid()}` });
    expect(status).toBe(201);
    return body;
  }

  /** A user of `customerId` inserted directly, optionally with a last login, roles and a team. */
  async function insertUser(
    customerId: string,
    options: { lastLoginHoursAgo?: number; roles?: UserRole[]; teamId?: string } = {},
  ) {
    const lastLogin =
      options.lastLoginHoursAgo === undefined
        ? null
        : sql`now() - make_interval(hours => ${options.lastLoginHoursAgo}::int)`;
    const [{ user_id }] = await rows<{ user_id: string }>(sql`
      insert into users_data (customer_id, email, last_login) values (${customerId}, ${`user-${uid()}@test.example`}, ${lastLogin})
      returning user_id`);
    for (const role of options.roles ?? [])
      await rows(sql`insert into users_roles (user_id, role) values (${user_id}, ${role})`);
    if (options.teamId) {
      await rows(
        sql`insert into teams_users (team_id, user_id, customer_id) values (${options.teamId}, ${user_id}, ${customerId})`,
      );
    }
    return user_id;
  }

  async function insertSkill(status: "active" | "inactive" = "active") {
    const [{ skill_id }] = await rows<{ skill_id: string }>(sql`
      insert into skills (skill_name, status) values (${`Test Skill ${uid()}`}, ${status}) returning skill_id`);
    return skill_id;
  }

  /** Actions of the audit rows about one record, oldest first. */
  async function auditActions(entity: string, entityId: string) {
    const found = await rows<{ action: string }>(sql`
      select action from audit_log where entity = ${entity} and entity_id = ${entityId} order by created_at, audit_id`);
    return found.map((r) => r.action);
  }

  /** The customer (or team) with the most users, so that lists filtered by it are not trivial. */
  async function busiest(kind: "customer" | "team") {
    const query =
      kind === "customer"
        ? sql`select customer_id as id from users_data group by customer_id order by count(*) desc, customer_id limit 1`
        : sql`select team_id as id from teams_users group by team_id order by count(*) desc, team_id limit 1`;
    return (await rows<{ id: string }>(query))[0].id;
  }

  describe("GET /api/customers", () => {
    it("returns total, summary, user_count and team_count equal to SQL counts", async () => {
      const { status, body } = await get("/api/customers?limit=200");
      expect(status).toBe(200);
      const [expected] = await rows<{ total: number; active: number; trial: number; inactive: number }>(sql`
        select count(*)::int as total,
          count(*) filter (where status = 'active')::int as active,
          count(*) filter (where status = 'trial')::int as trial,
          count(*) filter (where status = 'inactive')::int as inactive
        from customers`);
      expect(body.summary).toEqual(expected);
      expect(body.total).toBe(expected.total);
      expect(body.items).toHaveLength(expected.total);
      const counts = await rows<{ customer_id: string; user_count: number; team_count: number }>(sql`
        select c.customer_id,
          (select count(*) from users_data u where u.customer_id = c.customer_id)::int as user_count,
          (select count(*) from teams t where t.customer_id = c.customer_id)::int as team_count
        from customers c`);
      const byId = new Map(counts.map((r) => [r.customer_id, r]));
      for (const item of body.items as CustomerListItem[]) {
        expect({ customer_id: item.customer_id, user_count: item.user_count, team_count: item.team_count }).toEqual(
          byId.get(item.customer_id),
        );
      }
    });

    it("searches case-insensitively, with total equal to the SQL ILIKE count", async () => {
      const [{ customer_id, customer_name }] = await rows<{ customer_id: string; customer_name: string }>(sql`
        select customer_id, customer_name from customers order by customer_name limit 1`);
      const q = customer_name.slice(1, 5).toUpperCase();
      const { body } = await get(`/api/customers?limit=200&q=${encodeURIComponent(q)}`);
      const pattern = `%${q}%`;
      const expected = await count(sql`
        select 1 from customers where customer_name ilike ${pattern} or status ilike ${pattern} or valid_domains ilike ${pattern}`);
      expect(body.total).toBe(expected);
      expect(body.items).toHaveLength(expected);
      expect(body.items.map((c: CustomerListItem) => c.customer_id)).toContain(customer_id);
    });

    // Searches of 3 characters or more match anywhere (shorter ones match prefixes: docs/lists.md).
    it.each(["%", "_", "\\"])("treats the LIKE special character %s in q as a literal character", async (wildcard) => {
      const { body: created } = await send("POST", "/api/customers", {
        customer_name: `Promo 50${wildcard}off ${uid()}`,
      });
      const q = `0${wildcard}o`;
      const { body } = await get(`/api/customers?limit=200&q=${encodeURIComponent(q)}`);
      const expected = await count(sql`
        select 1 from customers where strpos(lower(customer_name), ${q}) > 0 or strpos(lower(coalesce(valid_domains, '')), ${q}) > 0`);
      expect(body.total).toBe(expected);
      expect(body.total).toBeLessThan((await get("/api/customers?limit=1")).body.total);
      for (const item of body.items as CustomerListItem[])
        expect(`${item.customer_name} ${item.valid_domains ?? ""}`.toLowerCase()).toContain(q);
      expect(body.items.map((c: CustomerListItem) => c.customer_id)).toContain(created.customer_id);
    });

    it.each(customerSortKeys.flatMap((key) => orders.map((order) => ({ key, order }))))(
      "sorts by $key $order",
      async ({ key, order }) => {
        const { body } = await get(`/api/customers?limit=200&sort=${key}&order=${order}`);
        const [expr, read] = customerSorts[key];
        const expected = await rows<{ v: unknown }>(
          sql`select ${expr} as v from customers c order by 1 ${sql.raw(order)}`,
        );
        expect(body.items).toHaveLength(expected.length);
        expect(body.items.map(read)).toEqual(expected.map((r) => r.v));
      },
    );

    it("pages with limit and offset through every customer exactly once, even on a sort with ties", async () => {
      const limit = 7;
      const { body: first } = await get(`/api/customers?sort=status&order=asc&limit=${limit}`);
      const seen: string[] = [];
      for (let offset = 0; offset < first.total; offset += limit) {
        const { body } = await get(`/api/customers?sort=status&order=asc&limit=${limit}&offset=${offset}`);
        expect(body.total).toBe(first.total);
        expect(body.items).toHaveLength(Math.min(limit, first.total - offset));
        seen.push(...body.items.map((c: CustomerListItem) => c.customer_id));
      }
      const all = await rows<{ customer_id: string }>(sql`select customer_id from customers`);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.toSorted()).toEqual(all.map((r) => r.customer_id).toSorted());
      expect((await get(`/api/customers?limit=${limit}&offset=${first.total}`)).body.items).toEqual([]);
    });
  });

  describe("GET /api/customers/:id", () => {
    it("returns the customer with stats equal to SQL counts", async () => {
      const customerId = await busiest("customer");
      const { status, body } = await get(`/api/customers/${customerId}`);
      expect(status).toBe(200);
      const [expected] = await rows<Record<string, number>>(sql`
        select (select count(*) from users_data where customer_id = ${customerId})::int as total_users,
          (select count(*) from users_data where customer_id = ${customerId} and status = 'active')::int as active_users,
          (select count(*) from teams where customer_id = ${customerId})::int as total_teams,
          (select count(*) from teams where customer_id = ${customerId} and status = 'active')::int as active_teams`);
      expect(body.customer_id).toBe(customerId);
      expect(body.stats).toEqual(expected);
      expect(expected.total_users).toBeGreaterThan(0);
    });

    it("answers 404 with the not-found message to an unknown or malformed id", async () => {
      for (const id of [randomUUID(), "not-a-uuid"]) {
        const { status, body } = await get(`/api/customers/${id}`);
        expect(status, id).toBe(404);
        expect(body.error).toEqual({ code: "not_found", message: msg.customers.notFound });
      }
    });
  });

  describe("POST /api/customers", () => {
    it.each([
      { case: "a missing name", json: {} },
      { case: "a blank name", json: { customer_name: "   " } },
      { case: "a name that is not text", json: { customer_name: 42 } },
    ])("refuses $case with 422 and the name-required message", async ({ json }) => {
      const before = await count(sql`select 1 from customers`);
      const { status, body } = await send("POST", "/api/customers", json);
      expect(status).toBe(422);
      expect(body.error.code).toBe("validation_failed");
      expect(body.error.fields.customer_name).toBe(msg.customers.nameRequired);
      expect(await count(sql`select 1 from customers`)).toBe(before);
    });

    it("refuses an unknown status with 422 naming the status field", async () => {
      const name = `Bad Status ${uid()}`;
      const { status, body } = await send("POST", "/api/customers", { customer_name: name, status: "archived" });
      expect(status).toBe(422);
      expect(body.error.fields).toHaveProperty("status");
      expect(await count(sql`select 1 from customers where customer_name = ${name}`)).toBe(0);
    });

    it("trims the name, saves blank domains as null, defaults to active and answers 201 with the row", async () => {
      const name = `Trimmed ${uid()}`;
      const { status, body } = await send("POST", "/api/customers", {
        customer_name: `   ${name}  `,
        valid_domains: "   ",
      });
      expect(status).toBe(201);
      expect(body).toMatchObject({ customer_name: name, valid_domains: null, status: "active" });
      expect(body.created_at).toBe(body.updated_at);
      const [row] = await rows<{ customer_name: string; valid_domains: string | null; status: string }>(sql`
        select customer_name, valid_domains, status from customers where customer_id = ${body.customer_id}`);
      expect(row).toEqual({ customer_name: name, valid_domains: null, status: "active" });
      expect((await get(`/api/customers/${body.customer_id}`)).body).toMatchObject({
        customer_name: name,
        status: "active",
      });
    });

    it("keeps the chosen status and trims the valid domains", async () => {
      const { status, body } = await send("POST", "/api/customers", {
        customer_name: `Trial ${uid()}`,
        status: "trial",
        valid_domains: "  a.example\nb.example  ",
      });
      expect(status).toBe(201);
      expect(body).toMatchObject({ status: "trial", valid_domains: "a.example\nb.example" });
    });

    it("writes one audit row for the create, attributed to the operator", async () => {
      const { body } = await send("POST", "/api/customers", { customer_name: `Audited ${uid()}` });
      const audit = await rows<{ action: string; operator_email: string }>(sql`
        select action, operator_email from audit_log where entity = 'customer' and entity_id = ${body.customer_id}`);
      expect(audit).toEqual([{ action: "create", operator_email: "editor@test.example" }]);
    });

    it("answers 400 with a JSON error to a malformed JSON body", async () => {
      const before = await count(sql`select 1 from customers`);
      const res = await app.request("/api/customers", {
        as: "editor",
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"customer_name": "Broken',
      });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.error.code).toBe("bad_request");
      expect(body.error.message).toEqual(expect.any(String));
      expect(await count(sql`select 1 from customers`)).toBe(before);
    });
  });

  describe("PATCH /api/customers/:id", () => {
    it("archives and unarchives, moving updated_at forward each time, with an audit row each", async () => {
      const customer = await newCustomer();
      let previous = Date.parse(customer.updated_at);
      for (const status of ["inactive", "active"] as const) {
        await new Promise((resolve) => setTimeout(resolve, 5)); // so that "later" is measurable in milliseconds
        const res = await send("PATCH", `/api/customers/${customer.customer_id}`, { status });
        expect(res.status).toBe(200);
        expect(res.body.status).toBe(status);
        const { body } = await get(`/api/customers/${customer.customer_id}`);
        expect(body.status).toBe(status);
        expect(body.updated_at).toBe(res.body.updated_at);
        expect(Date.parse(body.updated_at)).toBeGreaterThan(previous);
        previous = Date.parse(body.updated_at);
      }
      expect(await auditActions("customer", customer.customer_id)).toEqual(["create", "update", "update"]);
    });

    it("refuses an unknown status with 422 and changes nothing", async () => {
      const customer = await newCustomer();
      const { status } = await send("PATCH", `/api/customers/${customer.customer_id}`, { status: "archived" });
      expect(status).toBe(422);
      expect((await get(`/api/customers/${customer.customer_id}`)).body.status).toBe("active");
      expect(await auditActions("customer", customer.customer_id)).toEqual(["create"]);
    });

    it("answers 404 with the not-found message to an unknown or malformed id", async () => {
      for (const id of [randomUUID(), "not-a-uuid"]) {
        const { status, body } = await send("PATCH", `/api/customers/${id}`, { status: "inactive" });
        expect(status, id).toBe(404);
        expect(body.error).toEqual({ code: "not_found", message: msg.customers.notFound });
      }
    });
  });

  describe("GET /api/teams", () => {
    it("returns every team with summary, user_count and skills_count (active assignments) equal to SQL", async () => {
      const { status, body } = await get("/api/teams?limit=200");
      expect(status).toBe(200);
      const [summary] = await rows<{ total: number; active: number; inactive: number }>(sql`
        select count(*)::int as total, count(*) filter (where status = 'active')::int as active,
          count(*) filter (where status = 'inactive')::int as inactive
        from teams`);
      expect(body.summary).toEqual(summary);
      expect(body.total).toBe(summary.total);
      expect(body.items).toHaveLength(summary.total);
      // Inactive assignments exist, so counting them would show.
      expect(await count(sql`select 1 from teams_skills where status = 'inactive'`)).toBeGreaterThan(0);
      const counts = await rows<{
        team_id: string;
        customer_name: string;
        user_count: number;
        skills_count: number;
      }>(sql`
        select t.team_id, c.customer_name,
          (select count(*) from teams_users tu where tu.team_id = t.team_id)::int as user_count,
          (select count(*) from teams_skills ts where ts.team_id = t.team_id and ts.status = 'active')::int as skills_count
        from teams t join customers c on c.customer_id = t.customer_id`);
      const byId = new Map(counts.map((r) => [r.team_id, r]));
      for (const item of body.items as TeamListItem[]) {
        const { team_id, customer_name, user_count, skills_count } = item;
        expect({ team_id, customer_name, user_count, skills_count }).toEqual(byId.get(team_id));
      }
    });

    it("filters by customer_id, with the summary computed on the filtered set", async () => {
      const [{ customer_id }] = await rows<{ customer_id: string }>(sql`
        select customer_id from teams group by customer_id
        order by count(*) desc, count(*) filter (where status = 'inactive') desc, customer_id limit 1`);
      const { body } = await get(`/api/teams?limit=200&customer_id=${customer_id}`);
      const [summary] = await rows<{ total: number; active: number; inactive: number }>(sql`
        select count(*)::int as total, count(*) filter (where status = 'active')::int as active,
          count(*) filter (where status = 'inactive')::int as inactive
        from teams where customer_id = ${customer_id}`);
      expect(summary.total).toBeGreaterThan(1);
      expect(body.summary).toEqual(summary);
      expect(body.total).toBe(summary.total);
      expect(body.items).toHaveLength(summary.total);
      for (const item of body.items as TeamListItem[]) expect(item.customer_id).toBe(customer_id);
    });

    it("searches team and customer names case-insensitively, total and summary on the matches", async () => {
      const [{ team_name }] = await rows<{ team_name: string }>(
        sql`select team_name from teams order by team_name limit 1`,
      );
      const q = team_name.slice(0, 5).toUpperCase();
      const { body } = await get(`/api/teams?limit=200&q=${encodeURIComponent(q)}`);
      const pattern = `%${q}%`;
      const [summary] = await rows<{ total: number; active: number; inactive: number }>(sql`
        select count(*)::int as total, count(*) filter (where t.status = 'active')::int as active,
          count(*) filter (where t.status = 'inactive')::int as inactive
        from teams t join customers c on c.customer_id = t.customer_id
        where t.team_name ilike ${pattern} or c.customer_name ilike ${pattern} or t.status ilike ${pattern}`);
      expect(summary.total).toBeGreaterThan(0);
      expect(body.total).toBe(summary.total);
      expect(body.summary).toEqual(summary);
      expect(body.items.map((t: TeamListItem) => t.team_name)).toContain(team_name);
    });

    it.each(teamSortKeys.flatMap((key) => orders.map((order) => ({ key, order }))))(
      "sorts by $key $order",
      async ({ key, order }) => {
        const { body } = await get(`/api/teams?limit=200&sort=${key}&order=${order}`);
        const [expr, read] = teamSorts[key];
        const expected = await rows<{ v: unknown }>(sql`
        select ${expr} as v from teams t join customers c on c.customer_id = t.customer_id order by 1 ${sql.raw(order)}`);
        expect(body.items).toHaveLength(expected.length);
        expect(body.items.map(read)).toEqual(expected.map((r) => r.v));
      },
    );
  });

  describe("GET /api/users of a customer or a team", () => {
    /** users_roles of `userIds`, each user's roles ordered admin, manager, member. */
    async function rolesOf(userIds: string[]) {
      const found = await rows<{ user_id: string; role: UserRole }>(sql`
        select user_id, role from users_roles where user_id in (${sql.join(
          userIds.map((id) => sql`${id}`),
          sql`, `,
        )})`);
      const roles = new Map<string, UserRole[]>(userIds.map((id) => [id, []]));
      for (const r of found) roles.get(r.user_id)!.push(r.role);
      for (const list of roles.values()) list.sort((a, b) => userRoles.indexOf(a) - userRoles.indexOf(b));
      return roles;
    }

    it("lists a customer's users with their roles ordered admin, manager, member", async () => {
      const customerId = await busiest("customer");
      const { status, body } = await get(`/api/users?limit=200&customer_id=${customerId}`);
      expect(status).toBe(200);
      const ids = (
        await rows<{ user_id: string }>(sql`select user_id from users_data where customer_id = ${customerId}`)
      ).map((r) => r.user_id);
      expect(body.total).toBe(ids.length);
      expect(body.items.map((u: { user_id: string }) => u.user_id).toSorted()).toEqual(ids.toSorted());
      const roles = await rolesOf(ids);
      expect([...roles.values()].some((r) => r.length > 1)).toBe(true);
      for (const user of body.items) expect(user.roles, user.user_id).toEqual(roles.get(user.user_id));
      const [summary] = await rows<Record<string, number>>(sql`
        select count(*)::int as total, count(*) filter (where status = 'active')::int as active,
          count(*) filter (where status = 'inactive')::int as inactive,
          count(*) filter (where last_login >= now() - interval '24 hours')::int as recent_logins
        from users_data where customer_id = ${customerId}`);
      expect(body.summary).toEqual(summary);
    });

    it("lists a team's members with their roles", async () => {
      const teamId = await busiest("team");
      const { body } = await get(`/api/users?limit=200&team_id=${teamId}`);
      const ids = (await rows<{ user_id: string }>(sql`select user_id from teams_users where team_id = ${teamId}`)).map(
        (r) => r.user_id,
      );
      expect(body.total).toBe(ids.length);
      expect(body.summary.total).toBe(ids.length);
      expect(body.items.map((u: { user_id: string }) => u.user_id).toSorted()).toEqual(ids.toSorted());
      const roles = await rolesOf(ids);
      for (const user of body.items) expect(user.roles, user.user_id).toEqual(roles.get(user.user_id));
    });

    it("counts as recent logins only those within the last 24 hours", async () => {
      const customer = await newCustomer();
      const recent = await insertUser(customer.customer_id, { lastLoginHoursAgo: 23, roles: ["member", "admin"] });
      await insertUser(customer.customer_id, { lastLoginHoursAgo: 25 });
      await insertUser(customer.customer_id);
      const { body } = await get(`/api/users?customer_id=${customer.customer_id}`);
      expect(body.total).toBe(3);
      expect(body.summary).toEqual({ total: 3, active: 3, inactive: 0, recent_logins: 1 });
      expect(body.items.find((u: { user_id: string }) => u.user_id === recent).roles).toEqual(["admin", "member"]);
    });
  });

  describe("POST /api/teams", () => {
    it.each([
      {
        case: "a missing customer_id",
        json: () => ({ team_name: "Team" }),
        field: "customer_id",
        message: msg.teams.customerIdMissing,
      },
      {
        case: "a malformed customer_id",
        json: () => ({ customer_id: "abc", team_name: "Team" }),
        field: "customer_id",
        message: msg.teams.customerIdMissing,
      },
      {
        case: "a missing team_name",
        json: (customer_id: string) => ({ customer_id }),
        field: "team_name",
        message: msg.teams.nameRequired,
      },
      {
        case: "a blank team_name",
        json: (customer_id: string) => ({ customer_id, team_name: "  " }),
        field: "team_name",
        message: msg.teams.nameRequired,
      },
    ])("refuses $case with 422 and its message", async ({ json, field, message }) => {
      const customer = await newCustomer();
      const { status, body } = await send("POST", "/api/teams", json(customer.customer_id));
      expect(status).toBe(422);
      expect(body.error.fields[field]).toBe(message);
      expect(await count(sql`select 1 from teams where customer_id = ${customer.customer_id}`)).toBe(0);
    });

    it("refuses a status other than active or inactive with 422", async () => {
      const customer = await newCustomer();
      const { status, body } = await send("POST", "/api/teams", {
        customer_id: customer.customer_id,
        team_name: "Team",
        status: "pending",
      });
      expect(status).toBe(422);
      expect(body.error.fields).toHaveProperty("status");
    });

    it("answers 404 with the customer message to an unknown customer", async () => {
      const { status, body } = await send("POST", "/api/teams", { customer_id: randomUUID(), team_name: "Orphan" });
      expect(status).toBe(404);
      expect(body.error).toEqual({ code: "not_found", message: msg.customers.notFound });
    });

    it("creates an active team with a trimmed name, answers 201 and writes an audit row", async () => {
      const customer = await newCustomer();
      const name = `Platform ${uid()}`;
      const { status, body } = await send("POST", "/api/teams", {
        customer_id: customer.customer_id,
        team_name: ` ${name}  `,
      });
      expect(status).toBe(201);
      expect(body).toEqual({
        team_id: expect.any(String),
        customer_id: customer.customer_id,
        team_name: name,
        status: "active",
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const detail = await get(`/api/teams/${body.team_id}`);
      // The answer's updated_at is the one an edit's If-Match names.
      expect(body.updated_at).toBe(detail.body.updated_at);
      expect(detail.body).toMatchObject({
        team_name: name,
        status: "active",
        customer_name: customer.customer_name,
        user_count: 0,
        skills_count: 0,
      });
      expect(await auditActions("team", body.team_id)).toEqual(["create"]);
      expect(
        (await get(`/api/customers?limit=200&q=${encodeURIComponent(customer.customer_name)}`)).body.items[0]
          .team_count,
      ).toBe(1);
      const edited = await app.request(`/api/teams/${body.team_id}`, {
        as: "editor",
        method: "PATCH",
        json: { team_name: `${name} 2` },
        headers: { "if-match": body.updated_at },
      });
      expect(edited.status).toBe(200);
    });
  });

  describe("PATCH /api/teams/:id", () => {
    it("archives and unarchives, changing updated_at; archiving an archived team changes nothing", async () => {
      const team = await newTeam();
      const updatedAt = async () => (await get(`/api/teams/${team.team_id}`)).body.updated_at as string;
      let previous = await updatedAt();
      for (const status of ["inactive", "active"] as const) {
        await new Promise((resolve) => setTimeout(resolve, 5)); // so that "later" is measurable in milliseconds
        const res = await send("PATCH", `/api/teams/${team.team_id}`, { status });
        expect(res.status).toBe(200);
        expect(res.body.status).toBe(status);
        const now = await updatedAt();
        expect(Date.parse(now)).toBeGreaterThan(Date.parse(previous));
        previous = now;
      }
      expect(await auditActions("team", team.team_id)).toEqual(["create", "update", "update"]);

      expect((await send("PATCH", `/api/teams/${team.team_id}`, { status: "inactive" })).status).toBe(200);
      const archivedAt = await updatedAt();
      await new Promise((resolve) => setTimeout(resolve, 5));
      const again = await send("PATCH", `/api/teams/${team.team_id}`, { status: "inactive" });
      expect(again.status).toBe(200);
      expect(again.body.status).toBe("inactive");
      expect(await updatedAt()).toBe(archivedAt);
      expect(await auditActions("team", team.team_id)).toEqual(["create", "update", "update", "update"]);
    });

    it("answers 404 with the team message to an unknown or malformed id", async () => {
      for (const id of [randomUUID(), "not-a-uuid"]) {
        const { status, body } = await send("PATCH", `/api/teams/${id}`, { status: "inactive" });
        expect(status, id).toBe(404);
        expect(body.error).toEqual({ code: "not_found", message: msg.teams.notFound });
      }
    });
  });

  describe("DELETE /api/teams/:id", () => {
    it("deletes the team with its memberships and skill assignments, then answers 404", async () => {
      const team = await newTeam();
      const userId = await insertUser(team.customer_id, { teamId: team.team_id });
      expect((await send("POST", `/api/teams/${team.team_id}/skills`, { skill_id: await insertSkill() })).status).toBe(
        201,
      );
      expect((await get(`/api/teams/${team.team_id}`)).body).toMatchObject({ user_count: 1, skills_count: 1 });

      const { status, body } = await send("DELETE", `/api/teams/${team.team_id}`);
      expect(status).toBe(200);
      expect(body).toEqual({ ok: true, deletion_id: expect.any(String) });
      expect(await count(sql`select 1 from teams_users where team_id = ${team.team_id}`)).toBe(0);
      expect(await count(sql`select 1 from teams_skills where team_id = ${team.team_id}`)).toBe(0);
      expect(await count(sql`select 1 from teams where team_id = ${team.team_id}`)).toBe(0);
      expect(await count(sql`select 1 from users_data where user_id = ${userId}`)).toBe(1);
      expect(await auditActions("team", team.team_id)).toEqual(["create", "assign_skill", "delete"]);

      const gone = await get(`/api/teams/${team.team_id}`);
      expect(gone.status).toBe(404);
      expect(gone.body.error).toEqual({ code: "not_found", message: msg.teams.notFound });
      const second = await send("DELETE", `/api/teams/${team.team_id}`);
      expect(second.status).toBe(404);
      expect(second.body.error).toEqual({ code: "not_found", message: msg.teams.notFound });
    });
  });

  describe("DELETE /api/teams/:id/members/:userId", () => {
    it("removes the membership only, then answers 404", async () => {
      const team = await newTeam();
      const userId = await insertUser(team.customer_id, { teamId: team.team_id });
      const stays = await insertUser(team.customer_id, { teamId: team.team_id });

      const { status, body } = await send("DELETE", `/api/teams/${team.team_id}/members/${userId}`);
      expect(status).toBe(200);
      expect(body).toEqual({ ok: true, deletion_id: expect.any(String) });
      const members = (await get(`/api/users?team_id=${team.team_id}`)).body.items.map(
        (u: { user_id: string }) => u.user_id,
      );
      expect(members).toEqual([stays]);
      expect(await count(sql`select 1 from users_data where user_id = ${userId}`)).toBe(1);
      expect(await auditActions("team", team.team_id)).toEqual(["create", "remove_member"]);

      const again = await send("DELETE", `/api/teams/${team.team_id}/members/${userId}`);
      expect(again.status).toBe(404);
      expect(again.body.error.code).toBe("not_found");
    });
  });

  describe("team skills", () => {
    it("assigns once (201), is idempotent (200), and reactivates an unassigned row (200)", async () => {
      const team = await newTeam();
      const skillId = await insertSkill();
      const assignment = sql`select status from teams_skills where team_id = ${team.team_id} and skill_id = ${skillId}`;
      const assign = () => send("POST", `/api/teams/${team.team_id}/skills`, { skill_id: skillId });

      const first = await assign();
      expect(first.status).toBe(201);
      expect(first.body).toEqual({ skill_id: skillId, status: "active" });
      const second = await assign();
      expect(second.status).toBe(200);
      expect(second.body).toEqual({ skill_id: skillId, status: "active" });
      expect(await rows(assignment)).toEqual([{ status: "active" }]);

      await rows(
        sql`update teams_skills set status = 'inactive' where team_id = ${team.team_id} and skill_id = ${skillId}`,
      );
      const third = await assign();
      expect(third.status).toBe(200);
      expect(third.body).toEqual({ skill_id: skillId, status: "active" });
      expect(await rows(assignment)).toEqual([{ status: "active" }]);
      expect(await auditActions("team", team.team_id)).toEqual(["create", "assign_skill", "reassign_skill"]);
    });

    it("refuses an inactive skill (422), an unknown skill (404) and an unknown team (404)", async () => {
      const team = await newTeam();
      const inactive = await send("POST", `/api/teams/${team.team_id}/skills`, {
        skill_id: await insertSkill("inactive"),
      });
      expect(inactive.status).toBe(422);
      expect(inactive.body.error.code).toBe("validation_failed");
      const unknownSkill = await send("POST", `/api/teams/${team.team_id}/skills`, { skill_id: randomUUID() });
      expect(unknownSkill.status).toBe(404);
      expect(unknownSkill.body.error).toEqual({ code: "not_found", message: msg.skills.notFound });
      const unknownTeam = await send("POST", `/api/teams/${randomUUID()}/skills`, { skill_id: await insertSkill() });
      expect(unknownTeam.status).toBe(404);
      expect(unknownTeam.body.error).toEqual({ code: "not_found", message: msg.teams.notFound });
      expect(await count(sql`select 1 from teams_skills where team_id = ${team.team_id}`)).toBe(0);
    });

    it("refuses an archived team on every path with one reason, and leaves its old assignment unassigned", async () => {
      const team = await newTeam();
      const skillId = await insertSkill();
      expect((await send("POST", `/api/teams/${team.team_id}/skills`, { skill_id: skillId })).status).toBe(201);
      expect((await send("PATCH", `/api/skills/${skillId}/teams/${team.team_id}`, { status: "inactive" })).status).toBe(
        200,
      );
      await rows(sql`update teams set status = 'inactive' where team_id = ${team.team_id}`);
      const paths = [
        send("POST", `/api/teams/${team.team_id}/skills`, { skill_id: skillId }),
        send("POST", `/api/skills/${skillId}/teams`, { team_id: team.team_id }),
        send("PATCH", `/api/skills/${skillId}/teams/${team.team_id}`, { status: "active" }),
      ];
      for (const answer of await Promise.all(paths)) {
        expect(answer.status).toBe(422);
        expect(answer.body.error.message).toBe(msg.skills.teamNotActive);
      }
      expect(await rows(sql`select status from teams_skills where team_id = ${team.team_id}`)).toEqual([
        { status: "inactive" },
      ]);
    });

    it("lists only active assignments, and offers active skills not actively assigned", async () => {
      const team = await newTeam();
      const [kept, unassigned, inactive] = [await insertSkill(), await insertSkill(), await insertSkill("inactive")];
      for (const skill_id of [kept, unassigned]) {
        expect((await send("POST", `/api/teams/${team.team_id}/skills`, { skill_id })).status).toBe(201);
      }
      await rows(
        sql`update teams_skills set status = 'inactive' where team_id = ${team.team_id} and skill_id = ${unassigned}`,
      );

      const assigned = await get(`/api/teams/${team.team_id}/skills`);
      expect(assigned.status).toBe(200);
      expect(assigned.body.total).toBe(1);
      expect(assigned.body.items.map((s: { skill_id: string }) => s.skill_id)).toEqual([kept]);
      expect((await get(`/api/teams/${team.team_id}`)).body.skills_count).toBe(1);

      const offered = await get(`/api/teams/${team.team_id}/assignable-skills?limit=200`);
      expect(offered.status).toBe(200);
      const offeredIds = offered.body.items.map((s: { skill_id: string }) => s.skill_id);
      expect(offeredIds).toContain(unassigned);
      expect(offeredIds).not.toContain(kept);
      expect(offeredIds).not.toContain(inactive);
      const expected = await count(sql`select 1 from skills where status = 'active' and skill_id <> ${kept}`);
      expect(offered.body.total).toBe(expected);
      expect(offeredIds).toHaveLength(expected);
    });
  });

  it("answers 403 to a viewer on every customer and team mutation, changing nothing", async () => {
    const customer = await newCustomer();
    const team = await newTeam(customer.customer_id);
    const userId = await insertUser(customer.customer_id, { teamId: team.team_id });
    const skillId = await insertSkill();
    const viewerName = `Viewer ${uid()}`;
    const bodies: Record<string, unknown> = {
      "POST /api/customers": { customer_name: viewerName },
      "PATCH /api/customers/{customerId}": { status: "inactive" },
      "POST /api/teams": { customer_id: customer.customer_id, team_name: viewerName },
      "PATCH /api/teams/{teamId}": { status: "inactive" },
      "DELETE /api/teams/{teamId}": undefined,
      "DELETE /api/teams/{teamId}/members/{userId}": undefined,
      "POST /api/teams/{teamId}/skills": { skill_id: skillId },
      "POST /api/teams/{teamId}/members": { user_id: userId },
      "POST /api/customers/{customerId}/directory-tokens": { name: viewerName },
      "DELETE /api/customers/{customerId}/directory-tokens/{directoryTokenId}": undefined,
    };
    const ids: Record<string, string> = {
      customerId: customer.customer_id,
      teamId: team.team_id,
      userId,
      directoryTokenId: "00000000-0000-4000-8000-000000000000",
    };
    const mutations = new Set(
      routeTable
        .filter((r) => r.method !== "GET" && /^\/api\/(customers|teams)(\/|$)/.test(r.path))
        .map((r) => `${r.method} ${r.path}`),
    );
    expect([...mutations].toSorted()).toEqual(Object.keys(bodies).toSorted());
    for (const route of mutations) {
      const [method, template] = route.split(" ");
      const path = template.replace(/\{(\w+)\}/g, (_, name: string) => ids[name]);
      const { status, body } = await send(method, path, bodies[route], "viewer");
      expect(status, route).toBe(403);
      expect(body.error.code, route).toBe("forbidden");
    }
    expect((await get(`/api/customers/${customer.customer_id}`)).body.status).toBe("active");
    expect((await get(`/api/teams/${team.team_id}`)).body).toMatchObject({
      status: "active",
      user_count: 1,
      skills_count: 0,
    });
    expect(await count(sql`select 1 from customers where customer_name = ${viewerName}`)).toBe(0);
    expect(await count(sql`select 1 from teams where team_name = ${viewerName}`)).toBe(0);
    expect(await auditActions("customer", customer.customer_id)).toEqual(["create"]);
    expect(await auditActions("team", team.team_id)).toEqual(["create"]);
  });
});
