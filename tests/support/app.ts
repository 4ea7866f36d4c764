/**
 * An in-process console (the real Hono app) on a fresh database, with helpers to sign in as an
 * operator of each role and to call the API as a browser would (cookie + same-origin header), or
 * as a script would (a personal API token of that operator: `Authorization: Bearer`).
 */
import { sql, type SQL } from "drizzle-orm";
import pino from "pino";
import { CredentialCache } from "../../src/server/credential-cache";
import { createApp } from "../../src/server/app";
import { createOperator, type Auth } from "../../src/server/auth";
import { defaultIdentity, defaultSecurity, type IdentityConfig, type SecurityConfig } from "../../src/server/config";
import { queryRows, type DatabaseHandle } from "../../src/server/db/client";
import { loadDemoData } from "../../src/server/db/demo-data";
import type { OperatorRole, PromptReviewMode } from "../../src/domain/enums";
import type { AnalyticsFigureData } from "../../src/domain/analytics";
import type { Snapshots } from "../../src/server/snapshots";
import { bodyText, contractOf, withOpenEnums } from "./contract";
import { freshDatabase, type TargetName } from "./databases";

/** The cookies a response sets, as a Cookie header added to `previous` (those it deletes left out). */
export function cookiesOf(res: Response, previous = ""): string {
  const jar = new Map<string, string>();
  for (const pair of previous.split("; ").filter(Boolean)) {
    const at = pair.indexOf("=");
    jar.set(pair.slice(0, at), pair.slice(at + 1));
  }
  for (const header of res.headers.getSetCookie()) {
    const [pair] = header.split(";");
    const at = pair.indexOf("=");
    const name = pair.slice(0, at);
    if (/max-age=0/i.test(header) || pair.slice(at + 1) === "") jar.delete(name);
    else jar.set(name, pair.slice(at + 1));
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
}

export const publicUrl = "http://localhost:3999";
export const testPassword = "correct-horse-battery";

/** How a test console's `as` requests are authenticated: the session cookie, or an API token of that role. */
export type Credential = "cookie" | "bearer";
/** Both credentials, for suites that run once with each (authz-matrix, hostile-input, audit-coverage). */
export const credentials: Credential[] = ["cookie", "bearer"];

type RequestOptions = RequestInit & { as?: OperatorRole; json?: unknown; noOrigin?: boolean; credential?: Credential };

export type TestConsole = {
  handle: DatabaseHandle;
  /**
   * Calls the app; `as` authenticates the request as the operator of that role, with the console's
   * credential (`credential` overrides it for one call).
   */
  request(path: string, init?: RequestOptions): Promise<Response>;
  /** The credential `as` requests use. */
  credential: Credential;
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
  /** A personal API token of the demo operator of `role`, with that role (created on first use). */
  token(role: OperatorRole): Promise<string>;
  /** The `token_id` of `token(role)`. */
  tokenId(role: OperatorRole): Promise<string>;
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
 * instead (already migrated or adopted; close() closes it). `identity`: single sign-on and the
 * other identity settings.
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
    /** How `as` requests are authenticated (default the cookie). */
    credential?: Credential;
    /** Identity settings; the API token rate limit defaults to one a test never reaches. */
    identity?: Partial<IdentityConfig>;
    /** PROMPT_REVIEW (default off, the spec's behaviour). */
    promptReview?: PromptReviewMode;
    /** An adopted database: its answers may hold values outside the spec's lists (`x-extensible-enum`). */
    extensibleEnums?: boolean;
    /**
     * How long the console keeps a session or token it read (CREDENTIAL_CACHE_SECONDS), default 0:
     * tests change sessions and operators in SQL and read the effect at once, which on PostgreSQL
     * reaches a keeping console a moment later (its notice travels on another connection).
     * tests/api/credential-cache.test.ts keeps them as the server does.
     */
    credentialCacheSeconds?: number;
  } = {},
): Promise<TestConsole> {
  const handle = options.handle ?? (await freshDatabase(target));
  if (options.demo) await loadDemoData(handle.db, { seed: 42 });
  const clock = options.clock;
  const credentials = new CredentialCache(
    handle.db,
    pino({ level: "silent" }),
    (options.credentialCacheSeconds ?? 0) * 1000,
    clock ? () => clock().getTime() : undefined,
  );
  await credentials.start();
  const { app, analytics, listSummaries, auth } = createApp({
    db: handle.db,
    config: {
      authSecret: "test-secret-test-secret-test-secret-0123",
      publicUrl,
      security: { ...defaultSecurity, ...options.security },
      identity: { ...defaultIdentity, apiTokenRatePerMinute: 1_000_000, ...options.identity },
      promptReview: options.promptReview ?? "off",
      ...(options.analyticsRefreshSeconds === undefined
        ? {}
        : { analytics: { refreshSeconds: options.analyticsRefreshSeconds } }),
    },
    logger: options.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" }),
    clock: options.clock,
    credentials,
  });
  const cookies = new Map<OperatorRole, string>();
  const tokens = new Map<OperatorRole, Promise<{ token: string; token_id: string }>>();
  const defaultCredential = options.credential ?? "cookie";

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

  function tokenOf(role: OperatorRole) {
    let known = tokens.get(role);
    if (!known) {
      known = (async () => {
        const res = await app.request("/api/account/tokens", {
          method: "POST",
          headers: { "content-type": "application/json", origin: publicUrl, cookie: await cookie(role) },
          body: JSON.stringify({ name: `${role} test token`, role, expires_in_days: 365 }),
        });
        if (res.status !== 201) throw new Error(`token of ${role} failed: ${res.status} ${await res.text()}`);
        return (await res.json()) as { token: string; token_id: string };
      })();
      tokens.set(role, known);
    }
    return known;
  }

  // Every call below is held against the API's description (tests/support/contract.ts).
  const document = app.getOpenAPI31Document({
    openapi: "3.1.0",
    info: { title: "Pedal Console API", version: "test" },
  }) as never;
  const contract = contractOf(options.extensibleEnums ? withOpenEnums(document) : document);

  async function request(path: string, init: RequestOptions = {}) {
    const { as, json, noOrigin, credential = defaultCredential, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (!noOrigin && !headers.has("origin")) headers.set("origin", publicUrl);
    if (as && credential === "bearer") headers.set("authorization", `Bearer ${(await tokenOf(as)).token}`);
    else if (as) headers.set("cookie", await cookie(as));
    if (json !== undefined) {
      headers.set("content-type", "application/json");
      rest.body = JSON.stringify(json);
    }
    let res = await app.request(path, { ...rest, headers });
    // As the console's screens do: an `as` operator asked to confirm it is them (an admin action on
    // credentials, a session older than 10 minutes by the test's clock) confirms, then sends again.
    if (
      as &&
      res.status === 403 &&
      (
        await res
          .clone()
          .json()
          .catch(() => null)
      )?.error?.code === "reauthentication_required"
    ) {
      const confirmed = await app.request("/api/account/reauthenticate", {
        method: "POST",
        headers: { "content-type": "application/json", origin: publicUrl, cookie: headers.get("cookie") ?? "" },
        body: JSON.stringify({ current_password: testPassword }),
      });
      if (confirmed.status !== 200) throw new Error(`confirming ${as} failed: ${confirmed.status}`);
      res = await app.request(path, { ...rest, headers });
    }
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
    credential: defaultCredential,
    cookie,
    token: async (role) => (await tokenOf(role)).token,
    tokenId: async (role) => (await tokenOf(role)).token_id,
    read: async (path, as = "viewer") => asJson(await request(path, { as })),
    write: async (method, path, json, as = "editor") => asJson(await request(path, { as, method, json })),
    rows,
    count: async (query) => (await rows<{ n: number }>(sql`select count(*)::int as n from (${query}) q`))[0].n,
    analytics,
    auth,
    close: async () => {
      await Promise.all([analytics.settled(), listSummaries.settled()]);
      await credentials.close();
      await handle.close();
    },
  };
}
