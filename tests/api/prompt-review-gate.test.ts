/**
 * Prompt review's one gate, generated from the route table (docs/prompt-review.md, "One gate for
 * what platforms are served"): with PROMPT_REVIEW=all, every mutation route but the approvals is
 * called with a valid request (tests/support/route-requests.ts, as the role the route needs; the
 * plans a route refuses are tried in turn), and after each, what every platform is served (each
 * live assignment's prompt: title, content, version, skill, assignment time, as the delivery
 * statement reads them) is what it was. Then the paths the derived requests do not reach on their
 * own: restoring each kind of deletion that carries assignments (a prompt, an unassignment, a
 * platform deleted with its assignments, made before review was on) and undoing a bulk action made
 * before. Finally a second operator approves one change, and exactly that change is served.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bulkIdle } from "../../src/server/bulk/engine";
import { loadDemoData } from "../../src/server/db/demo-data";
import type { OperatorRole } from "../../src/domain/enums";
import { msg } from "../../src/domain/messages";
import { publicUrl, startConsole, type TestConsole } from "../support/app";
import { freshDatabase, targets } from "../support/databases";
import {
  Callers,
  mutationRoutes,
  RequestMaker,
  reservedRows,
  routeKey,
  type OpenApiDocument,
} from "../support/route-requests";

/** What every platform is served: each live assignment's prompt as the delivery statement reads it. */
type Served = Array<{ platform_id: string; prompt_id: string; title: string; value: string; version: number }>;

/** An approval is the one way through the gate: those routes are what this test does not call blindly. */
const isApproval = (path: string) => path.endsWith("/approve");

describe.each(targets)(
  "PROMPT_REVIEW=all on %s: nothing changes what platforms are served but an approval",
  (target) => {
    let app: TestConsole;
    /** The same database without review: what was deleted and done before review was turned on. */
    let before: TestConsole;
    let callers: Callers;
    let maker: RequestMaker;
    /** Requests of `before`, as an operator of `app` (one database, so one session table). */
    const earlier = async (method: string, path: string, json?: unknown) => {
      const res = await before.request(path, {
        method,
        headers: { cookie: await callers.cookie("admin"), origin: publicUrl },
        ...(json === undefined ? {} : { json }),
      });
      return { status: res.status, body: await res.json().catch(() => null) };
    };
    /**
     * A request of `role` through the callers, who sign in again when a derived request ended their
     * session (sign out everywhere, a password reset).
     */
    const call = async (method: string, path: string, json?: unknown, role: OperatorRole = "editor") => {
      const res = await app.request(path, {
        method,
        headers: { ...(await callers.headers(role)), origin: publicUrl },
        ...(json === undefined ? {} : { json }),
      });
      return { status: res.status, body: await res.json().catch(() => null) };
    };
    const served = () =>
      app.rows<Served[number]>(sql`
      select pp.platform_id::text as platform_id, pr.prompt_id::text as prompt_id, pr.prompt_title as title,
        pr.prompt_value as value, coalesce((select max(v.version) from prompt_versions v where v.prompt_id = pr.prompt_id), 1)::int as version,
        pr.skill_id::text as skill_id, pp.assigned_at::text as assigned_at
      from platform_prompts pp join pedal_prompts pr on pr.prompt_id = pp.prompt_id
      where pp.is_active and pr.status = 'active'
      order by pp.platform_id, pr.prompt_id`);
    /** Two active prompts with an active assignment each, not the same prompt. */
    const assignedPrompts = (n: number) =>
      app.rows<{ prompt_id: string; platform_id: string }>(sql`
      select distinct on (pp.prompt_id) pp.prompt_id::text as prompt_id, pp.platform_id::text as platform_id
      from platform_prompts pp join pedal_prompts pr on pr.prompt_id = pp.prompt_id
      join platforms pl on pl.platform_id = pp.platform_id
      where pp.is_active and pr.status = 'active' and pl.status = 'active'
      order by pp.prompt_id limit ${n}`);

    beforeAll(async () => {
      const handle = await freshDatabase(target);
      await loadDemoData(handle.db, { seed: 42 });
      app = await startConsole(target, { handle, promptReview: "all" });
      before = await startConsole(target, { handle, promptReview: "off" });
      callers = new Callers(app, "cookie");
      const doc = (await (
        await app.request("/api/openapi.json", { headers: await callers.headers("admin") })
      ).json()) as OpenApiDocument;
      maker = new RequestMaker(app, doc, callers, await reservedRows(app, callers), false);
    });
    // `before` shares the database, which `app` closes.
    afterAll(async () => {
      await bulkIdle();
      await app.close();
    });

    it("every mutation route but the approvals, and every restore and undo, leaves what platforms are served as it was", async () => {
      // Done before review was on: a prompt deleted, an assignment removed, a platform deleted with
      // its assignments, and a bulk archive of assigned prompts.
      const [p1, p2, p3, p4] = await assignedPrompts(4);
      expect((await earlier("DELETE", `/api/prompts/${p1.prompt_id}`)).status).toBe(200);
      expect((await earlier("DELETE", `/api/prompts/${p2.prompt_id}/platforms/${p2.platform_id}`)).status).toBe(200);
      const [platform] = await app.rows<{ platform_id: string }>(sql`
      select pp.platform_id::text as platform_id from platform_prompts pp where pp.is_active
        and pp.platform_id <> ${p3.platform_id} and pp.platform_id <> ${p4.platform_id}
      group by pp.platform_id order by count(*) desc limit 1`);
      expect((await earlier("DELETE", `/api/platforms/${platform.platform_id}?cascade=true`)).status).toBe(200);
      const archive = await earlier("POST", "/api/bulk/prompts/archive", {
        selection: { ids: [p3.prompt_id, p4.prompt_id] },
        params: {},
      });
      expect(archive.status).toBe(202);
      await bulkIdle();

      const start = await served();
      expect(start.length, "prompts served").toBeGreaterThan(10);
      const answers = new Map<string, number>();
      const routes = mutationRoutes().filter((r) => !isApproval(r.path));
      expect(routes.length).toBeGreaterThan(60);
      for (const route of routes) {
        let last = 0;
        await maker.find(route, async (request) => {
          const answer = await maker.send(request);
          await bulkIdle();
          last = answer.status;
          expect(
            await served(),
            `${routeKey(route)} (plan ${request.plan}): ${answer.status} ${answer.text.slice(0, 200)}`,
          ).toEqual(start);
          return answer.status < 300;
        });
        answers.set(routeKey(route), last);
      }
      // Most routes do what they are for; the ones that would change what is served say why they do not.
      const accepted = [...answers.values()].filter((s) => s < 300).length;
      expect(accepted, JSON.stringify(Object.fromEntries(answers))).toBeGreaterThan(routes.length * 0.8);

      // Restoring what was deleted before: the record comes back, each assignment is sent for review.
      const deletions = await app.rows<{ deletion_id: string; entity: string }>(sql`
      select deletion_id::text as deletion_id, entity from deleted_records
      where restored_at is null and entity in ('prompt', 'prompt_platform', 'platform') order by deleted_at`);
      expect(new Set(deletions.map((d) => d.entity))).toEqual(new Set(["prompt", "prompt_platform", "platform"]));
      for (const d of deletions) {
        const res = await call("POST", `/api/deleted/${d.deletion_id}/restore`);
        expect([200, 409], `${d.entity}: ${JSON.stringify(res.body)}`).toContain(res.status);
        expect(await served(), `restore of a ${d.entity}`).toEqual(start);
      }
      const sent = await app.rows<{ prompt_id: string; platform_id: string }>(sql`
      select prompt_id::text as prompt_id, platform_id::text as platform_id from prompt_changes
      where kind = 'assign' and status = 'pending'`);
      expect(sent).toContainEqual({ prompt_id: p1.prompt_id, platform_id: p1.platform_id });
      expect(sent).toContainEqual({ prompt_id: p2.prompt_id, platform_id: p2.platform_id });

      // Undoing the bulk archive would serve the two prompts again: both rows are skipped.
      const undo = await call("POST", `/api/bulk/${archive.body.bulk_id}/undo`, {}, "admin");
      expect([202, 409]).toContain(undo.status);
      await bulkIdle();
      expect(await served(), "undo of a bulk archive").toEqual(start);
      if (undo.status === 202) {
        const report = await call("GET", `/api/bulk/${undo.body.bulk_id}/report?outcome=skipped`, undefined, "admin");
        expect(report.body.items.map((r: { reason: string }) => r.reason)).toEqual([
          msg.bulk.needsReview,
          msg.bulk.needsReview,
        ]);
      }

      // A second operator approves one change: exactly that change is served.
      const [target] = await assignedPrompts(1);
      const text = `Approved text ${Date.now()}`;
      const proposed = await call("PATCH", `/api/prompts/${target.prompt_id}`, { prompt_value: text });
      expect(proposed.status).toBe(202);
      expect(await served()).toEqual(start);
      const approved = await call("POST", `/api/prompt-changes/${proposed.body.change_id}/approve`, {}, "admin");
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
      const expected = start.map((s) =>
        s.prompt_id === target.prompt_id ? { ...s, value: text, version: approved.body.applied_version } : s,
      );
      expect(await served()).toEqual(expected);
      const delivery = (await call("GET", `/api/delivery/platforms/${target.platform_id}/prompts`, undefined, "viewer"))
        .body;
      expect(delivery.prompts.find((p: { prompt_id: string }) => p.prompt_id === target.prompt_id).prompt_value).toBe(
        text,
      );
    }, 600_000);

    it("the database refuses a write past review whatever path makes it: 409 review_required, nothing written", async () => {
      const [one] = await assignedPrompts(1);
      // A platform with live assignments cannot be deleted while review covers them.
      const res = await call("DELETE", `/api/platforms/${one.platform_id}?cascade=true`, undefined, "admin");
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ code: "review_required", message: msg.reviews.reviewRequired });
      expect(await app.count(sql`select 1 from platforms where platform_id = ${one.platform_id}`)).toBe(1);
    });
  },
);
