import { Trash2 } from "lucide-react";
import { shellMsg } from "../../domain/messages/common";
import { defineFeature } from "../lib/routes";
import { listViewFields, positiveInt, searchSchema, text } from "../lib/url-search";

/** Recently deleted: search, kind, sort and page in the URL. */
export const deletedSearch = searchSchema({
  q: text(200),
  entity: text(50),
  sort: text(20),
  order: text(4),
  page: positiveInt,
  cursor: text(2000),
  ...listViewFields,
});

/** /deleted (admins and editors): what can still be restored (docs/undo-and-restore.md); its sidebar entry. */
export const feature = defineFeature({
  routes: ({ searchPage }) => [searchPage("/deleted", deletedSearch, () => import("./DeletedPage"))],
  nav: { order: 110, key: "x", to: "/deleted", label: shellMsg.deleted.title, icon: Trash2, need: "editor" },
});

// prettier-ignore
declare module "../lib/routes" { interface Features { deleted: typeof feature } }
