import { MessageSquareText } from "lucide-react";
import { promptSortKeys, promptStatuses } from "../../domain/enums";
import { navMsg } from "../../domain/messages/common";
import { defineFeature } from "../lib/routes";
import { listSearchSchema, oneOf } from "../lib/url-search";

/** URL parameters of /prompts. */
export const promptsSearch = listSearchSchema(promptSortKeys, {
  status: oneOf(promptStatuses),
  /** `none`: prompts with no platform (the dashboard's "Needs attention"). */
  platforms: oneOf(["none"] as const),
});

/** The prompt screens (SPEC.md §2); its sidebar entry and badge colours. */
export const feature = defineFeature({
  routes: ({ page, searchPage, formPages }) => [
    searchPage("/prompts", promptsSearch, () => import("./PromptsPage")),
    ...formPages("/prompts", "promptId", () => import("./PromptForm")),
    page("/prompts/$promptId", () => import("./PromptDetailPage")),
  ],
  nav: { order: 70, key: "p", to: "/prompts", label: navMsg.prompts, icon: MessageSquareText },
  badges: {
    prompt: { active: "success", inactive: "error", pending: "warning", rejected: "error", other: "secondary" },
  },
});

// prettier-ignore
declare module "../lib/routes" { interface Features { prompts: typeof feature } }
