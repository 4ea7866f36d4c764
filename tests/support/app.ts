/**
 * An in-process console (the real Hono app) on a fresh database, with helpers to sign in as an
 * operator of each role and to call the API as a browser would (cookie + same-origin header).
 */
import { sql, type SQL } from "drizzle-orm";
import pino from "pino";
import { createApp } from "../../src/server/app";
import { createOperator, type Auth } from "../../src/server/auth";
import { defaultIdentity, defaultSecurity, type IdentityConfig, type SecurityConfig } from "../../src/server/config";
import { queryRows, type DatabaseHandle } from "../../src/server/db/client";
import { loadDemoData } from "../../src/server/db/demo-data";
import type { OperatorRole } from "../../src/domain/enums";
import type { AnalyticsFigureData } from "../../src/domain/analytics";
import type { Snapshots } from "../../src/server/snapshots";
import { bodyText, contractOf } from "./contract";
import { freshDatabase, type TargetName } from "./databases";

export const publicUrl = "http://localhost:3999";
export const testPassword = "correct-horse-battery";

export type TestConsole = {
  handle: DatabaseHandle;
  /** Calls the app; `as` signs the request in as the operator of that role. */
  request(
    path: string,
    init?: RequestInit & { as?: OperatorRole; json?: unknown; noOrigin?: boolean },
  ): Promise<Response>;
  /** GET as `as` (default viewer): status and parsed JSON body. */
  read(path: string, as?: OperatorRole): Promise<{ status: number; body: any }>;
  /** A mutation as `as` (default editor): status and parsed JSON body. */
  write(method: string, path: string, json?: unknown, as?: OperatorRole): Promise<{ status: number; body: any }>;
  /** Rows of a raw SQL query on the console's database. */
  rows<T>(query: SQL): Promise<T[]>;
  /** Number of rows `query` returns. */
  count(query: SQL): Promise<number>;
  /** Sign-in cookie of the demo operator of `role` (created on first use). */
  cookie(role: OperatorRole): Promise<string>;
  /** The app's analytics snapshots (tests wait for a background refresh with `settled()`). */
  analytics: Snapshots<AnalyticsFigureData>;
  /** The app's better-auth instance. */
  auth: Auth;
  close(): Promise<void>;
};

/** A clock the tests move by hand: sign-in windows, locks and session lifetimes follow it, no sleeps. */
export type TestClock = { (): Date; advance(seconds: number): void; /** Back to the real time now. */ reset(): void };

/** A TestClock starting at the real time now. */
export function testClock(): TestClock {
  let now = Date.now();
  const clock = (() => new Date(now)) as TestClock;
  clock.advance = (seconds) => {
    now += seconds * 1000;
  };
  clock.reset = () => {
    now = Date.now();
  };
  return clock;
}

/**
 * Starts a console on a fresh database; `demo` loads the demo data (seed 42) first; `clock`
 * replaces the system time of the limits, locks and session lifetimes. `handle`: on that database
 * instead (already migrated or adopted; close() closes it).
 */
export async function startConsole(
  target: TargetName,
  options: {
    demo?: boolean;
    security?: Partial<SecurityConfig>;
    clock?: () => Date;
    logger?: pino.Logger;
    handle?: DatabaseHandle;
    analyticsRefreshSeconds?: number;
    /** Single sign-on, REQUIRE_MFA, API tokens (default: none of them). */
    identity?: Partial<IdentityConfig>;
  } = {},
): Promise<TestConsole> {
  const handle = options.handle ?? (await freshDatabase(target));
  if (options.demo) await loadDemoData(handle.db, { seed: 42 });
  const { app, analytics, listSummaries, auth } = createApp({
    db: handle.db,
    config: {
      authSecret: "test-secret-test-secret-test-secret-0123",
      publicUrl,
      security: { ...defaultSecurity, ...options.security },
      ...(options.identity ? { identity: { ...defaultIdentity, ...options.identity } } : {}),
      ...(options.analyticsRefreshSeconds === undefined
        ? {}
        : { analytics: { refreshSeconds: options.analyticsRefreshSeconds } }),
    },
    logger: options.logger ?? pino({ level: "silent" }),
    clock: options.clock,
  });
  const cookies = new Map<OperatorRole, string>();

  async function cookie(role: OperatorRole): Promise<string> {
    const cached = cookies.get(role);
    if (cached) return cached;
    const email = `${role}@test.example`;
    await createOperator(handle.db, { email, password: testPassword, role });
    const res = await app.request("/api/auth/sign-in/email", {
      method: "POST",
      headers: { "content-type": "application/json", origin: publicUrl },
      body: JSON.stringify({ email, password: testPassword }),
    });
    if (res.status !== 200) throw new Error(`sign-in as ${role} failed: ${res.status} ${await res.text()}`);
    const value = res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    cookies.set(role, value);
    return value;
  }

  // Every call below is held against the API's description (tests/support/contract.ts).
  const contract = contractOf(
    app.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "Pedal Console API", version: "test" } }) as never,
  );

  async function request(
    path: string,
    init: RequestInit & { as?: OperatorRole; json?: unknown; noOrigin?: boolean } = {},
  ) {
    const { as, json, noOrigin, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (!noOrigin && !headers.has("origin")) headers.set("origin", publicUrl);
    if (as) headers.set("cookie", await cookie(as));
    if (json !== undefined) {
      headers.set("content-type", "application/json");
      rest.body = JSON.stringify(json);
    }
    const res = await app.request(path, { ...rest, headers });
    const problems = (await contract)({
      method: rest.method ?? "GET",
      url: path,
      requestHeaders: headers,
      requestBody: typeof rest.body === "string" ? rest.body : undefined,
      status: res.status,
      responseType: res.headers.get("content-type") ?? "",
      responseBody: await bodyText(res.clone()),
    });
    if (problems.length > 0)
      throw new Error(`The answer or the request differs from /api/openapi.json:\n${problems.join("\n")}`);
    return res;
  }

  const asJson = async (res: Response) => ({ status: res.status, body: await res.json() });
  const rows = <T>(query: SQL) => queryRows<T>(handle.db, query);
  return {
    handle,
    request,
    cookie,
    read: async (path, as = "viewer") => asJson(await request(path, { as })),
    write: async (method, path, json, as = "editor") => asJson(await request(path, { as, method, json })),
    rows,
    count: async (query) => (await rows<{ n: number }>(sql`select count(*)::int as n from (${query}) q`))[0].n,
    analytics,
    auth,
    close: async () => {
      await Promise.all([analytics.settled(), listSummaries.settled()]);
      await handle.close();
    },
  };
}
