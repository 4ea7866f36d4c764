import { User } from "lucide-react";
import { userSortKeys, userStatuses } from "../../domain/enums";
import { navMsg } from "../../domain/messages/common";
import { defineFeature } from "../lib/routes";
import { isoDate, listSearchSchema, oneOf, searchSchema, uuid } from "../lib/url-search";

/** URL parameters of /users: the list's, one customer's users, a status, users who have signed in, and days. */
export const usersSearch = listSearchSchema(userSortKeys, {
  customer: uuid,
  status: oneOf(userStatuses),
  /**
   * `true`: users who have signed in at least once (the dashboard's Active Users card); `false`:
   * those who never did (its "Needs attention").
   */
  signed_in: (v) => (v === true || v === false ? v : undefined),
  /** Whole days of last sign-in or of creation, `YYYY-MM-DD` inclusive: a dashboard trend's point. */
  last_login_from: isoDate,
  last_login_to: isoDate,
  created_from: isoDate,
  created_to: isoDate,
});

/** URL parameters of /users/import: the customer the file is imported into (the customer page's link). */
export const importSearch = searchSchema({ customer: uuid });

/** The user screens (SPEC.md §2); its sidebar entry and badge colours. */
export const feature = defineFeature({
  routes: ({ page, searchPage, formPages }) => [
    searchPage("/users", usersSearch, () => import("./UsersPage")),
    // Before `/users/$userId`, and a static segment, so "import" is never read as a user id.
    searchPage("/users/import", importSearch, () => import("../imports/public"), "ImportPage"),
    ...formPages("/users", "userId", () => import("./UserForm")),
    page("/users/$userId", () => import("./UserDetailPage")),
  ],
  nav: { order: 40, key: "u", to: "/users", label: navMsg.users, icon: User },
  badges: { user: { active: "success", inactive: "error", pending: "warning", other: "neutral" } },
});

// prettier-ignore
declare module "../lib/routes" { interface Features { users: typeof feature } }
