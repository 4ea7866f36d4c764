/**
 * What to benchmark, derived from the server's route table and its OpenAPI document, so a new
 * list is measured the day its route exists: every GET route under /api (documentation, auth and
 * the lists' CSV exports, which stream every matching row, left out). A route whose query takes `limit` is a list and gets up to four cases: first page,
 * deep page, search, filtered and sorted page. Other routes get one case (detail, dashboard).
 * Path parameters take a busy row of their entity (the most referenced one).
 */
import { routeTable } from "../../src/server/http/route";
import type { InProcess } from "./inproc";

export type CaseKind =
  "first" | "deep" | "search" | "filter+sort" | "detail" | "other" | "not-modified" | "not-modified-token";
export type BenchCase = {
  /** Route path as declared, e.g. /api/teams/{teamId}/skills. */
  route: string;
  kind: CaseKind;
  /** The request path with query. */
  path: string;
  /** True for list endpoints (the latency targets apply). */
  list: boolean;
  /** How the case was chosen (shown in the report). */
  note?: string;
  /** Request headers beside the session cookie (If-None-Match of a `not-modified` case). */
  headers?: Record<string, string>;
  /** The status every answer should have, when not a 2xx (304 for `not-modified`). */
  status?: number;
};

/** The read API for platforms (docs/prompt-review.md), whose two cases have targets of their own. */
export const deliveryRoute = "/api/delivery/platforms/{platformId}/prompts";
export const isDelivery = (c: BenchCase, kind: CaseKind): boolean => c.route === deliveryRoute && c.kind === kind;

/** The users list's first page: the case the throughput targets and the naive comparison are about. */
export const isUsersFirst = (c: BenchCase): boolean => c.route === "/api/users" && c.kind === "first";

type Param = {
  name: string;
  in: string;
  schema?: { type?: string; enum?: string[]; default?: unknown; format?: string; maximum?: number; pattern?: string };
};

/**
 * Search terms where a generic one would not be representative (the issue's measurements): on
 * users a common one ("son", in many names) and a rare one ("acme", in none of the demo data).
 */
const searchTerms: Record<string, string[]> = { "/api/users": ["son", "acme"] };

/** The most referenced row of each entity, by path parameter name. */
const busyRow: Record<string, string> = {
  customerId: "select customer_id as id from users_data group by customer_id order by count(*) desc limit 1",
  teamId: "select team_id as id from teams_users group by team_id order by count(*) desc limit 1",
  userId: "select user_id as id from teams_users group by user_id order by count(*) desc, user_id limit 1",
  skillId: "select skill_id as id from teams_skills group by skill_id order by count(*) desc limit 1",
  promptId: "select prompt_id as id from platform_prompts group by prompt_id order by count(*) desc, prompt_id limit 1",
  platformId: "select platform_id as id from platform_prompts group by platform_id order by count(*) desc limit 1",
  commentId: "select comment_id as id from skill_comments order by created_at desc limit 1",
  operatorId: "select id from operator order by created_at limit 1",
};

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A row id for a path or filter parameter: a busy row, else any row of a table with that column. */
async function idFor(db: InProcess, param: string, cache: Map<string, string | null>): Promise<string | null> {
  const key = param.endsWith("_id") ? param.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) : param;
  if (cache.has(key)) return cache.get(key)!;
  let id: string | null = null;
  if (busyRow[key]) {
    id = (await db.query<{ id: string }>(busyRow[key]))[0]?.id ?? null;
  } else {
    const column = snake(key);
    const [table] = await db.query<{ table_name: string }>(
      "select table_name from information_schema.columns where table_schema = 'public' and column_name = $1 order by table_name limit 1",
      [column],
    );
    if (table)
      id =
        (await db.query<{ id: string }>(`select "${column}"::text as id from "${table.table_name}" limit 1`))[0]?.id ??
        null;
  }
  cache.set(key, id);
  return id;
}

/** A 3-letter search term found in the first item's name-like field. */
function derivedTerm(item: Record<string, unknown> | undefined): string | undefined {
  if (!item) return undefined;
  const field = Object.keys(item).find((k) => /(_name|title|email|name|value)$/.test(k) && typeof item[k] === "string");
  const word = field
    ? String(item[field])
        .toLowerCase()
        .split(/[^a-z]+/)
        .find((w) => w.length >= 4)
    : undefined;
  return word?.slice(1, 4);
}

/**
 * The benchmark cases. `db` answers the requests used to choose them (the first page's total
 * and contract) and the id look-ups.
 */
export async function discoverCases(db: InProcess): Promise<BenchCase[]> {
  const doc = (await db.get("/api/openapi.json")).body as {
    paths: Record<string, Record<string, { parameters?: Param[] }>>;
  };
  // CSV exports stream every row: not a page, and not measured here.
  const routes = routeTable.filter(
    (r) =>
      r.method === "GET" &&
      r.path.startsWith("/api/") &&
      !/^\/api\/(openapi\.json|docs|auth)/.test(r.path) &&
      !r.path.endsWith("/export.csv"),
  );
  const cache = new Map<string, string | null>();
  const cases: BenchCase[] = [];
  for (const route of routes) {
    const op = doc.paths[route.path]?.get;
    const params = op?.parameters ?? [];
    let path = route.path;
    let missing = false;
    // A path parameter that names one of a few things (an analytics figure): one case each.
    const named = params.find((p) => p.in === "path" && p.schema?.enum?.length);
    if (named) {
      for (const value of named.schema!.enum!) {
        cases.push({
          route: route.path,
          kind: "other",
          path: path.replace(`{${named.name}}`, value),
          list: false,
          note: value,
        });
        if (value === "sign-ins" && params.some((p) => p.in === "query" && p.name === "days"))
          cases.push({
            route: route.path,
            kind: "other",
            path: `${path.replace(`{${named.name}}`, value)}?days=90`,
            list: false,
            note: `${value}, 90 days`,
          });
      }
      continue;
    }
    // The global search: a common word, a two-letter prefix and an exact customer name.
    if (route.path === "/api/search") {
      const [{ name }] = await db.query<{ name: string }>(
        "select customer_name as name from customers order by customer_id limit 1",
      );
      for (const term of ["son", "an", name]) {
        cases.push({
          route: route.path,
          kind: "search",
          path: `${path}?q=${encodeURIComponent(term)}`,
          list: false,
          note: `q=${term}`,
        });
      }
      continue;
    }
    for (const p of params.filter((p) => p.in === "path")) {
      const id = await idFor(db, p.name, cache);
      if (!id) missing = true;
      else path = path.replace(`{${p.name}}`, id);
    }
    if (missing || /\{/.test(path)) continue; // no row to show (e.g. an empty table)
    const query = new Map(params.filter((p) => p.in === "query").map((p) => [p.name, p]));
    if (!query.has("limit")) {
      cases.push({ route: route.path, kind: route.path.includes("{") ? "detail" : "other", path, list: false });
      // An answer with an ETag is also asked with it in If-None-Match: the 304 a poller gets.
      const etag = route.path.includes("{") ? (await db.get(path)).headers.get("etag") : null;
      if (etag)
        cases.push({
          route: route.path,
          kind: "not-modified",
          path,
          list: false,
          note: "If-None-Match: the current ETag (304)",
          headers: { "if-none-match": etag },
          status: 304,
        });
      continue;
    }
    const first = await db.get(path);
    cases.push({ route: route.path, kind: "first", path, list: true });
    if (first.status !== 200) continue;
    const body = first.body as { items?: Array<Record<string, unknown>>; total?: number; next_cursor?: string | null };
    const limit = Number(query.get("limit")?.schema?.default ?? 50);
    const join = (extra: string) => `${path}${path.includes("?") ? "&" : "?"}${extra}`;
    if ("next_cursor" in body) {
      cases.push({
        route: route.path,
        kind: "deep",
        path: join("at=end"),
        list: true,
        note: "at=end (cursor contract)",
      });
    } else if ((body.total ?? 0) > limit) {
      const max = Number(query.get("offset")?.schema?.maximum ?? Number.MAX_SAFE_INTEGER);
      const offset = Math.min(max, Math.max(0, (body.total ?? 0) - limit));
      cases.push({
        route: route.path,
        kind: "deep",
        path: join(`offset=${offset}`),
        list: true,
        note: `offset ${offset.toLocaleString("en-US")}, the last page`,
      });
    }
    if (query.has("q")) {
      for (const term of searchTerms[route.path] ?? [derivedTerm(body.items?.[0]) ?? "an"]) {
        cases.push({
          route: route.path,
          kind: "search",
          path: join(`q=${encodeURIComponent(term)}`),
          list: true,
          note: `q=${term}`,
        });
      }
    }
    const parts: string[] = [];
    const sort = query.get("sort")?.schema;
    if (sort?.enum) {
      const key =
        sort.enum.find((k) => k !== sort.default && /name|title/.test(k)) ?? sort.enum.find((k) => k !== sort.default);
      if (key) parts.push(`sort=${key}`);
      const order = query.get("order")?.schema;
      if (order?.enum) parts.push(`order=${order.default === "asc" ? "desc" : "asc"}`);
    }
    // One filter: a status-like enum (the least selective) when there is one, else an id filter.
    const filters = [...query.values()].filter(
      (p) => !["limit", "offset", "cursor", "at", "q", "sort", "order"].includes(p.name),
    );
    const enumFilter = filters.find((p) => p.schema?.enum?.length);
    const idFilter = filters.find(
      (p) => p.name.endsWith("_id") && (p.schema?.format === "uuid" || /uuid/.test(p.schema?.pattern ?? "")),
    );
    if (enumFilter)
      parts.push(
        `${enumFilter.name}=${enumFilter.schema!.enum!.includes("active") ? "active" : enumFilter.schema!.enum![0]}`,
      );
    else if (idFilter) {
      const id = await idFor(db, idFilter.name, cache);
      if (id) parts.push(`${idFilter.name}=${id}`);
    }
    if (parts.length)
      cases.push({
        route: route.path,
        kind: "filter+sort",
        path: join(parts.join("&")),
        list: true,
        note: parts.map((p) => p.replace(/=[0-9a-f-]{36}$/, "=(busiest)")).join(" "),
      });
  }
  return cases;
}
