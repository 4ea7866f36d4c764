/**
 * Comments API (SPEC.md §2 "/comments", §3 skill_comments; moderation beyond the spec): the list's
 * cards and totals against direct SQL for every filter combination, names from joins, sorts; each
 * status change with updated_at and its audit row; the optimistic check (two reviewers, one
 * wins, the other gets 409 "Already decided by …"); bulk by ids all or nothing; bulk by filter
 * equal to its dry run, one audit row per comment, the empty filter refused without `all`; the
 * review queue. On PGlite and PostgreSQL.
 */
import { sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commentStatuses } from "../../src/domain/enums";
import { msg } from "../../src/domain/messages";
import { startConsole, type TestConsole } from "../support/app";
import { targets } from "../support/databases";

type Row = { comment_id: string; status: string; customer_id: string };

describe.each(targets)("comments API on %s", (target) => {
  let app: TestConsole;
  beforeAll(async () => {
    app = await startConsole(target, { demo: true });
  });
  afterAll(() => app.close());

  const rows = <T>(query: SQL) => app.rows<T>(query);
  const get = (path: string) => app.read(path);
  const send = (method: string, path: string, json?: unknown) => app.write(method, path, json);

  /** A new comment of its own (on a demo user's customer and a demo skill), so tests do not share rows. */
  async function newComment(status = "pending", customerId?: string): Promise<Row> {
    const [u] = await rows<{ user_id: string; customer_id: string }>(sql`
      select user_id, customer_id from users_data ${customerId ? sql`where customer_id = ${customerId}` : sql``} order by user_id limit 1`);
    const [s] = await rows<{ skill_id: string }>(sql`select skill_id from skills order by skill_id limit 1`);
    const [row] = await rows<Row>(sql`
      insert into skill_comments (customer_id, skill_id, user_id, comment_value, status, created_at, updated_at)
      values (${u.customer_id}, ${s.skill_id}, ${u.user_id}, ${"Test comment " + Math.random().toString(36).slice(2)}, ${status},
        now() - interval '10 years' + (random() * interval '1 day'), now() - interval '1 day')
      returning comment_id, status, customer_id`);
    return row;
  }

  const countSql = async (where: SQL) => {
    const [r] = await rows<Record<string, number>>(sql`
      select count(*)::int as total, ${sql.join(
        commentStatuses.map((s) => sql`count(*) filter (where sm.status = ${s})::int as ${sql.identifier(s)}`),
        sql`, `,
      )}
      from skill_comments sm where ${where}`);
    return r;
  };

  describe("GET /api/comments", () => {
    it("gives every filter combination the cards and total of a direct SQL count", async () => {
      const [{ customer_id }] = await rows<{ customer_id: string }>(
        sql`select customer_id from skill_comments group by customer_id order by count(*) desc, customer_id limit 1`,
      );
      for (const status of [undefined, ...commentStatuses]) {
        for (const customer of [undefined, customer_id]) {
          for (const q of [undefined, "great"]) {
            const params = new URLSearchParams({ limit: "5" });
            const parts: SQL[] = [sql`true`];
            if (status) {
              params.set("status", status);
              parts.push(sql`sm.status = ${status}`);
            }
            if (customer) {
              params.set("customer_id", customer);
              parts.push(sql`sm.customer_id = ${customer}`);
            }
            if (q) {
              params.set("q", q);
              parts.push(sql`(sm.comment_value ilike ${"%" + q + "%"}
                or exists (select 1 from users_data u where u.user_id = sm.user_id and (coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) ilike ${"%" + q + "%"})
                or exists (select 1 from skills s where s.skill_id = sm.skill_id and s.skill_name ilike ${"%" + q + "%"})
                or exists (select 1 from customers c where c.customer_id = sm.customer_id and c.customer_name ilike ${"%" + q + "%"}))`);
            }
            const expected = await countSql(sql.join(parts, sql` and `));
            const { status: code, body } = await get(`/api/comments?${params}`);
            expect(code, params.toString()).toBe(200);
            expect(body.total, params.toString()).toBe(expected.total);
            expect(body.summary, params.toString()).toEqual(expected);
            if (status) for (const item of body.items) expect(item.status).toBe(status);
            if (customer) for (const item of body.items) expect(item.customer_id).toBe(customer);
          }
        }
      }
    });

    it("names user, skill and customer from joins and sorts on every column but Comment", async () => {
      const { body } = await get("/api/comments?limit=3");
      const first = body.items[0];
      const [named] = await rows<Record<string, string>>(sql`
        select u.first_name, u.last_name, s.skill_name, c.customer_name from skill_comments sm
        join users_data u on u.user_id = sm.user_id join skills s on s.skill_id = sm.skill_id join customers c on c.customer_id = sm.customer_id
        where sm.comment_id = ${first.comment_id}`);
      expect(first).toMatchObject(named);
      for (const sort of ["user", "skill_name", "customer_name", "status", "created_at"]) {
        for (const order of ["asc", "desc"]) {
          const page1 = await get(`/api/comments?limit=20&sort=${sort}&order=${order}`);
          expect(page1.status, sort).toBe(200);
          const page2 = await get(
            `/api/comments?limit=20&sort=${sort}&order=${order}&cursor=${encodeURIComponent(page1.body.next_cursor)}`,
          );
          expect(page2.status, sort).toBe(200);
          const ids = [...page1.body.items, ...page2.body.items].map((c: { comment_id: string }) => c.comment_id);
          expect(new Set(ids).size, `${sort} ${order}: no row twice across pages`).toBe(40);
        }
      }
      const sorted = (await get("/api/comments?limit=50&sort=status&order=asc")).body.items.map(
        (c: { status: string }) => c.status,
      );
      expect(sorted).toEqual([...sorted].sort());
      expect((await get("/api/comments?sort=comment_value")).status).toBe(422);
    });
  });

  describe("PATCH /api/comments/{id}", () => {
    it("moves a comment through each status, setting updated_at, writing an audit row and updating the cards", async () => {
      const c = await newComment("pending");
      const before = (await get("/api/comments?limit=1")).body.summary;
      let last = c.status;
      for (const status of ["active", "rejected", "inactive", "pending", "rejected"] as const) {
        const res = await send("PATCH", `/api/comments/${c.comment_id}`, { status, expected_status: last });
        expect(res.status, status).toBe(200);
        expect(res.body.status).toBe(status);
        expect(Date.now() - Date.parse(res.body.updated_at)).toBeLessThan(60_000);
        last = status;
      }
      const audit = await rows<{
        action: string;
        changes: { before: { status: string }; after: { status: string } };
      }>(sql`
        select action, changes from audit_log where entity = 'comment' and entity_id = ${c.comment_id} order by created_at, audit_id`);
      expect(audit.map((a) => [a.action, a.changes.before.status, a.changes.after.status])).toEqual([
        ["moderate", "pending", "active"],
        ["moderate", "active", "rejected"],
        ["moderate", "rejected", "inactive"],
        ["moderate", "inactive", "pending"],
        ["moderate", "pending", "rejected"],
      ]);
      const after = (await get("/api/comments?limit=1")).body.summary;
      expect(after.pending).toBe(before.pending - 1);
      expect(after.rejected).toBe(before.rejected + 1);
      expect(after.total).toBe(before.total);
      // The same status again writes nothing.
      expect((await send("PATCH", `/api/comments/${c.comment_id}`, { status: "rejected" })).status).toBe(200);
      expect(
        await app.count(sql`select 1 from audit_log where entity = 'comment' and entity_id = ${c.comment_id}`),
      ).toBe(5);
    });

    it("lets one of two reviewers deciding the same comment at once win; the other gets 409 naming the winner", async () => {
      const c = await newComment("pending");
      const [a, b] = await Promise.all([
        app.write("PATCH", `/api/comments/${c.comment_id}`, { status: "active", expected_status: "pending" }, "editor"),
        app.write(
          "PATCH",
          `/api/comments/${c.comment_id}`,
          { status: "rejected", expected_status: "pending" },
          "admin",
        ),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const winner = a.status === 200 ? a : b;
      const loser = a.status === 200 ? b : a;
      const winnerEmail = a.status === 200 ? "editor@test.example" : "admin@test.example";
      expect(loser.body.error).toEqual({ code: "conflict", message: msg.comments.alreadyDecided(winnerEmail) });
      const [now] = await rows<{ status: string }>(
        sql`select status from skill_comments where comment_id = ${c.comment_id}`,
      );
      expect(now.status).toBe(winner.body.status);
      expect(
        await app.count(sql`select 1 from audit_log where entity = 'comment' and entity_id = ${c.comment_id}`),
      ).toBe(1);
    });

    it("answers 404 for an unknown comment and 422 for a bad status, changing nothing", async () => {
      expect(
        (await send("PATCH", "/api/comments/00000000-0000-4000-8000-000000000000", { status: "active" })).body.error
          .message,
      ).toBe(msg.comments.notFound);
      const c = await newComment("pending");
      const bad = await send("PATCH", `/api/comments/${c.comment_id}`, { status: "approved" });
      expect(bad.status).toBe(422);
      expect(bad.body.error.fields.status).toBe(msg.comments.badStatus);
      expect((await app.write("PATCH", `/api/comments/${c.comment_id}`, { status: "active" }, "viewer")).status).toBe(
        403,
      );
    });
  });

  describe("POST /api/comments/bulk", () => {
    it("changes a selection by ids all or nothing: an unknown id changes nothing", async () => {
      const a = await newComment("pending");
      const b = await newComment("active");
      const unknown = "00000000-0000-4000-8000-000000000001";
      const refused = await send("POST", "/api/comments/bulk", {
        status: "rejected",
        ids: [a.comment_id, b.comment_id, unknown],
      });
      expect(refused.status).toBe(422);
      expect(refused.body.error.message).toBe(msg.comments.unknownIds(1));
      const still = await rows<{ status: string }>(
        sql`select status from skill_comments where comment_id in (${a.comment_id}, ${b.comment_id}) order by status`,
      );
      expect(still.map((r) => r.status)).toEqual(["active", "pending"]);

      const preview = await send("POST", "/api/comments/bulk", {
        status: "rejected",
        ids: [a.comment_id, b.comment_id],
        dry_run: true,
      });
      expect(preview.body).toEqual({
        matched: 2,
        changed: 2,
        from: { pending: 1, active: 1, inactive: 0, rejected: 0 },
        dry_run: true,
      });
      const done = await send("POST", "/api/comments/bulk", { status: "rejected", ids: [a.comment_id, b.comment_id] });
      expect(done.body).toEqual({ ...preview.body, dry_run: false });
      expect(
        await app.count(
          sql`select 1 from skill_comments where comment_id in (${a.comment_id}, ${b.comment_id}) and status = 'rejected'`,
        ),
      ).toBe(2);
      expect(
        await app.count(
          sql`select 1 from audit_log where entity = 'comment' and entity_id in (${a.comment_id}, ${b.comment_id}) and action = 'moderate'`,
        ),
      ).toBe(2);
    });

    it("applies a filter exactly as its dry run counted, one audit row per comment", async () => {
      const [{ customer_id }] = await rows<{ customer_id: string }>(
        sql`select customer_id from skill_comments group by customer_id order by count(*) desc, customer_id limit 1`,
      );
      await newComment("pending", customer_id);
      await newComment("inactive", customer_id);
      const filter = { customer_id };
      const expected = await countSql(sql`sm.customer_id = ${customer_id}`);
      const preview = await send("POST", "/api/comments/bulk", { status: "active", filter, dry_run: true });
      expect(preview.status).toBe(200);
      expect(preview.body.matched).toBe(expected.total);
      expect(preview.body.from).toEqual({
        pending: expected.pending,
        active: 0,
        inactive: expected.inactive,
        rejected: expected.rejected,
      });
      const auditBefore = await app.count(sql`select 1 from audit_log where entity = 'comment'`);
      const done = await send("POST", "/api/comments/bulk", { status: "active", filter });
      expect(done.body).toEqual({ ...preview.body, dry_run: false });
      expect(
        await app.count(sql`select 1 from skill_comments where customer_id = ${customer_id} and status <> 'active'`),
      ).toBe(0);
      expect(await app.count(sql`select 1 from audit_log where entity = 'comment'`)).toBe(
        auditBefore + preview.body.changed,
      );
      // The cards follow.
      const cards = (await get(`/api/comments?customer_id=${customer_id}&limit=1`)).body.summary;
      expect(cards).toMatchObject({ total: expected.total, active: expected.total, pending: 0 });
      const all = (await get("/api/comments?limit=1")).body.summary;
      expect(all).toEqual(await countSql(sql`true`));
    });

    it("refuses an empty filter without all, both ids and a filter, and a viewer", async () => {
      const empty = await send("POST", "/api/comments/bulk", { status: "active", filter: {}, dry_run: true });
      expect(empty.status).toBe(422);
      expect(empty.body.error.message).toBe(msg.comments.emptyFilter);
      const both = await send("POST", "/api/comments/bulk", {
        status: "active",
        ids: ["00000000-0000-4000-8000-000000000001"],
        filter: { status: "pending" },
      });
      expect(both.status).toBe(422);
      const everything = await send("POST", "/api/comments/bulk", {
        status: "active",
        filter: {},
        all: true,
        dry_run: true,
      });
      expect(everything.status).toBe(200);
      expect(everything.body.matched).toBe((await countSql(sql`true`)).total);
      expect(
        (await app.write("POST", "/api/comments/bulk", { status: "active", filter: { status: "pending" } }, "viewer"))
          .status,
      ).toBe(403);
    });
  });

  describe("GET /api/comments/queue", () => {
    it("gives the oldest pending comment with its names and what remains; after skips ahead", async () => {
      const first = await newComment("pending");
      const { body } = await get("/api/comments/queue");
      const [oldest] = await rows<{ comment_id: string }>(
        sql`select comment_id from skill_comments where status = 'pending' order by created_at, comment_id limit 1`,
      );
      expect(body.comment.comment_id).toBe(oldest.comment_id);
      expect(body.comment.skill_name).toEqual(expect.any(String));
      expect(body.remaining).toBe(await app.count(sql`select 1 from skill_comments where status = 'pending'`));
      const next = await get(`/api/comments/queue?after=${body.comment.comment_id}`);
      const [second] = await rows<{ comment_id: string }>(
        sql`select comment_id from skill_comments where status = 'pending' order by created_at, comment_id offset 1 limit 1`,
      );
      expect(next.body.comment?.comment_id ?? null).toBe(second?.comment_id ?? null);
      const one = await get(`/api/comments/queue?customer_id=${first.customer_id}`);
      expect(one.body.remaining).toBe(
        await app.count(
          sql`select 1 from skill_comments where status = 'pending' and customer_id = ${first.customer_id}`,
        ),
      );
      expect((await get(`/api/comments/${first.comment_id}`)).body.comment_id).toBe(first.comment_id);
      expect((await get("/api/comments/queue?after=nope")).status).toBe(422);
    });
  });
});
