/**
 * Signed-in sessions (docs/identity.md "Sessions"): an operator lists and ends their own; an admin
 * lists and ends any operator's. A session is named by its id, never by its token (the token is
 * the cookie's secret). Ending one deletes its row, so its cookie is refused from the next request.
 */
import { z } from "@hono/zod-openapi";
import Bowser from "bowser";
import { and, count, desc, eq, gt } from "drizzle-orm";
import { msg } from "../../domain/messages";
import { operatorSessionsSchema, sessionListLimit, type OperatorSessionRow } from "../../domain/sessions";
import { revokedSchema } from "../../domain/operators";
import { mutate } from "../audit";
import type { Database } from "../db/client";
import { operator, operator_session } from "../db/schema";
import { notFound } from "../http/errors";
import { apiRoute, createRouter, jsonResponse, notFoundResponse } from "../http/route";

// The Account and Operators routes' mount points (server features do not import each other).
const accountBase = "/api/account";
const operatorsBase = "/api/operators";

/** "Chrome 131 on macOS" from a user agent; "Unknown browser" when it names none. */
export function describeBrowser(userAgent: string | null): string {
  if (!userAgent) return msg.sessions.unknownBrowser;
  const parsed = Bowser.parse(userAgent);
  const major = parsed.browser.version?.split(".")[0];
  const browser = parsed.browser.name ? [parsed.browser.name, major].filter(Boolean).join(" ") : undefined;
  const system = parsed.os.name;
  if (!browser)
    return system ? msg.sessions.browserOn(msg.sessions.unknownBrowser, system) : msg.sessions.unknownBrowser;
  return system ? msg.sessions.browserOn(browser, system) : browser;
}

/**
 * The live (unexpired) sessions of `operatorId`, most recently used first, at most
 * `sessionListLimit`, with their total. `currentId` marks the asking request's own session.
 */
export async function listSessions(db: Database, operatorId: string, currentId: string | undefined, now: Date) {
  const live = and(eq(operator_session.userId, operatorId), gt(operator_session.expiresAt, now));
  const rows = await db
    .select({
      id: operator_session.id,
      userAgent: operator_session.userAgent,
      ipAddress: operator_session.ipAddress,
      createdAt: operator_session.createdAt,
      updatedAt: operator_session.updatedAt,
      expiresAt: operator_session.expiresAt,
    })
    .from(operator_session)
    .where(live)
    .orderBy(desc(operator_session.updatedAt), desc(operator_session.id))
    .limit(sessionListLimit);
  const [{ total }] = await db.select({ total: count() }).from(operator_session).where(live);
  const items: OperatorSessionRow[] = rows.map((r) => ({
    id: r.id,
    browser: describeBrowser(r.userAgent),
    user_agent: r.userAgent || null,
    ip_address: r.ipAddress || null,
    created_at: r.createdAt.toISOString(),
    last_seen_at: r.updatedAt.toISOString(),
    expires_at: r.expiresAt.toISOString(),
    current: r.id === currentId,
  }));
  return { items, total: Number(total) };
}

const sessionParams = z.object({ sessionId: z.string().min(1).max(100) });
const operatorParams = z.object({ operatorId: z.string().min(1).max(100) });
const operatorSessionParams = operatorParams.extend(sessionParams.shape);
const notFound404 = notFoundResponse(msg.sessions.notFound);
const listed = jsonResponse(operatorSessionsSchema, "The operator's live sessions, most recently used first");
const ended = jsonResponse(revokedSchema, "The session ended (`revoked` is 1)");

/** GET /api/account/sessions → `{ items, total }`: the signed-in operator's own sessions. */
const listOwn = apiRoute(accountBase, "viewer", {
  method: "get",
  path: "/sessions",
  tags: ["Account"],
  summary: "List my sessions",
  responses: { 200: listed },
});

/** DELETE /api/account/sessions/{sessionId} → `{ revoked: 1 }`; 404 when it is not one of the operator's live sessions. */
const endOwn = apiRoute(accountBase, "viewer", {
  method: "delete",
  path: "/sessions/{sessionId}",
  tags: ["Account"],
  summary: "End one of my sessions",
  request: { params: sessionParams },
  responses: { 200: ended, ...notFound404 },
});

/** GET /api/operators/{operatorId}/sessions (admin) → `{ items, total }`; 404 for an unknown operator. */
const listAny = apiRoute(operatorsBase, "admin", {
  method: "get",
  path: "/{operatorId}/sessions",
  tags: ["Operators"],
  summary: "List an operator's sessions",
  request: { params: operatorParams },
  responses: { 200: listed, ...notFoundResponse(msg.operators.notFound) },
});

/** DELETE /api/operators/{operatorId}/sessions/{sessionId} (admin) → `{ revoked: 1 }`; 404 when no such live session. */
const endAny = apiRoute(operatorsBase, "admin", {
  method: "delete",
  path: "/{operatorId}/sessions/{sessionId}",
  tags: ["Operators"],
  summary: "End one session of an operator",
  request: { params: operatorSessionParams },
  responses: { 200: ended, ...notFound404 },
});

/** Ends session `sessionId` of `operatorId` with an `end_session` audit row; 404 when there is none. */
async function endSession(c: Parameters<typeof mutate>[0], operatorId: string, sessionId: string) {
  await mutate(c, async (tx) => {
    const deleted = await tx
      .delete(operator_session)
      .where(and(eq(operator_session.id, sessionId), eq(operator_session.userId, operatorId)))
      .returning({ id: operator_session.id });
    if (deleted.length === 0) throw notFound(msg.sessions.notFound);
    return {
      result: null,
      audit: [{ action: "end_session", entity: "operator", entity_id: operatorId, after: { session_id: sessionId } }],
    };
  });
}

/** The account's session routes, mounted at /api/account. */
export const accountSessionsRouter = createRouter()
  .openapi(listOwn, async (c) => {
    const session = c.get("session")!;
    return c.json(await listSessions(c.get("db"), session.user.id, session.session.id, new Date()), 200);
  })
  .openapi(endOwn, async (c) => {
    await endSession(c, c.get("session")!.user.id, c.req.valid("param").sessionId);
    return c.json({ revoked: 1 }, 200);
  });

/** The operators' session routes (admin), mounted at /api/operators. */
export const operatorSessionsRouter = createRouter()
  .openapi(listAny, async (c) => {
    const { operatorId } = c.req.valid("param");
    const [found] = await c.get("db").select({ id: operator.id }).from(operator).where(eq(operator.id, operatorId));
    if (!found) throw notFound(msg.operators.notFound);
    return c.json(await listSessions(c.get("db"), operatorId, c.get("session")!.session.id, new Date()), 200);
  })
  .openapi(endAny, async (c) => {
    const { operatorId, sessionId } = c.req.valid("param");
    await endSession(c, operatorId, sessionId);
    return c.json({ revoked: 1 }, 200);
  });
