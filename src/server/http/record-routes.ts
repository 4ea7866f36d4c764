import { z, type OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import { sql, type SQL } from "drizzle-orm";
import type { Context } from "hono";
import type { DeletedEntity } from "../../domain/deleted";
import { mutate, type Tx } from "../audit";
import type { Database } from "../db/client";
import type { Records, Written } from "../db/records";
import {
  recordDeletion,
  snapshotTables,
  takeRows,
  type Cascade,
  type CascadeTable,
  type SnapshotTable,
} from "../deleted";
import type { AppEnv } from "./env";
import { notFound } from "./errors";
import { toJson } from "./list";
import { mountList } from "./list-routes";
import type { ListDeclaration } from "./lists";
import { optionsQuerySchema, type OptionsQuery } from "./options";
import {
  apiRoute,
  conflictResponse,
  ifMatchOf,
  invalidResponse,
  jsonBody,
  jsonResponse,
  notFoundResponse,
  versionHeaders,
  type RouteAccess,
} from "./route";

// Declarations of every item, summary and filter type side by side: only `any` holds them all.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyList = ListDeclaration<any, any, any>;
type Responses = Record<number, ReturnType<typeof jsonResponse>>;
type Input<S extends z.ZodType> = z.output<S>;

/** A route path's record id: `{ <name>: uuid }`, a malformed one answering 404 with the entity's message. */
export function idParams<K extends string>(name: K, notFoundMessage: string) {
  return z.object({ [name]: z.guid({ error: notFoundMessage }) } as Record<K, z.ZodGUID>);
}

/** What a record's routes are declared with: see `mountRecordRoutes`. */
export type RecordRoutes<Row, C extends z.ZodType, U extends z.ZodType, Q extends z.ZodObject> = {
  base: string;
  /** The OpenAPI tag ("Platforms"). */
  tag: string;
  /** The record in the API's words ("platform"): "One platform", "Add a platform", "Delete a platform". */
  noun: string;
  /** The path parameter of the record's id ("platformId"), made by `idParams`. */
  params: z.ZodObject<Record<string, z.ZodGUID>>;
  records: Records<Row, never>;
  /** GET / (the entity's screen) and its CSV export: docs/lists.md. */
  list?: { description: string; list: AnyList };
  /**
   * GET /{id}/<path> and its CSV export: the record's related rows (`where` of the record's id),
   * 404 with the records' message when the record does not exist (docs/lists.md).
   */
  lists?: Array<{ path: string; summary: string; description: string; list: AnyList; where: (id: string) => SQL }>;
  /**
   * GET /options?q&active&limit&after → a picker's options by name, a page at a time
   * (`optionsQuerySchema`), and GET /options/{id} → one record as an option (the current choice); 404.
   */
  options?: {
    schema: z.ZodType;
    item: z.ZodType;
    list: (db: Database, query: OptionsQuery) => Promise<unknown>;
    one: (db: Database, id: string) => Promise<unknown>;
  };
  /** GET /{id}: the record as `read` answers it; 404 with the records' message when it answers null. */
  detail: { schema: z.ZodType; read: (db: Database, id: string, c: Context<AppEnv>) => Promise<unknown> };
  /**
   * A change that waits for review instead of applying (docs/prompt-review.md): called on PATCH and
   * DELETE with the locked record; when it answers, its rows are written in the same transaction and
   * the route answers 202 with its `result` (`schema`) instead of changing the record.
   */
  review?: {
    schema: z.ZodType;
    propose: (
      tx: Tx,
      c: Context<AppEnv>,
      before: Row,
      change: { kind: "update"; input: Record<string, unknown> } | { kind: "delete" },
    ) => Promise<Written<unknown> | null>;
  };
  /** POST /: 201 with the created record; `write` replaces the plain insert (checks, other rows). */
  create?: {
    summary?: string;
    body: C;
    schema: z.ZodType;
    responses?: Responses;
    write?: (tx: Tx, input: Input<C>, c: Context<AppEnv>) => Promise<Written<Row>>;
    answer?: (row: Row, c: Context<AppEnv>) => unknown;
  };
  /**
   * PATCH /{id} with If-Match (docs/editing.md): the record locked (404, 409 `stale`), then the
   * fields that differ written (`write` replaces that: checks, other rows); the record answered.
   */
  update?: {
    summary: string;
    body: U;
    schema: z.ZodType;
    /** The 409's description; "stale: the <noun> changed since If-Match" by default. */
    conflict?: string;
    write?: (tx: Tx, before: Row, input: Input<U>, c: Context<AppEnv>) => Promise<Written<unknown>>;
    answer?: (row: unknown, c: Context<AppEnv>, id: string) => unknown;
  };
  /**
   * DELETE /{id} → `{ ok, deletion_id }`: the record locked (404), the rows of `cascade` that name
   * it taken, `check` (a refusal rolls all back), the record taken, all kept as one snapshot for
   * Undo and restore (docs/undo-and-restore.md), audited with the record as it was and `audit`'s
   * additions.
   */
  remove?: {
    schema: z.ZodType;
    query?: Q;
    responses?: Responses;
    label: (row: Row) => string;
    cascade: CascadeTable[];
    check?: (tx: Tx, id: string, taken: Cascade, query: Input<Q>) => Promise<void> | void;
    audit?: (taken: Cascade) => Record<string, unknown>;
    /** Fields the answer carries besides `ok` and `deletion_id`. */
    answer?: (taken: Cascade) => Record<string, unknown>;
  };
};

/** The router's `openapi` without the route's types, which the kit does not carry. */
type Mount = { openapi(route: unknown, handler: (c: Context<AppEnv>) => Promise<Response>): unknown };
/** A request's validated part (`param`, `json`, `query`, `header`). */
const valid = <V>(c: Context<AppEnv>, target: string): V => (c.req as unknown as { valid(t: string): V }).valid(target);

/**
 * Declares and mounts a record's standard routes on `router` under `spec.base`: GET /{id}, and
 * those of the list (GET /), its related lists (GET /{id}/…), the picker options, POST /, PATCH
 * /{id} and DELETE /{id} that `spec` declares, each with its OpenAPI entry
 * (`apiRoute`: viewer reads, editor writes), its 404 and 422, and each write in one transaction
 * with its audit rows (`mutate`).
 */
export function mountRecordRoutes<
  Row extends Record<string, unknown>,
  C extends z.ZodType = z.ZodType,
  U extends z.ZodType = z.ZodType,
  Q extends z.ZodObject = z.ZodObject,
>(router: OpenAPIHono<AppEnv>, spec: RecordRoutes<Row, C, U, Q>): void {
  const { base, noun, params, records } = spec;
  const mount = router as unknown as Mount;
  const tags = [spec.tag];

  const missing = notFoundResponse(records.notFound);
  const param = Object.keys(params.shape)[0];
  const idOf = (c: Context<AppEnv>) => valid<Record<string, string>>(c, "param")[param];
  const path = `/{${param}}`;
  const declare = (
    access: RouteAccess,
    method: "get" | "post" | "patch" | "delete",
    at: string,
    summary: string,
    request: RouteConfig["request"],
    responses: Responses,
  ) => apiRoute(base, access, { method, path: at, tags, summary, request, responses });

  if (spec.list)
    mountList(router, {
      ...spec.list,
      base,
      path: "/",
      access: "viewer",
      tags,
      summary: `List ${spec.tag.toLowerCase()}`,
    });
  const exists = (p: Record<string, string>) =>
    sql`exists (select 1 from ${sql.identifier(records.table)} where ${sql.identifier(records.key)} = ${p[param]})`;
  for (const l of spec.lists ?? []) {
    mountList(router, {
      base,
      path: `${path}${l.path}`,
      access: "viewer",
      tags,
      summary: l.summary,
      description: l.description,
      list: l.list,
      params,
      scope: { where: (p: Record<string, string>) => l.where(p[param]), exists, notFound: records.notFound },
    });
  }

  /** GET `at` → the record as `read` answers it, or 404. */
  const mountOne = (
    at: string,
    summary: string,
    schema: z.ZodType,
    read: (db: Database, id: string, c: Context<AppEnv>) => Promise<unknown>,
  ) => {
    const route = declare(
      "viewer",
      "get",
      at,
      summary,
      { params },
      {
        200: jsonResponse(schema, `The ${noun}`),
        ...missing,
      },
    );
    mount.openapi(route, async (c) => {
      const found = await read(c.var.db, idOf(c), c);
      if (!found) throw notFound(records.notFound);
      return c.json(found, 200);
    });
  };

  const options = spec.options;
  if (options) {
    const summary = `${spec.tag} for pickers, by name`;
    const list = declare(
      "viewer",
      "get",
      "/options",
      summary,
      { query: optionsQuerySchema },
      {
        200: jsonResponse(options.schema, `${spec.tag} by name`),
        ...invalidResponse,
      },
    );
    // Before GET /{id}, which would take "options" for an id.
    mount.openapi(list, async (c) => c.json(await options.list(c.var.db, valid(c, "query")), 200));
    mountOne(`/options${path}`, `One ${noun} as a picker option`, options.item, (db, id) => options.one(db, id));
  }
  mountOne(path, `One ${noun}`, spec.detail.schema, spec.detail.read);

  const create = spec.create;
  if (create) {
    const summary = create.summary ?? `Add a ${noun}`;
    const route = declare(
      "editor",
      "post",
      "/",
      summary,
      { body: jsonBody(create.body) },
      {
        201: jsonResponse(create.schema, "Created"),
        ...create.responses,
        ...invalidResponse,
      },
    );
    mount.openapi(route, async (c) => {
      const input = valid<Input<C>>(c, "json");
      const row = await mutate(c, (tx) =>
        create.write ? create.write(tx, input, c) : records.create(tx, input as never),
      );
      return c.json(create.answer ? await create.answer(row, c) : toJson(row), 201);
    });
  }

  const review = spec.review;
  const proposed: Responses = review ? { 202: jsonResponse(review.schema, "Saved for review, not applied") } : {};
  /** A transaction's outcome: the record changed, or the change saved for review (202). */
  type Outcome<T> = { done: T } | { proposed: unknown };
  const propose = async <T>(
    tx: Tx,
    c: Context<AppEnv>,
    before: Row,
    change: Parameters<NonNullable<typeof review>["propose"]>[3],
  ): Promise<Written<Outcome<T>> | null> => {
    const written = review && (await review.propose(tx, c, before, change));
    return written ? { result: { proposed: written.result }, audit: written.audit } : null;
  };

  const update = spec.update;
  if (update) {
    const request = { params, headers: versionHeaders, body: jsonBody(update.body) };
    const route = declare("editor", "patch", path, update.summary, request, {
      200: jsonResponse(update.schema, "Updated"),
      ...proposed,
      ...missing,
      ...invalidResponse,
      ...conflictResponse(update.conflict ?? `stale: the ${noun} changed since If-Match`),
    });
    mount.openapi(route, async (c) => {
      const id = idOf(c);
      const input = valid<Input<U>>(c, "json");
      const ifMatch = ifMatchOf(valid(c, "header"));
      // SPEC.md §4 "skipped if already": a save that changes nothing writes nothing.
      const outcome = await mutate(c, async (tx): Promise<Written<Outcome<unknown>>> => {
        const before = await records.lock(tx, id, { ifMatch });
        const saved = await propose<unknown>(tx, c, before, {
          kind: "update",
          input: input as Record<string, unknown>,
        });
        if (saved) return saved;
        const written = await (update.write
          ? update.write(tx, before, input, c)
          : records.update(tx, before, input as Row));
        return { result: { done: written.result }, audit: written.audit };
      });
      if ("proposed" in outcome) return c.json(outcome.proposed, 202);
      const row = outcome.done;
      return c.json(update.answer ? await update.answer(row, c, id) : toJson(row), 200);
    });
  }

  const remove = spec.remove;
  if (remove) {
    const request = remove.query ? { params, query: remove.query } : { params };
    const invalid: Responses = remove.query ? invalidResponse : {};
    const route = declare("editor", "delete", path, `Delete a ${noun}`, request, {
      200: jsonResponse(remove.schema, "Deleted"),
      ...proposed,
      ...missing,
      ...invalid,
      ...remove.responses,
    });
    const table = records.table as SnapshotTable;
    const key = snapshotTables[table][0];
    mount.openapi(route, async (c) => {
      const id = idOf(c);
      const query = remove.query ? valid<Input<Q>>(c, "query") : (undefined as Input<Q>);
      const outcome = await mutate(c, async (tx): Promise<Written<Outcome<{ deletion: string; taken: Cascade }>>> => {
        const before = await records.lock(tx, id);
        const saved = await propose<{ deletion: string; taken: Cascade }>(tx, c, before, { kind: "delete" });
        if (saved) return saved;
        const done = await deleteLocked(tx, c, before, id, query);
        return { result: { done: done.result }, audit: done.audit };
      });
      if ("proposed" in outcome) return c.json(outcome.proposed, 202);
      const removed = outcome.done;
      return c.json({ ok: true as const, ...remove.answer?.(removed.taken), deletion_id: removed.deletion }, 200);
    });
    /**
     * Deletes the locked record `before` (id `id`) inside `tx` as DELETE does: the rows of the
     * cascade taken, the check, the record taken, one snapshot for Undo; returns the audit rows.
     */
    const deleteLocked = async (
      tx: Tx,
      c: Context<AppEnv>,
      before: Row,
      id: string,
      query: Input<Q>,
    ): Promise<Written<{ deletion: string; taken: Cascade }>> => {
      // Taken whole (every column), so that a restore puts back exactly what was there.
      const taken: Cascade = {};
      for (const t of remove.cascade) taken[t] = await takeRows(tx, t, sql`${sql.identifier(key)} = ${id}`);
      await remove.check?.(tx, id, taken, query);
      const [row] = await takeRows(tx, table, sql`${sql.identifier(key)} = ${id}`);
      const entity = records.entity as DeletedEntity;
      const deletion = await recordDeletion(tx, c, {
        entity,
        entityId: id,
        label: remove.label(before),
        row,
        cascade: taken,
      });
      return {
        result: { deletion, taken },
        audit: [
          {
            action: "delete" as const,
            entity: records.entity,
            entity_id: id,
            before: { ...toJson(before), ...remove.audit?.(taken) },
          },
        ],
      };
    };
    deleters.set(spec, (tx, c, before, id) => deleteLocked(tx, c, before as Row, id, undefined as Input<Q>));
  }
}

/** Each record kit's delete of a locked record, for a change applied later (an approved review). */
const deleters = new Map<
  unknown,
  (tx: Tx, c: Context<AppEnv>, before: unknown, id: string) => Promise<Written<{ deletion: string; taken: Cascade }>>
>();

/**
 * Deletes the locked record `before` as the DELETE route that `spec` declares does (cascade,
 * snapshot for Undo, audit rows), inside `tx`: an approved deletion (docs/prompt-review.md).
 */
export function deleteRecord<Row>(
  spec: { noun: string },
  tx: Tx,
  c: Context<AppEnv>,
  before: Row,
  id: string,
): Promise<Written<{ deletion: string; taken: Cascade }>> {
  const deleter = deleters.get(spec);
  if (!deleter) throw new Error(`no DELETE route mounted for ${spec.noun}`);
  return deleter(tx, c, before, id);
}
