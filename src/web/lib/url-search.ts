/**
 * Validation of the URL's search parameters for the route table (`validateSearch`), written by
 * hand so that the router, which loads before any screen, does not pull zod into the initial
 * JavaScript (zod is about a third of it; the screens load it with their code). Each field keeps
 * a valid value and drops an invalid one (a bad link still opens the page, with that value left
 * out), exactly as the zod schemas `z.….optional().catch(undefined)` did:
 * tests/components/url-search.test.tsx checks each field against its zod twin on random input.
 *
 * The router hands over values already parsed from the URL (`?page=2` is the number 2,
 * `?signed_in=true` the boolean true, `?q=%22123%22` the string "123").
 */
import { maxSearchLength, paging, viewLimits } from "../../domain/limits";

/** One search parameter: its value when valid, else undefined. */
export type SearchField<T> = (value: unknown) => T | undefined;
type FieldValue<F> = F extends SearchField<infer T> ? T : never;
/** The validated search of a route: each field present only when its value is valid. */
export type ValidSearch<S extends Record<string, SearchField<unknown>>> = { [K in keyof S]?: FieldValue<S[K]> };

/** A string of at most `max` UTF-16 units (zod: `z.string().max(max)`). */
export const text =
  (max: number): SearchField<string> =>
  (v) =>
    typeof v === "string" && v.length <= max ? v : undefined;

/** One of `values` (zod: `z.enum(values)`). */
export function oneOf<const V extends readonly string[]>(values: V): SearchField<V[number]> {
  return (v) => (typeof v === "string" && values.includes(v) ? v : undefined);
}

/** A whole number ≥ 1, from a number or its text (zod: `z.coerce.number().int().min(1)`). */
export const positiveInt: SearchField<number> = (v) => {
  let n: number;
  try {
    n = Number(v);
  } catch {
    return undefined;
  }
  return Number.isSafeInteger(n) && n >= 1 ? n : undefined;
};

/** The boolean true, `?flag=true` (zod: `z.literal(true)`). */
export const isTrue: SearchField<true> = (v) => (v === true ? true : undefined);

// Any value of PostgreSQL's uuid type in its standard form (zod: `z.guid()`; adopted data may hold
// ids that are not RFC 9562), and the pattern of zod's `z.iso.date()`.
const uuidPattern = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const datePattern =
  /^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))$/;

/** A uuid in its standard form (zod: `z.guid()`). */
export const uuid: SearchField<string> = (v) => (typeof v === "string" && uuidPattern.test(v) ? v : undefined);

/** A calendar date `YYYY-MM-DD` (zod: `z.iso.date()`). */
export const isoDate: SearchField<string> = (v) => (typeof v === "string" && datePattern.test(v) ? v : undefined);

/**
 * A route's `validateSearch`: keeps the declared fields whose values are valid and drops the rest
 * (unknown parameters included), so defaults and bad values never reach a screen.
 */
export function searchSchema<const S extends Record<string, SearchField<unknown>>>(fields: S) {
  return (search: Record<string, unknown>): ValidSearch<S> => {
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(fields)) {
      if (!Object.prototype.hasOwnProperty.call(search, key)) continue;
      const value = field(search[key]);
      if (value !== undefined) out[key] = value;
    }
    return out as ValidSearch<S>;
  };
}

/** A page size the lists offer (`viewLimits.pageSizes`), from a number or its text. */
export const pageSize: SearchField<number> = (v) => {
  const n = positiveInt(v);
  return n !== undefined && (viewLimits.pageSizes as readonly number[]).includes(n) ? n : undefined;
};

/**
 * What every list screen's URL may carry besides its own state (docs/saved-views.md): the saved
 * view it shows (`view`) and the page size (`limit`). A route whose search is declared with
 * `searchSchema` rather than `listSearchSchema` spreads these in.
 */
export const listViewFields = { view: uuid, limit: pageSize } as const;

/** Largest offset the API accepts: page numbers are offered up to it, cursors page beyond. */
export const maxOffset = paging.maxOffset;
export { maxSearchLength };

/**
 * URL search parameters of a list screen: `q`, `sort`, `order`, `page`, `cursor`, `view`, `limit` and the screen's
 * filters. Invalid values are dropped rather than failing the page; defaults never appear in the URL.
 */
export function listSearchSchema<
  const K extends readonly [string, ...string[]],
  const E extends Record<string, SearchField<unknown>>,
>(sortKeys: K, extra: E) {
  return searchSchema({
    q: text(maxSearchLength),
    sort: oneOf(sortKeys),
    order: oneOf(["asc", "desc"] as const),
    page: positiveInt,
    cursor: text(2000),
    ...listViewFields,
    ...extra,
  });
}
