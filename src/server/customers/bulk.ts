/** Bulk actions on customers (docs/bulk-actions.md): Archive and Unarchive, as the detail page's buttons. */
import { sql } from "drizzle-orm";
import { msg } from "../../domain/messages";
import { statusActions } from "../bulk/kinds";
import { customerList } from "./queries";

export const customerBulkActions = statusActions(
  {
    entity: "customers",
    list: customerList,
    table: "customers",
    alias: "c",
    id: "customer_id",
    name: "customer_name",
    auditEntity: "customer",
  },
  [
    { action: "archive", summary: "Archive customers" },
    {
      action: "unarchive",
      summary: "Unarchive customers",
      // Unarchive brings back an archived customer; a trial stays a trial (one click could not change it either).
      skips: [{ reason: msg.bulk.notArchived, when: sql`c.status = 'trial'` }],
    },
  ],
);
