import { ClipboardCheck } from "lucide-react";
import { promptChangeStatuses } from "../../domain/enums";
import { navMsg } from "../../domain/messages/common";
import { defineFeature } from "../lib/routes";
import { listSearchSchema, oneOf, text, uuid } from "../lib/url-search";
import { reviewSortKeys } from "./sort-keys";

/** URL parameters of /reviews: the list's own and its filters (status: pending unless given, `all` for every state). */
export const reviewsSearch = listSearchSchema(reviewSortKeys, {
  status: oneOf([...promptChangeStatuses, "all"] as const),
  platform: uuid,
  skill: uuid,
  author: text(100),
});

/**
 * Prompt review (docs/prompt-review.md): the Reviews queue and one proposed change; its sidebar
 * entry (shown with the pending count while review is on or changes wait: shell/nav.ts) and
 * badge colours.
 */
export const feature = defineFeature({
  routes: ({ page, searchPage }) => [
    searchPage("/reviews", reviewsSearch, () => import("./ReviewsPage")),
    page("/reviews/$changeId", () => import("./ReviewPage")),
  ],
  nav: { order: 75, key: "r", to: "/reviews", label: navMsg.reviews, icon: ClipboardCheck },
  badges: {
    review: {
      pending: "warning",
      approved: "success",
      rejected: "error",
      withdrawn: "neutral",
      superseded: "neutral",
      other: "secondary",
    },
  },
});

// prettier-ignore
declare module "../lib/routes" { interface Features { reviews: typeof feature } }
