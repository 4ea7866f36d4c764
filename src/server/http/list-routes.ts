import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { stringify } from "csv-stringify/sync";
import { sql, type SQL } from "drizzle-orm";
import { queryRows } from "../db/client";
import { writeAudit } from "../audit";
import { errorBodySchema } from "./errors";
import { listPage } from "../../domain/common";
import { listAll, listQuerySchema, runList, type ListDeclaration, type ListQuery } from "./lists";
import type { AppEnv } from "./env";
import { apiRoute, invalidResponse, jsonResponse, type RouteAccess } from "./route";
import type { OpenAPIHono } from "@hono/zod-openapi";

/** How a nested list (e.g. a user's teams) is scoped by its path parameters. */
export type ListScope<P> = {
  /** The fixed condition of the list for these parameters. */
  where: (params: P) => SQL;
  /**
   * Whether the parent record exists (SQL boolean): read within the list's own statements, so that
   * a nested list costs no extra one. The route answers 404 with `notFound` when not.
   */
  exists: (params: P) => SQL;
  notFound: string;
};

/** The mount options of a list: where it lives, who may read it, and how it is described. */
export type MountOptions<I, S, F extends Record<string, unknown>, P> = {
  base: string;
  /** Path relative to `base`, "/" or e.g. "/{userId}/teams". */
  path: string;
  access: RouteAccess;
  tags: string[];
  summary: string;
  description: string;
  list: ListDeclaration<I, S, F>;
  params?: z.ZodType<P>;
  scope?: ListScope<P>;
};

/** Every mounted list (full OpenAPI path, declaration, scope): the contract tests walk it. */
// Declarations of every item, summary and filter type side by side: only `any` holds them all.
/* eslint-disable @typescript-eslint/no-explicit-any */
export const listTable: Array<{
  path: string;
  access: RouteAccess;
  list: ListDeclaration<any, any, any>;
  scope?: ListScope<any>;
}> = [];
/* eslint-enable @typescript-eslint/no-explicit-any */

/** Cells starting with these could be run as formulas by a spreadsheet (CSV injection). */
const formulaStart = /^[=+\-@\t\r]/;

/** A cell value as CSV text: strings that a spreadsheet would read as a formula get a leading apostrophe. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return csvCell(value.join(", "));
  if (typeof value === "string") return formulaStart.test(value) ? `'${value}` : value;
  if (typeof value === "object") return csvCell(JSON.stringify(value));
  return String(value);
}

const filtersOf = (list: { filters: Record<string, unknown> }, query: Record<string, unknown>) =>
  Object.fromEntries(Object.keys(list.filters).map((k) => [k, query[k]]));

/**
 * Declares a list's two routes on `router` from its declaration:
 * - `GET {path}`: one page (docs/lists.md: paging contract), role `access`;
 * - `GET {path}/export.csv`: every matching row as CSV (same filters, search and sort; `bom=1`
 *   adds a UTF-8 byte order mark for spreadsheet programs), streamed in keyset batches, audited
 *   (action `export`: who, which filters, how many rows).
 * Both answer 422 for bad parameters and, for a nested list, 404 with the parent's message.
 */
export function mountList<I, S, F extends Record<string, unknown>, P>(
  router: OpenAPIHono<AppEnv>,
  options: MountOptions<I, S, F, P>,
) {
  const { list, scope } = options;
  listTable.push({
    path: options.base + (options.path === "/" ? "" : options.path),
    access: options.access,
    list,
    scope,
  });
  const query = listQuerySchema(list);
  const params = options.params as z.ZodObject | undefined;
  const notFound: Record<string, ReturnType<typeof jsonResponse>> = scope
    ? { 404: jsonResponse(errorBodySchema, scope.notFound) }
    : {};
  const pageRoute = apiRoute(options.base, options.access, {
    method: "get",
    path: options.path,
    tags: options.tags,
    summary: options.summary,
    description: options.description,
    request: { query, ...(params ? { params } : {}) },
    responses: {
      200: jsonResponse(listPage(list.item as z.ZodType, list.summarySchema as z.ZodType), "One page"),
      ...invalidResponse,
      ...notFound,
    },
  });
  const exportPath = `${options.path === "/" ? "" : options.path}/export.csv`;
  const exportRoute = apiRoute(options.base, options.access, {
    method: "get",
    path: exportPath,
    tags: options.tags,
    summary: `${options.summary}: CSV export`,
    description: "Every row matching the filters and search, in the list's sort, as CSV (RFC 4180, UTF-8). Audited.",
    request: { query: listQuerySchema(list, { bom: z.enum(["0", "1"]).optional() }), ...(params ? { params } : {}) },
    responses: {
      200: { description: "CSV", content: { "text/csv": { schema: z.string() } } },
      ...invalidResponse,
      ...notFound,
    },
  });

  const request = (c: Context<AppEnv>) => {
    const q = (c.req as unknown as { valid: (t: string) => ListQuery }).valid("query");
    const p = params ? (c.req as unknown as { valid: (t: string) => P }).valid("param") : (undefined as P);
    return {
      q,
      p,
      req: { query: q, filters: filtersOf(list, q) as F, scope: scope?.where(p), parentExists: scope?.exists(p) },
    };
  };

  router.openapi(pageRoute, (async (c: Context<AppEnv>) => {
    const { req } = request(c);
    const { parent_found, ...page } = await runList(c.var.db, list, req, {
      settings: c.var.lists.settings,
      cache: c.var.lists.cache,
      now: c.var.lists.now,
    });
    if (scope && parent_found === false) return c.json({ error: { code: "not_found", message: scope.notFound } }, 404);
    return c.json(page, 200);
  }) as never);

  router.openapi(exportRoute, (async (c: Context<AppEnv>) => {
    const { q, req } = request(c);
    if (scope) {
      const [found] = await queryRows<{ p: boolean }>(c.var.db, sql`select (${req.parentExists!}) as p`);
      if (!found.p) return c.json({ error: { code: "not_found", message: scope.notFound } }, 404);
    }
    const bom = (q as { bom?: string }).bom === "1";
    const encoder = new TextEncoder();
    const batches = listAll(c.var.db, list, req);
    // The first batch is read before answering, so that a value the database refuses (a date out of
    // range...) is answered 4xx by the app's error handler instead of breaking a 200 stream.
    let pending: IteratorResult<I[]> | undefined = await batches.next();
    let rows = 0;
    let first = true;
    let audited = false;
    const audit = async (complete: boolean) => {
      if (audited) return;
      audited = true;
      await writeAudit(c.var.db, c, [
        {
          action: "export",
          entity: list.name,
          entity_id: null,
          after: {
            filters: Object.fromEntries(Object.entries(req.filters).filter(([, v]) => v !== undefined)),
            q: q.q ?? null,
            sort: q.sort,
            order: q.order,
            rows,
            complete,
          },
        },
      ]).catch((err) => c.var.logger.error({ err, requestId: c.var.requestId }, "export audit failed"));
    };
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const next = pending ?? (await batches.next());
          pending = undefined;
          const header = first ? [list.csv.map((col) => col.header)] : [];
          const records = next.done ? [] : next.value.map((item) => list.csv.map((col) => csvCell(col.value(item))));
          rows += records.length;
          if (header.length || records.length) {
            controller.enqueue(
              encoder.encode(stringify([...header, ...records], { bom: first && bom, record_delimiter: "windows" })),
            );
          }
          first = false;
          if (next.done) {
            await audit(true);
            controller.close();
          }
        } catch (err) {
          c.var.logger.error({ err, requestId: c.var.requestId }, "export failed");
          await audit(false);
          controller.error(err);
        }
      },
      async cancel() {
        await batches.return(undefined);
        await audit(false);
      },
    });
    const stamp = new Date().toISOString().slice(0, 10);
    return c.body(stream, 200, {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${list.name}-${stamp}.csv"`,
      "cache-control": "no-store",
    });
  }) as never);
}
