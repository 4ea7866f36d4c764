/**
 * The audit log covers every change, generated from the route table: every mutation route (POST,
 * PATCH, PUT, DELETE of `routeTable`) is called with a valid request, the records it changed are
 * found by comparing the tables before and after, and it must have written exactly one audit row
 * per changed record, each with an action and entity from src/domain/audit.ts. A team membership is
 * a change of both the team and the user. Every listed action and entity can be filtered on. It
 * runs once with session cookies and once with personal API tokens (`Authorization: Bearer`),
 * whose rows must name the token (`api_token_id`); a cookie's name none.
 *
 * Nothing here names a route or a table: the requests are derived from the route's schemas and the
 * database's (tests/support/route-requests.ts, each sent as the role the route needs, made so that
 * it changes something: fresh records with a history, a selection a dry run says will change), and
 * the records a changed row is a change of from src/server/db/schema.ts (tests/support/schema-model.ts).
 * A plan of a request the console refuses (a row in the wrong state) must have written nothing;
 * the next plan is tried.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditActions, auditEntities, auditRecordEntities } from "../../src/domain/audit";
import { operatorRoles } from "../../src/domain/enums";
import { bulkIdle } from "../../src/server/bulk/engine";
import { credentials, startConsole, type TestConsole } from "../support/app";
import { targets } from "../support/databases";
import {
  Callers,
  mutationRoutes,
  RequestMaker,
  reservedRows,
  routeKey,
  type OpenApiDocument,
  type ValidRequest,
} from "../support/route-requests";
import { changedRecords, recordWatch } from "../support/schema-model";

const cases = targets.flatMap((target) => credentials.map((credential) => [target, credential] as const));

/** A route whose path ends in /preview is a dry run: it writes nothing. */
const isDryRun = (path: string) => path.endsWith("/preview");

describe.each(cases)("audit coverage on %s with %s", (target, credential) => {
  let app: TestConsole;
  let callers: Callers;
  let maker: RequestMaker;
  /** The console's API tokens, by id (the bearer credential of each role). */
  const tokenIds = new Set<string>();
  beforeAll(async () => {
    app = await startConsole(target, { demo: true, credential });
    callers = new Callers(app, credential);
    for (const role of operatorRoles) {
      await callers.headers(role);
      tokenIds.add(await app.tokenId(role));
    }
    const doc = (await (
      await app.request("/api/openapi.json", { headers: await callers.headers("admin") })
    ).json()) as OpenApiDocument;
    maker = new RequestMaker(app, doc, callers, await reservedRows(app, callers));
  });
  afterAll(async () => {
    await bulkIdle();
    await app.close();
  });

  it("every mutation route writes exactly one audit row per changed record, with a listed action and entity", async () => {
    /**
     * Where the audit log stands: its latest time and the rows written at that time. The rows
     * written after are those at or after that time, but for these (clock_timestamp() only moves on).
     */
    const auditMark = async () => {
      const rows = await app.rows<{ audit_id: string; at: string }>(
        sql`select audit_id, created_at::text as at from audit_log where created_at = (select max(created_at) from audit_log)`,
      );
      return { at: rows[0]?.at ?? "-infinity", ids: new Set(rows.map((r) => r.audit_id)) };
    };
    /** Routes whose accepted request changed no record (besides dry runs, which must not). */
    const changedNothing: string[] = [];
    const routes = mutationRoutes();
    const snapshot = recordWatch(app.rows, auditRecordEntities);
    expect(routes.length, "mutation routes in the route table").toBeGreaterThan(40);

    for (const route of routes) {
      const name = routeKey(route);
      let changed: string[] = [];
      /** Sends one plan's request and checks what it wrote; whether it was accepted. */
      const attempt = async (request: ValidRequest) => {
        // The credential first (a new sign-in, when a request ended the session, is not the step's change).
        await callers.headers(request.role, route.sessionOnly);
        const mark = await auditMark();
        const before = await snapshot();
        const answer = await maker.send(request);
        await bulkIdle();
        const after = await snapshot();
        const rows = (
          await app.rows<{ audit_id: string; action: string; entity: string; entity_id: string; token: string | null }>(
            sql`select audit_id, action, entity, entity_id, api_token_id::text as token from audit_log
                where created_at >= ${mark.at}::timestamptz`,
          )
        ).filter((r) => !mark.ids.has(r.audit_id));
        const where = `${name} as ${request.role} (plan ${request.plan}): ${answer.status} ${answer.text.slice(0, 200)}`;
        changed = changedRecords(before, after);
        if (answer.status >= 300) {
          // A refused request writes nothing: no record, no audit row.
          expect(changed, `${where}: refused, yet changed`).toEqual([]);
          expect(
            rows.map((r) => `${r.action} ${r.entity}`),
            `${where}: refused, yet audited`,
          ).toEqual([]);
          return false;
        }
        // Made with a token, each row names it; with a cookie, none does.
        const byToken = credential === "bearer" && !route.sessionOnly;
        for (const row of rows)
          if (byToken) expect(tokenIds, `${where}: ${row.action} names its token`).toContain(row.token);
          else expect(row.token, `${where}: ${row.action} names no token`).toBeNull();
        for (const row of rows) {
          expect(auditActions, `${where}: action ${row.action}`).toContain(row.action);
          expect(auditEntities, `${where}: entity ${row.entity}`).toContain(row.entity);
        }
        const written = rows.map((r) => `${r.entity}:${r.entity_id}`).sort();
        expect(new Set(written).size, `${where}: one row per record ${written}`).toBe(written.length);
        expect(written, where).toEqual(changed);
        return true;
      };
      const found = await maker.find(route, attempt);
      expect(found, `${name}: a request it accepts`).toBeDefined();
      if (isDryRun(route.path)) expect(changed, `${name} is a dry run: it changes nothing`).toEqual([]);
      else if (changed.length === 0) changedNothing.push(name);
    }
    // Each accepted request changed a record, so that its audit rows were checked against a change.
    expect(changedNothing, "routes whose derived request changed no record").toEqual([]);
  }, 600_000);

  it("every listed action and entity can be filtered on, and the screen offers exactly these", async () => {
    const headers = await callers.headers("admin");
    for (const action of auditActions) {
      const res = await app.request(`/api/audit?action=${action}&limit=1`, { headers });
      expect(res.status, action).toBe(200);
      for (const item of (await res.json()).items) expect(item.action).toBe(action);
    }
    for (const entity of auditEntities)
      expect((await app.request(`/api/audit?entity=${entity}&limit=1`, { headers })).status, entity).toBe(200);
    expect((await app.request("/api/audit?action=join_team", { headers })).status).toBe(422);
    const rows = await app.rows<{ action: string }>(sql`select distinct action from audit_log`);
    for (const { action } of rows) expect(auditActions).toContain(action);
  });
});
