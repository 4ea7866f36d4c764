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
import { listRecord, type ListDeclaration } from "./lists";
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
  /**
   * The record in the API's words ("platform"): "One platform", "Add a platform", "Delete a
   * platform". By default its audit entity's name (`records.entity`).
   */
  noun?: string;
  /**
   * The path parameter of the record's id, made by `idParams`; by default `<entity>Id`
   * ("platformId") with the record's 404 message. Routes of its own share it by passing one.
   */
  params?: z.ZodObject<Record<string, z.ZodGUID>>;
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
   * (`optionsQuerySchema`), and GET /{id}/option → one record as an option (the current choice); 404.
   */
  options?: {
    schema: z.ZodType;
    item: z.ZodType;
    list: (db: Database, query: OptionsQuery) => Promise<unknown>;
    one: (db: Database, id: string) => Promise<unknown>;
  };
  /**
   * GET /{id}: the record as `read` answers it; 404 with the records' message when it answers null.
   * Without it, the record as its list shows it in a row (`listRecord`), answered as the list's item.
   */
  detail?: { schema: z.ZodType; read: (db: Database, id: string, c: Context<AppEnv>) => Promise<unknown> };
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
    /** The name Recently deleted and the restore report give it (`recordName` for one with context). */
    label: (row: Row, tx: Tx) => string | Promise<string>;
    cascade: CascadeTable[];
    check?: (tx: Tx, id: string, taken: Cascade, query: Input<Q>) => Promise<void> | void;
    audit?: (taken: Cascade) => Record<string, unknown>;
    /** Fields the answer carries besides `ok` and `deletion_id`. */
    answer?: (taken: Cascade) => Record<string, unknown>;
  };
};

/** The router's `openapi` without the route's types, which the kit does not carry. */
type Mount = { openapi(route: unknown, handler: (c: Context<AppEnv>) => Promise<Response>): unknown };
/**
 * A request's validated part (`param`, `json`, `query`, `header`), typed by the caller: the kit
 * builds its routes at run time, so Hono's Context<AppEnv> does not know their validated input.
 */
const valid = <V>(c: Context<AppEnv>, target: string): V => (c.req as unknown as { valid(t: string): V }).valid(target);

/** The parts of `RecordRoutes` that each route's mounting takes. */
type CreateSpec<Row, C extends z.ZodType> = NonNullable<RecordRoutes<Row, C, z.ZodType, z.ZodObject>["create"]>;
type UpdateSpec<Row, U extends z.ZodType> = NonNullable<RecordRoutes<Row, z.ZodType, U, z.ZodObject>["update"]>;
type RemoveSpec<Row, Q extends z.ZodObject> = NonNullable<RecordRoutes<Row, z.ZodType, z.ZodType, Q>["remove"]>;
type ReviewSpec<Row> = NonNullable<RecordRoutes<Row, z.ZodType, z.ZodType, z.ZodObject>["review"]>;
/** A change offered for review: an update with its input, or a deletion. */
type ReviewChange<Row> = Parameters<ReviewSpec<Row>["propose"]>[3];
/** A transaction's outcome: the record changed, or the change saved for review (202). */
type Outcome<T> = { done: T } | { proposed: unknown };
/** What the delete of a locked record answers: the deletion's id and the cascade's rows taken. */
type Removed = { deletion: string; taken: Cascade };

/** What every route of one record shares: made by `recordKit` from the record's declaration. */
type Kit<Row> = {
  router: OpenAPIHono<AppEnv>;
  mount: Mount;
  base: string;
  tag: string;
  tags: string[];
  noun: string;
  params: z.ZodObject<Record<string, z.ZodGUID>>;
  records: Records<Row, never>;
  /** The id's path parameter ("platformId"), and the record's path ("/{platformId}"). */
  param: string;
  path: string;
  /** The 404 response with the records' message. */
  missing: Responses;
  review: ReviewSpec<Row> | undefined;
  /** The 202 response of a change saved for review; none without review. */
  proposed: Responses;
};

/** Takes the router and a record's declaration; returns what its routes share (`Kit`). */
function recordKit<Row, C extends z.ZodType, U extends z.ZodType, Q extends z.ZodObject>(
  router: OpenAPIHono<AppEnv>,
  spec: RecordRoutes<Row, C, U, Q>,
): Kit<Row> {
  const params = spec.params ?? idParams(`${spec.records.entity}Id`, spec.records.notFound);
  const param = Object.keys(params.shape)[0];
  const review = spec.review;
  return {
    router,
    mount: router,
    base: spec.base,
    tag: spec.tag,
    tags: [spec.tag],
    noun: spec.noun ?? spec.records.entity,
    params,
    records: spec.records,
    param,
    path: `/{${param}}`,
    missing: notFoundResponse(spec.records.notFound),
    review,
    proposed: review ? { 202: jsonResponse(review.schema, "Saved for review, not applied") } : {},
  };
}

/** Takes a request to one of the record's routes; returns the record's id from its path. */
const idOf = <Row>(kit: Kit<Row>, c: Context<AppEnv>) => valid<Record<string, string>>(c, "param")[kit.param];

/** Takes a route's method, path (relative to the kit's base), summary, request and answers; returns its declaration. */
const declare = <Row>(
  kit: Kit<Row>,
  access: RouteAccess,
  method: "get" | "post" | "patch" | "delete",
  at: string,
  summary: string,
  request: RouteConfig["request"],
  responses: Responses,
) => apiRoute(kit.base, access, { method, path: at, tags: kit.tags, summary, request, responses });

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
  const kit = recordKit(router, spec);
  mountLists(kit, spec.list, spec.lists ?? []);
  // Before GET /{id}, which would take "options" for an id.
  if (spec.options) mountOptions(kit, spec.options);
  const detail = spec.detail ?? (spec.list && { schema: spec.list.list.item, read: listRecord(spec.list.list) });
  if (!detail) throw new Error(`${spec.noun}: GET /{id} needs its detail or a list to read it from`);
  mountOne(kit, kit.path, `One ${kit.noun}`, detail.schema, detail.read);
  if (spec.create) mountCreate(kit, spec.create);
  if (spec.update) mountUpdate(kit, spec.update);
  if (spec.remove) deleters.set(spec, mountRemove(kit, spec.remove));
}

/** Takes the record's list (GET /) and related lists (GET /{id}/…), if any; mounts each with its CSV export. */
function mountLists<Row>(
  kit: Kit<Row>,
  list: RecordRoutes<Row, z.ZodType, z.ZodType, z.ZodObject>["list"],
  lists: NonNullable<RecordRoutes<Row, z.ZodType, z.ZodType, z.ZodObject>["lists"]>,
): void {
  const { base, tags, param, records } = kit;
  if (list)
    mountList(kit.router, {
      ...list,
      base,
      path: "/",
      access: "viewer",
      tags,
      summary: `List ${kit.tag.toLowerCase()}`,
    });
  const exists = (p: Record<string, string>) =>
    sql`exists (select 1 from ${sql.identifier(records.table)} where ${sql.identifier(records.key)} = ${p[param]})`;
  for (const l of lists) {
    mountList(kit.router, {
      base,
      path: `${kit.path}${l.path}`,
      access: "viewer",
      tags,
      summary: l.summary,
      description: l.description,
      list: l.list,
      params: kit.params,
      scope: { where: (p: Record<string, string>) => l.where(p[param]), exists, notFound: records.notFound },
    });
  }
}

/** Takes a path, summary, answer schema and reader; mounts GET `at` → the record as `read` answers it, or 404. */
function mountOne<Row>(
  kit: Kit<Row>,
  at: string,
  summary: string,
  schema: z.ZodType,
  read: (db: Database, id: string, c: Context<AppEnv>) => Promise<unknown>,
): void {
  const route = declare(
    kit,
    "viewer",
    "get",
    at,
    summary,
    { params: kit.params },
    {
      200: jsonResponse(schema, `The ${kit.noun}`),
      ...kit.missing,
    },
  );
  kit.mount.openapi(route, async (c) => {
    const found = await read(c.get("db"), idOf(kit, c), c);
    if (!found) throw notFound(kit.records.notFound);
    return c.json(found, 200);
  });
}

/**
 * Takes the picker's declaration; mounts GET /options (a page of options) and GET /{id}/option
 * (one): after the id, so that no path of the record (`/{id}/teams`) could also be read as it.
 */
function mountOptions<Row>(
  kit: Kit<Row>,
  options: NonNullable<RecordRoutes<Row, z.ZodType, z.ZodType, z.ZodObject>["options"]>,
): void {
  const summary = `${kit.tag} for pickers, by name`;
  const list = declare(
    kit,
    "viewer",
    "get",
    "/options",
    summary,
    { query: optionsQuerySchema },
    {
      200: jsonResponse(options.schema, `${kit.tag} by name`),
      ...invalidResponse,
    },
  );
  kit.mount.openapi(list, async (c) => c.json(await options.list(c.get("db"), valid(c, "query")), 200));
  mountOne(kit, `${kit.path}/option`, `One ${kit.noun} as a picker option`, options.item, (db, id) =>
    options.one(db, id),
  );
}

/** Takes the create declaration; mounts POST / → 201 with the record written in one transaction. */
function mountCreate<Row, C extends z.ZodType>(kit: Kit<Row>, create: CreateSpec<Row, C>): void {
  const summary = create.summary ?? `Add a ${kit.noun}`;
  const route = declare(
    kit,
    "editor",
    "post",
    "/",
    summary,
    { body: jsonBody(create.body) },
    {
      201: jsonResponse(create.schema, "Created"),
      ...uniqueResponse(kit.records),
      ...create.responses,
      ...invalidResponse,
    },
  );
  kit.mount.openapi(route, async (c) => {
    const input = valid<Input<C>>(c, "json");
    const row = await mutate(c, (tx) =>
      // The kit holds the records without their insert type (never); the body schema stands for it.
      create.write ? create.write(tx, input, c) : kit.records.create(tx, input as never),
    );
    return c.json(create.answer ? await create.answer(row, c) : toJson(row), 201);
  });
}

/** The 409 `conflict`s of a write that would repeat a unique value, for the OpenAPI document. */
const uniqueConflicts = (records: Records<unknown, never>) =>
  records.unique.map((message) => `conflict: ${message}`).join("; ");

/** A create's 409 response when the records have unique values; none otherwise. */
const uniqueResponse = (records: Records<unknown, never>): Responses =>
  records.unique.length ? conflictResponse(uniqueConflicts(records)) : {};

/**
 * Takes the locked record `before` and the change asked for; returns the change saved for review
 * (its rows written in `tx`) when the record's review takes it, else null: the change applies.
 */
async function propose<Row, T>(
  kit: Kit<Row>,
  tx: Tx,
  c: Context<AppEnv>,
  before: Row,
  change: ReviewChange<Row>,
): Promise<Written<Outcome<T>> | null> {
  const written = kit.review && (await kit.review.propose(tx, c, before, change));
  return written ? { result: { proposed: written.result }, audit: written.audit } : null;
}

/** Takes the update declaration; mounts PATCH /{id} → the record changed (200) or saved for review (202). */
function mountUpdate<Row, U extends z.ZodType>(kit: Kit<Row>, update: UpdateSpec<Row, U>): void {
  const { records } = kit;
  const request = { params: kit.params, headers: versionHeaders, body: jsonBody(update.body) };
  const route = declare(kit, "editor", "patch", kit.path, update.summary, request, {
    200: jsonResponse(update.schema, "Updated"),
    ...kit.proposed,
    ...kit.missing,
    ...invalidResponse,
    // A stale save's `current` is the record as an edit answers it, typed for generated clients.
    ...conflictResponse(
      [update.conflict ?? `stale: the ${kit.noun} changed since If-Match`, uniqueConflicts(records)]
        .filter(Boolean)
        .join("; "),
      update.schema,
    ),
  });
  kit.mount.openapi(route, async (c) => {
    const id = idOf(kit, c);
    const input = valid<Input<U>>(c, "json");
    const ifMatch = ifMatchOf(valid(c, "header"));
    // SPEC.md §4 "skipped if already": a save that changes nothing writes nothing.
    const outcome = await mutate(c, async (tx): Promise<Written<Outcome<unknown>>> => {
      const before = await records.lock(tx, id, { ifMatch });
      const saved = await propose<Row, unknown>(kit, tx, c, before, {
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

/** What deleting one of the record's rows needs: its records, its DELETE declaration, and its snapshot table and key. */
type Removal<Row, Q extends z.ZodObject> = {
  records: Records<Row, never>;
  remove: RemoveSpec<Row, Q>;
  table: SnapshotTable;
  key: string;
};

/**
 * Takes the delete declaration; mounts DELETE /{id} → `{ ok, deletion_id }` (or 202 when saved for
 * review), and returns the delete of a locked record that the route does, for an approved deletion.
 */
function mountRemove<Row extends Record<string, unknown>, Q extends z.ZodObject>(
  kit: Kit<Row>,
  remove: RemoveSpec<Row, Q>,
): Deleter {
  const request = remove.query ? { params: kit.params, query: remove.query } : { params: kit.params };
  const invalid: Responses = remove.query ? invalidResponse : {};
  const route = declare(kit, "editor", "delete", kit.path, `Delete a ${kit.noun}`, request, {
    200: jsonResponse(remove.schema, "Deleted"),
    ...kit.proposed,
    ...kit.missing,
    ...invalid,
    ...remove.responses,
  });
  const table = kit.records.table as SnapshotTable;
  const removal: Removal<Row, Q> = { records: kit.records, remove, table, key: snapshotTables[table][0] };
  kit.mount.openapi(route, async (c) => {
    const id = idOf(kit, c);
    const query = remove.query ? valid<Input<Q>>(c, "query") : (undefined as Input<Q>);
    const outcome = await mutate(c, async (tx): Promise<Written<Outcome<Removed>>> => {
      const before = await kit.records.lock(tx, id);
      const saved = await propose<Row, Removed>(kit, tx, c, before, { kind: "delete" });
      if (saved) return saved;
      const done = await deleteLocked(removal, tx, c, before, id, query);
      return { result: { done: done.result }, audit: done.audit };
    });
    if ("proposed" in outcome) return c.json(outcome.proposed, 202);
    const removed = outcome.done;
    return c.json({ ok: true as const, ...remove.answer?.(removed.taken), deletion_id: removed.deletion }, 200);
  });
  return (tx, c, before, id) => deleteLocked(removal, tx, c, before as Row, id, undefined as Input<Q>);
}

/**
 * Deletes the locked record `before` (id `id`) inside `tx` as DELETE does: the rows of the
 * cascade taken, the check, the record taken, one snapshot for Undo; returns the audit rows.
 */
async function deleteLocked<Row extends Record<string, unknown>, Q extends z.ZodObject>(
  { records, remove, table, key }: Removal<Row, Q>,
  tx: Tx,
  c: Context<AppEnv>,
  before: Row,
  id: string,
  query: Input<Q>,
): Promise<Written<Removed>> {
  // Named before anything is taken: a name with context reads the record's row and its links.
  const label = await remove.label(before, tx);
  // Taken whole (every column), so that a restore puts back exactly what was there.
  const taken: Cascade = {};
  for (const t of remove.cascade) taken[t] = await takeRows(tx, t, sql`${sql.identifier(key)} = ${id}`);
  await remove.check?.(tx, id, taken, query);
  const [row] = await takeRows(tx, table, sql`${sql.identifier(key)} = ${id}`);
  const entity = records.entity as DeletedEntity;
  const deletion = await recordDeletion(tx, c, {
    entity,
    entityId: id,
    label,
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
}

/** A record kit's delete of a locked record, for a change applied later (an approved review). */
type Deleter = (tx: Tx, c: Context<AppEnv>, before: unknown, id: string) => Promise<Written<Removed>>;

/** Each record kit's delete of a locked record, for a change applied later (an approved review). */
const deleters = new Map<unknown, Deleter>();

/**
 * Deletes the locked record `before` as the DELETE route that `spec` declares does (cascade,
 * snapshot for Undo, audit rows), inside `tx`: an approved deletion (docs/prompt-review.md).
 */
export function deleteRecord<Row>(
  spec: { records: { entity: string } },
  tx: Tx,
  c: Context<AppEnv>,
  before: Row,
  id: string,
): Promise<Written<{ deletion: string; taken: Cascade }>> {
  const deleter = deleters.get(spec);
  if (!deleter) throw new Error(`no DELETE route mounted for ${spec.records.entity}`);
  return deleter(tx, c, before, id);
}
