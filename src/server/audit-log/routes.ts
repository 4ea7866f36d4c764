import { sql } from "drizzle-orm";
import { auditFilterSchema, auditPageSchema, type AuditEntry } from "../../domain/audit";
import { queryRows } from "../db/client";
import { and, pagingQuery, toJson } from "../http/list";
import { apiRoute, createRouter, invalidResponse, jsonResponse } from "../http/route";

export const auditBase = "/api/audit";

/**
 * GET /api/audit?operator_id&entity&entity_id&action&from&to&limit&offset → `{ items, total }`,
 * newest first (admin). Audit rows are read-only: there is no route to change or delete them, and
 * the database refuses UPDATE and DELETE on `audit_log`.
 */
const list = apiRoute(auditBase, "admin", {
  method: "get", path: "/", tags: ["Audit"], summary: "Audit log",
  request: {
    query: auditFilterSchema.extend(pagingQuery.shape),
  },
  responses: { 200: jsonResponse(auditPageSchema, "Audit rows, newest first"), ...invalidResponse },
});

const dayEnd = (to: string) => (/^\d{4}-\d{2}-\d{2}$/.test(to) ? sql`(${to}::date + interval '1 day')` : sql`${to}::timestamptz`);

export const auditRouter = createRouter().openapi(list, async (c) => {
  const f = c.req.valid("query");
  const where = and(
    f.operator_id ? sql`operator_id = ${f.operator_id}` : undefined,
    f.entity ? sql`entity = ${f.entity}` : undefined,
    f.entity_id ? sql`entity_id = ${f.entity_id}` : undefined,
    f.action ? sql`action = ${f.action}` : undefined,
    f.from ? sql`created_at >= ${f.from}::timestamptz` : undefined,
    f.to ? sql`created_at < ${dayEnd(f.to)}` : undefined,
  );
  const items = await queryRows<AuditEntry>(c.var.db, sql`
    select * from audit_log where ${where} order by created_at desc, audit_id limit ${f.limit} offset ${f.offset}`);
  const [count] = await queryRows<{ n: number }>(c.var.db, sql`select count(*)::int as n from audit_log where ${where}`);
  return c.json({ items: toJson(items), total: count.n }, 200);
});
