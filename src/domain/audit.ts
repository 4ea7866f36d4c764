import { z } from "zod";
import { id, listPage, noSummary, timestamp } from "./common";

/** One audit row: who did what to which record, with the changed fields before and after. */
export const auditEntrySchema = z.object({
  audit_id: id,
  operator_id: z.string().nullable(),
  operator_email: z.string().nullable(),
  action: z.string(),
  entity: z.string(),
  entity_id: z.string().nullable(),
  changes: z.object({ before: z.record(z.string(), z.unknown()).optional(), after: z.record(z.string(), z.unknown()).optional() }).nullable(),
  request_id: z.string().nullable(),
  ip_address: z.string().nullable(),
  created_at: timestamp,
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditPageSchema = listPage(auditEntrySchema, noSummary);

/** Filters of the Audit log screen, as URL and API query parameters. */
export const auditFilterSchema = z.object({
  operator_id: z.string().max(100).optional(),
  entity: z.string().max(50).optional(),
  entity_id: z.string().max(100).optional(),
  action: z.string().max(50).optional(),
  /** Inclusive start, ISO date or date-time. */
  from: z.iso.date().or(z.iso.datetime({ offset: true })).optional(),
  /** Inclusive end date (the whole day), or an exact date-time. */
  to: z.iso.date().or(z.iso.datetime({ offset: true })).optional(),
});
export const auditActions = [
  "create", "update", "delete", "assign_skill", "reassign_skill", "unassign_skill", "remove_member", "add_member",
  "sign_in", "sign_in_failed", "sign_in_blocked", "sign_in_refused", "sign_out", "revoke_sessions", "reset_password", "unlock", "export",
] as const;
export const auditEntities = ["customer", "team", "user", "skill", "prompt", "platform", "comment", "operator"] as const;
