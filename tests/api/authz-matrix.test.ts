/**
 * Authorization matrix, generated from `routeTable`: every declared API route is called
 * anonymously and as an operator of each role, and must answer exactly the expected class of
 * status (401 without a session, 403 below the route's role, neither at or above it). It runs once
 * with session cookies and once with personal API tokens of each role (`Authorization: Bearer`),
 * which get the same answers, except on the routes declared `sessionOnly` (403 to a token). Every
 * one of those answers carries its security headers and a request id. Also checks
 * that every /api route the app really serves is declared in `routeTable` (a route added without a
 * declared role fails here), and that every declared route is really served.
 */
import { randomUUID } from "node:crypto";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operatorRoles, type OperatorRole } from "../../src/domain/enums";
import { createApp } from "../../src/server/app";
import { defaultSecurity } from "../../src/server/config";
import { apiHeaders, documentHeaders, isApiAnswer } from "../../src/server/http/answer-headers";
import { routeTable, type RouteAccess } from "../../src/server/http/route";
import { credentials, publicUrl, startConsole, type TestConsole } from "../support/app";
import { targets } from "../support/databases";
import { Callers } from "../support/route-requests";

const rank: Record<OperatorRole, number> = { viewer: 1, editor: 2, admin: 3 };
type Caller = "anonymous" | OperatorRole;
const callers: Caller[] = ["anonymous", ...[...operatorRoles].sort((a, b) => rank[a] - rank[b])];

/** The status class a caller must get from a route of `access` (`bearer`: calling with an API token). */
function expected(
  route: { access: RouteAccess; sessionOnly?: true },
  caller: Caller,
  bearer: boolean,
): "401" | "403" | "allowed" {
  const { access } = route;
  if (access === "public") return "allowed";
  if (caller === "anonymous") return "401";
  if (rank[caller] < rank[access]) return "403";
  return bearer && route.sessionOnly ? "403" : "allowed";
}

/** One spelling for both path styles: Hono's `/:id` and `/:file{regex}`, OpenAPI's `/{id}`. */
function normalizePath(path: string): string {
  return path
    .replace(/:([A-Za-z0-9_]+)(\{[^/]*\})?/g, "{$1}")
    .replace(/\/+$/, "")
    .replace(/^$/, "/");
}

const key = (r: { method: string; path: string }) => `${r.method.toUpperCase()} ${normalizePath(r.path)}`;

/** The declared routes, each once (method + path). */
function declaredRoutes() {
  const seen = new Map<string, (typeof routeTable)[number]>();
  for (const r of routeTable) if (!seen.has(key(r))) seen.set(key(r), r);
  return [...seen.values()];
}

const cases = targets.flatMap((target) => credentials.map((credential) => [target, credential] as const));

describe.each(cases)("authorization matrix on %s with %s", (target, credential) => {
  let app: TestConsole;
  let signedIn: Callers;
  const bearer = credential === "bearer";

  // One console per permutation (database × credential), its operators and tokens made once.
  beforeAll(async () => {
    app = await startConsole(target, { credential });
    signedIn = new Callers(app, credential);
    for (const role of operatorRoles) await signedIn.headers(role); // creates `${role}@test.example`, signs in
  });
  afterAll(() => app.close());

  /**
   * The credential of `role`: a session cookie of our own (signed in anew only when a write has
   * ended it: sign out everywhere), or the console's API token of that role.
   */
  const credentialOf = (role: OperatorRole) => signedIn.headers(role);

  async function call(route: { method: string; path: string }, caller: Caller) {
    const path = route.path.replace(/\{[^}]+\}/g, () => randomUUID());
    const headers: Record<string, string> = caller === "anonymous" ? {} : await credentialOf(caller);
    const res = await app.request(path, {
      method: route.method,
      headers,
      json: route.method === "GET" ? undefined : {},
    });
    const body = res.headers.get("content-type")?.includes("application/json") ? await res.json() : await res.text();
    // Every answer, whoever made it (the route, a refusal, the error handler), carries its
    // security headers and a request id (http/answer-headers.ts).
    const headerFaults = (isApiAnswer(path) ? apiHeaders : documentHeaders)
      .filter(([name, value]) => res.headers.get(name) !== value)
      .map(([name]) => name);
    if (!res.headers.get("x-request-id")) headerFaults.push("x-request-id");
    return { status: res.status, body, headerFaults };
  }

  it("has routes to check, each declared with a known access", () => {
    const routes = declaredRoutes();
    expect(routes.length).toBeGreaterThan(20);
    for (const r of routes) expect(["public", ...operatorRoles], key(r)).toContain(r.access);
    for (const r of routes) expect(r.path.startsWith("/api/"), key(r)).toBe(true);
  });

  /** Another app on the same database, as main.ts or a test would build it. */
  const buildApp = () =>
    createApp({
      db: app.handle.db,
      config: { authSecret: "test-secret-test-secret-test-secret-0123", publicUrl, security: defaultSecurity },
      logger: pino({ level: "silent" }),
    }).app;

  it("declares each route once in routeTable, however many apps are built", () => {
    // routeTable is module state: an entry pushed by each createApp() call would repeat once per app.
    buildApp();
    const counts = new Map<string, number>();
    for (const r of routeTable) counts.set(key(r), (counts.get(key(r)) ?? 0) + 1);
    expect([...counts].filter(([, n]) => n > 1).map(([k, n]) => `${k} declared ${n} times`)).toEqual([]);
  });

  it("gives every route × caller exactly the expected class of status, with the answer's security headers", async () => {
    const failures: string[] = [];
    for (const route of declaredRoutes()) {
      for (const caller of callers) {
        const want = expected(route, caller, bearer);
        const { status, body, headerFaults } = await call(route, caller);
        const where = `${key(route)} (${route.access}) as ${caller}: ${status} ${JSON.stringify(body).slice(0, 200)}`;
        if (headerFaults.length) failures.push(`missing or wrong headers ${headerFaults.join(", ")} — ${where}`);
        if (want === "401") {
          if (
            status !== 401 ||
            JSON.stringify(body) !== JSON.stringify({ error: { code: "unauthorized", message: "Sign in to continue" } })
          )
            failures.push(`expected 401 — ${where}`);
        } else if (want === "403") {
          if (status !== 403 || (body as { error?: { code?: string } })?.error?.code !== "forbidden")
            failures.push(`expected 403 — ${where}`);
        } else {
          if (status === 401 || status === 403 || status >= 500)
            failures.push(`expected neither 401, 403 nor 5xx — ${where}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 240_000); // four callers on every declared route: minutes on a busy machine

  it("answers 401 to an unknown /api path without a session and 404 with one, never 403 or 200", async () => {
    for (const method of ["GET", "POST", "PATCH", "DELETE", "PUT"]) {
      const anonymous = await app.request(`/api/no-such-route/${randomUUID()}`, {
        method,
        json: method === "GET" ? undefined : {},
      });
      expect(anonymous.status, method).toBe(401);
      const res = await app.request(`/api/no-such-route/${randomUUID()}`, {
        method,
        headers: await credentialOf("viewer"),
        json: method === "GET" ? undefined : {},
      });
      expect(res.status, method).toBe(404);
    }
  });

  it("declares in routeTable every /api route the app serves, and serves every declared route", () => {
    const built = buildApp();
    const served = new Set<string>();
    const declared = new Set(declaredRoutes().map(key));
    for (const r of built.routes) {
      if (r.method === "ALL") continue; // middleware (app.use) and catch-alls
      if (!r.path.startsWith("/api/")) continue; // /healthz, the web app
      if (r.path.startsWith("/api/auth/") && !declared.has(key(r))) continue; // better-auth, public by design
      served.add(key(r));
    }
    expect(served.size).toBeGreaterThan(20);
    expect(
      [...served].filter((k) => !declared.has(k)),
      "served but not declared in routeTable",
    ).toEqual([]);
    expect(
      [...declared].filter((k) => !served.has(k)),
      "declared in routeTable but not served",
    ).toEqual([]);
  });

  it("converts both path styles the same way", () => {
    expect(normalizePath("/api/teams/:teamId/members/:userId")).toBe("/api/teams/{teamId}/members/{userId}");
    expect(normalizePath("/api/teams/{teamId}/members/{userId}")).toBe("/api/teams/{teamId}/members/{userId}");
    expect(normalizePath("/api/docs/assets/:file{swagger-ui\\.css|swagger-ui-bundle\\.js}")).toBe(
      "/api/docs/assets/{file}",
    );
    expect(normalizePath("/api/customers/")).toBe("/api/customers");
  });
});
