/**
 * Concurrency: 50 requests at once on the same records leave a consistent state, with exactly the
 * audit rows the changes that really happened call for. On PostgreSQL the requests run on a pool
 * of connections (real concurrency, row locks decide); on PGlite they are serialized.
 */
import { randomUUID } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/server/db/client";
import { skills } from "../../src/server/db/schema";
import { startConsole, type TestConsole } from "../support/app";
import { targets } from "../support/databases";

const N = 50;
const uid = () => randomUUID().slice(0, 8);

type AuditRow = {
  audit_id: string;
  action: string;
  changes: { before?: Record<string, unknown>; after?: Record<string, unknown> } | null;
};

describe.each(targets)("concurrent requests on %s", (target) => {
  let app: TestConsole;
  beforeAll(async () => {
    app = await startConsole(target);
    await app.cookie("editor");
  });
  afterAll(() => app.close());

  const rows = <T>(query: SQL) => queryRows<T>(app.handle.db, query);

  async function send(method: string, path: string, json?: unknown) {
    const res = await app.request(path, { method, as: "editor", json });
    return { status: res.status, body: await res.json() };
  }

  /** `count` requests at once; the answers in the order the requests were made. */
  const burst = (count: number, make: (i: number) => Promise<{ status: number; body: any }>) =>
    Promise.all(Array.from({ length: count }, (_, i) => make(i)));

  /** Audit rows about one record, oldest first, as the audit log orders them (newest first there). */
  const auditOf = (entity: string, entityId: string, action?: string) =>
    rows<AuditRow>(sql`
      select audit_id, action, changes from audit_log
      where entity = ${entity} and entity_id = ${entityId} ${action ? sql`and action = ${action}` : sql``}
      order by created_at, audit_id`);

  async function newCustomer() {
    const { status, body } = await send("POST", "/api/customers", { customer_name: `Concurrent ${uid()}` });
    expect(status).toBe(201);
    return body as { customer_id: string; status: string };
  }

  async function newTeam(customerId: string) {
    const { status, body } = await send("POST", "/api/teams", { customer_id: customerId, team_name: `Team ${uid()}` });
    expect(status).toBe(201);
    return body as { team_id: string; status: string };
  }

  const statusCounts = (answers: Array<{ status: number }>) =>
    answers.reduce<Record<number, number>>((acc, a) => ({ ...acc, [a.status]: (acc[a.status] ?? 0) + 1 }), {});

  /**
   * The update rows of a record's audit trail must tell its real history: each row a real change
   * (before ≠ after), each row starting where the previous one ended, the first from the initial
   * status and the newest ending at the status the record has now.
   */
  function expectStatusChain(updates: AuditRow[], initial: string, final: string) {
    const pairs = updates.map((r) => [r.changes?.before?.status, r.changes?.after?.status]);
    const problems: string[] = [];
    pairs.forEach(([before, after], i) => {
      if (before === undefined || after === undefined || before === after)
        problems.push(`row ${i}: ${JSON.stringify(before)} → ${JSON.stringify(after)} is not a change`);
      if (i > 0 && before !== pairs[i - 1][1])
        problems.push(
          `row ${i} starts at ${JSON.stringify(before)} but row ${i - 1} ended at ${JSON.stringify(pairs[i - 1][1])}`,
        );
    });
    if (pairs.length > 0 && pairs[0][0] !== initial)
      problems.push(`the first row starts at ${JSON.stringify(pairs[0][0])}, not at the initial ${initial}`);
    const newest = pairs.length > 0 ? pairs[pairs.length - 1][1] : initial;
    if (newest !== final) problems.push(`the newest row ends at ${JSON.stringify(newest)} but the record is ${final}`);
    expect(problems, `history ${pairs.map(([b, a]) => `${b}→${a}`).join(", ")}`).toEqual([]);
  }

  it(`assigns a skill once when ${N} requests assign it at the same time`, async () => {
    const customer = await newCustomer();
    const team = await newTeam(customer.customer_id);
    const [skill] = await app.handle.db
      .insert(skills)
      .values({ skill_name: `Skill ${uid()}` })
      .returning();

    const answers = await burst(N, () =>
      send("POST", `/api/teams/${team.team_id}/skills`, { skill_id: skill.skill_id }),
    );
    expect(statusCounts(answers)).toEqual({ 201: 1, 200: N - 1 });
    for (const a of answers) expect(a.body).toEqual({ skill_id: skill.skill_id, status: "active" });

    const assignments = await rows<{ status: string }>(
      sql`select status from teams_skills where team_id = ${team.team_id} and skill_id = ${skill.skill_id}`,
    );
    expect(assignments).toEqual([{ status: "active" }]);
    const audit = await auditOf("team", team.team_id);
    expect(audit.map((r) => r.action)).toEqual(["create", "assign_skill"]);
  });

  it(`keeps a team's status and its audit trail consistent under ${N} archive / unarchive requests at once`, async () => {
    const customer = await newCustomer();
    const team = await newTeam(customer.customer_id);
    const answers = await burst(N, (i) =>
      send("PATCH", `/api/teams/${team.team_id}`, { status: i % 2 === 0 ? "inactive" : "active" }),
    );
    expect(statusCounts(answers)).toEqual({ 200: N });

    const [{ status }] = await rows<{ status: string }>(sql`select status from teams where team_id = ${team.team_id}`);
    const updates = await auditOf("team", team.team_id, "update");
    expect(updates.length).toBeGreaterThanOrEqual(1);
    expect(updates.length).toBeLessThanOrEqual(N);
    expectStatusChain(updates, "active", status);
  });

  it(`keeps a customer's status and its audit trail consistent under ${N} archive / unarchive requests at once`, async () => {
    const customer = await newCustomer();
    const answers = await burst(N, (i) =>
      send("PATCH", `/api/customers/${customer.customer_id}`, { status: i % 2 === 0 ? "inactive" : "active" }),
    );
    expect(statusCounts(answers)).toEqual({ 200: N });

    const [{ status }] = await rows<{ status: string }>(
      sql`select status from customers where customer_id = ${customer.customer_id}`,
    );
    const updates = await auditOf("customer", customer.customer_id, "update");
    expect(updates.length).toBeGreaterThanOrEqual(1);
    expect(updates.length).toBeLessThanOrEqual(N);
    expectStatusChain(updates, "active", status);
  });

  it(`creates ${N} customers, each with its audit row, from ${N} requests at once`, async () => {
    const prefix = `Burst ${uid()}`;
    const answers = await burst(N, (i) => send("POST", "/api/customers", { customer_name: `${prefix} #${i}` }));
    expect(statusCounts(answers)).toEqual({ 201: N });
    const ids = answers.map((a) => a.body.customer_id as string);
    expect(new Set(ids).size).toBe(N);
    expect(new Set(answers.map((a) => a.body.customer_name)).size).toBe(N);

    const created = await rows<{ customer_id: string }>(
      sql`select customer_id from customers where customer_name like ${`${prefix} #%`}`,
    );
    expect(created.map((r) => r.customer_id).sort()).toEqual([...ids].sort());
    const audit = await rows<{ entity_id: string; name: string }>(sql`
      select entity_id, changes->'after'->>'customer_name' as name from audit_log
      where entity = 'customer' and action = 'create' and entity_id in ${sql`(${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`}`);
    expect(audit.map((r) => r.entity_id).sort()).toEqual([...ids].sort());
    for (const a of answers)
      expect(audit.find((r) => r.entity_id === a.body.customer_id)?.name).toBe(a.body.customer_name);
  });

  it(`adds a user to a team once when ${N} requests add them at the same time`, async () => {
    const customer = await newCustomer();
    const team = await newTeam(customer.customer_id);
    const user = await send("POST", "/api/users", {
      email: `burst-${uid()}@example.com`,
      customer_id: customer.customer_id,
    });
    expect(user.status).toBe(201);
    const userId = user.body.user_id as string;

    const answers = await burst(N, () => send("POST", `/api/users/${userId}/teams`, { team_id: team.team_id }));
    expect(statusCounts(answers)).toEqual({ 201: 1, 200: N - 1 });
    const members = await rows<{ n: number }>(
      sql`select count(*)::int as n from teams_users where team_id = ${team.team_id} and user_id = ${userId}`,
    );
    expect(members).toEqual([{ n: 1 }]);
    expect((await auditOf("user", userId, "add_member")).length).toBe(1);
  });

  it(`deletes a team once when ${N} requests delete it at the same time`, async () => {
    const customer = await newCustomer();
    const team = await newTeam(customer.customer_id);
    const answers = await burst(N, () => send("DELETE", `/api/teams/${team.team_id}`));
    expect(statusCounts(answers)).toEqual({ 200: 1, 404: N - 1 });
    expect(await rows(sql`select 1 from teams where team_id = ${team.team_id}`)).toEqual([]);
    expect((await auditOf("team", team.team_id)).map((r) => r.action)).toEqual(["create", "delete"]);
  });
});
