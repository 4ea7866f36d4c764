import { Sparkles } from "lucide-react";
import { skillScopes, skillSortKeys, skillStatuses, skillTypes } from "../../domain/enums";
import { navMsg } from "../../domain/messages/common";
import { defineFeature } from "../lib/routes";
import { listSearchSchema, oneOf } from "../lib/url-search";

/** URL parameters of /skills. */
export const skillsSearch = listSearchSchema(skillSortKeys, {
  type: oneOf(skillTypes),
  scope: oneOf(skillScopes),
  status: oneOf(skillStatuses),
  /** `none`: skills no prompt belongs to (the dashboard's "Needs attention"). */
  prompts: oneOf(["none"] as const),
});

/** The skill screens (SPEC.md §2); its sidebar entry and badge colours. */
export const feature = defineFeature({
  routes: ({ page, searchPage, formPages }) => [
    searchPage("/skills", skillsSearch, () => import("./SkillsPage")),
    ...formPages("/skills", "skillId", () => import("./SkillForm")),
    page("/skills/$skillId", () => import("./SkillDetailPage")),
  ],
  nav: { order: 50, key: "s", to: "/skills", label: navMsg.skills, icon: Sparkles },
  badges: {
    skill: { active: "success", inactive: "error", other: "neutral" },
    assignment: { active: "success", inactive: "error", other: "neutral" },
  },
});

// prettier-ignore
declare module "../lib/routes" { interface Features { skills: typeof feature } }
