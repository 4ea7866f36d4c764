/**
 * Users API (SPEC.md §2 "/users", "/users/add", "/users/{userId}"; §3 users_data, users_roles,
 * teams_users; §4 memberships; §5 add user): the list with roles aggregated in SQL (measured in
 * statements), cards, search and filter; user detail, memberships and available teams; create user
 * with every validation message; join and leave a team; roles and 404s; on PGlite and PostgreSQL.
 */
import { randomUUID } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql, type SQL } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userRoles, type OperatorRole, type UserRole } from "../../src/domain/enums";
import { msg } from "../../src/domain/messages";
import type { UserListItem, UserMembership } from "../../src/domain/users";
import { createApp } from "../../src/server/app";
import { createOperator } from "../../src/server/auth";
import { defaultSecurity } from "../../src/server/config";
import { wrapPglite, type DatabaseHandle } from "../../src/server/db/client";
import { loadDemoData } from "../../src/server/db/demo-data";
import { routeTable } from "../../src/server/http/route";
import { publicUrl, startConsole, testPassword, type TestConsole } from "../support/app";
import { targets } from "../support/databases";

/** A short unique suffix, so that rows made by one test never collide with another's. */
const uid = () => randomUUID().slice(0, 8);

describe.each(targets)("users API on %s", (target) => {
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

  async function newCustomer(
    status: "active" | "inactive" | "trial" = "active",
  ): Promise<{ customer_id: string; customer_name: string }> {
    const { status: code, body } = await send("POST", "/api/customers", {
      customer_name: `Users Test Customer ${uid()}`,
      status,
    });
    expect(code).toBe(201);
    return body;
  }

  async function newTeam(
    customerId: string,
    status: "active" | "inactive" = "active",
  ): Promise<{ team_id: string; team_name: string }> {
    const { status: code, body } = await send("POST", "/api/teams", {
      customer_id: customerId,
      team_name: `Users Test Team ${uid()}`,
      status,
    });
    expect(code).toBe(201);
    return body;
  }

  async function newUser(customerId: string, extra: Record<string, unknown> = {}): Promise<UserListItem> {
    const { status, body } = await send("POST", "/api/users", {
      email: `user-${uid()}@users.test`,
      customer_id: customerId,
      ...extra,
    });
    expect(status, JSON.stringify(body)).toBe(201);
    return body;
  }

  /** A user inserted directly, with the given columns, roles and last login. */
  async function insertUser(
    customerId: string,
    options: {
      email?: string;
      first_name?: string;
      last_name?: string;
      job_title?: string;
      lastLoginHoursAgo?: number;
      roles?: UserRole[];
    } = {},
  ) {
    const lastLogin =
      options.lastLoginHoursAgo === undefined
        ? null
        : sql`now() - make_interval(secs => ${options.lastLoginHoursAgo * 3600}::float8)`;
    const [{ user_id }] = await rows<{ user_id: string }>(sql`
      insert into users_data (customer_id, email, first_name, last_name, job_title, last_login)
      values (${customerId}, ${options.email ?? `inserted-${uid()}@users.test`}, ${options.first_name ?? null}, ${options.last_name ?? null},
        ${options.job_title ?? null}, ${lastLogin})
      returning user_id`);
    for (const role of options.roles ?? [])
      await rows(sql`insert into users_roles (user_id, role) values (${user_id}, ${role})`);
    return user_id;
  }

  /** Actions of the audit rows about one user, oldest first. */
  async function auditActions(userId: string) {
    const found = await rows<{ action: string }>(sql`
      select action from audit_log where entity = 'user' and entity_id = ${userId} order by created_at, audit_id`);
    return found.map((r) => r.action);
  }

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

  const ids = (items: Array<{ user_id: string }>) => items.map((u) => u.user_id);

  describe("GET /api/users", () => {
    it("returns a page of users with customer names and roles equal to SQL, total and cards over all users", async () => {
      const { status, body } = await get("/api/users?limit=50");
      expect(status).toBe(200);
      expect(body.items).toHaveLength(50);
      const pageIds = ids(body.items);
      const roles = await rolesOf(pageIds);
      const counts = [...roles.values()].map((r) => r.length);
      expect(Math.max(...counts)).toBeGreaterThan(1);
      expect(Math.min(...counts)).toBe(0);
      const names = new Map(
        (
          await rows<{ user_id: string; customer_name: string }>(sql`
        select u.user_id, c.customer_name from users_data u join customers c on c.customer_id = u.customer_id`)
        ).map((r) => [r.user_id, r.customer_name]),
      );
      for (const user of body.items as UserListItem[]) {
        expect(user.roles, user.user_id).toEqual(roles.get(user.user_id));
        expect(user.customer_name).toBe(names.get(user.user_id));
      }
      const [summary] = await rows<Record<string, number>>(sql`
        select count(*)::int as total, count(*) filter (where status = 'active')::int as active,
          count(*) filter (where status = 'inactive')::int as inactive,
          count(*) filter (where last_login >= now() - interval '24 hours')::int as recent_logins
        from users_data`);
      expect(body.summary).toEqual(summary);
      expect(body.total).toBe(summary.total);
      // Newest first by default.
      const created = (body.items as UserListItem[]).map((u) => Date.parse(u.created_at));
      expect(created).toEqual(created.toSorted((a, b) => b - a));
    });

    it("counts as Recent Logins (24h) only logins within the last 24 hours", async () => {
      const customer = await newCustomer();
      await insertUser(customer.customer_id, { lastLoginHoursAgo: 0.01 });
      await insertUser(customer.customer_id, { lastLoginHoursAgo: 23.9 });
      await insertUser(customer.customer_id, { lastLoginHoursAgo: 24.1 });
      await insertUser(customer.customer_id, { lastLoginHoursAgo: 24 * 30 });
      await insertUser(customer.customer_id);
      const { body } = await get(`/api/users?customer_id=${customer.customer_id}`);
      expect(body.total).toBe(5);
      expect(body.summary).toEqual({ total: 5, active: 5, inactive: 0, recent_logins: 2 });
    });

    it("filters by signed_in (the dashboard's Active Users): true keeps users who signed in at least once, false the others", async () => {
      const customer = await newCustomer();
      const signedIn = [
        await insertUser(customer.customer_id, { lastLoginHoursAgo: 1 }),
        await insertUser(customer.customer_id, { lastLoginHoursAgo: 24 * 90 }),
      ];
      const never = await insertUser(customer.customer_id);
      const yes = (await get(`/api/users?customer_id=${customer.customer_id}&signed_in=true`)).body;
      expect(ids(yes.items).toSorted()).toEqual(signedIn.toSorted());
      expect(yes.summary).toEqual({ total: 2, active: 2, inactive: 0, recent_logins: 1 });
      const no = (await get(`/api/users?customer_id=${customer.customer_id}&signed_in=false`)).body;
      expect(ids(no.items)).toEqual([never]);
      // Over everyone, the count the dashboard shows as Active Users.
      const all = (await get("/api/users?signed_in=true&limit=1")).body;
      expect(all.total).toBe(await count(sql`select 1 from users_data where last_login is not null`));
      expect(all.total).toBe((await get("/api/dashboard")).body.active_users);
      expect((await get("/api/users?signed_in=yes")).status).toBe(422);
    });

    it("keeps the signed_in cards over every customer equal to SQL through first logins, status changes and deletes", async () => {
      const expected = (signedIn: boolean, status?: string) =>
        rows<Record<string, number>>(sql`
        select count(*)::int as total, count(*) filter (where status = 'active')::int as active,
          count(*) filter (where status = 'inactive')::int as inactive,
          count(*) filter (where last_login >= now() - interval '24 hours')::int as recent_logins
        from users_data where (last_login is not null) = ${signedIn} and ${status ? sql`status = ${status}` : sql`true`}`);
      const check = async () => {
        for (const signedIn of [true, false]) {
          for (const status of [undefined, "active", "inactive"]) {
            const { body } = await get(`/api/users?signed_in=${signedIn}&limit=1${status ? `&status=${status}` : ""}`);
            const [want] = await expected(signedIn, status);
            expect(body.summary, `signed_in=${signedIn} status=${status}`).toEqual(want);
            expect(body.total).toBe(want.total);
          }
        }
      };
      await check();
      const customer = await newCustomer();
      const first = await insertUser(customer.customer_id);
      const second = await insertUser(customer.customer_id, { lastLoginHoursAgo: 2 });
      await rows(sql`update users_data set last_login = now() where user_id = ${first}`);
      await rows(sql`update users_data set status = 'inactive' where user_id = ${second}`);
      await check();
      await rows(sql`delete from users_data where user_id in (${first}, ${second})`);
      await check();
    });

    it("counts the cards over the search's matches, as the list's total", async () => {
      const customer = await newCustomer();
      const tag = uid();
      await insertUser(customer.customer_id, { job_title: `Cardsearch ${tag} Director`, lastLoginHoursAgo: 1 });
      await insertUser(customer.customer_id, { job_title: `Cardsearch ${tag} Director`, lastLoginHoursAgo: 48 });
      const third = await insertUser(customer.customer_id, { job_title: `Cardsearch ${tag} Director` });
      await rows(sql`update users_data set status = 'inactive' where user_id = ${third}`);
      const { body } = await get(`/api/users?q=${encodeURIComponent(`cardsearch ${tag}`)}`);
      expect(body.total).toBe(3);
      expect(body.summary).toEqual({ total: 3, active: 2, inactive: 1, recent_logins: 1 });
      // Against every user, the cards of a search are its own, not the whole list's.
      expect((await get("/api/users?limit=1")).body.summary.total).toBeGreaterThan(3);
    });

    it("filters by whole days of last sign-in and of creation (a dashboard trend's point), cards included", async () => {
      const customer = await newCustomer();
      const today = await insertUser(customer.customer_id, { lastLoginHoursAgo: 0.01 });
      await insertUser(customer.customer_id, { lastLoginHoursAgo: 24 * 3 });
      await insertUser(customer.customer_id);
      const old = await insertUser(customer.customer_id);
      await rows(sql`update users_data set created_at = now() - interval '20 days' where user_id = ${old}`);
      const [{ day, past }] = await rows<{ day: string; past: string }>(
        sql`select to_char(now(), 'YYYY-MM-DD') as day, to_char(now() - interval '20 days', 'YYYY-MM-DD') as past`,
      );
      const scoped = `customer_id=${customer.customer_id}`;
      const signedInToday = (await get(`/api/users?${scoped}&last_login_from=${day}&last_login_to=${day}`)).body;
      expect(ids(signedInToday.items)).toEqual([today]);
      expect(signedInToday.summary).toMatchObject({ total: 1, recent_logins: 1 });
      expect(
        (await get(`/api/users?${scoped}&created_to=${past}`)).body.items.map((u: UserListItem) => u.user_id),
      ).toEqual([old]);
      expect((await get(`/api/users?${scoped}&created_from=${day}`)).body.total).toBe(3);
      // Over every customer, the day's total and cards equal SQL, with no customer narrowing them.
      const all = (await get(`/api/users?last_login_from=${day}&last_login_to=${day}&limit=1`)).body;
      const [want] = await rows<Record<string, number>>(sql`
        select count(*)::int as total, count(*) filter (where status = 'active')::int as active,
          count(*) filter (where status = 'inactive')::int as inactive,
          count(*) filter (where last_login >= now() - interval '24 hours')::int as recent_logins
        from users_data where last_login >= date_trunc('day', now()) and last_login < date_trunc('day', now()) + interval '1 day'`);
      expect(all.summary).toEqual(want);
      expect(all.total).toBe(want.total);
      expect((await get(`/api/users?created_from=2026-02-30`)).status).toBe(422);
    });

    it("filters by customer, with items, total and cards of that customer only", async () => {
      const [{ customer_id }] = await rows<{ customer_id: string }>(sql`
        select customer_id from users_data group by customer_id order by count(*) desc, customer_id limit 1`);
      const { body } = await get(`/api/users?limit=200&customer_id=${customer_id}`);
      const expected = await rows<{ user_id: string }>(
        sql`select user_id from users_data where customer_id = ${customer_id}`,
      );
      expect(expected.length).toBeGreaterThan(1);
      expect(body.total).toBe(expected.length);
      expect(ids(body.items).toSorted()).toEqual(ids(expected).toSorted());
      const [summary] = await rows<Record<string, number>>(sql`
        select count(*)::int as total, count(*) filter (where status = 'active')::int as active,
          count(*) filter (where status = 'inactive')::int as inactive,
          count(*) filter (where last_login >= now() - interval '24 hours')::int as recent_logins
        from users_data where customer_id = ${customer_id}`);
      expect(body.summary).toEqual(summary);
      expect(body.summary.total).toBeLessThan((await get("/api/users?limit=1")).body.summary.total);
    });

    it.each([
      { field: "first name", q: (t: string) => `Firstname${t}`.toUpperCase() },
      { field: "full name", q: (t: string) => `firstname${t} lastname${t}` },
      { field: "email", q: (t: string) => `SEARCH-${t}@USERS` },
      { field: "job title", q: (t: string) => `chief ${t} officer` },
      { field: "customer name", q: (t: string) => `Users Search Customer ${t}`.toLowerCase() },
    ])("searches by $field case-insensitively, total equal to the SQL count", async ({ q }) => {
      const tag = uid();
      const { body: customer } = await send("POST", "/api/customers", {
        customer_name: `Users Search Customer ${tag}`,
      });
      const userId = await insertUser(customer.customer_id, {
        email: `search-${tag}@users.test`,
        first_name: `Firstname${tag}`,
        last_name: `Lastname${tag}`,
        job_title: `Chief ${tag} Officer`,
      });
      const term = q(tag);
      const { body } = await get(`/api/users?limit=200&q=${encodeURIComponent(term)}`);
      const pattern = `%${term}%`;
      const expected = await count(sql`
        select 1 from users_data u join customers c on c.customer_id = u.customer_id
        where (coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) ilike ${pattern} or u.email ilike ${pattern}
          or coalesce(u.job_title, '') ilike ${pattern} or c.customer_name ilike ${pattern} or u.status ilike ${pattern}`);
      expect(body.total).toBe(expected);
      expect(expected).toBe(1);
      expect(ids(body.items)).toEqual([userId]);
    });

    it("searches within the customer filter", async () => {
      const tag = uid();
      const a = await newCustomer();
      const b = await newCustomer();
      const inA = await insertUser(a.customer_id, { job_title: `Filter Title ${tag}` });
      await insertUser(b.customer_id, { job_title: `Filter Title ${tag}` });
      expect((await get(`/api/users?q=${encodeURIComponent(`filter title ${tag}`)}`)).body.total).toBe(2);
      const { body } = await get(
        `/api/users?q=${encodeURIComponent(`filter title ${tag}`)}&customer_id=${a.customer_id}`,
      );
      expect(ids(body.items)).toEqual([inA]);
      expect(body.total).toBe(1);
    });
  });

  describe("GET /api/users/:id", () => {
    it("returns the user with customer name, roles ordered admin, manager, member, and team cards equal to SQL", async () => {
      const [{ user_id }] = await rows<{ user_id: string }>(sql`
        select tu.user_id from teams_users tu join teams t on t.team_id = tu.team_id
        where tu.user_id in (select user_id from users_roles group by user_id having count(*) > 1)
        group by tu.user_id having count(*) filter (where t.status = 'inactive') > 0 or count(*) > 1
        order by count(*) desc, tu.user_id limit 1`);
      const { status, body } = await get(`/api/users/${user_id}`);
      expect(status).toBe(200);
      const [expected] = await rows<{
        email: string;
        customer_name: string;
        total_teams: number;
        active_teams: number;
      }>(sql`
        select u.email, c.customer_name,
          (select count(*) from teams_users tu where tu.user_id = u.user_id)::int as total_teams,
          (select count(*) from teams_users tu join teams t on t.team_id = tu.team_id where tu.user_id = u.user_id and t.status = 'active')::int as active_teams
        from users_data u join customers c on c.customer_id = u.customer_id where u.user_id = ${user_id}`);
      expect(body).toMatchObject({ user_id, email: expected.email, customer_name: expected.customer_name });
      expect(body.stats).toEqual({ total_teams: expected.total_teams, active_teams: expected.active_teams });
      expect(body.roles).toEqual((await rolesOf([user_id])).get(user_id));
      expect(body.roles.length).toBeGreaterThan(1);
    });

    it("answers 404 with the not-found message to an unknown or malformed id, on every user route", async () => {
      for (const id of [randomUUID(), "not-a-uuid"]) {
        for (const path of [`/api/users/${id}`, `/api/users/${id}/teams`, `/api/users/${id}/available-teams`]) {
          const { status, body } = await get(path);
          expect(status, path).toBe(404);
          expect(body.error, path).toEqual({ code: "not_found", message: msg.users.notFound });
        }
        const join = await send("POST", `/api/users/${id}/teams`, { team_id: randomUUID() });
        expect(join.status).toBe(404);
        expect(join.body.error).toEqual({ code: "not_found", message: msg.users.notFound });
        const leave = await send("DELETE", `/api/users/${id}/teams/${randomUUID()}`);
        expect(leave.status).toBe(404);
        expect(leave.body.error).toEqual({ code: "not_found", message: msg.users.notFound });
      }
    });
  });

  describe("POST /api/users", () => {
    const cases = [
      {
        case: "a missing email",
        json: (c: string) => ({ customer_id: c }),
        field: "email",
        message: msg.users.emailRequired,
      },
      {
        case: "a blank email",
        json: (c: string) => ({ email: "   ", customer_id: c }),
        field: "email",
        message: msg.users.emailRequired,
      },
      {
        case: "an email that is not text",
        json: (c: string) => ({ email: 42, customer_id: c }),
        field: "email",
        message: msg.users.emailRequired,
      },
      {
        case: "an email without @",
        json: (c: string) => ({ email: "jane.example.com", customer_id: c }),
        field: "email",
        message: msg.users.emailInvalid,
      },
      {
        case: "an email without a domain dot",
        json: (c: string) => ({ email: "jane@example", customer_id: c }),
        field: "email",
        message: msg.users.emailInvalid,
      },
      {
        case: "an email with a space",
        json: (c: string) => ({ email: "jane doe@example.com", customer_id: c }),
        field: "email",
        message: msg.users.emailInvalid,
      },
      {
        case: "a very long email",
        json: (c: string) => ({ email: `${"a".repeat(250)}@example.com`, customer_id: c }),
        field: "email",
        message: msg.text.emailTooLong(254),
      },
      {
        case: "a missing customer",
        json: () => ({ email: "jane@example.com" }),
        field: "customer_id",
        message: msg.users.customerRequired,
      },
      {
        case: "an empty customer",
        json: () => ({ email: "jane@example.com", customer_id: "" }),
        field: "customer_id",
        message: msg.users.customerRequired,
      },
      {
        case: "a malformed customer",
        json: () => ({ email: "jane@example.com", customer_id: "abc" }),
        field: "customer_id",
        message: msg.users.customerRequired,
      },
      {
        case: "an unknown status",
        json: (c: string) => ({ email: "jane@example.com", customer_id: c, status: "archived" }),
        field: "status",
        message: msg.users.statusInvalid,
      },
    ];
    it("refuses an email with a NUL character with 400 before validation, creating nothing", async () => {
      const customer = await newCustomer();
      const before = await count(sql`select 1 from users_data`);
      const { status, body } = await send("POST", "/api/users", {
        email: "jane@example.com\u0000",
        customer_id: customer.customer_id,
      });
      expect(status).toBe(400);
      expect(body.error.message).toBe(msg.api.nul);
      expect(await count(sql`select 1 from users_data`)).toBe(before);
    });

    it.each(cases)("refuses $case with 422 and its message, creating nothing", async ({ json, field, message }) => {
      const customer = await newCustomer();
      const before = await count(sql`select 1 from users_data`);
      const { status, body } = await send("POST", "/api/users", json(customer.customer_id));
      expect(status).toBe(422);
      expect(body.error.code).toBe("validation_failed");
      expect(body.error.fields[field]).toBe(message);
      expect(body.error.message).toBe(message);
      expect(await count(sql`select 1 from users_data`)).toBe(before);
    });

    it("answers 409 under email to the loser of two simultaneous adds of one email (the unique index decides)", async () => {
      const customer = await newCustomer();
      for (let trial = 0; trial < 3; trial++) {
        const email = `race-${trial}-${uid()}@users.test`;
        const answers = await Promise.all(
          [email, email.toUpperCase()].map((e) =>
            send("POST", "/api/users", { email: e, customer_id: customer.customer_id }),
          ),
        );
        expect(answers.map((a) => a.status).sort(), `trial ${trial}`).toEqual([201, 409]);
        expect(answers.find((a) => a.status === 409)!.body).toEqual({
          error: { code: "conflict", message: msg.users.emailTaken, fields: { email: msg.users.emailTaken } },
        });
        expect(await count(sql`select 1 from users_data where lower(email) = ${email}`)).toBe(1);
      }
    });

    it("refuses unknown fields (no user_id, roles or dates from the client) with 422, creating nothing", async () => {
      const customer = await newCustomer();
      const email = `extra-${uid()}@users.test`;
      for (const extra of [
        { user_id: randomUUID() },
        { roles: ["admin"] },
        { created_at: "2000-01-01T00:00:00Z" },
        { last_login: null },
      ]) {
        const { status, body } = await send("POST", "/api/users", {
          email,
          customer_id: customer.customer_id,
          ...extra,
        });
        expect(status, JSON.stringify(extra)).toBe(422);
        expect(body.error.code).toBe("validation_failed");
      }
      const join = await send("POST", `/api/users/${(await newUser(customer.customer_id)).user_id}/teams`, {
        team_id: randomUUID(),
        customer_id: randomUUID(),
      });
      expect(join.status).toBe(422);
      expect(await count(sql`select 1 from users_data where email = ${email}`)).toBe(0);
    });

    it("reports every invalid field at once", async () => {
      const { status, body } = await send("POST", "/api/users", { email: "", customer_id: "" });
      expect(status).toBe(422);
      expect(body.error.fields).toMatchObject({
        email: msg.users.emailRequired,
        customer_id: msg.users.customerRequired,
      });
    });

    it("answers 404 to an unknown customer and 422 to a customer that is not active", async () => {
      const unknown = await send("POST", "/api/users", { email: `u-${uid()}@users.test`, customer_id: randomUUID() });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toEqual({ code: "not_found", message: msg.customers.notFound });
      for (const status of ["inactive", "trial"] as const) {
        const customer = await newCustomer(status);
        const res = await send("POST", "/api/users", {
          email: `u-${uid()}@users.test`,
          customer_id: customer.customer_id,
        });
        expect(res.status, status).toBe(422);
        expect(res.body.error.fields.customer_id).toBe(msg.users.customerNotActive);
        expect(await count(sql`select 1 from users_data where customer_id = ${customer.customer_id}`)).toBe(0);
      }
    });

    it("trims and lowercases the email, defaults to active, answers 201 with the user and writes an audit row", async () => {
      const customer = await newCustomer();
      const local = `Jane.Doe.${uid()}`;
      const { status, body } = await send("POST", "/api/users", {
        email: `   ${local}@Example.COM  `,
        customer_id: customer.customer_id,
      });
      expect(status).toBe(201);
      const email = `${local.toLowerCase()}@example.com`;
      expect(body).toMatchObject({
        email,
        customer_id: customer.customer_id,
        customer_name: customer.customer_name,
        status: "active",
        first_name: null,
        last_name: null,
        job_title: null,
        last_login: null,
        roles: [],
      });
      expect(body.created_at).toBe(body.updated_at);
      const [row] = await rows<{ email: string; status: string }>(
        sql`select email, status from users_data where user_id = ${body.user_id}`,
      );
      expect(row).toEqual({ email, status: "active" });
      const audit = await rows<{ action: string; operator_email: string }>(sql`
        select action, operator_email from audit_log where entity = 'user' and entity_id = ${body.user_id}`);
      expect(audit).toEqual([{ action: "create", operator_email: "editor@test.example" }]);
      const listed = await get(`/api/users?customer_id=${customer.customer_id}`);
      expect(ids(listed.body.items)).toEqual([body.user_id]);
      expect((await get(`/api/users/${body.user_id}`)).body).toMatchObject({
        email,
        stats: { total_teams: 0, active_teams: 0 },
      });
    });

    it.each(["inactive", "pending"] as const)("keeps the chosen status %s", async (status) => {
      const customer = await newCustomer();
      const user = await newUser(customer.customer_id, { status });
      expect(user.status).toBe(status);
    });

    it("answers 409 with a clear message to an email already taken, in any case and spacing", async () => {
      const customer = await newCustomer();
      const other = await newCustomer();
      const email = `taken-${uid()}@users.test`;
      await newUser(customer.customer_id, { email });
      for (const again of [email, ` ${email.toUpperCase()} `]) {
        const { status, body } = await send("POST", "/api/users", { email: again, customer_id: other.customer_id });
        expect(status, again).toBe(409);
        expect(body.error).toEqual({
          code: "conflict",
          message: msg.users.emailTaken,
          fields: { email: msg.users.emailTaken },
        });
      }
      expect(await count(sql`select 1 from users_data where lower(email) = ${email}`)).toBe(1);
      // The refused insert left the database usable: the next create succeeds.
      await newUser(other.customer_id);
    });
  });

  describe("team memberships", () => {
    it("joins a team (201), is idempotent (200), lists it, and leaves it (then 404), with audit rows", async () => {
      const customer = await newCustomer();
      const team = await newTeam(customer.customer_id);
      const user = await newUser(customer.customer_id);
      const join = () => send("POST", `/api/users/${user.user_id}/teams`, { team_id: team.team_id });

      const offered = await get(`/api/users/${user.user_id}/available-teams`);
      expect(offered.body.items.map((t: { team_id: string }) => t.team_id)).toEqual([team.team_id]);

      const first = await join();
      expect(first.status).toBe(201);
      expect(first.body).toEqual({ user_id: user.user_id, team_id: team.team_id, customer_id: customer.customer_id });
      const second = await join();
      expect(second.status).toBe(200);
      expect(await rows(sql`select customer_id from teams_users where user_id = ${user.user_id}`)).toEqual([
        { customer_id: customer.customer_id },
      ]);

      const memberships = await get(`/api/users/${user.user_id}/teams`);
      expect(memberships.status).toBe(200);
      const onePage = {
        total_exact: true,
        summary: {},
        summary_exact: true,
        summary_as_of: null,
        counting: false,
        next_cursor: null,
        prev_cursor: null,
      };
      expect(memberships.body).toEqual({
        ...onePage,
        total: 1,
        items: [
          {
            team_id: team.team_id,
            team_name: team.team_name,
            status: "active",
            customer_id: customer.customer_id,
            customer_name: customer.customer_name,
            user_count: 1,
            created_at: expect.any(String),
          },
        ],
      });
      expect((await get(`/api/users/${user.user_id}`)).body.stats).toEqual({ total_teams: 1, active_teams: 1 });
      expect((await get(`/api/users/${user.user_id}/available-teams`)).body).toEqual({ items: [], total: 0 });
      expect((await get(`/api/teams/${team.team_id}`)).body.user_count).toBe(1);

      const left = await send("DELETE", `/api/users/${user.user_id}/teams/${team.team_id}`);
      expect(left.status).toBe(200);
      expect(left.body).toEqual({ ok: true, deletion_id: expect.any(String) });
      expect((await get(`/api/users/${user.user_id}/teams`)).body).toEqual({ ...onePage, items: [], total: 0 });
      expect((await get(`/api/users/${user.user_id}/available-teams`)).body.total).toBe(1);
      const again = await send("DELETE", `/api/users/${user.user_id}/teams/${team.team_id}`);
      expect(again.status).toBe(404);
      expect(again.body.error).toEqual({ code: "not_found", message: msg.users.notMember });
      expect(await auditActions(user.user_id)).toEqual(["create", "add_member", "remove_member"]);
    });

    it("refuses a team of another customer (422 with a clear message) and an inactive team (422)", async () => {
      const customer = await newCustomer();
      const user = await newUser(customer.customer_id);
      const foreign = await newTeam((await newCustomer()).customer_id);
      const other = await send("POST", `/api/users/${user.user_id}/teams`, { team_id: foreign.team_id });
      expect(other.status).toBe(422);
      expect(other.body.error).toEqual({
        code: "validation_failed",
        message: msg.users.teamOfOtherCustomer,
        fields: { team_id: msg.users.teamOfOtherCustomer },
      });
      const archived = await newTeam(customer.customer_id, "inactive");
      const inactive = await send("POST", `/api/users/${user.user_id}/teams`, { team_id: archived.team_id });
      expect(inactive.status).toBe(422);
      expect(inactive.body.error.message).toBe(msg.users.teamNotActive);
      expect(await count(sql`select 1 from teams_users where user_id = ${user.user_id}`)).toBe(0);
      expect(await auditActions(user.user_id)).toEqual(["create"]);
    });

    it("answers 404 to an unknown team, 422 to a missing or malformed team id, 404 to a malformed team in the path", async () => {
      const customer = await newCustomer();
      const user = await newUser(customer.customer_id);
      const unknown = await send("POST", `/api/users/${user.user_id}/teams`, { team_id: randomUUID() });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toEqual({ code: "not_found", message: msg.teams.notFound });
      for (const json of [{}, { team_id: "abc" }]) {
        const res = await send("POST", `/api/users/${user.user_id}/teams`, json);
        expect(res.status).toBe(422);
        expect(res.body.error.fields.team_id).toBe(msg.users.chooseTeam);
      }
      const malformed = await send("DELETE", `/api/users/${user.user_id}/teams/not-a-uuid`);
      expect(malformed.status).toBe(404);
      expect(malformed.body.error).toEqual({ code: "not_found", message: msg.teams.notFound });
    });

    it("offers only the active teams of the user's customer that the user is not in, by name, searchable", async () => {
      const customer = await newCustomer();
      const user = await newUser(customer.customer_id);
      const tag = uid();
      const make = async (name: string, status: "active" | "inactive" = "active") =>
        (await send("POST", "/api/teams", { customer_id: customer.customer_id, team_name: `${name} ${tag}`, status }))
          .body.team_id as string;
      const beta = await make("Beta");
      const alpha = await make("alpha");
      const joined = await make("Gamma");
      await make("Delta", "inactive");
      await newTeam((await newCustomer()).customer_id);
      expect((await send("POST", `/api/users/${user.user_id}/teams`, { team_id: joined })).status).toBe(201);

      const { body } = await get(`/api/users/${user.user_id}/available-teams`);
      expect(body.total).toBe(2);
      expect(body.items.map((t: { team_id: string }) => t.team_id)).toEqual([alpha, beta]);
      const searched = await get(`/api/users/${user.user_id}/available-teams?q=BETA`);
      expect(searched.body.items.map((t: { team_id: string }) => t.team_id)).toEqual([beta]);
      const paged = await get(`/api/users/${user.user_id}/available-teams?limit=1&offset=1`);
      expect(paged.body).toMatchObject({ total: 2, items: [{ team_id: beta }] });
    });

    it("lists a demo user's memberships joined to team and customer names equal to SQL, searchable and paged", async () => {
      const [{ user_id }] = await rows<{ user_id: string }>(sql`
        select user_id from teams_users group by user_id order by count(*) desc, user_id limit 1`);
      const expected = await rows<{
        team_id: string;
        team_name: string;
        customer_name: string;
        status: string;
        user_count: number;
      }>(sql`
        select t.team_id, t.team_name, c.customer_name, t.status,
          (select count(*) from teams_users m where m.team_id = t.team_id)::int as user_count
        from teams_users tu join teams t on t.team_id = tu.team_id join customers c on c.customer_id = t.customer_id
        where tu.user_id = ${user_id} order by lower(t.team_name), t.team_id`);
      expect(expected.length).toBeGreaterThan(1);
      const { body } = await get(`/api/users/${user_id}/teams`);
      expect(body.total).toBe(expected.length);
      expect(
        (body.items as UserMembership[]).map(({ team_id, team_name, customer_name, status, user_count }) => ({
          team_id,
          team_name,
          customer_name,
          status,
          user_count,
        })),
      ).toEqual(expected);

      const q = expected[0].team_name.toUpperCase();
      const searched = await get(`/api/users/${user_id}/teams?q=${encodeURIComponent(q)}`);
      expect(searched.body.items.map((m: UserMembership) => m.team_id)).toContain(expected[0].team_id);
      for (const m of searched.body.items as UserMembership[]) {
        expect(`${m.team_name} ${m.customer_name} ${m.status}`.toLowerCase()).toContain(q.toLowerCase());
      }
      const paged = await get(`/api/users/${user_id}/teams?limit=1&offset=1`);
      expect(paged.body.total).toBe(expected.length);
      expect(paged.body.items.map((m: UserMembership) => m.team_id)).toEqual([expected[1].team_id]);
      const desc = await get(`/api/users/${user_id}/teams?sort=team_name&order=desc`);
      expect(desc.body.items.map((m: UserMembership) => m.team_id)).toEqual(
        expected.map((m) => m.team_id).toReversed(),
      );
    });
  });

  it("answers 403 to a viewer on every user mutation, changing nothing", async () => {
    const customer = await newCustomer();
    const team = await newTeam(customer.customer_id);
    const member = await newUser(customer.customer_id);
    expect((await send("POST", `/api/users/${member.user_id}/teams`, { team_id: team.team_id })).status).toBe(201);
    const viewerEmail = `viewer-${uid()}@users.test`;
    const bodies: Record<string, unknown> = {
      "POST /api/users": { email: viewerEmail, customer_id: customer.customer_id },
      "POST /api/users/{userId}/teams": { team_id: (await newTeam(customer.customer_id)).team_id },
      "DELETE /api/users/{userId}/teams/{teamId}": undefined,
      "PATCH /api/users/{userId}": { job_title: "Viewer was here", roles: ["admin"] },
    };
    const mutations = new Set(
      routeTable
        .filter((r) => r.method !== "GET" && /^\/api\/users(\/|$)/.test(r.path))
        .map((r) => `${r.method} ${r.path}`),
    );
    expect([...mutations].toSorted()).toEqual(Object.keys(bodies).toSorted());
    const pathIds: Record<string, string> = { userId: member.user_id, teamId: team.team_id };
    for (const route of mutations) {
      const [method, template] = route.split(" ");
      const path = template.replace(/\{(\w+)\}/g, (_, name: string) => pathIds[name]);
      const { status, body } = await send(method, path, bodies[route], "viewer");
      expect(status, route).toBe(403);
      expect(body.error.code, route).toBe("forbidden");
    }
    expect(await count(sql`select 1 from users_data where email = ${viewerEmail}`)).toBe(0);
    expect((await get(`/api/users/${member.user_id}/teams`)).body.items.map((m: UserMembership) => m.team_id)).toEqual([
      team.team_id,
    ]);
    expect(await auditActions(member.user_id)).toEqual(["create", "add_member"]);
  });
});

describe("GET /api/users statement count (PGlite)", () => {
  let handle: DatabaseHandle;
  let request: (path: string) => Promise<Response>;
  /** Every statement the app sent to the database, in order. */
  const statements: string[] = [];

  beforeAll(async () => {
    const client = await PGlite.create({ extensions: { pg_trgm } });
    const query = client.query.bind(client);
    client.query = ((text: string, ...rest: unknown[]) => {
      statements.push(text);
      return (query as (...args: unknown[]) => ReturnType<PGlite["query"]>)(text, ...rest);
    }) as PGlite["query"];
    handle = wrapPglite(client);
    await handle.migrate();
    await loadDemoData(handle.db, { seed: 42 });
    const { app } = createApp({
      db: handle.db,
      config: { authSecret: "test-secret-test-secret-test-secret-0123", publicUrl, security: defaultSecurity },
      logger: pino({ level: "silent" }),
    });
    await createOperator(handle.db, { email: "counter@test.example", password: testPassword, role: "viewer" });
    const signIn = await app.request("/api/auth/sign-in/email", {
      method: "POST",
      headers: { "content-type": "application/json", origin: publicUrl },
      body: JSON.stringify({ email: "counter@test.example", password: testPassword }),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    request = async (path) => app.request(path, { headers: { cookie, origin: publicUrl } });
  });
  afterAll(() => handle.close());

  /** Statements about users (users_data, users_roles) one list request costs; the session lookup is left out. */
  async function userStatements(path: string) {
    statements.length = 0;
    const res = await request(path);
    expect(res.status).toBe(200);
    const body = await res.json();
    return { body, count: statements.filter((s) => /\busers_(data|roles)\b/.test(s)).length };
  }

  it("costs the same small constant number of statements for 10 and 50 rows, roles included", async () => {
    const ten = await userStatements("/api/users?limit=10");
    const fifty = await userStatements("/api/users?limit=50");
    expect(ten.body.items).toHaveLength(10);
    expect(fifty.body.items).toHaveLength(50);
    // Roles came with the rows: several users on the page hold more than one.
    expect(fifty.body.items.filter((u: UserListItem) => u.roles.length > 1).length).toBeGreaterThan(1);
    expect(fifty.count).toBeGreaterThan(0);
    expect(fifty.count).toBeLessThanOrEqual(3);
    expect(fifty.count).toBe(ten.count);
    // A search counts its matches on the users table first (docs/performance.md): one more
    // statement, still within the list engine's bound of 3, whatever the page size.
    const filtered = await userStatements(`/api/users?limit=50&customer_id=${fifty.body.items[0].customer_id}&q=a`);
    const filteredTen = await userStatements(`/api/users?limit=10&customer_id=${fifty.body.items[0].customer_id}&q=a`);
    expect(filtered.count).toBeLessThanOrEqual(3);
    expect(filtered.count).toBe(filteredTen.count);
  });
});
