import { createRoute, OpenAPIHono, type RouteConfig, type z } from "@hono/zod-openapi";
import { msg } from "../../domain/messages";
type ZodType = z.ZodType;
import type { MiddlewareHandler } from "hono";
import type pino from "pino";
import type { Auth, SessionData } from "../auth";
import type { Database } from "../db/client";
import { errorResponse, fieldMessages } from "./errors";
import { errorBodySchema } from "./errors";
import type { OperatorRole } from "../../domain/enums";
import type { ListSettings, SummaryCache } from "./list-engine";

/** Per-request variables every handler can read with `c.var`. */
export type AppEnv = {
  Variables: {
    db: Database;
    auth: Auth;
    logger: pino.Logger;
    requestId: string;
    session: SessionData | null;
    /** The client's address (X-Forwarded-For only behind a trusted proxy). */
    clientIp: string;
    /** The list engine's settings and this app's memory of big lists' summaries. */
    lists: { settings: ListSettings; cache: SummaryCache };
  };
};

/** Who may call a route: "public" needs no session; a role needs a session of at least that role. */
export type RouteAccess = "public" | OperatorRole;

/** Every declared API route with the access it needs; the authorization tests walk this table. */
export const routeTable: Array<{ method: string; path: string; access: RouteAccess }> = [];

const rank: Record<OperatorRole, number> = { viewer: 1, editor: 2, admin: 3 };

/** Answers 401 without a session and 403 when the operator's role is below `access`. */
export function requireAccess(access: RouteAccess): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (access === "public") return next();
    const session = c.var.session;
    if (!session) return errorResponse(c, 401, "unauthorized", msg.api.unauthorized);
    const role = (session.user as { role?: string }).role as OperatorRole | undefined;
    if (!role || !(role in rank) || rank[role] < rank[access]) {
      return errorResponse(c, 403, "forbidden", msg.api.forbidden);
    }
    return next();
  };
}

const errorResponses = {
  400: { description: "Malformed JSON body", content: { "application/json": { schema: errorBodySchema } } },
  401: { description: "No operator session", content: { "application/json": { schema: errorBodySchema } } },
  403: { description: "The operator's role does not allow it", content: { "application/json": { schema: errorBodySchema } } },
} as const;

/**
 * Declares an API route: its OpenAPI description, the access it needs (enforced by middleware and
 * recorded in `routeTable`), and the standard error responses. `path` is relative to the module's
 * mount point given as `base` (e.g. "/api/dashboard").
 */
export function apiRoute<R extends Omit<RouteConfig, "middleware">>(base: string, access: RouteAccess, config: R) {
  routeTable.push({ method: config.method.toUpperCase(), path: base + (config.path === "/" ? "" : config.path), access });
  return createRoute({
    ...config,
    middleware: [requireAccess(access)] as const,
    responses: { ...errorResponses, ...config.responses },
  });
}

/** OpenAPI response entry: JSON of `schema`. */
export const jsonResponse = <T extends ZodType>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });
/** OpenAPI request body entry: required JSON of `schema`. */
export const jsonBody = <T extends ZodType>(schema: T) => ({ required: true, content: { "application/json": { schema } } });
/** 404 and 422 responses in the standard error body. */
export const notFoundResponse = (message: string) => ({ 404: jsonResponse(errorBodySchema, message) });
export const invalidResponse = { 422: jsonResponse(errorBodySchema, "Invalid input, with a message per field") };

/** A feature router: validation failures answer 422 with field messages in the standard error body. */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (!result.success) {
        const fields = fieldMessages(result.error);
        // A malformed id in the path names no record: that is "not found", with the entity's message.
        if (result.target === "param") return errorResponse(c, 404, "not_found", Object.values(fields)[0] ?? "Not found");
        const first = Object.values(fields)[0] ?? "Invalid request";
        return errorResponse(c, 422, "validation_failed", first, fields);
      }
    },
  });
}
