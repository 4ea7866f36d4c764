import { z } from "zod";
import { paging } from "./limits";
import { describesRows } from "./table-rows";

/**
 * A uuid path or body id: any value of PostgreSQL's uuid type (8-4-4-4-12 hex digits), not only
 * RFC 9562 ones, since an adopted database may hold ids another generator made.
 */
export const id = z.guid();
/** An ISO 8601 timestamp as it travels in JSON. */
export const timestamp = z.string();
export const sortOrders = ["asc", "desc"] as const;

/** A row's `created_at` and `updated_at`, in that order. */
export const rowTimestamps = { created_at: timestamp, updated_at: timestamp };

/** An object of whole numbers named `names`, in that order: a list's cards, a record's statistics. */
export function counts<K extends string>(...names: K[]) {
  return z.object(Object.fromEntries(names.map((n) => [n, z.number().int()])) as Record<K, z.ZodNumber>);
}

/** A list's status cards: its total and one count per status of the entity's own set. */
export const statusCardsOf = <S extends string>(statuses: readonly S[]) => counts<"total" | S>("total", ...statuses);

/** The paging parameters of every list: `limit`, and at most one of `cursor`, `offset` and `at=end`. */
export const listPagingSchema = z.object({
  limit: z.coerce.number().int().min(1).max(paging.maxLimit).default(paging.defaultLimit),
  cursor: z.string().max(2000).optional(),
  offset: z.coerce.number().int().min(0).max(paging.maxOffset).optional(),
  at: z.enum(["end"]).optional(),
});

/** Paging of a short nested list (a team's skills, a user's available teams): `limit` and `offset`. */
export const offsetPagingSchema = z.object({
  limit: z.coerce.number().int().min(1).max(paging.maxLimit).default(paging.defaultLimit),
  offset: z.coerce.number().int().min(0).max(paging.maxOffset).default(0),
});

/**
 * One page of a list in the paging contract (docs/lists.md): `items`; `total` matching rows, the
 * planner's estimate when `total_exact` is false; the summary cards (estimated when
 * `summary_exact` is false; `summary_as_of` when reused from a refresh a few seconds old);
 * `counting` while a search's matches are counted in the background (then `total` is an estimate,
 * and `summary` is null where the cards count the matches: ask again shortly); opaque cursors of
 * the next and previous pages, null at either end.
 */
export function listPage<I extends z.ZodType, S extends z.ZodType>(item: I, summary: S) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    total_exact: z.boolean(),
    summary: summary.nullable(),
    summary_exact: z.boolean(),
    summary_as_of: z.string().nullable(),
    counting: z.boolean(),
    next_cursor: z.string().nullable(),
    prev_cursor: z.string().nullable(),
  });
}

/**
 * One page of a picker's options, by name: `items`; `more` when further options follow; `next`,
 * the opaque cursor to ask for them with (`after`), null at the end. Typing narrows the list; scrolling
 * loads the next page, so a picker goes through every record without loading a table whole.
 */
export function optionsPage<I extends z.ZodType>(item: I) {
  return z.object({ items: z.array(item), more: z.boolean(), next: z.string().nullable() });
}

/** One page of a list with items `I` and summary `S`: the type of `listPage`'s schema, for both sides. */
export type ListPageOf<I, S> = z.infer<ReturnType<typeof listPage<z.ZodType<I>, z.ZodType<S>>>>;

/** The summary of a list that has no cards. */
export const noSummary = z.object({});

/** Answer of a mutation that changes nothing but a status or a link. */
export const okSchema = z.object({ ok: z.literal(true) });

/**
 * What every list endpoint takes: search, sort column and direction, page size, and at most one of
 * a cursor, an offset (0–10,000) or `at: "end"`.
 */
export type ListParams = {
  q?: string;
  sort: string;
  order: "asc" | "desc";
  limit: number;
  cursor?: string;
  offset?: number;
  at?: "end";
};

/**
 * A yes-or-no query parameter: `true` or `false` (422 otherwise), read as a boolean and described
 * as one, so that a generated client takes a boolean.
 */
export const queryFlag = z
  .enum(["true", "false"])
  .transform((v) => v === "true")
  .meta({ type: "boolean" });

/**
 * A stored status, type or role in an answer: one of `values`, which is what the API's description
 * declares (an `enum`, so that generated clients type it). A database adopted from the console this
 * one replaces (docs/adopting.md) may still hold rows outside the spec's lists, where its check
 * constraints could not be added: those rows answer their text as it is (`x-extensible-enum` says
 * so), screens show them with the neutral badge instead of failing. Requests take exactly `values`.
 */
export function stored<T extends readonly [string, ...string[]]>(values: T) {
  return z
    .string()
    .min(1)
    .meta({ enum: [...values], "x-extensible-enum": true });
}

/**
 * A record's edit schema from its fields (the create schema's, without defaults): each optional, a
 * field not given left alone, no other key taken; at least one given (`nothing` otherwise).
 */
export function editSchema<F extends Record<string, z.ZodType>>(fields: F, nothing: string) {
  const optional = Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, f.optional()]));
  return z
    .strictObject(optional as { [K in keyof F]: z.ZodOptional<F[K]> })
    .refine((v) => Object.values(v).some((x) => x !== undefined), { message: nothing });
}

/** A record's fields with the values a create may leave out given as defaults (`recordSchemas`). */
type WithDefaults<F extends Record<string, z.ZodType>, D> = {
  [K in keyof F]: K extends keyof D ? z.ZodDefault<F[K]> : F[K];
};

/**
 * The schemas of one kind of record, derived from its row and its editable fields so that an
 * entity writes only what differs (docs/adding-an-entity.md):
 *
 *  - `row`: what a write answers (the row as the API shows it);
 *  - `item` (default `row`): a list row; `list`: a list-engine page of them with `summary`
 *    (`statusCardsOf(statuses)` for status cards, `noSummary` for none);
 *  - `detail` (default `item`): one record as its page loads it;
 *  - `create`: the fields in a strict object, those in `defaults` optional with that value;
 *  - `update`: `editSchema(fields, nothingToUpdate)`: the fields given change, at least one;
 *  - `rows`: `describesRows(table, row, rowsOptions)`, which tests/api/schemas.test.ts holds to
 *    the Drizzle table.
 */
export function recordSchemas<
  R extends z.ZodObject,
  F extends Record<string, z.ZodType>,
  D extends { [K in keyof F]?: z.output<F[K]> },
  S extends z.ZodType,
  I extends z.ZodObject = R,
  T extends z.ZodObject = I,
>(spec: {
  table: string;
  row: R;
  rowsOptions?: Parameters<typeof describesRows>[2];
  item?: I;
  detail?: T;
  summary: S;
  fields: F;
  defaults: D;
  nothingToUpdate: string;
}) {
  const item = spec.item ?? spec.row;
  const defaulted = Object.fromEntries(
    Object.entries(spec.fields).map(([k, f]) => [
      k,
      k in spec.defaults ? f.default(spec.defaults[k] as NonNullable<unknown>) : f,
    ]),
  );
  // Without `item` (or `detail`), its type parameter is its default, so the fallback is of that type.
  return {
    row: spec.row,
    item: item as I,
    list: listPage(item as I, spec.summary),
    detail: (spec.detail ?? item) as T,
    // Object.fromEntries answers string keys: these are exactly the fields, defaulted where `defaults` says.
    create: z.strictObject(defaulted as WithDefaults<F, D>),
    update: editSchema(spec.fields, spec.nothingToUpdate),
    rows: describesRows(spec.table, spec.row, spec.rowsOptions),
  };
}
