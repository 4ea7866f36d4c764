/** Bulk actions on customers (docs/bulk-actions.md): Archive and Unarchive, as the detail page's buttons. */
import { sql } from "drizzle-orm";
import { msg } from "../../domain/messages";
import { statusAction } from "../bulk/kinds";
import { customerList } from "./queries";

const customer = {
  entity: "customers",
  list: customerList,
  table: "customers",
  alias: "c",
  id: "customer_id",
  name: "customer_name",
  auditEntity: "customer",
} as const;

export const customerBulkActions = [
  statusAction({
    ...customer,
    action: "archive",
    summary: "Archive customers",
    to: () => "inactive",
    alreadyReason: () => msg.bulk.alreadyArchived,
  }),
  statusAction({
    ...customer,
    action: "unarchive",
    summary: "Unarchive customers",
    to: () => "active",
    alreadyReason: () => msg.bulk.alreadyActive,
    // Unarchive brings back an archived customer; a trial stays a trial (one click could not change it either).
    skips: () => [{ reason: msg.bulk.notArchived, when: sql`c.status = 'trial'` }],
  }),
];
