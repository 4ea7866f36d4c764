import { MessageSquareText } from "lucide-react";
import { promptStatuses } from "../../domain/enums";
import { promptSortKeys } from "../../domain/sort-keys";
import { msg } from "../../domain/messages";
import { defineFeature } from "../lib/routes";
import { listSearchSchema, oneOf } from "../lib/url-search";

/** URL parameters of /prompts. */
export const promptsSearch = listSearchSchema(promptSortKeys, { status: oneOf(promptStatuses) });

/** The prompt screens (SPEC.md §2); its sidebar entry, query root and badge colours. */
export const feature = defineFeature({
  routes: ({ page, searchPage }) => [
    searchPage("/prompts", promptsSearch, () => import("./PromptsPage")),
    page("/prompts/add", () => import("./PromptForm"), "AddPage"),
    page("/prompts/$promptId", () => import("./PromptDetailPage")),
    page("/prompts/$promptId/edit", () => import("./PromptForm"), "EditPage"),
  ],
  nav: { order: 70, to: "/prompts", label: msg.nav.prompts, icon: MessageSquareText },
  queryRoots: ["prompts"],
  badges: {
    prompt: { active: "success", inactive: "error", pending: "warning", rejected: "error", other: "secondary" },
  },
});

declare module "../lib/routes" {
  interface Features {
    prompts: typeof feature;
  }
}
