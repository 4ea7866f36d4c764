/** `%q%` for ILIKE with the LIKE wildcards in `q` escaped, so "50%" finds a literal "50%". */
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
}

type Jsonified<T> = T extends Date
  ? string
  : T extends Array<infer U>
    ? Array<Jsonified<U>>
    : T extends object
      ? { [K in keyof T]: Jsonified<T[K]> }
      : T;

/**
 * Dates become ISO 8601 strings in UTC, as they travel in JSON; everything else, strings included,
 * is kept exactly (timestamps arrive as Dates: see `queryRows`).
 */
export function toJson<T>(value: T): Jsonified<T> {
  if (value instanceof Date) return value.toISOString() as Jsonified<T>;
  if (Array.isArray(value)) return value.map(toJson) as Jsonified<T>;
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJson(v)])) as Jsonified<T>;
  }
  return value as Jsonified<T>;
}
