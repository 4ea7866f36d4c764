/**
 * The bulk actions API (docs/bulk-actions.md): per declared action a preview and a start route,
 * and for every run its progress, cancel, undo and per-row report (JSON pages and CSV). Every route needs
 * the editor role: a viewer can neither change records nor read what a change did to them here.
 */
import { z, type RouteConfig } from "@hono/zod-openapi";
import type { Context } from "hono";
import { stringify } from "csv-stringify/sync";
import { sql } from "drizzle-orm";
import {
  bulkPreviewSchema,
  bulkProgressSchema,
  bulkReportPageSchema,
  bulkReportQuerySchema,
  bulkSelectionSchema,
  type BulkEntity,
  type BulkProgress,
} from "../../domain/bulk";
import { msg } from "../../domain/messages";
import { queryRows } from "../db/client";
import { mutate } from "../audit";
import type { AppEnv } from "../http/env";
import { errorBodySchema, HttpError, notFound } from "../http/errors";
import { toJson } from "../http/list";
import { csvCell, csvOptions } from "../http/list-routes";
import type { FilterSpec } from "../http/lists";
import { apiRoute, createRouter, invalidResponse, jsonBody, jsonResponse, notFoundResponse } from "../http/route";
import { roleAtLeast } from "../../domain/enums";
import { bulkContextOf, previewBulk, startBulk, startUndo, type AnyBulkAction } from "./engine";
import type { BulkSelection } from "../../domain/bulk";

export const bulkBase = "/api/bulk";
export const bulkRouter = createRouter();
const tags = ["Bulk actions"];
const runParams = z.object({ bulkId: z.guid({ error: msg.bulk.runNotFound }) });
/** The mounted declarations by `entity/action` (an undo finds its original's). */
const declared = new Map<string, AnyBulkAction>();

/** The body of an action's routes: `{ selection, params }`, the selection's filter from its list. */
function bodySchema(decl: AnyBulkAction) {
  const filter = z.strictObject(
    Object.fromEntries(Object.entries(decl.list.filters).map(([k, f]) => [k, (f as FilterSpec).schema])),
  );
  return z.strictObject({ selection: bulkSelectionSchema(filter), params: decl.params });
}

/**
 * Mounts every declared action: `POST /api/bulk/{entity}/{action}/preview` (the dry run: 200
 * `{ total, will_change, skipped: [{ reason, count }], sample }`) and `POST /api/bulk/{entity}/{action}`
 * (202 `{ bulk_id }`, applied in the background). Both answer 422 for a selection over
 * `bulkLimits.maxSelection`, listed ids that no longer exist, or parameters the action refuses
 * (an inactive team...), 404 for a parameter naming no record. Called once, at import of the app.
 */
export function mountBulkActions(actions: AnyBulkAction[]) {
  for (const decl of actions) {
    declared.set(`${decl.entity}/${decl.action}`, decl);
    const body = bodySchema(decl);
    const path = `/${decl.entity}/${decl.action}`;
    const description = `${decl.summary}. Selection: \`ids\` (1–5,000) or \`filter\` (+ \`q\`) with the filters of GET /api/${decl.entity}.`;
    const preview = apiRoute(bulkBase, "editor", {
      method: "post",
      path: `${path}/preview`,
      tags,
      summary: `${decl.summary}: preview`,
      description,
      request: { body: jsonBody(body) },
      responses: {
        200: jsonResponse(bulkPreviewSchema, "What the action would do; nothing written"),
        ...notFoundResponse("A parameter names no record"),
        ...invalidResponse,
      },
    });
    const start = apiRoute(bulkBase, "editor", {
      method: "post",
      path,
      tags,
      summary: decl.summary,
      description: `${description} Runs in the background in batches of at most 1,000 rows; follow GET /api/bulk/{bulkId}.`,
      request: { body: jsonBody(body) },
      responses: {
        202: jsonResponse(z.object({ bulk_id: z.guid() }), "Started"),
        ...notFoundResponse("A parameter names no record"),
        ...invalidResponse,
      },
    });
    bulkRouter.openapi(preview, async (c) => {
      // Each action checks its own parameters (`decl.params`); here they are only passed on.
      const body: { selection: BulkSelection; params: unknown } = c.req.valid("json");
      const { selection, params } = body;
      return c.json(await previewBulk(c, decl, params, selection, bulkContextOf(c)), 200);
    });
    bulkRouter.openapi(start, async (c) => {
      // Each action checks its own parameters (`decl.params`); here they are only passed on.
      const body: { selection: BulkSelection; params: unknown } = c.req.valid("json");
      const { selection, params } = body;
      return c.json({ bulk_id: await startBulk(c, decl, params, selection) }, 202);
    });
  }
}

/**
 * Registers an action whose run another route starts (an import's: POST /api/imports/{importId}/apply),
 * so that its progress, report and undo are /api/bulk's like any other's; no route of its own here.
 */
export function registerBulkAction(decl: AnyBulkAction) {
  declared.set(`${decl.entity}/${decl.action}`, decl);
}

/** The declaration of `entity`/`action`, mounted or registered (what a resumed run or an undo runs). */
export const bulkDeclaration = (entity: string, action: string) => declared.get(`${entity}/${action}`);

/**
 * Declares a route of one run, `/{bulkId}…` (editor): the run's id added to `request`, and the 404
 * of an unknown run to `responses`.
 */
function runRoute<
  M extends "get" | "post",
  P extends string,
  Q extends Omit<NonNullable<RouteConfig["request"]>, "params">,
  S extends RouteConfig["responses"],
>(route: { method: M; path: P; summary: string; description?: string; request: Q; responses: S }) {
  return apiRoute(bulkBase, "editor", {
    method: route.method,
    path: route.path,
    tags,
    summary: route.summary,
    ...(route.description === undefined ? {} : { description: route.description }),
    request: { params: runParams, ...route.request },
    responses: { ...route.responses, ...notFoundResponse(msg.bulk.runNotFound) },
  });
}

/** GET /api/bulk/{bulkId} → the action's status and counters (the screen polls it); 404. */
const status = runRoute({
  method: "get",
  path: "/{bulkId}",
  summary: "A bulk action's progress",
  request: {},
  responses: { 200: jsonResponse(bulkProgressSchema, "Progress") },
});

/**
 * POST /api/bulk/{bulkId}/cancel → the progress: asks a running action to stop after its current
 * batch (what was committed stays, with its report). 409 when it has already ended; 404.
 */
const cancel = runRoute({
  method: "post",
  path: "/{bulkId}/cancel",
  summary: "Cancel a bulk action between batches",
  request: { body: jsonBody(z.strictObject({})) },
  responses: {
    200: jsonResponse(bulkProgressSchema, "Cancel requested"),
    409: jsonResponse(errorBodySchema, msg.bulk.notRunning),
  },
});

/**
 * POST /api/bulk/{bulkId}/undo `{}` → 202 `{ bulk_id }`: starts the undo of an ended action, a
 * bulk action of its own (action `undo`, `undo_of` the original; its progress, cancel and report
 * at the same routes) that puts back each row the original changed, skipping with the reason those
 * changed since. 403 another operator's action unless admin; 404; 409 still running, an undo
 * itself, already undone or being undone, or nothing to put back.
 */
const undo = runRoute({
  method: "post",
  path: "/{bulkId}/undo",
  summary: "Undo a bulk action",
  description:
    "Puts back what the action changed, as a new bulk action (batches of at most 1,000 rows; follow GET /api/bulk/{bulkId}). Rows changed since are skipped with the reason. An editor undoes their own actions, an admin anyone's.",
  request: { body: jsonBody(z.strictObject({})) },
  responses: {
    202: jsonResponse(z.object({ bulk_id: z.guid() }), "Undo started"),
    409: jsonResponse(errorBodySchema, `${msg.bulk.undoRunning}; ${msg.bulk.alreadyUndone}; ${msg.bulk.undoOfUndo}`),
  },
});

/** GET /api/bulk/{bulkId}/report?after&limit&outcome → rows in selection order (keyset on seq); 404. */
const report = runRoute({
  method: "get",
  path: "/{bulkId}/report",
  summary: "A bulk action's per-row report",
  request: { query: bulkReportQuerySchema },
  responses: { 200: jsonResponse(bulkReportPageSchema, "One page"), ...invalidResponse },
});

/** GET /api/bulk/{bulkId}/report.csv → every report row as CSV (formula-neutralised cells); 404. */
const reportCsv = runRoute({
  method: "get",
  path: "/{bulkId}/report.csv",
  summary: "A bulk action's per-row report as CSV",
  request: {},
  responses: { 200: { description: "CSV", content: { "text/csv": { schema: z.string() } } } },
});

/**
 * The progress of a run, with `undo_of` (the action an undo puts back), `undone_by` (its latest
 * undo) and `can_undo`: whether this operator may undo it now (ended, no undo running or done, it
 * changed something, an undo itself is not undone, and it is theirs unless they are an admin).
 */
async function readProgress(c: Context<AppEnv>, bulkId: string): Promise<BulkProgress> {
  const user = c.get("session")?.user as { id?: string; role?: string } | undefined;
  const [row] = await queryRows<BulkProgress & { operator_id: string | null; undo_open: boolean }>(
    c.get("db"),
    sql`select b.bulk_id, b.entity, b.action, b.params, b.selection, b.status, b.total, b.processed, b.changed, b.skipped,
      b.failed, b.cancel_requested, b.operator_id, b.operator_email, b.created_at, b.updated_at, b.finished_at, b.undo_of,
      (select u.bulk_id from bulk_actions u where u.undo_of = b.bulk_id order by u.created_at desc limit 1) as undone_by,
      exists (select 1 from bulk_actions u where u.undo_of = b.bulk_id and u.status in ('running', 'done')) as undo_open
      from bulk_actions b where b.bulk_id = ${bulkId}`,
  );
  if (!row) throw notFound(msg.bulk.runNotFound);
  const { operator_id, undo_open, ...progress } = row;
  const mine = operator_id !== null && operator_id === user?.id;
  const can_undo =
    progress.status !== "running" &&
    progress.undo_of === null &&
    !undo_open &&
    progress.changed > 0 &&
    (mine || roleAtLeast(user?.role, "admin"));
  return toJson({ ...progress, can_undo });
}

type ReportRow = {
  seq: number;
  row_id: string;
  label: string | null;
  outcome: "changed" | "skipped" | "failed";
  reason: string | null;
};
const reportBatch = 5_000;

bulkRouter
  .openapi(status, async (c) => c.json(await readProgress(c, c.req.valid("param").bulkId), 200))
  .openapi(cancel, async (c) => {
    const { bulkId } = c.req.valid("param");
    const current = await readProgress(c, bulkId);
    if (current.status !== "running") throw new HttpError(409, "conflict", msg.bulk.notRunning);
    // Audited: who stopped an action is part of its story (the batches already done stay).
    await mutate(c, async (tx) => {
      await tx.execute(
        sql`update bulk_actions set cancel_requested = true, updated_at = clock_timestamp() where bulk_id = ${bulkId} and status = 'running'`,
      );
      return {
        result: null,
        audit: [
          {
            action: "bulk_cancel",
            entity: current.entity as BulkEntity,
            entity_id: bulkId,
            before: { cancel_requested: false },
            after: { cancel_requested: true },
          },
        ],
      };
    });
    return c.json(await readProgress(c, bulkId), 200);
  })
  .openapi(undo, async (c) => {
    const { bulkId } = c.req.valid("param");
    const undoId = await startUndo(c, bulkId, bulkDeclaration);
    return c.json({ bulk_id: undoId }, 202);
  })
  .openapi(report, async (c) => {
    const { bulkId } = c.req.valid("param");
    const { after, limit, outcome } = c.req.valid("query");
    const run = await readProgress(c, bulkId);
    const items = await queryRows<ReportRow>(
      c.get("db"),
      sql`select seq, row_id, label, outcome, reason from bulk_action_rows
        where bulk_id = ${bulkId} and seq > ${after} ${outcome ? sql`and outcome = ${outcome}` : sql``}
        order by seq limit ${limit + 1}`,
    );
    const more = items.length > limit;
    const page = items.slice(0, limit);
    const total = outcome ? run[outcome] : run.processed;
    return c.json({ items: page, total, next_after: more ? page[page.length - 1].seq : null }, 200);
  })
  .openapi(reportCsv, async (c) => {
    const { bulkId } = c.req.valid("param");
    const run = await readProgress(c, bulkId);
    const encoder = new TextEncoder();
    const db = c.get("db");
    // Streamed in keyset batches on (bulk_id, seq): a report of 200,000 rows is never held at once.
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(encoder.encode(stringify([["Record ID", "Record", "Outcome", "Reason"]], csvOptions)));
        let after = -1;
        for (;;) {
          const rows = await queryRows<ReportRow>(
            db,
            sql`select seq, row_id, label, outcome, reason from bulk_action_rows
              where bulk_id = ${bulkId} and seq > ${after} order by seq limit ${reportBatch}`,
          );
          if (rows.length === 0) break;
          controller.enqueue(
            encoder.encode(
              stringify(
                rows.map((r) => [r.row_id, r.label, r.outcome, r.reason].map(csvCell)),
                csvOptions,
              ),
            ),
          );
          after = rows[rows.length - 1].seq;
        }
        controller.close();
      },
    });
    return new Response(stream, {
      status: 200,
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="bulk-${run.entity}-${run.action}-${bulkId.slice(0, 8)}.csv"`,
      },
    });
  });
