import { existsSync, readFileSync } from "node:fs";
import { describeAuthRoutes } from "./identity/auth-openapi";
import { msg } from "../domain/messages";
import path from "node:path";
import { createRequire } from "node:module";
import { serveStatic } from "@hono/node-server/serve-static";
import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import type { UnofficialStatusCode } from "hono/utils/http-status";
import { sql } from "drizzle-orm";
import { HTTPException } from "hono/http-exception";
import { bodyLimit } from "hono/body-limit";
import { compress } from "hono/compress";
import { compressJson } from "./http/compress-json";
import { answerHeaders } from "./http/answer-headers";
import type pino from "pino";
import { clientIpHeader, createAuth, type Auth } from "./auth";
import { defaultAnalyticsRefreshSeconds, defaultIdentity, defaultMaxBodyBytes, type Config } from "./config";
import type { Database } from "./db/client";
import { auditBase, auditRouter } from "./audit-log/routes";
import { customersBase, customersRouter } from "./customers/routes";
import { configBase, configRouter } from "./customer-config/routes";
import { searchBase, searchRouter } from "./search/routes";
import { analyticsBase, analyticsRouter } from "./analytics/routes";
import { accountBase, accountRouter, operatorsBase, operatorsRouter } from "./operators/routes";
import { dashboardBase, dashboardRouter } from "./dashboard/routes";
import { skillsBase, skillsRouter } from "./skills/routes";
import { commentsBase, commentsRouter } from "./comments/routes";
import { platformsBase, platformsRouter } from "./platforms/routes";
import { promptChangesBase, promptChangesRouter } from "./prompts/changes-routes";
import { promptsBase, promptsRouter } from "./prompts/routes";
import { deliveryBase, deliveryRouter } from "./delivery/routes";
import { directoryBase, directoryRouter, scimBase } from "./directory/routes";
import { scimRouter } from "./directory/scim";
import { errorBody, scimType } from "./directory/scim-protocol";
import { teamsBase, teamsRouter } from "./teams/routes";
import { usersBase, usersRouter } from "./users/routes";
import { bulkBase, bulkRouter, mountBulkActions, registerBulkAction } from "./bulk/routes";
import { importRun } from "./imports/bulk";
import { importsBase, importsRouter } from "./imports/routes";
import { customerBulkActions } from "./customers/bulk";
import { teamBulkActions } from "./teams/bulk";
import { userBulkActions } from "./users/bulk";
import { skillBulkActions } from "./skills/bulk";
import { promptBulkActions } from "./prompts/bulk";
import { platformBulkActions } from "./platforms/routes";
import { deletedBase, deletedRouter } from "./deleted/routes";
import { accountSessionsRouter, operatorSessionsRouter } from "./identity/sessions";
import { reauthenticateRouter } from "./identity/reauthenticate";
import { accountTokensBase, accountTokensRouter, apiTokensBase, apiTokensRouter } from "./api-tokens/routes";
import { listPreferencesBase, listPreferencesRouter, viewsBase, viewsRouter } from "./views/routes";
import type { CredentialCache } from "./credential-cache";
import { bearerCredential, deliveryTokenAllows, resolveApiToken, TokenRateCounter, tokenInQuery } from "./tokens";
import { signInOptionsHandler, ssoCallbackHandler, ssoStartHandler } from "./identity/sso-flow";
import { databaseErrorAnswer, errorResponse, HttpError } from "./http/errors";
import type { AppEnv } from "./http/env";
import { bearerScheme, requireAccess, routeTable, sessionScheme } from "./http/route";
import { createSummaryCache, defaultListSettings, type SummaryCache } from "./http/lists";
import { createSnapshots, type Snapshots } from "./snapshots";
import type { AnalyticsFigureData } from "../domain/analytics";
import { projectRoot } from "./paths";
import { reviewedDatabase } from "./prompts/served";
import {
  mfaGate,
  mountTwoFactor,
  twoFactorStatusBase,
  twoFactorStatusRouter,
  withTwoFactor,
} from "./identity/two-factor-routes";
import {
  changePasswordHandler,
  clientIp,
  jsonOnly,
  resolveSession,
  sameOrigin,
  signInHandler,
  signOutHandler,
  systemClock,
  type Clock,
} from "./security";

export type AppDeps = {
  db: Database;
  config: Pick<Config, "authSecret" | "publicUrl" | "security"> &
    Partial<Pick<Config, "lists" | "maxBodyBytes" | "analytics" | "identity" | "promptReview">>;
  logger: pino.Logger;
  /** Folder of the built single-page app; when absent only the API is served. */
  webRoot?: string;
  /** The time used by sign-in limits, locks and session lifetimes (tests move it); default the system's. */
  clock?: Clock;
  /** Whether the server is stopping (SIGTERM received): /readyz answers 503 from then on. */
  isDraining?: () => boolean;
  /**
   * The sessions and tokens this server copy keeps for a few seconds (credential-cache.ts), started
   * by the caller; without it every request reads its credential from the database.
   */
  credentials?: CredentialCache;
};

/** How long /readyz waits for the database to answer `select 1`, in milliseconds. */
export const readyTimeoutMs = 2_000;

/** The built single-page app (`npm run build`). */
export const defaultWebRoot = path.join(projectRoot, "dist/web");

/**
 * Builds the HTTP application: the JSON API under /api (better-auth under /api/auth), the OpenAPI
 * document at /api/openapi.json and its viewer at /api/docs, /healthz, and the built SPA.
 * Used by main.ts and, in process, by the API tests.
 */
// Each entity's bulk actions (docs/bulk-actions.md), declared once: their routes enter the route table at import.
mountBulkActions([
  ...customerBulkActions,
  ...teamBulkActions,
  ...userBulkActions,
  ...skillBulkActions,
  ...promptBulkActions,
  ...platformBulkActions,
]);
// An import's run is started by POST /api/imports/{importId}/apply, not at /api/bulk; its undo is /api/bulk's.
registerBulkAction(importRun);

/**
 * The session token lives only in its HttpOnly cookie (docs/identity.md): better-auth's JSON
 * answers also carry it (`token` of sign-in, the two-factor steps and change-password;
 * `session.token` of get-session), where a script on the page or a log could read it. Every
 * /api/auth answer leaves this middleware without them. It reads the answer back as text, so
 * `compressJson` leaves /api/auth answers uncompressed until after it (`readBackUnder`).
 */
const withoutSessionToken: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (!c.res.headers.get("content-type")?.includes("application/json")) return;
  const body = (await c.res
    .clone()
    .json()
    .catch(() => undefined)) as Record<string, unknown> | null | undefined;
  if (!body || typeof body !== "object") return;
  const session = body.session as Record<string, unknown> | undefined;
  if (!("token" in body) && !(session && typeof session === "object" && "token" in session)) return;
  const { token: _token, ...rest } = body;
  const cleaned =
    session && typeof session === "object" ? { ...rest, session: { ...session, token: undefined } } : rest;
  c.res = new Response(JSON.stringify(cleaned), { status: c.res.status, headers: c.res.headers });
  // Hono carries the first answer's headers over: its length is not this body's.
  c.res.headers.delete("content-length");
};

export function createApp(deps: AppDeps): {
  app: OpenAPIHono<AppEnv>;
  auth: Auth;
  analytics: Snapshots<AnalyticsFigureData>;
  listSummaries: SummaryCache;
} {
  const auth = createAuth(deps.db, deps.config, deps.logger);
  const app = new OpenAPIHono<AppEnv>();

  // Request id and security headers of every answer (http/answer-headers.ts).
  app.use(answerHeaders({ https: deps.config.publicUrl.startsWith("https://") }));
  // JSON answers are compressed whole (compressJson), CSV exports as they stream (compress); built
  // assets are served precompressed (mountWeb).
  app.use("/api/*", compress());
  app.use("/api/*", compressJson({ readBackUnder: "/api/auth/" }));
  // The lists' memory of big lists' summaries ages by the app's clock (tests move it).
  const listSettings = { ...defaultListSettings, ...deps.config.lists };
  const clock = deps.clock ?? systemClock;
  const lists = {
    settings: listSettings,
    cache: createSummaryCache(listSettings, clock, (err, key) =>
      deps.logger.warn({ err, list: key }, "list summary refresh failed"),
    ),
    now: () => clock().getTime(),
  };
  const promptReview = deps.config.promptReview ?? "off";
  // Every transaction of a request states the review mode, which the database's gate reads.
  const db = reviewedDatabase(deps.db, promptReview);
  const tokenCounter = new TokenRateCounter(deps.db);
  const refreshMs = (deps.config.analytics?.refreshSeconds ?? defaultAnalyticsRefreshSeconds) * 1000;
  const analytics = createSnapshots<AnalyticsFigureData>({
    maxAgeMs: refreshMs,
    // 0 (ANALYTICS_REFRESH_SECONDS=0) computes every figure for its request.
    maxStaleMs: refreshMs === 0 ? 0 : Math.max(refreshMs * 10, 15 * 60_000),
    clock: deps.clock,
    onError: (err, key) => deps.logger.warn({ err, figure: key }, "analytics refresh failed"),
  });
  const logRequests = deps.logger.isLevelEnabled("info");
  app.use(async (c, next) => {
    c.set("lists", lists);
    c.set("analytics", analytics);
    c.set("promptReview", promptReview);
    c.set("clock", clock);
    c.set("publicUrl", deps.config.publicUrl);
    const started = performance.now();
    c.set("db", db);
    c.set("auth", auth);
    c.set("credentials", deps.credentials);
    c.set("tokenRate", tokenCounter);
    c.set("logger", deps.logger);
    c.set("clientIp", clientIp(c, deps.config.security.trustProxy));
    if (c.req.path.startsWith("/api/auth/")) c.req.raw.headers.set(clientIpHeader, c.get("clientIp"));
    await next();
    // A request that may have changed data drops the sessions and tokens this copy keeps before its
    // answer leaves: the client that signed out or revoked never meets its change undone here by a
    // notice still on its way (credential-cache.ts).
    if (deps.credentials && c.req.method !== "GET" && c.req.method !== "HEAD" && c.req.method !== "OPTIONS")
      deps.credentials.clear();
    // The line's object is built only when it is written (the benchmark's server logs warnings only).
    if (logRequests && (c.req.path.startsWith("/api") || c.req.path.startsWith("/scim") || c.res.status >= 400)) {
      deps.logger.info(
        {
          requestId: c.get("requestId"),
          method: c.req.method,
          path: c.req.path,
          status: c.res.status,
          durationMs: Math.round((performance.now() - started) * 10) / 10,
        },
        "request",
      );
    }
  });

  // Before anything reads a body, on every route (sign-in included): a body larger than the limit
  // is refused by its content-length, or while it streams in (chunked), never held in memory.
  // GET and HEAD requests carry no body (Node discards one sent anyway); they skip the check, which
  // would otherwise build a whole web Request for each just to find that out.
  const maxBodyBytes = deps.config.maxBodyBytes ?? defaultMaxBodyBytes;
  const limitBody = bodyLimit({
    maxSize: maxBodyBytes,
    onError: (c) => {
      // The rest of the body is read and dropped by Node (no memory kept), so the client gets the
      // answer instead of a connection reset in the middle of its upload.
      (c.env as { incoming?: { resume(): void } } | undefined)?.incoming?.resume();
      // Node still ends a refused upload's connection before its body is all in: the answer says
      // so (`Connection: close`), so that a client or proxy never sends its next request on it.
      c.header("connection", "close");
      const message = msg.api.tooLarge(formatBytes(maxBodyBytes));
      // A directory (SCIM) client reads SCIM's error body, as from every other refusal of its routes.
      if (c.req.path.startsWith(`${scimBase}/`))
        return c.body(JSON.stringify(errorBody(413, message)), 413, { "content-type": scimType });
      return errorResponse(c, 413, "payload_too_large", message);
    },
  });
  app.use((c, next) => (c.req.method === "GET" || c.req.method === "HEAD" ? next() : limitBody(c, next)));

  // Liveness: the process is up and serving HTTP, whatever its database does (a restart would not help).
  app.get("/healthz", (c) => c.json({ ok: true }));
  // Readiness: whether a load balancer should send traffic here. Not while stopping, and not while
  // the database does not answer a trivial query within readyTimeoutMs.
  app.get("/readyz", async (c) => {
    if (deps.isDraining?.()) return errorResponse(c, 503, "unavailable", msg.api.stopping);
    let timer: NodeJS.Timeout | undefined;
    const answered = await Promise.race([
      deps.db.execute(sql`select 1`).then(
        () => true,
        () => false,
      ),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), readyTimeoutMs))),
    ]);
    clearTimeout(timer);
    return answered ? c.json({ ok: true }) : errorResponse(c, 503, "unavailable", msg.api.unavailable);
  });

  const security = deps.config.security;
  app.use("/api/*", sameOrigin(deps.config.publicUrl));
  // Sign-in reads its body before there is a session; every other route only once signed in (below).
  app.use("/api/auth/*", refuseNul);
  app.use("/api/auth/*", withoutSessionToken);

  // better-auth, limited to what the console's screens use, JSON bodies only; sign-in, sign-out
  // and change-password are wrapped (security.ts). Every other /api/auth path is a 404.
  app.post("/api/auth/sign-in/email", jsonOnly, signInHandler(auth, security, clock, deps.config.identity));
  app.post("/api/auth/sign-out", jsonOnly, signOutHandler(auth));
  const mfaPolicy = (deps.config.identity ?? defaultIdentity).requireMfa;
  // The session carries its two-factor state, so the web app knows at once whether REQUIRE_MFA
  // holds it at the setup screen.
  app.get("/api/auth/get-session", async (c) =>
    c.json(await withTwoFactor(deps.db, await resolveSession(c, auth, security, clock), mfaPolicy)),
  );
  app.post("/api/auth/change-password", jsonOnly, changePasswordHandler(auth, security, clock));
  // Single sign-on (docs/identity.md): what the login screen offers, always; the flow's start and
  // callback only when it is configured (else 404 like any other /api/auth path).
  app.get("/api/auth/providers", signInOptionsHandler(deps.config.identity));
  if (deps.config.identity?.sso) {
    app.post("/api/auth/sign-in/social", jsonOnly, ssoStartHandler(auth));
    app.get("/api/auth/callback/sso", ssoCallbackHandler(auth, deps.config.publicUrl));
  }
  // Two-factor sign-in (identity/two-factor-routes.ts): setup, the code step of sign-in, turning off.
  mountTwoFactor(app, { auth, security, clock, policy: mfaPolicy, secret: deps.config.authSecret });
  describeAuthRoutes(app, { sso: Boolean(deps.config.identity?.sso) });
  app.all("/api/auth/*", (c) => errorResponse(c, 404, "not_found", `No API route ${c.req.method} ${c.req.path}`));

  // Every other /api route needs an operator session, or a personal API token (docs/identity.md):
  // `Authorization: Bearer` wins over a cookie. Never on /api/auth/*: those are answered above.
  const tokenRatePerMinute = deps.config.identity?.apiTokenRatePerMinute ?? defaultIdentity.apiTokenRatePerMinute;
  const apiCredentials: MiddlewareHandler<AppEnv> = async (c, next) => {
    // URLs are kept by proxies, browser history and Referer headers: a token there is refused
    // before anything else, whatever else the request carries.
    if (tokenInQuery(c.req.url)) return errorResponse(c, 400, "bad_request", msg.apiTokens.inQuery);
    const bearer = bearerCredential(c.req.header("authorization"));
    if (bearer) {
      const invalid = () => {
        c.header("www-authenticate", 'Bearer error="invalid_token"');
        return errorResponse(c, 401, "unauthorized", msg.apiTokens.invalid);
      };
      if (bearer === "malformed") return invalid();
      const now = clock();
      let identity: Awaited<ReturnType<typeof resolveApiToken>>;
      try {
        identity = await resolveApiToken(deps.db, bearer.token, now, deps.credentials);
      } catch (err) {
        deps.logger.error({ requestId: c.get("requestId"), err }, "API tokens cannot be read");
        throw new HttpError(503, "unavailable", msg.api.unavailable);
      }
      if (!identity) return invalid();
      // A delivery token reads its platform's prompts and nothing else (docs/prompt-review.md).
      const scope = identity.apiToken.platformId;
      if (scope && !deliveryTokenAllows(scope, c.req.method, c.req.path))
        return errorResponse(c, 403, "forbidden", msg.delivery.platformOnly);
      const admission = await tokenCounter.admit(identity.apiToken.id, tokenRatePerMinute, now);
      if (!admission.admitted) {
        c.header("retry-after", String(admission.retryAfterSeconds));
        return errorResponse(c, 429, "rate_limited", msg.apiTokens.rateLimited(admission.retryAfterSeconds));
      }
      c.set("session", identity.session);
      c.set("apiToken", identity.apiToken);
      return next();
    }
    const session = await resolveSession(c, auth, security, clock);
    c.set("session", session);
    if (!session) return errorResponse(c, 401, "unauthorized", msg.api.unauthorized);
    return next();
  };
  app.use("/api/*", apiCredentials);
  // REQUIRE_MFA: a covered operator without two-factor may only set it up (or sign out).
  app.use("/api/*", mfaGate(mfaPolicy));
  app.use("/api/*", refuseNul);

  app.route(dashboardBase, dashboardRouter);
  app.route(customersBase, customersRouter);
  app.route(configBase, configRouter);
  app.route(searchBase, searchRouter);
  app.route(analyticsBase, analyticsRouter);
  app.route(teamsBase, teamsRouter);
  app.route(usersBase, usersRouter);
  app.route(skillsBase, skillsRouter);
  app.route(commentsBase, commentsRouter);
  app.route(promptsBase, promptsRouter);
  app.route(promptChangesBase, promptChangesRouter);
  app.route(platformsBase, platformsRouter);
  app.route(deliveryBase, deliveryRouter);
  app.route(bulkBase, bulkRouter);
  app.route(operatorsBase, operatorsRouter);
  app.route(twoFactorStatusBase, twoFactorStatusRouter(mfaPolicy));
  app.route(accountBase, accountRouter);
  app.route(accountBase, accountSessionsRouter);
  app.route(accountBase, reauthenticateRouter);
  app.route(operatorsBase, operatorSessionsRouter);
  app.route(auditBase, auditRouter);
  app.route(deletedBase, deletedRouter);
  app.route(accountTokensBase, accountTokensRouter);
  app.route(apiTokensBase, apiTokensRouter);
  app.route(viewsBase, viewsRouter);
  app.route(listPreferencesBase, listPreferencesRouter);
  app.route(directoryBase, directoryRouter);
  app.route(importsBase, importsRouter);
  // Directory sync (SCIM 2.0, docs/onboarding.md): outside /api, with its own credential (a
  // customer's directory token) and SCIM's own error body; each customer's rate as an API token's.
  app.route(scimBase, scimRouter({ ratePerMinute: tokenRatePerMinute }));

  app.openAPIRegistry.registerComponent("securitySchemes", sessionScheme, {
    type: "apiKey",
    in: "cookie",
    name: "pedal.session_token",
    description:
      "The session cookie set by POST /api/auth/sign-in/email (named `__Secure-pedal.session_token` when PUBLIC_URL is https). Each operation also needs a role: see its `x-required-role`.",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", bearerScheme, {
    type: "http",
    scheme: "bearer",
    bearerFormat: "pedal_<43 base64url characters>",
    description:
      "A personal API token (`Authorization: Bearer pedal_…`), created under API tokens in the console's user menu or with POST /api/account/tokens. It acts with the lower of its role and its operator's; requests that change data need no Origin; limited per token per minute (429 with Retry-After above). Never in the query string (400).",
  });
  app.doc31("/api/openapi.json", {
    openapi: "3.1.0",
    info: {
      title: "Pedal Console API",
      version: "1.0.0",
      description:
        "Back-office API of the Pedal Console. Every route needs an operator session cookie from POST /api/auth/sign-in/email, or a personal API token (`Authorization: Bearer`), and the role its `x-required-role` names; requests that change data with a cookie must also carry the console's Origin. Bodies are limited to MAX_BODY_BYTES (1 MB by default).",
    },
    // The console's own address: the paths begin with /api.
    servers: [{ url: deps.config.publicUrl, description: "This console (PUBLIC_URL)" }],
    security: [{ [sessionScheme]: [] }, { [bearerScheme]: [] }],
  });
  mountDocs(app);

  app.all("/api/*", (c) => errorResponse(c, 404, "not_found", `No API route ${c.req.method} ${c.req.path}`));

  if (deps.webRoot && existsSync(path.join(deps.webRoot, "index.html"))) mountWeb(app, deps.webRoot);
  else
    app.get("/", (c) => c.text("Pedal Console API. Build the web app with `npm run build` to serve the console here."));

  app.onError((err, c) => {
    // A client that went away in the middle of its request body is not a server error: logged as an
    // aborted request (status 499, as proxies write it); nobody reads the answer.
    if (clientAborted(c)) {
      deps.logger.info(
        { requestId: c.get("requestId"), reason: err instanceof Error ? err.message : String(err) },
        "request aborted by the client",
      );
      return c.body(null, 499 as UnofficialStatusCode);
    }
    if (err instanceof HttpError) {
      // A bound of the console's own (bulk previews and runs under way) clears within seconds.
      if (err.status === 429) c.header("retry-after", "2");
      return errorResponse(c, err.status, err.code, err.message, err.fields, err.extra);
    }
    if (err instanceof HTTPException && err.status < 500)
      return errorResponse(c, err.status, "bad_request", err.message);
    if (err instanceof SyntaxError) return errorResponse(c, 400, "bad_request", msg.api.badJson);
    // Input the database refuses (bad value, out of range, duplicate key) is the client's, not our bug.
    const refused = databaseErrorAnswer(err);
    if (refused?.status === 503) {
      deps.logger.warn({ requestId: c.get("requestId"), err }, "database unavailable");
      c.header("retry-after", "1");
    }
    if (refused) return errorResponse(c, refused.status, refused.code, refused.message, refused.fields);
    deps.logger.error({ requestId: c.get("requestId"), err }, "unhandled error");
    return errorResponse(c, 500, "internal", `Something went wrong on our side (request ${c.get("requestId")})`);
  });

  return { app, auth, analytics, listSummaries: lists.cache };
}

const require = createRequire(import.meta.url);

// The documentation routes, declared once like every apiRoute (mountDocs serves them).
routeTable.push(
  { method: "GET", path: "/api/openapi.json", access: "viewer" },
  { method: "GET", path: "/api/docs", access: "viewer" },
  { method: "GET", path: "/api/docs/init.js", access: "viewer" },
  { method: "GET", path: "/api/docs/assets/{file}", access: "viewer" },
);

/** Whether the client closed the connection before its request was read in full. */
function clientAborted(c: Context): boolean {
  const incoming = (
    c.env as { incoming?: { aborted?: boolean; readableAborted?: boolean; complete?: boolean } } | undefined
  )?.incoming;
  return c.req.raw.signal?.aborted === true || incoming?.aborted === true || incoming?.readableAborted === true;
}

/** A byte count as people read it: "1 MB", "512 KB". */
function formatBytes(bytes: number): string {
  if (bytes >= 1_048_576 && bytes % 1_048_576 === 0) return `${bytes / 1_048_576} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

/**
 * PostgreSQL text cannot hold NUL, so no valid input contains one: a NUL in the path, query or
 * JSON body is answered 400 before any handler sees it.
 */
const refuseNul: MiddlewareHandler<AppEnv> = async (c, next) => {
  let url = c.req.url;
  try {
    url = decodeURIComponent(url);
  } catch {
    return errorResponse(c, 400, "bad_request", msg.api.malformed);
  }
  const hasBody = c.req.method !== "GET" && c.req.method !== "HEAD";
  const body = hasBody ? await c.req.raw.clone().text() : "";
  if (url.includes("\0") || body.includes("\0") || containsNul(parseJson(body)))
    return errorResponse(c, 400, "bad_request", msg.api.nul);
  return next();
};

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined; // not JSON: the route's validator answers
  }
}

/** Whether any string or key in a parsed JSON value holds a NUL character (iterative: nesting depth is the client's choice). */
function containsNul(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === "string") {
      if (value.includes("\0")) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
    } else if (value && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) {
        if (k.includes("\0")) return true;
        stack.push(v);
      }
    }
  }
  return false;
}

/** /api/docs: Swagger UI served from the swagger-ui-dist package (no CDN), reading /api/openapi.json. */
function mountDocs(app: OpenAPIHono<AppEnv>) {
  const dist = path.dirname(require.resolve("swagger-ui-dist/package.json"));
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pedal Console API</title>
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css"></head><body><div id="swagger-ui"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script><script src="/api/docs/init.js"></script></body></html>`;
  // validatorUrl null: Swagger UI would otherwise send the document to validator.swagger.io.
  // Authorize takes a personal API token (bearer scheme); it is kept in the page only, never in
  // the browser's storage (persistAuthorization false), so closing the tab forgets it.
  const init = `window.ui = SwaggerUIBundle({ url: "/api/openapi.json", dom_id: "#swagger-ui", validatorUrl: null, persistAuthorization: false });`;
  const viewer = requireAccess("viewer");
  app.get("/api/docs", viewer, (c) => c.html(page));
  app.get("/api/docs/init.js", viewer, (c) => c.body(init, 200, { "content-type": "text/javascript" }));
  app.get("/api/docs/assets/:file{swagger-ui\\.css|swagger-ui-bundle\\.js}", viewer, (c) => {
    const file = c.req.param("file");
    const type = file.endsWith(".css") ? "text/css" : "text/javascript";
    return c.body(readFileSync(path.join(dist, file)), 200, {
      "content-type": type,
      "cache-control": "public, max-age=86400",
    });
  });
}

/** The SPA: hashed assets cached for a year, every other GET falls back to index.html. */
function mountWeb(app: OpenAPIHono<AppEnv>, webRoot: string) {
  const index = readFileSync(path.join(webRoot, "index.html"), "utf8");
  app.use("/assets/*", async (c, next) => {
    await next();
    if (c.res.status === 200) c.header("cache-control", "public, max-age=31536000, immutable");
  });
  // Source maps would hand out the app's source: the production build makes none, and one left in
  // the folder (say, by a benchmark build) is not served either.
  app.use("/*", async (c, next) => (c.req.path.endsWith(".map") ? c.text("Not found", 404) : next()));
  // `vite build` writes .br and .gz beside each asset; the one the browser accepts is sent.
  app.use("/*", serveStatic({ root: webRoot, precompressed: true }));
  // A missing asset (say, a chunk of an older build) is a 404, never the app's HTML.
  app.get("/assets/*", (c) => c.text("Not found", 404));
  app.get("*", compress(), (c) => c.html(index, 200, { "cache-control": "no-cache" }));
}
