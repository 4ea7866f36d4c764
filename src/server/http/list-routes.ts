import { z, type RouteConfig } from "@hono/zod-openapi";
import type { Context } from "hono";
import { stringify } from "csv-stringify/sync";
import { sql, type SQL } from "drizzle-orm";
import { queryRows } from "../db/client";
import { writeAudit } from "../audit";
import { errorBodySchema } from "./errors";
import type { AuditListName } from "../../domain/audit";
import { listPage } from "../../domain/common";
import { listAll, listQuerySchema, runList, type ListDeclaration, type ListQuery, type ListRequest } from "./lists";
import type { AppEnv } from "./env";
import { apiRoute, invalidResponse, jsonResponse, type RouteAccess } from "./route";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { asText } from "../../domain/text";

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

/** A cell value as CSV text: a list joined with commas, an object as JSON, nothing as empty. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map(asText).join(", ");
  return asText(value);
}

/**
 * csv-stringify's options of every CSV the server writes: CRLF line ends, and a cell a spreadsheet
 * would run as a formula (`= + - @`, tab, carriage return first) prefixed with `'`
 * (`escape_formulas`: CSV injection).
 */
export const csvOptions = { escape_formulas: true, record_delimiter: "windows" } as const;

const filtersOf = (list: { filters: Record<string, unknown> }, query: Record<string, unknown>) =>
  Object.fromEntries(Object.keys(list.filters).map((k) => [k, query[k]]));

/** The 404 entry of a nested list's routes (the parent's message), none for a top-level list. */
type NotFoundEntry = Record<string, ReturnType<typeof jsonResponse>>;

/**
 * Takes a list route's request and the list's declaration: returns the validated query `q` and
 * the list request made of it (filters, and for a nested list its scope and the parent's existence).
 */
function readRequest<I, S, F extends Record<string, unknown>, P>(
  c: Context<AppEnv>,
  list: ListDeclaration<I, S, F>,
  params: z.ZodObject | undefined,
  scope: ListScope<P> | undefined,
): { q: ListQuery; req: ListRequest<F> } {
  // The route is built from a generic declaration: Hono's Context<AppEnv> does not know its validated input.
  const q = (c.req as unknown as { valid: (t: string) => ListQuery }).valid("query");
  const p = params ? (c.req as unknown as { valid: (t: string) => P }).valid("param") : (undefined as P);
  return {
    q,
    req: { query: q, filters: filtersOf(list, q) as F, scope: scope?.where(p), parentExists: scope?.exists(p) },
  };
}

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
  const mount: ListMount<I, S, F, P> = {
    router,
    options,
    params: options.params as z.ZodObject | undefined,
    notFound: scope ? { 404: jsonResponse(errorBodySchema, scope.notFound) } : {},
  };
  mountPage(mount);
  mountExport(mount);
}

/** What one of a list's two routes declares on its own: its path, words, query and 200 answer. */
type ListRouteParts = {
  path: string;
  summary: string;
  description: string;
  query: z.ZodObject;
  ok: RouteConfig["responses"][string];
};

/** Where a list's routes are mounted: the router, the mount options, the path parameters' schema, the 404 entry. */
type ListMount<I, S, F extends Record<string, unknown>, P> = {
  router: OpenAPIHono<AppEnv>;
  options: MountOptions<I, S, F, P>;
  params: z.ZodObject | undefined;
  notFound: NotFoundEntry;
};

/**
 * Declares one of a list's two routes: GET under the list's `base` with its access, tags and
 * path parameters, answering `parts.ok` (200), 422 for bad parameters and, for a nested list, 404.
 */
function listRoute<I, S, F extends Record<string, unknown>, P>(
  { options, params, notFound }: ListMount<I, S, F, P>,
  parts: ListRouteParts,
) {
  return apiRoute(options.base, options.access, {
    method: "get",
    path: parts.path,
    tags: options.tags,
    summary: parts.summary,
    description: parts.description,
    request: { query: parts.query, ...(params ? { params } : {}) },
    responses: { 200: parts.ok, ...invalidResponse, ...notFound },
  });
}

/**
 * Declares a list's page route and mounts it on `mount.router`; the handler answers one page, or
 * 404 for a missing parent.
 */
function mountPage<I, S, F extends Record<string, unknown>, P>(mount: ListMount<I, S, F, P>) {
  const { router, options, params } = mount;
  const { list, scope } = options;
  const route = listRoute(mount, {
    path: options.path,
    summary: options.summary,
    description: options.description,
    query: listQuerySchema(list),
    ok: jsonResponse(listPage(list.item as z.ZodType, list.summarySchema as z.ZodType), "One page"),
  });
  router.openapi(route, async (c: Context<AppEnv>) => {
    const { req } = readRequest(c, list, params, scope);
    const { parent_found, ...page } = await runList(c.get("db"), list, req, {
      settings: c.get("lists").settings,
      cache: c.get("lists").cache,
      now: c.get("lists").now,
    });
    if (scope && parent_found === false) return c.json({ error: { code: "not_found", message: scope.notFound } }, 404);
    return c.json(page, 200);
  });
}

/**
 * Declares a list's export route and mounts it on `mount.router`; the handler answers 404 for a
 * missing parent, else the CSV.
 */
function mountExport<I, S, F extends Record<string, unknown>, P>(mount: ListMount<I, S, F, P>) {
  const { router, options, params } = mount;
  const { list, scope } = options;
  const route = listRoute(mount, {
    path: `${options.path === "/" ? "" : options.path}/export.csv`,
    summary: `${options.summary}: CSV export`,
    description: "Every row matching the filters and search, in the list's sort, as CSV (RFC 4180, UTF-8). Audited.",
    query: listQuerySchema(list, { bom: z.enum(["0", "1"]).optional() }),
    ok: { description: "CSV", content: { "text/csv": { schema: z.string() } } },
  });
  router.openapi(route, async (c: Context<AppEnv>) => {
    const { q, req } = readRequest(c, list, params, scope);
    if (scope) {
      const [found] = await queryRows<{ p: boolean }>(c.get("db"), sql`select (${req.parentExists!}) as p`);
      if (!found.p) return c.json({ error: { code: "not_found", message: scope.notFound } }, 404);
    }
    const stream = await csvStream(c, list, q, req);
    const stamp = new Date().toISOString().slice(0, 10);
    return c.body(stream, 200, {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${list.name}-${stamp}.csv"`,
      "cache-control": "no-store",
    });
  });
}

/**
 * Takes an export's request: returns its audit (action `export`: which filters, how many rows,
 * whether complete), which writes once however often it is called; a failure is logged, not thrown.
 */
function exportAudit<F extends Record<string, unknown>>(
  c: Context<AppEnv>,
  name: AuditListName,
  q: ListQuery,
  req: ListRequest<F>,
) {
  let audited = false;
  return async (rows: number, complete: boolean) => {
    if (audited) return;
    audited = true;
    await writeAudit(c.get("db"), c, [
      {
        action: "export",
        entity: name,
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
    ]).catch((err) => c.get("logger").error({ err, requestId: c.get("requestId") }, "export audit failed"));
  };
}

/**
 * Takes an export's request and its list: returns the CSV as a stream of keyset batches (a byte
 * order mark first with `bom=1`), audited when it ends, fails or is cancelled.
 */
async function csvStream<I, S, F extends Record<string, unknown>>(
  c: Context<AppEnv>,
  list: ListDeclaration<I, S, F>,
  q: ListQuery,
  req: ListRequest<F>,
): Promise<ReadableStream<Uint8Array>> {
  const bom = (q as { bom?: string }).bom === "1";
  const encoder = new TextEncoder();
  const batches = listAll(c.get("db"), list, req);
  // The first batch is read before answering, so that a value the database refuses (a date out of
  // range...) is answered 4xx by the app's error handler instead of breaking a 200 stream.
  let pending: IteratorResult<I[]> | undefined = await batches.next();
  let rows = 0;
  let first = true;
  const audit = exportAudit(c, list.name, q, req);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = pending ?? (await batches.next());
        pending = undefined;
        const header = first ? [list.csv.map((col) => col.header)] : [];
        const records = next.done ? [] : next.value.map((item) => list.csv.map((col) => csvCell(col.value(item))));
        rows += records.length;
        if (header.length || records.length) {
          controller.enqueue(encoder.encode(stringify([...header, ...records], { ...csvOptions, bom: first && bom })));
        }
        first = false;
        if (next.done) {
          await audit(rows, true);
          controller.close();
        }
      } catch (err) {
        c.get("logger").error({ err, requestId: c.get("requestId") }, "export failed");
        await audit(rows, false);
        controller.error(err);
      }
    },
    async cancel() {
      await batches.return(undefined);
      await audit(rows, false);
    },
  });
}
