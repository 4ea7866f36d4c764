/**
 * Mixed traffic: several clients using the started server at once for a set time, as operators
 * do, while its resident memory is sampled (scripts/bench/server.ts). Each client picks, request
 * after request, one of:
 * - list: a page of one of the console's lists (the routes the case discovery found,
 *   scripts/bench/endpoints.ts), with a random sort and order from its OpenAPI enum, sometimes a
 *   filter, and a first page, the next page of a cursor walk, an offset jump or the last page;
 *   nested lists get a row id seen earlier in the run;
 * - search: `/api/search?q=` or a list's `q=`, with words taken from names the lists answered;
 * - detail: a record's screen (`/api/users/{userId}`, …) for an id seen earlier;
 * - other: the dashboard, the analytics figures and the pickers, as discovered;
 * - write: create and edit customers, teams, users (create, join a team), skills and prompts
 *   through the real API with valid bodies and the console's Origin; edits only touch records the
 *   run created;
 * - export: a list's CSV export (`/export.csv`, all rows or filtered), read to its last byte; at
 *   most `maxExports` at a time.
 * Every answer is counted by kind and status; the server's RSS over the run is reported per second.
 */
import { readFileSync } from "node:fs";
import { routeTable } from "../../src/server/http/route";
import type { BenchCase } from "./endpoints";
import { percentile } from "./load";
import type { RunningServer } from "./server";

/** The kinds of request of the mixed traffic. */
export type MixedKind = "list" | "search" | "detail" | "other" | "write" | "export";
/** Every kind, in the order of the report. */
export const mixedKinds: MixedKind[] = ["list", "search", "detail", "other", "write", "export"];

/** Answers of one kind. Latencies in milliseconds, until the last byte of the body. */
export type MixedKindResult = {
  kind: MixedKind;
  requests: number;
  /**
   * Answers by HTTP status ("200", "422", …); requests without one: "timeout" (over the per-request
   * timeout), "error" (connection failed) and "cut" (still running when the run was stopped).
   */
  statuses: Record<string, number>;
  p50: number | null;
  p95: number | null;
  max: number | null;
  /** Body bytes received, all requests of the kind. */
  bytes: number;
};

/** A 5xx answer or a request without answer: what was asked and what came back (body cut to 300 characters). */
export type MixedFailure = { kind: MixedKind; request: string; status: string; body: string };

export type MixedResult = {
  /** Planned length of the run, in seconds. */
  seconds: number;
  /** From the first request sent to the last one finished, in seconds. */
  elapsedSeconds: number;
  clients: number;
  /** Relative weights of the kinds as each client draws them. */
  weights: Record<MixedKind, number>;
  requests: number;
  kinds: MixedKindResult[];
  /** Answers with a status of 500 or more. */
  serverErrors: number;
  /** The first 20 failures (5xx, timeouts, connection errors). */
  failures: MixedFailure[];
  /** The first 10 answers 4xx (a request the traffic should not have sent, or a conflict of two clients). */
  rejected: MixedFailure[];
  /**
   * The server's RSS (MiB) while the traffic ran: largest, median and last sample, the sample
   * before the first request, and the largest per second of the run (`s` from its start).
   */
  rss: {
    maxMiB: number;
    p50MiB: number;
    endMiB: number;
    startMiB: number;
    samples: number;
    series: Array<{ s: number; mib: number }>;
  };
  /**
   * What the server's RSS is made of (`memoryMap`), every 15 s of the run (`s` from its start), and
   * the sample with the largest total.
   */
  memory?: { series: Array<{ s: number } & MemoryMap>; atMax: { s: number } & MemoryMap };
};

/**
 * A process's resident memory by kind of mapping, in MiB, from /proc/<pid>/smaps:
 * - `fileMiB`: mapped files (the node binary, shared libraries);
 * - `wasmMiB`: WebAssembly linear memory: an anonymous reservation of 4 GiB or more (V8 reserves
 *   the memory and its guard region at once), resident as far as it was touched;
 * - `mallocMainMiB`: the C heap's main arena (`[heap]`);
 * - `mallocArenasMiB`: glibc's other arenas (threads' malloc: V8's compiler and GC threads, libuv's
 *   pool), each an aligned 64 MiB reservation of a read-write part and an inaccessible rest;
 *   `arenas` of them;
 * - `otherMiB`: the rest, anonymous: V8's JavaScript heap pages, code space, thread stacks.
 */
export type MemoryMap = {
  totalMiB: number;
  fileMiB: number;
  wasmMiB: number;
  mallocMainMiB: number;
  mallocArenasMiB: number;
  arenas: number;
  otherMiB: number;
};

/** Options of a run. */
export type MixedOptions = {
  /** Length of the run in seconds. */
  seconds: number;
  /** Concurrent clients (default 8). */
  clients?: number;
  /** Bound of one request other than an export, in seconds (default 30). */
  timeoutSeconds?: number;
  /** Bound of one export, in seconds (default 300). */
  exportTimeoutSeconds?: number;
  /** Exports running at the same time at most (default 2); a client over it draws again. */
  maxExports?: number;
  /** Seed of each client's random choices (default 1); the ids they pick also depend on the answers' order. */
  seed?: number;
  /** Relative weights of the kinds, over the defaults (list 40, search 15, detail 15, other 5, write 22, export 3). */
  weights?: Partial<Record<MixedKind, number>>;
  /** Progress lines (one a minute). */
  log?: (line: string) => void;
};

const defaultWeights: Record<MixedKind, number> = { list: 40, search: 15, detail: 15, other: 5, write: 22, export: 3 };

type Param = {
  name: string;
  in: string;
  schema?: { type?: string; enum?: string[]; default?: unknown; format?: string; pattern?: string; maximum?: number };
};
type ListRoute = {
  route: string;
  sorts: string[];
  filters: Param[];
  searchable: boolean;
  hasExport: boolean;
  limits: number[];
};
type Rng = () => number;

/** mulberry32: a small seeded generator of numbers in [0, 1). */
function rng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const withQuery = (path: string, parts: string[]) =>
  parts.length ? `${path}${path.includes("?") ? "&" : "?"}${parts.join("&")}` : path;

/** Row ids seen in answers, by column name (`customer_id`, …), and words of names for searches. */
class Pools {
  ids = new Map<string, string[]>();
  terms: string[] = ["son", "an"];
  constructor(private readonly r: Rng) {}

  add(key: string, id: string) {
    let list = this.ids.get(key);
    if (!list) this.ids.set(key, (list = []));
    if (list.length < 2000) list.push(id);
    else list[Math.floor(this.r() * list.length)] = id;
  }

  /** Keeps the ids and some name words of a list's items. */
  harvest(items: unknown) {
    if (!Array.isArray(items)) return;
    for (const item of items.slice(0, 20) as Array<Record<string, unknown>>) {
      for (const [k, v] of Object.entries(item)) {
        if (typeof v !== "string") continue;
        if (k.endsWith("_id") && uuid.test(v)) this.add(k, v);
        else if (/(_name|title)$/.test(k) && this.terms.length < 3000 && this.r() < 0.2) {
          const word = pick(
            this.r,
            v
              .toLowerCase()
              .split(/[^a-z]+/)
              .filter((w) => w.length >= 4)
              .concat([""]),
          );
          if (word) this.terms.push(this.r() < 0.5 ? word : word.slice(0, 3 + Math.floor(this.r() * 2)));
        }
      }
    }
  }

  id(key: string): string | undefined {
    const list = this.ids.get(key);
    return list?.length ? pick(this.r, list) : undefined;
  }

  /** `route` with each `{param}` replaced by a seen id of its column, or undefined when one has none. */
  fill(route: string): string | undefined {
    let missing = false;
    const path = route.replace(/\{(\w+)\}/g, (_, name: string) => {
      const id = this.id(snake(name));
      if (!id) missing = true;
      return id ?? "";
    });
    return missing ? undefined : path;
  }
}

/** Records of the run that writes may edit: its own, so that the seeded data keeps its shape. */
type Own = {
  customers: Array<{ id: string; status: "active" | "inactive" }>;
  teams: Array<{ id: string; customer_id: string; status: "active" | "inactive" }>;
  users: Array<{ id: string; customer_id: string }>;
  skills: string[];
  prompts: string[];
};

type Outcome = { status: string; ms: number; bytes: number; body?: string };

/** `pid`'s resident memory by kind of mapping (see `MemoryMap`); undefined once it has exited. */
export function memoryMap(pid: number): MemoryMap | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/smaps`, "utf8");
  } catch {
    return undefined;
  }
  const maps: Array<{ start: bigint; end: bigint; perms: string; name: string; rss: number }> = [];
  for (const line of text.split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head)
      maps.push({ start: BigInt(`0x${head[1]}`), end: BigInt(`0x${head[2]}`), perms: head[3], name: head[4], rss: 0 });
    else if (line.startsWith("Rss:") && maps.length) maps[maps.length - 1].rss = Number(/(\d+)/.exec(line)![1]) / 1024;
  }
  const m: MemoryMap = {
    totalMiB: 0,
    fileMiB: 0,
    wasmMiB: 0,
    mallocMainMiB: 0,
    mallocArenasMiB: 0,
    arenas: 0,
    otherMiB: 0,
  };
  const arena = 64n << 20n;
  maps.forEach((x, i) => {
    m.totalMiB += x.rss;
    const next = maps[i + 1];
    if (x.name === "[heap]") m.mallocMainMiB += x.rss;
    else if (x.name.startsWith("/")) m.fileMiB += x.rss;
    else if (
      x.name === "" &&
      (next?.end ?? x.end) - x.start >= 4n << 30n &&
      (x.end - x.start >= 4n << 30n || (next?.start === x.end && next.perms.startsWith("---")))
    )
      m.wasmMiB += x.rss;
    else if (
      x.name === "" &&
      x.start % arena === 0n &&
      x.perms.startsWith("rw") &&
      next?.start === x.end &&
      next.perms.startsWith("---") &&
      next.end - x.start === arena
    ) {
      m.mallocArenasMiB += x.rss;
      m.arenas++;
    } else m.otherMiB += x.rss;
  });
  return m;
}

/**
 * Runs the mixed traffic on `server` as the operator of `cookie` (an admin: writes and the audit
 * list need it) for `options.seconds`, then resolves with its figures. `cases` are the discovered
 * benchmark cases of the same server's database: their routes (and busy row ids) are the lists,
 * details, searches and other reads of the traffic. Sets the server's phase to "mixed" while it
 * runs (and back to "idle"): the RSS figures are the samples of that phase.
 */
export async function runMixed(
  server: RunningServer,
  cookie: string,
  cases: BenchCase[],
  options: MixedOptions,
): Promise<MixedResult> {
  const clients = options.clients ?? 8;
  const timeoutMs = (options.timeoutSeconds ?? 30) * 1000;
  const exportTimeoutMs = (options.exportTimeoutSeconds ?? 300) * 1000;
  const maxExports = options.maxExports ?? 2;
  const weights = { ...defaultWeights, ...options.weights };
  const log = options.log ?? (() => undefined);
  const setupRandom = rng((options.seed ?? 1) * 7919);
  const pools = new Pools(setupRandom);
  const get = async (path: string) => {
    const res = await fetch(server.url + path, { headers: { cookie }, signal: AbortSignal.timeout(120_000) });
    return {
      status: res.status,
      body: (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined,
    };
  };

  // The lists and their variations, from the OpenAPI document of the server.
  const doc = (await get("/api/openapi.json")).body as {
    paths: Record<string, Record<string, { parameters?: Param[] }>>;
  };
  const exportRoutes = new Set(
    routeTable.filter((r) => r.method === "GET" && r.path.endsWith("/export.csv")).map((r) => r.path),
  );
  const lists: ListRoute[] = [...new Set(cases.filter((c) => c.list).map((c) => c.route))].map((route) => {
    const query = (doc.paths[route]?.get?.parameters ?? []).filter((p) => p.in === "query");
    const sort = query.find((p) => p.name === "sort")?.schema?.enum ?? [];
    const maxLimit = query.find((p) => p.name === "limit")?.schema?.maximum ?? 200;
    const filters = query.filter(
      (p) =>
        !["limit", "offset", "cursor", "at", "q", "sort", "order"].includes(p.name) &&
        (p.schema?.enum?.length ||
          (p.name.endsWith("_id") && (p.schema?.format === "uuid" || /uuid/.test(p.schema?.pattern ?? "")))),
    );
    return {
      route,
      sorts: sort,
      filters,
      searchable: query.some((p) => p.name === "q"),
      hasExport: exportRoutes.has(`${route}/export.csv`),
      limits: [10, 25, 100, 200].filter((n) => n <= maxLimit),
    };
  });
  const details = [...new Set(cases.filter((c) => c.kind === "detail").map((c) => c.route))];
  const others = cases.filter((c) => c.kind === "other").map((c) => c.path);
  const globalSearch = cases.some((c) => c.route === "/api/search");
  for (const c of cases) if (c.kind === "search" && c.note?.startsWith("q=")) pools.terms.push(c.note.slice(2));

  // Ids to start from: the busy rows of the discovered cases, then the first pages of the lists.
  for (const c of cases) {
    const names = [...c.route.matchAll(/\{(\w+)\}/g)].map((m) => snake(m[1]));
    const values = c.path
      .split("?")[0]
      .split("/")
      .filter((s) => uuid.test(s));
    if (names.length === values.length) names.forEach((n, i) => pools.add(n, values[i]));
  }
  for (const l of lists.filter((x) => !x.route.includes("{")))
    pools.harvest((await get(`${l.route}?limit=${Math.max(50, ...l.limits)}`)).body?.items);
  // Writes need active customers (a user's and a team's) and active skills (a prompt's).
  const active: Record<string, string[]> = { customer_id: [], skill_id: [] };
  for (const [key, path] of [
    ["customer_id", "/api/customers?status=active&limit=200"],
    ["skill_id", "/api/skills?status=active&limit=200"],
  ] as const) {
    const items = (await get(path)).body?.items;
    if (Array.isArray(items))
      for (const item of items as Array<Record<string, string>>) if (item[key]) active[key].push(item[key]);
  }

  const tag = Date.now().toString(36);
  const own: Own = { customers: [], teams: [], users: [], skills: [], prompts: [] };
  let serial = 0;
  let exportsRunning = 0;
  const stats = new Map<MixedKind, { statuses: Record<string, number>; times: number[]; bytes: number }>(
    mixedKinds.map((k) => [k, { statuses: {}, times: [], bytes: 0 }]),
  );
  const failures: MixedFailure[] = [];
  const rejected: MixedFailure[] = [];
  let serverErrors = 0;
  let requests = 0;
  const stop = new AbortController();

  /** One request: its status, time and bytes; the body's text unless `stream` (read to the end and dropped). */
  async function send(method: string, path: string, body: unknown, stream: boolean, limitMs: number): Promise<Outcome> {
    const t = performance.now();
    let bytes = 0;
    try {
      const res = await fetch(server.url + path, {
        method,
        headers: body === undefined ? { cookie } : { cookie, origin: server.url, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.any([stop.signal, AbortSignal.timeout(limitMs)]),
      });
      let text: string | undefined;
      if (stream && res.ok && res.body) {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.byteLength;
      } else {
        text = await res.text();
        bytes = Buffer.byteLength(text);
      }
      return { status: String(res.status), ms: performance.now() - t, bytes, body: text };
    } catch (err) {
      const { name, message, cause } = err as Error & { cause?: { code?: string; message?: string } };
      const status = stop.signal.aborted
        ? "cut"
        : name === "TimeoutError" || name === "AbortError"
          ? "timeout"
          : "error";
      return {
        status,
        ms: performance.now() - t,
        bytes,
        body: cause ? `${message}: ${cause.code ?? ""} ${cause.message ?? ""}` : message,
      };
    }
  }

  function record(kind: MixedKind, request: string, o: Outcome) {
    const s = stats.get(kind)!;
    requests++;
    s.statuses[o.status] = (s.statuses[o.status] ?? 0) + 1;
    s.bytes += o.bytes;
    if (/^\d+$/.test(o.status)) s.times.push(o.ms);
    const code = Number(o.status);
    if (code >= 500) serverErrors++;
    const failure = { kind, request, status: o.status, body: (o.body ?? "").slice(0, 300) };
    if ((code >= 500 || !/^\d+$/.test(o.status)) && o.status !== "cut" && failures.length < 20) failures.push(failure);
    else if (code >= 400 && code < 500 && rejected.length < 10) rejected.push(failure);
  }

  const json = (o: Outcome) => {
    try {
      return o.body ? (JSON.parse(o.body) as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  };

  /** A list page of `l` with random sort, order and maybe a filter. */
  function listParams(r: Rng, l: ListRoute): string[] {
    const parts: string[] = [];
    if (l.sorts.length && r() < 0.6) parts.push(`sort=${pick(r, l.sorts)}`, `order=${r() < 0.5 ? "asc" : "desc"}`);
    if (l.filters.length && r() < 0.3) {
      const f = pick(r, l.filters);
      const value = f.schema?.enum?.length ? pick(r, f.schema.enum) : pools.id(f.name);
      if (value) parts.push(`${f.name}=${encodeURIComponent(value)}`);
    }
    return parts;
  }

  /** One client: requests back to back until the run's end. */
  async function client(index: number, deadline: number) {
    const r = rng((options.seed ?? 1) * 1000 + index);
    const total = mixedKinds.reduce((n, k) => n + weights[k], 0);
    let walk: { path: string; cursor: string } | undefined;
    while (Date.now() < deadline && !stop.signal.aborted) {
      // A draw without a request (no id seen yet for a route) must not hold the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      let x = r() * total;
      let kind = mixedKinds.find((k) => (x -= weights[k]) < 0) ?? "list";
      if (kind === "export" && exportsRunning >= maxExports) kind = "list";
      if (kind === "list") {
        const l = pick(r, lists);
        const base = l && pools.fill(l.route);
        if (!base) continue;
        // The next page of the last walk, or a new start: a first page, an offset jump or the last page.
        let path: string;
        let start: string;
        if (walk && r() < 0.25) {
          start = walk.path;
          path = withQuery(start, [`cursor=${encodeURIComponent(walk.cursor)}`]);
        } else {
          const parts = listParams(r, l);
          if (r() < 0.3 && l.limits.length) parts.push(`limit=${pick(r, l.limits)}`);
          start = withQuery(base, parts);
          const page = r();
          path =
            page < 0.7
              ? start
              : page < 0.85
                ? withQuery(start, [`offset=${pick(r, [50, 100, 500, 1000, 5000, 10000])}`])
                : withQuery(start, ["at=end"]);
        }
        const o = await send("GET", path, undefined, false, timeoutMs);
        record("list", path, o);
        const answer = o.status === "200" ? json(o) : undefined;
        pools.harvest(answer?.items);
        walk = typeof answer?.next_cursor === "string" ? { path: start, cursor: answer.next_cursor } : undefined;
      } else if (kind === "search") {
        const term = encodeURIComponent(pick(r, pools.terms));
        const searchable = lists.filter((l) => l.searchable && !l.route.includes("{"));
        const path =
          globalSearch && (r() < 0.5 || !searchable.length)
            ? `/api/search?q=${term}`
            : searchable.length
              ? withQuery(pick(r, searchable).route, [`q=${term}`])
              : undefined;
        if (!path) continue;
        const o = await send("GET", path, undefined, false, timeoutMs);
        record("search", path, o);
        if (o.status === "200") pools.harvest(json(o)?.items);
      } else if (kind === "detail") {
        const path = details.length ? pools.fill(pick(r, details)) : undefined;
        if (!path) continue;
        record("detail", path, await send("GET", path, undefined, false, timeoutMs));
      } else if (kind === "other") {
        if (!others.length) continue;
        const path = pick(r, others);
        record("other", path, await send("GET", path, undefined, false, timeoutMs));
      } else if (kind === "write") {
        const [method, path, body] = writeRequest(r);
        const o = await send(method, path, body, false, timeoutMs);
        record("write", `${method} ${path}`, o);
        if (o.status === "201" || o.status === "200") remember(method, path, body, json(o));
      } else {
        const candidates = lists.filter((l) => l.hasExport);
        const l = candidates.length ? pick(r, candidates) : undefined;
        const base = l && pools.fill(`${l.route}/export.csv`);
        if (!l || !base) continue;
        const y = r();
        const path =
          y < 0.5
            ? base
            : y < 0.8
              ? withQuery(base, listParams(r, l))
              : withQuery(base, [`q=${encodeURIComponent(pick(r, pools.terms))}`]);
        exportsRunning++;
        try {
          record("export", path, await send("GET", path, undefined, true, exportTimeoutMs));
        } finally {
          exportsRunning--;
        }
      }
    }
  }

  /** A write with a valid body: creates, or edits one of the run's own records (a create when there is none yet). */
  function writeRequest(r: Rng): [string, string, unknown] {
    const n = ++serial;
    const name = (what: string) => `Mixed ${tag} ${what} ${n}`;
    const activeCustomer = () =>
      pick(r, active.customer_id.length ? active.customer_id : (pools.ids.get("customer_id") ?? [""]));
    const op = pick(r, [
      "customer+",
      "customer~",
      "team+",
      "team~",
      "user+",
      "user~",
      "skill+",
      "skill~",
      "prompt+",
      "prompt~",
    ] as const);
    const activeTeams = own.teams.filter((t) => t.status === "active");
    if (op === "customer~" && own.customers.length) {
      const c = pick(r, own.customers);
      return ["PATCH", `/api/customers/${c.id}`, { status: c.status === "active" ? "inactive" : "active" }];
    }
    if (op === "team~" && own.teams.length) {
      const t = pick(r, own.teams);
      return ["PATCH", `/api/teams/${t.id}`, { status: t.status === "active" ? "inactive" : "active" }];
    }
    if (op === "team+" || op === "team~")
      return ["POST", "/api/teams", { customer_id: activeCustomer(), team_name: name("team"), status: "active" }];
    if (op === "user~") {
      // Add to Team: a team of the user's own customer.
      const users = own.users.filter((u) => activeTeams.some((t) => t.customer_id === u.customer_id));
      if (users.length) {
        const u = pick(r, users);
        return [
          "POST",
          `/api/users/${u.id}/teams`,
          {
            team_id: pick(
              r,
              activeTeams.filter((t) => t.customer_id === u.customer_id),
            ).id,
          },
        ];
      }
    }
    if (op === "user+" || op === "user~") {
      const customer = activeTeams.length && r() < 0.7 ? pick(r, activeTeams).customer_id : activeCustomer();
      return [
        "POST",
        "/api/users",
        { email: `mixed-${tag}-${n}@mixed.example`, customer_id: customer, status: "active" },
      ];
    }
    if (op === "skill~" && own.skills.length)
      return [
        "PATCH",
        `/api/skills/${pick(r, own.skills)}`,
        { skill_description: `Edited by the mixed traffic, ${n}` },
      ];
    if (op === "skill+" || op === "skill~")
      return [
        "POST",
        "/api/skills",
        {
          skill_name: name("skill"),
          skill_description: "Made by the mixed traffic",
          type: "manual",
          status: "active",
          is_global: false,
        },
      ];
    if (op === "prompt~" && own.prompts.length)
      return [
        "PATCH",
        `/api/prompts/${pick(r, own.prompts)}`,
        { prompt_value: `Edited by the mixed traffic, ${n}: ${"lorem ipsum ".repeat(1 + Math.floor(r() * 40))}` },
      ];
    if (op === "prompt+" || op === "prompt~") {
      const skill =
        own.skills.length && r() < 0.5
          ? pick(r, own.skills)
          : pick(r, active.skill_id.length ? active.skill_id : own.skills.length ? own.skills : [""]);
      return [
        "POST",
        "/api/prompts",
        {
          prompt_title: name("prompt"),
          prompt_value: `Made by the mixed traffic: ${"lorem ipsum ".repeat(1 + Math.floor(r() * 40))}`,
          status: "active",
          skill_id: skill,
        },
      ];
    }
    return [
      "POST",
      "/api/customers",
      { customer_name: name("customer"), status: "active", valid_domains: `mixed-${tag}-${n}.example` },
    ];
  }

  /** Keeps what a successful write created or changed. */
  function remember(method: string, path: string, body: unknown, answer: Record<string, unknown> | undefined) {
    const b = body as Record<string, string>;
    const id = (key: string) => (typeof answer?.[key] === "string" ? (answer[key] as string) : undefined);
    if (method === "PATCH") {
      const c = own.customers.find((x) => path.endsWith(x.id));
      if (c) c.status = b.status as "active" | "inactive";
      const t = own.teams.find((x) => path.endsWith(x.id));
      if (t) t.status = b.status as "active" | "inactive";
      return;
    }
    if (path === "/api/customers" && id("customer_id"))
      own.customers.push({ id: id("customer_id")!, status: "active" });
    else if (path === "/api/teams" && id("team_id"))
      own.teams.push({ id: id("team_id")!, customer_id: b.customer_id, status: "active" });
    else if (path === "/api/users" && id("user_id")) own.users.push({ id: id("user_id")!, customer_id: b.customer_id });
    else if (path === "/api/skills" && id("skill_id")) own.skills.push(id("skill_id")!);
    else if (path === "/api/prompts" && id("prompt_id")) own.prompts.push(id("prompt_id")!);
  }

  // The run.
  const before = server.rss.at(-1)?.mib ?? 0;
  server.setPhase("mixed");
  const started = performance.now();
  const deadline = Date.now() + options.seconds * 1000;
  const memorySeries: Array<{ s: number } & MemoryMap> = [];
  const mapSampler = setInterval(() => {
    const map = memoryMap(server.pid);
    if (map) memorySeries.push({ s: Math.round((performance.now() - started) / 1000), ...map });
  }, 15_000);
  const progress = setInterval(() => {
    const samples = server.rss.filter((s) => s.phase === "mixed");
    const minutes = (performance.now() - started) / 60_000;
    log(
      `  mixed ${minutes.toFixed(0)}/${(options.seconds / 60).toFixed(0)} min: ${requests.toLocaleString("en-US")} requests, RSS ${(samples.at(-1)?.mib ?? 0).toFixed(0)} MiB (max ${Math.max(0, ...samples.map((s) => s.mib)).toFixed(0)})`,
    );
  }, 60_000);
  // Requests still running a minute after the end (long exports) are cut.
  const hardStop = setTimeout(() => stop.abort(), options.seconds * 1000 + 60_000);
  try {
    await Promise.all(Array.from({ length: clients }, (_, i) => client(i, deadline)));
  } finally {
    clearInterval(progress);
    clearInterval(mapSampler);
    clearTimeout(hardStop);
  }
  const elapsedSeconds = (performance.now() - started) / 1000;
  const last = memoryMap(server.pid);
  if (last) memorySeries.push({ s: Math.round(elapsedSeconds), ...last });
  const atMax = memorySeries.reduce<(typeof memorySeries)[number] | undefined>(
    (a, b) => (!a || b.totalMiB > a.totalMiB ? b : a),
    undefined,
  );
  const samples = server.rss.filter((s) => s.phase === "mixed");
  server.setPhase("idle");

  const t0 = samples[0]?.at ?? 0;
  const perSecond = new Map<number, number>();
  for (const s of samples) {
    const second = Math.floor((s.at - t0) / 1000);
    perSecond.set(second, Math.max(perSecond.get(second) ?? 0, s.mib));
  }
  const mibs = samples.map((s) => s.mib);
  return {
    seconds: options.seconds,
    elapsedSeconds,
    clients,
    weights,
    requests,
    kinds: mixedKinds.map((kind) => {
      const s = stats.get(kind)!;
      return {
        kind,
        requests: Object.values(s.statuses).reduce((a, b) => a + b, 0),
        statuses: s.statuses,
        p50: percentile(s.times, 50),
        p95: percentile(s.times, 95),
        max: s.times.length ? s.times.reduce((a, b) => Math.max(a, b), 0) : null,
        bytes: s.bytes,
      };
    }),
    serverErrors,
    failures,
    rejected,
    rss: {
      maxMiB: mibs.reduce((a, b) => Math.max(a, b), 0),
      p50MiB: percentile(mibs, 50) ?? 0,
      endMiB: mibs.at(-1) ?? 0,
      startMiB: before,
      samples: mibs.length,
      series: [...perSecond.entries()].map(([s, mib]) => ({ s, mib: Math.round(mib * 10) / 10 })),
    },
    memory: atMax ? { series: memorySeries, atMax } : undefined,
  };
}
