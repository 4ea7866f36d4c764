import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { noSummary } from "../../domain/common";
import { auditActions, auditEntities, auditEntrySchema } from "../../domain/audit";
import { dayRange, defineList } from "../http/lists";
import { mountList } from "../http/list-routes";
import { createRouter } from "../http/route";

export const auditBase = "/api/audit";

/**
 * The audit log, newest first by default: filters operator_id, entity, entity_id, action, `from`
 * (inclusive start, date or date-time) and `to` (inclusive end date, or an exact date-time). Each
 * filter has an index ending with (created_at, audit_id), so every page is a keyset seek.
 */
export const auditList = defineList({
  name: "audit_log",
  item: auditEntrySchema,
  summarySchema: noSummary,
  from: sql`audit_log a`,
  select: sql`a.audit_id, a.operator_id, a.operator_email, a.action, a.entity, a.entity_id, a.changes, a.request_id, a.ip_address, a.api_token_id, a.created_at`,
  id: { expr: sql`a.audit_id`, type: "uuid" },
  sorts: { created_at: [{ expr: sql`a.created_at`, type: "timestamptz" }] },
  defaultSort: "created_at",
  defaultOrder: "desc",
  filters: {
    operator_id: { schema: z.string().max(100).optional(), where: (v: string) => sql`a.operator_id = ${v}` },
    entity: { schema: z.enum(auditEntities).optional(), where: (v: string) => sql`a.entity = ${v}` },
    entity_id: { schema: z.string().max(100).optional(), where: (v: string) => sql`a.entity_id = ${v}` },
    action: { schema: z.enum(auditActions).optional(), where: (v: string) => sql`a.action = ${v}` },
    ...dayRange({ from: "from", to: "to" }, sql`a.created_at`, { label: "created_at", instants: true }),
  },
  csv: [
    { header: "Time", value: (a) => a.created_at },
    { header: "Operator", value: (a) => a.operator_email },
    { header: "Action", value: (a) => a.action },
    { header: "Record", value: (a) => a.entity },
    { header: "Record ID", value: (a) => a.entity_id },
    { header: "Changes", value: (a) => a.changes },
    { header: "Address", value: (a) => a.ip_address },
    { header: "API Token", value: (a) => a.api_token_id },
    { header: "Request", value: (a) => a.request_id },
  ],
});

/**
 * GET /api/audit (admin) and its CSV export. Audit rows are read-only: there is no route to change
 * or delete them, and the database refuses UPDATE and DELETE on `audit_log`.
 */
export const auditRouter = createRouter();
mountList(auditRouter, {
  base: auditBase,
  path: "/",
  access: "admin",
  tags: ["Audit"],
  summary: "Audit log",
  description: "Audit rows, newest first; filters operator_id, entity, entity_id, action, from, to.",
  list: auditList,
});
