import { Sparkles } from "lucide-react";
import { skillStatuses, skillTypes } from "../../domain/enums";
import { skillScopes, skillSortKeys } from "../../domain/sort-keys";
import { msg } from "../../domain/messages";
import { defineFeature } from "../lib/routes";
import { listSearchSchema, oneOf } from "../lib/url-search";

/** URL parameters of /skills. */
export const skillsSearch = listSearchSchema(skillSortKeys, {
  type: oneOf(skillTypes),
  scope: oneOf(skillScopes),
  status: oneOf(skillStatuses),
});

/** The skill screens (SPEC.md §2); its sidebar entry, query root and badge colours. */
export const feature = defineFeature({
  routes: ({ page, searchPage }) => [
    searchPage("/skills", skillsSearch, () => import("./SkillsPage")),
    page("/skills/add", () => import("./SkillForm"), "AddPage"),
    page("/skills/$skillId", () => import("./SkillDetailPage")),
    page("/skills/$skillId/edit", () => import("./SkillForm"), "EditPage"),
  ],
  nav: { order: 50, to: "/skills", label: msg.nav.skills, icon: Sparkles },
  queryRoots: ["skills"],
  badges: {
    skill: { active: "success", inactive: "error", other: "neutral" },
    assignment: { active: "success", inactive: "error", other: "neutral" },
  },
});

declare module "../lib/routes" {
  interface Features {
    skills: typeof feature;
  }
}
