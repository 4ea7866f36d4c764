/**
 * The WHERE of a list request: its scope, its filters and its search, and the search helpers the
 * declarations use (contains or prefix matches, values of known sets, names of referenced rows).
 */
import { sql, type SQL } from "drizzle-orm";
import { likePattern } from "../list";
import { minContainsLength } from "../../../domain/limits";
import { type FilterSpec, type ListDeclaration, type ListRequest, type SearchForms, type SearchMatch } from "./declare";

/** `AND` of the conditions, `true` when there are none. */
export function allOf(conditions: Array<SQL | undefined>): SQL {
  const present = conditions.filter((c): c is SQL => c !== undefined);
  return present.length
    ? sql.join(
        present.map((c) => sql`(${c})`),
        sql` and `,
      )
    : sql`true`;
}

/** The values among `values` that a search matches: those containing `q` (or starting with it, for a prefix search). */
export function matchingValues(values: readonly string[], match: SearchMatch): string[] {
  const q = match.q.toLowerCase();
  return values.filter((v) => (match.prefix ? v.startsWith(q) : v.includes(q)));
}

/** `expr = any(values)`, or false when none: a search over a column of known values (statuses). */
export function anyValue(expr: SQL, values: readonly string[]): SQL {
  return values.length
    ? sql`${expr} = any(${sql`array[${sql.join(
        values.map((v) => sql`${v}`),
        sql`, `,
      )}]::text[]`})`
    : sql`false`;
}

/**
 * A search on the name of the row a foreign key points at (a user's customer), in both forms:
 * `gather` as `key = any(array(select id … where name ilike …))`, one trigram bitmap scan however
 * many rows match; `test` as the name read by primary key for the one row tested, since testing a
 * row against an array of thousands of ids scans the array.
 */
export function referencedName(ref: { key: SQL; table: SQL; id: SQL; name: SQL }, match: SearchMatch): SearchForms {
  return {
    gather: sql`${ref.key} = any(array(select ${ref.id} from ${ref.table} where ${ref.name} ilike ${match.pattern}))`,
    test: sql`(select ${ref.name} from ${ref.table} where ${ref.id} = ${ref.key}) ilike ${match.pattern}`,
  };
}

/**
 * A search on the name of the customer `key` points at (a user's, a team's, a comment's), in both
 * forms (`referencedName`), through `customers_name_trgm`: the lists of four entities use it.
 */
export const customerNamed = (key: SQL, match: SearchMatch) =>
  referencedName({ key, table: sql`customers c2`, id: sql`c2.customer_id`, name: sql`c2.customer_name` }, match);

/** OR of search conditions, some of them in two forms: a search in two forms. */
export function anyOf(parts: Array<SQL | SearchForms>): SearchForms {
  const form = (which: keyof SearchForms) =>
    sql.join(
      parts.map((p) => sql`(${"gather" in p ? p[which] : p})`),
      sql` or `,
    );
  return { gather: form("gather"), test: form("test") };
}

/** The search's match: contains (3 characters or more) or prefix, with LIKE wildcards escaped. */
export function searchMatch(q: string): SearchMatch {
  const prefix = q.length < minContainsLength;
  const escaped = likePattern(q).slice(1, -1);
  return { q, prefix, pattern: prefix ? `${escaped}%` : `%${escaped}%` };
}

/**
 * The WHERE parts of a request: `filterWhere` (scope and filters), `where` (with the search's
 * gathering form: counts, summaries, exports) and `walkWhere` (with its testing form: a page that
 * walks the sort's index).
 */
export function conditions<I, S, F extends Record<string, unknown>>(
  decl: ListDeclaration<I, S, F>,
  req: ListRequest<F>,
) {
  const filterParts = Object.entries(decl.filters).map(([name, spec]) => {
    const value = req.filters[name];
    return value === undefined || value === "" ? undefined : (spec as FilterSpec).where(value);
  });
  const filterWhere = allOf([req.scope, ...filterParts]);
  const q = req.query.q || undefined;
  const forms = q && decl.search ? decl.search(searchMatch(q)) : undefined;
  const gather = forms && "gather" in forms ? forms.gather : forms;
  const test = forms && "test" in forms ? forms.test : forms;
  return { q, filterWhere, where: allOf([filterWhere, gather]), walkWhere: allOf([filterWhere, test]) };
}
