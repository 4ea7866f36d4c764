import { createRoute, OpenAPIHono, type RouteConfig, type z } from "@hono/zod-openapi";
import { msg } from "../../domain/messages";
type ZodType = z.ZodType;
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env";
import { conflictBodySchema, errorBodySchema, errorResponse, fieldMessages } from "./errors";
import { recentlyConfirmed } from "./reauth";
import { z as zod } from "@hono/zod-openapi";
import { roleAtLeast, type OperatorRole } from "../../domain/enums";

/** Who may call a route: "public" needs no session; a role needs a session of at least that role. */
export type RouteAccess = "public" | OperatorRole;

/** One declared API route, as `apiRoute` records it in `routeTable`. */
export type RouteEntry = {
  /** The HTTP method, upper case ("PATCH"). */
  method: string;
  /** The full path in OpenAPI style, parameters in braces ("/api/teams/{teamId}"). */
  path: string;
  /** Who may call it. */
  access: RouteAccess;
  /** A personal API token is refused there (403) whatever its role. */
  sessionOnly?: true;
  /** The zod schema of its path parameters, when it has any. */
  params?: ZodType;
  /** The zod schema of its query parameters, when it declares any. */
  query?: ZodType;
  /** The zod schema of its JSON body, when it takes one. */
  body?: ZodType;
  /**
   * A valid body as the API's description shows it (the request's OpenAPI `example`), given where
   * the schema alone does not say what the route accepts (names of a list's columns, one of two
   * exclusive fields). Ids in it are placeholders of the right form.
   */
  example?: unknown;
  /**
   * An admin action on operators' credentials: the session must have proved its operator within
   * 10 minutes (signed in or confirmed since), else 403 `reauthentication_required` (./reauth.ts).
   */
  reauth?: true;
  /** It takes an If-Match header (`versionHeaders`): a save refused as stale (409) when the record changed since. */
  ifMatch?: true;
};

/**
 * Every declared API route with the access it needs and the schemas of its input; the
 * authorization, hostile-input and audit-coverage tests walk this table.
 */
export const routeTable: RouteEntry[] = [];

/**
 * Where operators' credentials are made and changed: the operators (create, role, deactivation,
 * password, two-factor, sessions, unlock), the signed-in operator's own account (sessions, API
 * tokens), the admin's API tokens list, and customers' directory (SCIM) tokens. Every write under
 * these paths is session-only (docs/identity.md): an API token cannot create an operator, reset or
 * set a password or two-factor, end sessions, or make or revoke tokens, whatever its role, so a
 * stolen token cannot turn itself into a lasting account. The rule is applied in `apiRoute`, so a
 * route added there later is covered without anyone remembering to.
 */
const credentialPaths = /^\/api\/((operators|account|api-tokens)(\/|$)|customers\/[^/]+\/directory-tokens)/;

/** Whether a route changes credentials (a write under `credentialPaths`) and so refuses API tokens. */
export const changesCredentials = (method: string, path: string) =>
  !["GET", "HEAD", "OPTIONS"].includes(method.toUpperCase()) && credentialPaths.test(path);

/** Whether a route is an admin action on operators' credentials, which asks the admin to confirm it is them (`RouteEntry.reauth`). */
export const needsReauthentication = (access: RouteAccess, method: string, path: string) =>
  access === "admin" && changesCredentials(method, path);

/**
 * Answers 401 without a session and 403 when the operator's role (a bearer token's effective role)
 * is below `access`, or when the route is `sessionOnly` and the request came with an API token, or
 * when it needs `reauth` and the session has not proved its operator within 10 minutes (403
 * `reauthentication_required`: confirm with POST /api/account/reauthenticate, then send again).
 */
export function requireAccess(access: RouteAccess, sessionOnly = false, reauth = false): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (access === "public") return next();
    const session = c.get("session");
    if (!session) return errorResponse(c, 401, "unauthorized", msg.api.unauthorized);
    if (!roleAtLeast((session.user as { role?: string }).role, access)) {
      return errorResponse(c, 403, "forbidden", msg.api.forbidden);
    }
    if (sessionOnly && c.get("apiToken")) return errorResponse(c, 403, "forbidden", msg.apiTokens.sessionOnly);
    if (reauth && !(await recentlyConfirmed(c)))
      return errorResponse(c, 403, "reauthentication_required", msg.reauth.required);
    return next();
  };
}

const errorEntry = (description: string) => ({
  description,
  content: { "application/json": { schema: errorBodySchema } },
});

/** The name of the session cookie's security scheme in the OpenAPI document. */
export const sessionScheme = "session";
/** The name of the personal API token's security scheme (`Authorization: Bearer`). */
export const bearerScheme = "bearer";

/**
 * The error answers every route may give, in the standard error body: 400, 413 and 503 to anyone;
 * 401 and 403 to routes that need a role; 422 to routes that take input; 415 to routes that take a body.
 */
function standardErrors(access: RouteAccess, takesInput: boolean, takesBody: boolean) {
  return {
    400: errorEntry("Malformed request (JSON, identifier or NUL character)"),
    413: errorEntry(
      takesBody
        ? "The body is larger than MAX_BODY_BYTES (1 MB by default)"
        : "A body was sent larger than MAX_BODY_BYTES (1 MB by default)",
    ),
    ...(access === "public"
      ? {}
      : {
          401: errorEntry(
            "No operator session (sign in with POST /api/auth/sign-in/email), or an API token that is malformed, unknown, revoked or expired",
          ),
          403: errorEntry(`The operator's role (or the API token's) is below ${access}`),
          429: errorEntry("Too many requests with this API token in a minute (retry after Retry-After seconds)"),
        }),
    ...(takesInput ? { 422: errorEntry("Invalid input, with a message per field") } : {}),
    ...(takesBody ? { 415: errorEntry("The body is not JSON (content-type: application/json)") } : {}),
    503: errorEntry(
      "The database cannot be reached right now (retry after Retry-After seconds), or the server is stopping",
    ),
  };
}

const roleText: Record<RouteAccess, string> = {
  public: "No session needed.",
  viewer: "Requires a session or API token of any role (viewer, editor or admin).",
  editor: "Requires a session or API token of role editor or admin.",
  admin: "Requires a session or API token of role admin.",
};

/** What a `reauth` route's description adds. */
const reauthText =
  "Asks the admin to confirm it is them: a session that neither signed in nor confirmed (POST /api/account/reauthenticate) within 10 minutes is answered 403 `reauthentication_required`.";

/**
 * Declares an API route: its OpenAPI description, the access it needs (enforced by middleware and
 * recorded in `routeTable`), and the standard error responses. `path` is relative to the module's
 * mount point given as `base` (e.g. "/api/dashboard"). In the OpenAPI document every route but a
 * public one carries the session cookie's and the bearer token's security schemes (either will
 * do), its required role as `x-required-role` and in its description, and its
 * 400/401/403/413/422/429 answers. A route that changes credentials (`changesCredentials`) is
 * session-only: refused to API tokens (403), and only the cookie scheme is listed; an admin one
 * also asks for a recent confirmation (`needsReauthentication`).
 */
export function apiRoute<R extends Omit<RouteConfig, "middleware">>(base: string, access: RouteAccess, config: R) {
  const fullPath = base + (config.path === "/" ? "" : config.path);
  const sessionOnly = changesCredentials(config.method, fullPath);
  const reauth = needsReauthentication(access, config.method, fullPath);
  const request = config.request as
    | {
        body?: { content?: Record<string, { schema?: unknown; example?: unknown } | undefined> };
        query?: unknown;
        params?: unknown;
        headers?: unknown;
      }
    | undefined;
  const json = request?.body?.content?.["application/json"];
  const headers = request?.headers as { shape?: Record<string, unknown> } | undefined;
  routeTable.push({
    method: config.method.toUpperCase(),
    path: fullPath,
    access,
    ...(sessionOnly ? { sessionOnly: true as const } : {}),
    ...(reauth ? { reauth: true as const } : {}),
    ...(request?.params ? { params: request.params as ZodType } : {}),
    ...(request?.query ? { query: request.query as ZodType } : {}),
    ...(json?.schema ? { body: json.schema as ZodType } : {}),
    ...(json?.example !== undefined ? { example: json.example } : {}),
    ...(headers?.shape?.["if-match"] !== undefined ? { ifMatch: true as const } : {}),
  });
  const security: Array<Record<string, string[]>> = sessionOnly
    ? [{ [sessionScheme]: [] }]
    : [{ [sessionScheme]: [] }, { [bearerScheme]: [] }];
  const takesBody = request?.body !== undefined;
  const takesInput = takesBody || request?.query !== undefined || request?.params !== undefined;
  return createRoute({
    ...config,
    operationId: operationIdOf(config.method, fullPath),
    description: [config.description, roleText[access], reauth ? reauthText : undefined].filter(Boolean).join("\n\n"),
    ...(access === "public" ? { security: [] } : { security, "x-required-role": access }),
    middleware: [requireAccess(access, sessionOnly, reauth)] as const,
    responses: { ...standardErrors(access, takesInput, takesBody), ...config.responses },
  });
}

/**
 * The operation's `operationId`, for generated clients' method names: the method and the path after
 * `/api`, each part in PascalCase and each parameter as `By<Name>` (GET /api/teams/{teamId}/skills
 * → `getTeamsByTeamIdSkills`, GET /api/customers/export.csv → `getCustomersExportCsv`). Unique
 * because method and path are, and stable because neither changes without the route changing.
 */
export function operationIdOf(method: string, path: string): string {
  const pascal = (s: string) =>
    s
      .split(/[^A-Za-z0-9]+/)
      .filter(Boolean)
      .map((w) => w[0].toUpperCase() + w.slice(1))
      .join("");
  const parts = path
    .replace(/^\/api(?=\/|$)/, "")
    .split("/")
    .filter(Boolean)
    .map((segment) => {
      const param = /^\{(.+)\}$/.exec(segment);
      return param ? `By${pascal(param[1])}` : pascal(segment);
    });
  return method.toLowerCase() + parts.join("");
}

/** OpenAPI response entry: JSON of `schema`. */
export const jsonResponse = <T extends ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});
/**
 * OpenAPI request body entry: required JSON of `schema`, with `example` (a valid body, shown in the
 * API's description) when what the route accepts is more than the schema says.
 */
export const jsonBody = <T extends ZodType>(schema: T, example?: z.input<T>) => ({
  required: true,
  content: { "application/json": example === undefined ? { schema } : { schema, example } },
});
/** 404 and 422 responses in the standard error body. */
export const notFoundResponse = (message: string) => ({ 404: jsonResponse(errorBodySchema, message) });
export const invalidResponse = { 422: jsonResponse(errorBodySchema, "Invalid input, with a message per field") };

/** The value of an If-Match header as a time: the quotes and weak mark of an ETag dropped. */
function ifMatchTime(value: string): Date | undefined {
  const time = Date.parse(value.trim().replace(/^W\//, "").replace(/^"|"$/g, ""));
  return Number.isNaN(time) ? undefined : new Date(time);
}

/**
 * The If-Match header of a PATCH (docs/editing.md): the record's `updated_at` as the client read it
 * (an ISO date and time, optionally quoted like an ETag). Without it, the save is not checked for
 * staleness; with one that is not a time, 422.
 */
export const versionHeaders = zod.object({
  "if-match": zod
    .string()
    .max(100, msg.edit.ifMatchInvalid)
    .refine((v) => ifMatchTime(v) !== undefined, msg.edit.ifMatchInvalid)
    .optional()
    .openapi({
      description: "The record's updated_at as it was read (ISO 8601); a record changed since answers 409 stale.",
      example: "2026-01-31T09:30:00.000Z",
    }),
});

/** The If-Match time of a request validated with `versionHeaders`, or undefined without one. */
export function ifMatchOf(headers: { "if-match"?: string }): Date | undefined {
  return headers["if-match"] === undefined ? undefined : ifMatchTime(headers["if-match"]);
}

/**
 * A 409 in the conflict body (`stale`, `domain_claimed`, `domain_mismatch`: docs/editing.md);
 * `current`, when given, types the stale answer's current record (an edit's answer schema).
 */
export const conflictResponse = (description: string, current?: ZodType) => ({
  409: jsonResponse(
    current
      ? zod.object({ error: conflictBodySchema.shape.error.extend({ current: current.optional() }) })
      : conflictBodySchema,
    description,
  ),
});

/** A feature router: validation failures answer 422 with field messages in the standard error body. */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (!result.success) {
        const fields = fieldMessages(result.error);
        // A malformed id in the path names no record: that is "not found", with the entity's message.
        if (result.target === "param")
          return errorResponse(c, 404, "not_found", Object.values(fields)[0] ?? "Not found");
        const first = Object.values(fields)[0] ?? "Invalid request";
        return errorResponse(c, 422, "validation_failed", first, fields);
      }
    },
  });
}
