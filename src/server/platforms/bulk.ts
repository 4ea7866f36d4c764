/** Bulk actions on platforms (docs/bulk-actions.md): Activate and Deactivate (Archive), as the detail page's buttons. */
import { msg } from "../../domain/messages";
import { statusAction } from "../bulk/kinds";
import { platformList } from "./queries";

const platform = {
  entity: "platforms",
  list: platformList,
  table: "platforms",
  alias: "pl",
  id: "platform_id",
  name: "platform_name",
  auditEntity: "platform",
} as const;

export const platformBulkActions = [
  statusAction({
    ...platform,
    action: "activate",
    summary: "Activate platforms",
    to: () => "active",
    alreadyReason: () => msg.bulk.alreadyActive,
  }),
  statusAction({
    ...platform,
    action: "deactivate",
    summary: "Deactivate platforms",
    to: () => "inactive",
    alreadyReason: () => msg.bulk.alreadyArchived,
  }),
];
