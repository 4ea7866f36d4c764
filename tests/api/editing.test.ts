/**
 * Editing (docs/editing.md): every entity's edit with its audit row; stale saves refused with
 * If-Match (409 `stale` with the current record and the changes since) and two parallel saves of one
 * version (one wins, one is told) on every PATCH that takes If-Match, found in the app's OpenAPI
 * document (tests/support/derive-document.ts, derive-rows.ts); valid domains normalised, validated and checked for collisions
 * (GIN index); a user's e-mail domain against the customer's; roles set and cleared; the team
 * page's Add Member candidates (paged, searched) and its rules. On PGlite and PostgreSQL.
 */
import { randomUUID } from "node:crypto";
import { domainToASCII } from "node:url";
import { getTableColumns, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normaliseDomain } from "../../src/domain/domains";
import { msg } from "../../src/domain/messages";
import type { OperatorRole } from "../../src/domain/enums";
import { startConsole, type TestConsole } from "../support/app";
import { targets } from "../support/databases";
import { textFieldOf, uniqueText, versionedEdits, type OpenApiDocument } from "../support/derive-document";
import { fillPath, paramsOf, rowIdOf, tableKeyedBy } from "../support/derive-rows";
import { Callers, declaredRoutes, RequestMaker, reservedRows } from "../support/route-requests";

const uid = () => randomUUID().slice(0, 8);

describe("normaliseDomain", () => {
  it("lower-cases, drops scheme, user, port and path, and turns IDN into punycode as url.domainToASCII does", () => {
    expect(normaliseDomain("  Example.COM ")).toBe("example.com");
    expect(normaliseDomain("https://www.Example.com:8443/path?q=1#x")).toBe("www.example.com");
    expect(normaliseDomain("user@mail.example.org/")).toBe("mail.example.org");
    for (const idn of ["bücher.de", "münchen.example", "例え.テスト", "ÉCOLE.fr"])
      expect(normaliseDomain(idn)).toBe(domainToASCII(idn.toLowerCase()));
  });
  it("refuses what is not a domain name", () => {
    for (const bad of [
      "localhost",
      "-bad.com",
      "bad-.com",
      "a..b",
      "exa mple.com",
      "under_score.com",
      `${"a".repeat(64)}.com`,
      `${"abcdefghi.".repeat(26)}com`,
      "10.0.0.1",
      "http://",
    ])
      expect(normaliseDomain(bad), bad).toBeNull();
    expect(normaliseDomain(`${"a".repeat(63)}.com`)).toBe(`${"a".repeat(63)}.com`);
  });
});

describe.each(targets)("editing on %s", (target) => {
  let app: TestConsole;
  beforeAll(async () => {
    app = await startConsole(target, { demo: true });
  });
  afterAll(() => app.close());

  const send = (method: string, path: string, json?: unknown, as: OperatorRole = "editor") =>
    app.write(method, path, json, as);
  /** A PATCH with an If-Match header. */
  async function patch(path: string, json: unknown, ifMatch?: string, as: OperatorRole = "editor") {
    const res = await app.request(path, {
      method: "PATCH",
      as,
      json,
      headers: ifMatch === undefined ? {} : { "if-match": ifMatch },
    });
    return { status: res.status, body: await res.json() };
  }
  const audits = (entity: string, id: string) =>
    app.rows<{ action: string; operator_email: string; changes: { before?: any; after?: any } }>(
      sql`select action, operator_email, changes from audit_log where entity = ${entity} and entity_id = ${id} order by created_at, audit_id`,
    );
  /** The audit rows of a record, whatever its entity (ids are uuids: one record's). */
  const auditsOf = (id: string) =>
    app.rows<{ action: string }>(
      sql`select action from audit_log where entity_id = ${id} order by created_at, audit_id`,
    );

  async function newCustomer(extra: Record<string, unknown> = {}) {
    const { status, body } = await send("POST", "/api/customers", { customer_name: `Edit Co ${uid()}`, ...extra });
    expect(status, JSON.stringify(body)).toBe(201);
    return body as { customer_id: string; customer_name: string; valid_domains: string | null; updated_at: string };
  }
  async function newTeam(customerId: string) {
    const { status, body } = await send("POST", "/api/teams", { customer_id: customerId, team_name: `Team ${uid()}` });
    expect(status).toBe(201);
    return body as { team_id: string };
  }
  async function newUser(customerId: string, email = `u-${uid()}@example.com`, extra: Record<string, unknown> = {}) {
    const { status, body } = await send("POST", "/api/users", { email, customer_id: customerId, ...extra });
    expect(status, JSON.stringify(body)).toBe(201);
    return body as { user_id: string; updated_at: string; email: string };
  }

  describe("edits", () => {
    it("edits a customer's name, status and domains, with one audit row holding before and after", async () => {
      const c = await newCustomer();
      const res = await patch(`/api/customers/${c.customer_id}`, {
        customer_name: "  Renamed Co  ",
        status: "trial",
        valid_domains: "Renamed.example, https://www.renamed.example/about",
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        customer_name: "Renamed Co",
        status: "trial",
        valid_domains: "renamed.example\nwww.renamed.example",
      });
      expect(Date.parse(res.body.updated_at)).toBeGreaterThan(Date.parse(c.updated_at) - 1);
      const rows = await audits("customer", c.customer_id);
      expect(rows.map((r) => r.action)).toEqual(["create", "update"]);
      expect(rows[1].operator_email).toBe("editor@test.example");
      expect(rows[1].changes.before).toMatchObject({ customer_name: c.customer_name, status: "active" });
      expect(rows[1].changes.after).toMatchObject({ customer_name: "Renamed Co", status: "trial" });
      // Archive and Unarchive still work with `{ status }` alone, and a no-op writes nothing.
      expect((await patch(`/api/customers/${c.customer_id}`, { status: "inactive" })).body.status).toBe("inactive");
      expect((await patch(`/api/customers/${c.customer_id}`, { status: "inactive" })).status).toBe(200);
      expect((await audits("customer", c.customer_id)).length).toBe(3);
      // Clearing the domains.
      expect((await patch(`/api/customers/${c.customer_id}`, { valid_domains: "" })).body.valid_domains).toBeNull();
    });

    it("refuses a bad customer edit with the add form's messages", async () => {
      const c = await newCustomer();
      const blank = await patch(`/api/customers/${c.customer_id}`, { customer_name: "   " });
      expect(blank.status).toBe(422);
      expect(blank.body.error.fields.customer_name).toBe(msg.customers.nameRequired);
      const nothing = await patch(`/api/customers/${c.customer_id}`, {});
      expect(nothing.status).toBe(422);
      expect((await patch(`/api/customers/${randomUUID()}`, { status: "active" })).status).toBe(404);
      expect((await patch(`/api/customers/${c.customer_id}`, { status: "active" }, undefined, "viewer")).status).toBe(
        403,
      );
    });

    it("edits a team's name and status", async () => {
      const c = await newCustomer();
      const t = await newTeam(c.customer_id);
      const res = await patch(`/api/teams/${t.team_id}`, { team_name: " Platform Team ", status: "inactive" });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ team_name: "Platform Team", status: "inactive", customer_id: c.customer_id });
      expect(res.body.updated_at).toEqual(expect.any(String));
      const rows = await audits("team", t.team_id);
      expect(rows.at(-1)!.changes.after).toMatchObject({ team_name: "Platform Team", status: "inactive" });
      const bad = await patch(`/api/teams/${t.team_id}`, { team_name: "" });
      expect(bad.body.error.fields.team_name).toBe(msg.teams.nameRequired);
    });

    it("edits a user's names, job title and status, and sets and clears roles", async () => {
      const c = await newCustomer();
      const u = await newUser(c.customer_id);
      const res = await patch(`/api/users/${u.user_id}`, {
        first_name: " Ada ",
        last_name: "Lovelace",
        job_title: "Engineer",
        status: "pending",
        roles: ["member", "admin"],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({
        first_name: "Ada",
        last_name: "Lovelace",
        job_title: "Engineer",
        status: "pending",
        roles: ["admin", "member"],
      });
      const roles = () =>
        app.rows<{ role: string }>(sql`select role from users_roles where user_id = ${u.user_id} order by role`);
      expect((await roles()).map((r) => r.role)).toEqual(["admin", "member"]);
      // Roles alone are a change: updated_at moves and the audit row shows them.
      const before = res.body.updated_at;
      const cleared = await patch(`/api/users/${u.user_id}`, { roles: [] }, before);
      expect(cleared.status).toBe(200);
      expect(cleared.body.roles).toEqual([]);
      expect(cleared.body.updated_at).not.toBe(before);
      expect(await roles()).toEqual([]);
      const last = (await audits("user", u.user_id)).at(-1)!;
      expect(last.changes).toMatchObject({ before: { roles: ["admin", "member"] }, after: { roles: [] } });
      // An empty job title is saved null; duplicate or unknown roles are refused.
      expect((await patch(`/api/users/${u.user_id}`, { job_title: "  " })).body.job_title).toBeNull();
      expect((await patch(`/api/users/${u.user_id}`, { roles: ["admin", "admin"] })).status).toBe(422);
      expect((await patch(`/api/users/${u.user_id}`, { roles: ["owner"] })).status).toBe(422);
      expect((await patch(`/api/users/${u.user_id}`, { first_name: "\u202eevil" })).status).toBe(422);
    });
  });

  describe("stale saves", () => {
    /**
     * Every save that checks a version: each PATCH of the app's OpenAPI document that takes
     * If-Match, on a real row of the table its path parameter names (schema.ts conventions), with
     * one of its free-text fields changed (tests/support/derive-document.ts).
     */
    let doc: Promise<OpenApiDocument> | undefined;
    async function versionedSaves() {
      doc ??= app.request("/api/openapi.json", { as: "viewer" }).then((res) => res.json());
      return versionedEdits(await doc).map(({ path, body }) => {
        const [param] = paramsOf(path);
        const { name: table, key, table: columns } = tableKeyedBy(param);
        const field = textFieldOf(body, Object.keys(getTableColumns(columns)));
        return {
          path,
          table,
          key,
          field: field.name,
          /** A body changing the field to a new value. */
          edit: (label: string) => ({ [field.name]: uniqueText(`${label} ${field.name}`, field.maxLength) }),
          /**
           * The id of a real row: the `offset`-th of those the fewest rows refer to, or, where the
           * table has fewer rows (an entity the demo data does not seed), a record made for it
           * through its own POST (tests/support/route-requests.ts).
           */
          row: (offset: number) => rowIdOf(app.rows, param, offset).catch(() => freshRow(path, param)),
        };
      });
    }

    let maker: Promise<RequestMaker> | undefined;
    /** A new record of the table `param` names, as a valid request of `PATCH path` would act on. */
    async function freshRow(path: string, param: string): Promise<string> {
      maker ??= (async () => {
        const callers = new Callers(app, "cookie");
        return new RequestMaker(app, await doc!, callers, await reservedRows(app, callers), false);
      })();
      const route = declaredRoutes().find((r) => r.method === "PATCH" && r.path === path);
      const request = route && (await (await maker).build(route, 0));
      if (!request) throw new Error(`no record can be made for ${path}`);
      return request.params[param];
    }

    it("finds the saves that take If-Match in the API's description", async () => {
      const saves = await versionedSaves();
      // Six when the derivation was written: fewer means it lost some.
      expect(saves.length, JSON.stringify(saves.map((s) => s.path))).toBeGreaterThanOrEqual(6);
    });

    it("refuses a save read at an older version on every PATCH that takes If-Match, naming who changed what since", async () => {
      for (const save of await versionedSaves()) {
        const id = await save.row(0);
        const path = fillPath(save.path, { [paramsOf(save.path)[0]]: id });
        const a = save.edit("A");
        const b = save.edit("B");
        const read = await app.read(path);
        expect(read.status, path).toBe(200);
        const version = read.body.updated_at as string;
        // The admin saves first, with the version read.
        const first = await patch(path, a, version, "admin");
        expect(first.status, `${path} ${JSON.stringify(first.body)}`).toBe(200);
        // The editor saves with the same (now old) version: refused, nothing written.
        const auditBefore = (await auditsOf(id)).length;
        const stale = await patch(path, b, version);
        expect(stale.status, path).toBe(409);
        expect(stale.body.error.code, path).toBe("stale");
        expect(stale.body.error.message, path).toBe(msg.edit.stale);
        expect(stale.body.error.current, path).toMatchObject({ ...a, updated_at: first.body.updated_at });
        expect(stale.body.error.changes, path).toEqual([
          {
            operator_email: "admin@test.example",
            at: expect.any(String),
            fields: expect.arrayContaining(Object.keys(a)),
          },
        ]);
        expect((await auditsOf(id)).length, path).toBe(auditBefore);
        // Save anyway: the current version, accepted.
        const again = await patch(path, b, stale.body.error.current.updated_at);
        expect(again.status, path).toBe(200);
        expect(again.body, path).toMatchObject(b);
        // An ETag-style quoted value is read too; no If-Match at all is not checked (API clients).
        expect((await patch(path, a, `"${again.body.updated_at}"`)).status, path).toBe(200);
        expect((await patch(path, b)).status, path).toBe(200);
        // Not a time: 422.
        const bad = await patch(path, a, "yesterday");
        expect(bad.status, path).toBe(422);
        expect(bad.body.error.message, path).toBe(msg.edit.ifMatchInvalid);
      }
    });

    it("lets exactly one of two parallel saves of one version through on every PATCH that takes If-Match; the other gets the winner's record", async () => {
      for (const save of await versionedSaves()) {
        // Another row than the test above changed, read afresh.
        const id = await save.row(1);
        const path = fillPath(save.path, { [paramsOf(save.path)[0]]: id });
        const version = (await app.read(path)).body.updated_at as string;
        const updatesBefore = (await auditsOf(id)).filter((r) => r.action === "update").length;
        const results = await Promise.all([
          patch(path, save.edit("Parallel One"), version, "admin"),
          patch(path, save.edit("Parallel Two"), version, "editor"),
        ]);
        const statuses = results.map((r) => r.status).sort();
        expect(statuses, path).toEqual([200, 409]);
        const winner = results.find((r) => r.status === 200)!;
        const loser = results.find((r) => r.status === 409)!;
        expect(loser.body.error.code, path).toBe("stale");
        expect(loser.body.error.current, path).toMatchObject({
          [save.field]: winner.body[save.field],
          updated_at: winner.body.updated_at,
        });
        expect(loser.body.error.changes, path).toHaveLength(1);
        // The winner's change names the field, and no other field of the record (a prompt's also
        // names its new `version`, which is not one of the record's fields).
        const fields = loser.body.error.changes[0].fields as string[];
        expect(fields, path).toContain(save.field);
        expect(
          fields.filter((f) => f !== save.field && f in winner.body),
          path,
        ).toEqual([]);
        const [row] = await app.rows<{ value: unknown }>(
          sql`select ${sql.identifier(save.field)} as value from ${sql.identifier(save.table)} where ${sql.identifier(save.key)} = ${id}`,
        );
        expect(row.value, path).toBe(winner.body[save.field]);
        const updates = (await auditsOf(id)).filter((r) => r.action === "update").length;
        expect(updates - updatesBefore, path).toBe(1);
      }
    });
  });

  describe("valid domains", () => {
    it("normalises domains on add and edit and names a bad entry", async () => {
      const tag = uid();
      const c = await newCustomer({
        valid_domains: ` HTTPS://Norm-${tag}.Example/x \nbücher-${tag}.de, norm-${tag}.example`,
      });
      expect(c.valid_domains).toBe(`norm-${tag}.example\n${domainToASCII(`bücher-${tag}.de`)}`);
      const bad = await patch(`/api/customers/${c.customer_id}`, { valid_domains: `ok-${tag}.com\nbad_domain.com` });
      expect(bad.status).toBe(422);
      expect(bad.body.error.fields.valid_domains).toBe(msg.edit.domainInvalid("bad_domain.com"));
      const single = await send("POST", "/api/customers", { customer_name: "X", valid_domains: "localhost" });
      expect(single.status).toBe(422);
      expect(single.body.error.fields.valid_domains).toBe(msg.edit.domainInvalid("localhost"));
    });

    it("warns of a domain another customer lists (with its name) and saves it when confirmed", async () => {
      const tag = uid();
      const owner = await newCustomer({ valid_domains: `claimed-${tag}.com\nalso-${tag}.com` });
      const other = await newCustomer();
      const res = await patch(`/api/customers/${other.customer_id}`, {
        valid_domains: `free-${tag}.com, CLAIMED-${tag}.com`,
      });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe("domain_claimed");
      expect(res.body.error.domains).toEqual([
        { domain: `claimed-${tag}.com`, customer_id: owner.customer_id, customer_name: owner.customer_name },
      ]);
      // On add too.
      const add = await send("POST", "/api/customers", { customer_name: "Y", valid_domains: `also-${tag}.com` });
      expect(add.status).toBe(409);
      expect(add.body.error.code).toBe("domain_claimed");
      const confirmed = await patch(`/api/customers/${other.customer_id}`, {
        valid_domains: `free-${tag}.com, claimed-${tag}.com`,
        confirm_domains: true,
      });
      expect(confirmed.status).toBe(200);
      // Domains the customer already had do not warn again on a later edit; its own do not collide.
      expect((await patch(`/api/customers/${other.customer_id}`, { customer_name: "Renamed" })).status).toBe(200);
      expect(
        (await patch(`/api/customers/${other.customer_id}`, { valid_domains: `claimed-${tag}.com\nfree-${tag}.com` }))
          .status,
      ).toBe(200);
      const back = await patch(`/api/customers/${owner.customer_id}`, { valid_domains: `free-${tag}.com` });
      expect(back.status).toBe(409);
      expect(back.body.error.domains).toEqual([
        { domain: `free-${tag}.com`, customer_id: other.customer_id, customer_name: "Renamed" },
      ]);
    });

    it("finds claimed domains through the GIN index customers_domains_idx", async () => {
      // The planner may scan a small table; with scans off it must be able to use the index.
      await app.rows(sql`set enable_seqscan = off`);
      try {
        const forced = await app.rows<Record<string, string>>(sql`
          explain select c.customer_id from customers c
          where customer_domains(c.valid_domains) && array['example.com']::text[]`);
        expect(forced.map((r) => Object.values(r)[0]).join("\n")).toContain("customers_domains_idx");
      } finally {
        await app.rows(sql`reset enable_seqscan`);
      }
    });

    it("warns when a user's e-mail domain is not the customer's, on add and edit, unless confirmed", async () => {
      const tag = uid();
      const c = await newCustomer({ valid_domains: `acme-${tag}.com` });
      const off = await send("POST", "/api/users", { email: `x-${tag}@elsewhere.com`, customer_id: c.customer_id });
      expect(off.status).toBe(409);
      expect(off.body.error).toMatchObject({
        code: "domain_mismatch",
        fields: { email: msg.edit.domainMismatch("elsewhere.com") },
        customer_domains: [`acme-${tag}.com`],
      });
      const ok = await newUser(c.customer_id, `fine-${tag}@acme-${tag}.com`);
      expect(ok.email).toBe(`fine-${tag}@acme-${tag}.com`);
      const confirmed = await newUser(c.customer_id, `y-${tag}@elsewhere.com`, { confirm_domain: true });
      const edit = await patch(`/api/users/${confirmed.user_id}`, { job_title: "Contractor" });
      expect(edit.status).toBe(409);
      expect(edit.body.error.code).toBe("domain_mismatch");
      expect(
        (await patch(`/api/users/${confirmed.user_id}`, { job_title: "Contractor", confirm_domain: true })).status,
      ).toBe(200);
      // A customer without domains takes any e-mail.
      const open = await newCustomer();
      await newUser(open.customer_id, `z-${tag}@anything.org`);
    });
  });

  describe("Add Member", () => {
    it("lists the customer's active non-members by name, paged and searched, and adds one", async () => {
      const tag = uid();
      const c = await newCustomer();
      const t = await newTeam(c.customer_id);
      const made: string[] = [];
      for (let i = 0; i < 7; i++) {
        const u = await newUser(c.customer_id, `m${i}-${tag}@example.com`);
        await patch(`/api/users/${u.user_id}`, { first_name: `Member${i}`, last_name: tag });
        made.push(u.user_id);
      }
      const inactive = await newUser(c.customer_id, `inactive-${tag}@example.com`, { status: "inactive" });
      const otherCustomer = await newCustomer();
      const stranger = await newUser(otherCustomer.customer_id, `s-${tag}@example.com`);
      await send("POST", `/api/teams/${t.team_id}/members`, { user_id: made[0] });

      const page1 = await app.read(`/api/teams/${t.team_id}/available-users?limit=4`);
      expect(page1.status).toBe(200);
      expect(page1.body.total).toBe(6);
      expect(page1.body.items.map((u: { first_name: string }) => u.first_name)).toEqual([
        "Member1",
        "Member2",
        "Member3",
        "Member4",
      ]);
      const page2 = await app.read(`/api/teams/${t.team_id}/available-users?limit=4&offset=4`);
      expect(page2.body.items.map((u: { first_name: string }) => u.first_name)).toEqual(["Member5", "Member6"]);
      const ids = [...page1.body.items, ...page2.body.items].map((u: { user_id: string }) => u.user_id);
      expect(ids).not.toContain(inactive.user_id);
      expect(ids).not.toContain(stranger.user_id);
      const search = await app.read(`/api/teams/${t.team_id}/available-users?q=member3`);
      expect(search.body.items.map((u: { user_id: string }) => u.user_id)).toEqual([made[3]]);

      const added = await send("POST", `/api/teams/${t.team_id}/members`, { user_id: made[2] });
      expect(added.status).toBe(201);
      expect(added.body).toEqual({ user_id: made[2], team_id: t.team_id, customer_id: c.customer_id });
      expect((await send("POST", `/api/teams/${t.team_id}/members`, { user_id: made[2] })).status).toBe(200);
      const rows = await audits("team", t.team_id);
      expect(rows.filter((r) => r.action === "add_member")).toHaveLength(2);
      expect((await app.read(`/api/teams/${t.team_id}/available-users`)).body.total).toBe(5);
      expect((await app.read(`/api/teams/${randomUUID()}/available-users`)).status).toBe(404);
    });

    it("keeps the membership rule: own customer, active team, active user", async () => {
      const c = await newCustomer();
      const t = await newTeam(c.customer_id);
      const other = await newUser((await newCustomer()).customer_id);
      const foreign = await send("POST", `/api/teams/${t.team_id}/members`, { user_id: other.user_id });
      expect(foreign.status).toBe(422);
      expect(foreign.body.error.fields.user_id).toBe(msg.teams.userOfOtherCustomer);
      const inactiveUser = await newUser(c.customer_id, `i-${uid()}@example.com`, { status: "inactive" });
      const refused = await send("POST", `/api/teams/${t.team_id}/members`, { user_id: inactiveUser.user_id });
      expect(refused.body.error.fields.user_id).toBe(msg.teams.userNotActive);
      const u = await newUser(c.customer_id);
      await patch(`/api/teams/${t.team_id}`, { status: "inactive" });
      const archived = await send("POST", `/api/teams/${t.team_id}/members`, { user_id: u.user_id });
      expect(archived.status).toBe(422);
      expect(archived.body.error.fields.user_id).toBe(msg.users.teamNotActive);
      expect((await send("POST", `/api/teams/${t.team_id}/members`, { user_id: randomUUID() })).status).toBe(404);
      expect((await send("POST", `/api/teams/${t.team_id}/members`, { user_id: u.user_id }, "viewer")).status).toBe(
        403,
      );
    });
  });
});
