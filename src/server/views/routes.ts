/**
 * Saved views and list preferences (docs/saved-views.md "The API", "Stale filters",
 * "Permissions"): `/api/views` (a list of the engine, one view opened as it applies today, create,
 * change, delete) and `/api/list-preferences/{list}` (an operator's columns and default view).
 */
import { withAsyncContext } from "../async-context";
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { and, count, eq, sql } from "drizzle-orm";
import { roleAtLeast } from "../../domain/enums";
import { msg } from "../../domain/messages";
import {
  listPreferencesSchema,
  listPreferencesUpdateSchema,
  openedViewSchema,
  savedViewListSchema,
  savedViewSchema,
  viewCreateSchema,
  viewUpdateSchema,
  type SavedView,
  type SavedViewList,
  type ViewState,
} from "../../domain/views";
import { viewLimits } from "../../domain/limits";
import { mutate, type AuditEntry } from "../audit";
import { queryRows, type Database } from "../db/client";
import { list_preferences, saved_views } from "../db/schema";
import { databaseError, errorBodySchema, errorResponse, fieldMessages, HttpError } from "../http/errors";
import { requireFound } from "../http/found";
import type { AppEnv } from "../http/env";
import { mountList } from "../http/list-routes";
import {
  apiRoute,
  conflictResponse,
  createRouter,
  invalidResponse,
  jsonBody,
  jsonResponse,
  notFoundResponse,
} from "../http/route";
import {
  applicableState,
  askerStore,
  mayReadList,
  savedViewList,
  stateFieldErrors,
  viewFor,
  type Asker,
} from "./queries";

/** Where the saved views live. */
export const viewsBase = "/api/views";
/** Where an operator's choices per list live. */
export const listPreferencesBase = "/api/list-preferences";

const tags = ["Saved views"];
const params = z.object({ viewId: z.guid(msg.views.notFound) });
const notFound404 = notFoundResponse(msg.views.notFound);
const forbidden403 = (description: string) => ({ 403: jsonResponse(errorBodySchema, description) });

/** The asking operator of a request (every route here needs a session or an API token). */
function askerOf(c: Context<AppEnv>): Asker {
  const user = c.get("session")!.user as { id: string; role?: string };
  return { id: user.id, role: user.role };
}

const nameTaken = () => new HttpError(422, "validation_failed", msg.views.nameTaken, { name: msg.views.nameTaken });

/** Whether `err` is the unique index of a name per owner and list (two saves of one name at once). */
const isNameTaken = (err: unknown) => {
  const pg = databaseError(err);
  return pg?.code === "23505" && pg.constraint === "saved_views_owner_name_idx";
};

/**
 * 422 unless `owner` may give a view of `list` the name `name`: no other of their views of that
 * list has it, whatever its case (`except`: the view being renamed).
 */
async function checkNameFree(db: Database, owner: string, list: string, name: string, except?: string) {
  const [taken] = await queryRows<{ one: number }>(
    db,
    sql`select 1 as one from saved_views where operator_id = ${owner} and list = ${list}
      and lower(name) = lower(${name}) ${except ? sql`and view_id <> ${except}` : sql``} limit 1`,
  );
  if (taken) throw nameTaken();
}

/** 422 with the fields at fault when `state` names filters, values or a sort the list does not take. */
function checkState(list: SavedViewList, state: ViewState) {
  const fields = stateFieldErrors(list, state);
  if (fields) throw new HttpError(422, "validation_failed", Object.values(fields)[0], fields);
}

/** What the audit keeps of a view. */
const auditFacts = (v: { name: string; shared: boolean; state: unknown }) => ({
  name: v.name,
  shared: v.shared,
  state: v.state,
});

export const viewsRouter = createRouter();

// Every request of this router runs with its asker known to the list declaration (queries.ts
// `askerStore`): the views list's SQL reads it when its statements are built.
viewsRouter.use("*", async (c, next) => {
  const user = c.get("session")?.user as { id: string; role?: string } | undefined;
  if (!user) return next();
  return withAsyncContext(() => askerStore.run({ id: user.id, role: user.role }, () => next()));
});

/**
 * GET /api/views (viewer and up) and its CSV export: the views the asking operator may see (their
 * own and every shared one), paged by the list engine (docs/lists.md). Filters `list` (one of
 * `savedViewLists`; without it every list's views, for the command palette) and `shared`
 * (`true`/`false`); `q` searches the name; sorts `name` (default, ascending, case-insensitive),
 * `updated_at`, `created_at`. Items are `savedViewSchema`, with `mine`, `can_edit`, `is_default`
 * and `owner_email` read in the page's own statement.
 */
mountList(viewsRouter, {
  base: viewsBase,
  path: "/",
  access: "viewer",
  tags,
  summary: "List saved views",
  description:
    "The caller's own views and every shared view, by name; filters `list` and `shared`; `q` searches the name (docs/saved-views.md).",
  list: savedViewList,
});

/**
 * GET /api/views/{viewId} → 200 `openedViewSchema`: the view with `state` as it applies to its list
 * today and `dropped`, the parts that no longer do (docs/saved-views.md "Stale filters"). A view
 * always opens. 404 when it does not exist or is another operator's personal view (admins too).
 */
const openRoute = apiRoute(viewsBase, "viewer", {
  method: "get",
  path: "/{viewId}",
  tags,
  summary: "Open a saved view",
  request: { params },
  responses: {
    200: jsonResponse(openedViewSchema, "The view, its state as it applies today, and what was dropped"),
    ...notFound404,
  },
});

/**
 * POST /api/views `viewCreateSchema` → 201 `savedViewSchema`. 403 when a viewer shares
 * (`shared: true`); 422 for a name the owner already gives a view of that list (whatever its case:
 * `fields.name`), filters or a sort the list does not take (`fields["state.filters.<name>"]`,
 * `fields["state.sort"]`), or past `viewLimits.maxPerOperatorList` views of the list. Audited
 * `create` of `saved_view`.
 */
const saveRoute = apiRoute(viewsBase, "viewer", {
  method: "post",
  path: "/",
  tags,
  summary: "Save a view",
  request: {
    body: jsonBody(viewCreateSchema, {
      list: "customers",
      name: "Trials by name",
      shared: false,
      state: { q: "acme", filters: { status: "trial" }, sort: "customer_name", order: "asc" },
    }),
  },
  responses: {
    201: jsonResponse(savedViewSchema, "Saved"),
    ...forbidden403("A viewer shares a view (viewers save personal views)"),
    ...invalidResponse,
  },
});

/**
 * PATCH /api/views/{viewId} `viewUpdateSchema` → 200 `savedViewSchema` with `version` + 1. 409
 * `stale` (with `current`) when `version` is not the view's; 404 for another operator's personal
 * view; 403 for a shared view of another operator unless an admin, or when a viewer shares; 422 as
 * POST. Audited `update` of `saved_view` (before and after of name, shared, state).
 */
const updateRoute = apiRoute(viewsBase, "viewer", {
  method: "patch",
  path: "/{viewId}",
  tags,
  summary: "Change a saved view",
  request: {
    params,
    body: jsonBody(viewUpdateSchema, {
      version: 1,
      name: "Trials, newest first",
      state: { filters: { status: "trial" }, sort: "created_at", order: "desc" },
    }),
  },
  responses: {
    200: jsonResponse(savedViewSchema, "Saved"),
    ...forbidden403("Another operator's shared view (admins excepted), or a viewer shares"),
    ...notFound404,
    ...conflictResponse("stale: the view changed since `version`"),
    ...invalidResponse,
  },
});

/**
 * DELETE /api/views/{viewId} → 204. Same permissions as PATCH. Defaults pointing at it are cleared
 * (the foreign key's `on delete set null`). Audited `delete` of `saved_view`.
 */
const deleteRoute = apiRoute(viewsBase, "viewer", {
  method: "delete",
  path: "/{viewId}",
  tags,
  summary: "Delete a saved view",
  request: { params },
  responses: {
    204: { description: "Deleted" },
    ...forbidden403("Another operator's shared view (admins excepted)"),
    ...notFound404,
  },
});

/**
 * The view `viewId` locked for a change by `asker`: 404 when they cannot see it, 403 when it is
 * another operator's shared view and they are not an admin.
 */
async function editable(db: Database, asker: Asker, viewId: string): Promise<SavedView> {
  const view = requireFound(await viewFor(db, asker, viewId, true), msg.views.notFound);
  if (!view.can_edit) throw new HttpError(403, "forbidden", msg.views.editForbidden);
  return view;
}

viewsRouter
  .openapi(openRoute, async (c) => {
    const { viewId } = c.req.valid("param");
    const view = requireFound(await viewFor(c.get("db"), askerOf(c), viewId), msg.views.notFound);
    const { state, dropped } = await applicableState(c.get("db"), view.list, view.state);
    return c.json({ ...view, state, dropped }, 200);
  })
  .openapi(saveRoute, async (c) => {
    const input = c.req.valid("json");
    const asker = askerOf(c);
    if (!mayReadList(asker.role, input.list)) throw new HttpError(403, "forbidden", msg.views.listForbidden);
    if (input.shared && !roleAtLeast(asker.role, "editor"))
      throw new HttpError(403, "forbidden", msg.views.shareForbidden);
    checkState(input.list, input.state);
    try {
      const viewId = await mutate(c, async (tx) => {
        const db: Database = tx;
        // The owner's row locked: two saves at once cannot both pass the count below.
        await queryRows(db, sql`select id from operator where id = ${asker.id} for update`);
        const [{ n }] = await tx
          .select({ n: count() })
          .from(saved_views)
          .where(and(eq(saved_views.operator_id, asker.id), eq(saved_views.list, input.list)));
        if (n >= viewLimits.maxPerOperatorList) {
          const tooMany = msg.views.tooMany(viewLimits.maxPerOperatorList);
          throw new HttpError(422, "validation_failed", tooMany, { list: tooMany });
        }
        await checkNameFree(db, asker.id, input.list, input.name);
        const [row] = await tx
          .insert(saved_views)
          .values({
            operator_id: asker.id,
            list: input.list,
            name: input.name,
            shared: input.shared,
            state: input.state,
          })
          .returning({ view_id: saved_views.view_id });
        return {
          result: row.view_id,
          audit: [
            {
              action: "create",
              entity: "saved_view",
              entity_id: row.view_id,
              after: { list: input.list, ...auditFacts(input) },
            },
          ],
        };
      });
      return c.json((await viewFor(c.get("db"), asker, viewId))!, 201);
    } catch (err) {
      if (isNameTaken(err)) throw nameTaken();
      throw err;
    }
  })
  .openapi(updateRoute, async (c) => {
    const { viewId } = c.req.valid("param");
    const input = c.req.valid("json");
    const asker = askerOf(c);
    try {
      await mutate(c, async (tx) => {
        const db: Database = tx;
        const before = await editable(db, asker, viewId);
        if (before.version !== input.version)
          throw new HttpError(409, "stale", msg.views.stale, undefined, { current: before });
        if (input.shared && !roleAtLeast(asker.role, "editor"))
          throw new HttpError(403, "forbidden", msg.views.shareForbidden);
        if (input.state) checkState(before.list, input.state);
        if (input.name !== undefined && input.name !== before.name)
          await checkNameFree(db, before.operator_id, before.list, input.name, viewId);
        const after = {
          name: input.name ?? before.name,
          shared: input.shared ?? before.shared,
          state: input.state ?? before.state,
        };
        await tx
          .update(saved_views)
          .set({ ...after, version: sql`${saved_views.version} + 1`, updated_at: sql`now()` })
          .where(eq(saved_views.view_id, viewId));
        const audit: AuditEntry[] = [
          {
            action: "update",
            entity: "saved_view",
            entity_id: viewId,
            before: auditFacts(before),
            after: auditFacts(after),
          },
        ];
        return { result: null, audit };
      });
    } catch (err) {
      if (isNameTaken(err)) throw nameTaken();
      throw err;
    }
    return c.json((await viewFor(c.get("db"), asker, viewId))!, 200);
  })
  .openapi(deleteRoute, async (c) => {
    const { viewId } = c.req.valid("param");
    const asker = askerOf(c);
    await mutate(c, async (tx) => {
      const before = await editable(tx, asker, viewId);
      await tx.delete(saved_views).where(eq(saved_views.view_id, viewId));
      return {
        result: null,
        audit: [
          {
            action: "delete" as const,
            entity: "saved_view" as const,
            entity_id: viewId,
            before: { list: before.list, ...auditFacts(before) },
          },
        ],
      };
    });
    return c.body(null, 204);
  });

export const listPreferencesRouter = createRouter();

const listParams = z.object({ list: savedViewListSchema });

/** An unknown list in the path is a 422 (the list's name is input, not a record's id). */
const unknownListHook = (
  result: { success: boolean; error?: z.ZodError; target?: string },
  c: Context<AppEnv>,
): Response | undefined => {
  if (result.success) return undefined;
  const fields = fieldMessages(result.error!);
  if (result.target === "param")
    return errorResponse(c, 422, "validation_failed", msg.views.unknownList, { list: msg.views.unknownList });
  return errorResponse(c, 422, "validation_failed", Object.values(fields)[0] ?? msg.views.invalidRequest, fields);
};

/**
 * GET /api/list-preferences/{list} → 200 `listPreferencesSchema`: the caller's columns (null: the
 * spec's), the columns they hid (a column in neither list was added since, and shows) and default
 * view (null: none, or a view they can no longer see) of one list. 422 for an unknown list.
 */
const getPreferencesRoute = apiRoute(listPreferencesBase, "viewer", {
  method: "get",
  path: "/{list}",
  tags,
  summary: "My columns and default view of a list",
  request: { params: listParams },
  responses: { 200: jsonResponse(listPreferencesSchema, "The caller's choices"), ...invalidResponse },
});

/**
 * PUT /api/list-preferences/{list} `listPreferencesUpdateSchema` → 200 `listPreferencesSchema`:
 * stores the caller's choices (parts left out are kept; null clears; a body with none is refused,
 * 422). `default_view_id` must be a view of the same list the caller can see (422
 * `fields.default_view_id`). Audited `update` of `list_preference` (entity_id: the list).
 */
const putPreferencesRoute = apiRoute(listPreferencesBase, "viewer", {
  method: "put",
  path: "/{list}",
  tags,
  summary: "Set my columns or default view of a list",
  request: {
    params: listParams,
    body: jsonBody(listPreferencesUpdateSchema, { columns: ["customer_name", "status"] }),
  },
  responses: { 200: jsonResponse(listPreferencesSchema, "The caller's choices as stored"), ...invalidResponse },
});

/** What a list preference row holds, for its audit row's before and after. */
const storedPart = ({ list: _list, ...stored }: Awaited<ReturnType<typeof preferencesOf>>) => stored;

/** The caller's choices for `list`, a default they can no longer see read as null. */
async function preferencesOf(db: Database, asker: Asker, list: SavedViewList) {
  const [row] = await queryRows<{
    columns: string[] | null;
    hidden_columns: string[] | null;
    default_view_id: string | null;
  }>(
    db,
    sql`select lp.columns, lp.hidden_columns, v.view_id as default_view_id from list_preferences lp
      left join saved_views v on v.view_id = lp.default_view_id and v.list = lp.list
        and (v.shared or v.operator_id = ${asker.id})
      where lp.operator_id = ${asker.id} and lp.list = ${list}`,
  );
  return {
    list,
    columns: row?.columns ?? null,
    hidden_columns: row?.hidden_columns ?? null,
    default_view_id: row?.default_view_id ?? null,
  };
}

listPreferencesRouter
  .openapi(
    getPreferencesRoute,
    async (c) => {
      const { list } = c.req.valid("param");
      return c.json(await preferencesOf(c.get("db"), askerOf(c), list), 200);
    },
    unknownListHook,
  )
  .openapi(
    putPreferencesRoute,
    async (c) => {
      const { list } = c.req.valid("param");
      const input = c.req.valid("json");
      const asker = askerOf(c);
      if (!mayReadList(asker.role, list)) throw new HttpError(403, "forbidden", msg.views.listForbidden);
      const answer = await mutate(c, async (tx) => {
        const db: Database = tx;
        if (input.default_view_id) {
          const view = await viewFor(db, asker, input.default_view_id);
          if (!view || view.list !== list)
            throw new HttpError(422, "validation_failed", msg.views.defaultNotVisible, {
              default_view_id: msg.views.defaultNotVisible,
            });
        }
        const before = await preferencesOf(db, asker, list);
        const set = {
          ...(input.columns !== undefined ? { columns: input.columns } : {}),
          ...(input.hidden_columns !== undefined ? { hidden_columns: input.hidden_columns } : {}),
          ...(input.default_view_id !== undefined ? { default_view_id: input.default_view_id } : {}),
        };
        await tx
          .insert(list_preferences)
          .values({
            operator_id: asker.id,
            list,
            columns: before.columns,
            hidden_columns: before.hidden_columns,
            default_view_id: before.default_view_id,
            ...set,
          })
          .onConflictDoUpdate({
            target: [list_preferences.operator_id, list_preferences.list],
            set: { ...set, updated_at: sql`now()` },
          });
        const after = { ...before, ...set };
        return {
          result: after,
          audit: [
            {
              action: "update" as const,
              entity: "list_preference" as const,
              entity_id: list,
              before: storedPart(before),
              after: storedPart(after),
            },
          ],
        };
      });
      return c.json(answer, 200);
    },
    unknownListHook,
  );
