import { MessageCircle } from "lucide-react";
import { commentSortKeys, commentStatuses } from "../../domain/enums";
import { navMsg } from "../../domain/messages/common";
import { defineFeature } from "../lib/routes";
import { listSearchSchema, oneOf, searchSchema, uuid } from "../lib/url-search";

/** URL parameters of /comments. */
export const commentsSearch = listSearchSchema(commentSortKeys, {
  status: oneOf(commentStatuses),
  customer: uuid,
});
/** The review queue: optionally one customer's pending comments. */
export const reviewSearch = searchSchema({ customer: uuid });

/** The comment screens (SPEC.md §2) and the review queue; its sidebar entry and badge colours. */
export const feature = defineFeature({
  routes: ({ searchPage }) => [
    searchPage("/comments", commentsSearch, () => import("./CommentsPage")),
    searchPage("/comments/review", reviewSearch, () => import("./ReviewQueuePage")),
  ],
  nav: { order: 80, key: "m", to: "/comments", label: navMsg.comments, icon: MessageCircle },
  badges: {
    comment: { active: "success", inactive: "error", pending: "warning", rejected: "error", other: "secondary" },
  },
});

// prettier-ignore
declare module "../lib/routes" { interface Features { comments: typeof feature } }
