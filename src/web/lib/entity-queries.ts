/**
 * The per-feature query kit: one builder for a kind of record's query keys and the queries every
 * feature declares alike (a list-engine page, one record, a table inside a record's page), and one
 * helper for its mutations. A feature's queries.ts is then its endpoints and what each change
 * invalidates; it still never imports another feature's keys (see query-client.ts).
 */
import { keepPreviousData, queryOptions, useMutation, type QueryKey } from "@tanstack/react-query";
import type { z } from "zod";
import type { ListParams } from "../../domain/common";
import { deletedResultSchema } from "../../domain/deleted";
import { api } from "../api/client";
import type { MutationMeta } from "./query-client";

/** How many matches a picker's candidates query asks for. */
const pickerLimit = 20;

/** The API parameters of a list request (the list engine's, plus a screen's filters). */
export type QueryParams = ListParams & Record<string, string | number | undefined>;

/**
 * The query keys and queries of one kind of record served at `path` ("/prompts"), its keys under
 * `root` (one of `queryRoots`), `schemas` a domain's `recordSchemas` bundle or the parts it uses:
 *
 *  - `keys.all` (the root), `keys.lists()` and `keys.list(params)` for its list pages,
 *    `keys.detail(id)` for one record and `keys.nested(id, table, ...rest)` for what belongs to it,
 *    so that dropping or refetching `detail(id)` reaches every table of that record's page;
 *  - `listQuery(params)`: GET `path` (a list-engine page, parsed with `schemas.list`) with the
 *    list's parameters, the previous page kept while the next loads;
 *  - `detailQuery(id)`: GET `path/{id}`, parsed with `schemas.detail`;
 *  - `nested(table, schema, sub = table)`: GET `path/{id}/{sub}` with the parameters of a table
 *    inside the record's page (`useServerList` calls it with them), keyed under `detail(id)`;
 *  - `candidates(table, schema, sub)`: GET `path/{id}/{sub}` with a picker's search `q`, the first
 *    `pickerLimit` matches (a picker's list is searched, not paged), keyed under `detail(id)`;
 *  - `creates(meta)`: the hook of POST `path` with a new record (`schemas.create`'s input), answered
 *    with `schemas.row`; `updates(meta)`: the hook of PATCH `path/{id}` with the changed fields
 *    (`schemas.update`'s input) and the version read (`ifMatch`). `meta` names what they change
 *    (by default this kind of record's queries only);
 *  - `unlinks(sub, meta)`: the hook of DELETE `path/{id}/{sub}/{otherId}`, called with the other
 *    record's id (an assignment or membership leaves the record);
 *  - `deletes(invalidates)`: the hook of DELETE `path/{id}`. The record's own queries would now
 *    answer 404, so they are dropped instead of refetched; its lists and `invalidates` refetch.
 */
export function entityQueries<
  R extends QueryKey,
  L extends z.ZodType = z.ZodNever,
  D extends z.ZodType = z.ZodNever,
  W extends z.ZodType = z.ZodNever,
  C extends z.ZodType = z.ZodNever,
  U extends z.ZodType = z.ZodNever,
>(root: R, path: string, schemas: { list?: L; detail?: D; row?: W; create?: C; update?: U }) {
  const keys = entityKeys(root);
  return {
    keys,
    listQuery: (params: QueryParams) =>
      queryOptions({
        queryKey: keys.list(params),
        queryFn: ({ signal }) => api(path, schemas.list as L, { query: params, signal }) as Promise<z.infer<L>>,
        placeholderData: keepPreviousData,
      }),
    detailQuery: (id: string) =>
      queryOptions({
        queryKey: keys.detail(id),
        queryFn: ({ signal }) => api(`${path}/${id}`, schemas.detail as D, { signal }) as Promise<z.infer<D>>,
      }),
    nested:
      <S extends z.ZodType>(table: string, schema: S, sub = table) =>
      (id: string) =>
      (params: QueryParams) =>
        queryOptions({
          queryKey: keys.nested(id, table, params),
          queryFn: ({ signal }) =>
            api(`${path}/${id}/${sub}`, schema, { query: params, signal }) as Promise<z.infer<S>>,
          placeholderData: keepPreviousData,
        }),
    candidates:
      <S extends z.ZodType>(table: string, schema: S, sub: string) =>
      (id: string, q: string) =>
        queryOptions({
          queryKey: keys.nested(id, table, q),
          queryFn: ({ signal }) =>
            api(`${path}/${id}/${sub}`, schema, { query: { q, limit: pickerLimit }, signal }) as Promise<z.infer<S>>,
          placeholderData: keepPreviousData,
        }),
    ...entityMutations(path, keys, schemas),
  };
}

/** The query keys of one kind of record under `root`: its lists, one record, and what belongs to it. */
function entityKeys<R extends QueryKey>(root: R) {
  return {
    all: root,
    lists: () => [...root, "list"] as const,
    list: (params: object) => [...root, "list", params] as const,
    detail: (id: string) => [...root, "detail", id] as const,
    nested: (id: string, table: string, ...rest: unknown[]) => [...root, "detail", id, table, ...rest] as const,
  };
}

/**
 * The mutation hooks of one kind of record served at `path` (`creates`, `updates`, `unlinks`,
 * `deletes` of `entityQueries`); a deletion drops the record's own queries under `keys`.
 */
function entityMutations<R extends QueryKey, W extends z.ZodType, C extends z.ZodType, U extends z.ZodType>(
  path: string,
  keys: ReturnType<typeof entityKeys<R>>,
  schemas: { row?: W; create?: C; update?: U },
) {
  const ownChanges: MutationMeta = { invalidates: [keys.all] };
  return {
    creates: (meta: MutationMeta = ownChanges) => {
      const useCreate = () =>
        useApiMutation(
          (input: z.input<C>) => api(path, schemas.row as W, { method: "POST", body: input }) as Promise<z.infer<W>>,
          meta,
        );
      return useCreate;
    },
    updates: (meta: MutationMeta = ownChanges) => {
      const useUpdate = (id: string) =>
        useApiMutation(
          ({ ifMatch, ...input }: z.input<U> & { ifMatch?: string }) =>
            api(`${path}/${id}`, schemas.row as W, { method: "PATCH", body: input, ifMatch }) as Promise<z.infer<W>>,
          meta,
        );
      return useUpdate;
    },
    unlinks: (sub: string, meta: MutationMeta) => {
      const useUnlink = (id: string) =>
        useApiMutation(
          (otherId: string) => api(`${path}/${id}/${sub}/${otherId}`, deletedResultSchema, { method: "DELETE" }),
          meta,
        );
      return useUnlink;
    },
    deletes: (invalidates: readonly QueryKey[]) => {
      const useDelete = (id: string) =>
        useApiMutation(() => api(`${path}/${id}`, deletedResultSchema, { method: "DELETE" }), {
          removes: [keys.detail(id)],
          invalidates: [keys.lists(), ...invalidates],
        });
      return useDelete;
    },
  };
}

/**
 * A change sent to the API, declared with what it changes (`meta`: the keys it invalidates or
 * removes, applied by the query client after success), e.g.
 * `useApiMutation((input: CreateSkillInput) => api("/skills", skillSchema, { method: "POST", body: input }), { invalidates: [queryRoots.skills] })`.
 */
export function useApiMutation<V = void, R = unknown>(mutationFn: (variables: V) => Promise<R>, meta: MutationMeta) {
  return useMutation({ mutationFn, meta });
}
