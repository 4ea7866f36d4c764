import { History } from "lucide-react";
import { navMsg } from "../../domain/messages/common";
import { defineFeature } from "../lib/routes";
import { isoDate, listViewFields, positiveInt, searchSchema, text } from "../lib/url-search";

/** Audit log filters (admins). */
export const auditSearch = searchSchema({
  operator: text(100),
  entity: text(50),
  entity_id: text(100),
  action: text(50),
  from: isoDate,
  to: isoDate,
  page: positiveInt,
  cursor: text(2000),
  ...listViewFields,
});

/** /audit (admins); its sidebar entry. */
export const feature = defineFeature({
  routes: ({ searchPage }) => [searchPage("/audit", auditSearch, () => import("./AuditPage"))],
  nav: { order: 20, key: "h", section: "admin", to: "/audit", label: navMsg.audit, icon: History },
});

// prettier-ignore
declare module "../lib/routes" { interface Features { audit: typeof feature } }
