import { UsersRound } from "lucide-react";
import { teamSortKeys, teamStatuses } from "../../domain/enums";
import { navMsg } from "../../domain/messages/common";
import { defineFeature } from "../lib/routes";
import { listSearchSchema, oneOf, uuid } from "../lib/url-search";

/** URL parameters of /teams: the list's, and one customer's teams. */
export const teamsSearch = listSearchSchema(teamSortKeys, {
  customer: uuid,
  status: oneOf(teamStatuses),
  /** `none`: teams with no active skill (the dashboard's "Needs attention"). */
  skills: oneOf(["none"] as const),
});

/** The team screens (SPEC.md §2); its sidebar entry and badge colours. */
export const feature = defineFeature({
  routes: ({ page, searchPage }) => [
    searchPage("/teams", teamsSearch, () => import("./TeamsPage")),
    page("/teams/$teamId", () => import("./TeamDetailPage")),
    page("/teams/$teamId/edit", () => import("./TeamForm"), "EditPage"),
  ],
  nav: { order: 30, key: "t", to: "/teams", label: navMsg.teams, icon: UsersRound },
  badges: { team: { active: "success", inactive: "error", pending: "warning", other: "neutral" } },
});

// prettier-ignore
declare module "../lib/routes" { interface Features { teams: typeof feature } }
