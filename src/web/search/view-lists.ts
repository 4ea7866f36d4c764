import { msg } from "../../domain/messages";
import type { SavedViewList } from "../../domain/views";

/** Each list a view can be saved for, named as its screen is titled. */
export const viewListLabels: Record<SavedViewList, string> = {
  customers: msg.nav.customers,
  teams: msg.nav.teams,
  users: msg.nav.users,
  skills: msg.nav.skills,
  prompts: msg.nav.prompts,
  platforms: msg.nav.platforms,
  comments: msg.nav.comments,
  operators: msg.nav.operators,
  audit: msg.nav.audit,
  "prompt-changes": msg.nav.reviews,
  "api-tokens": msg.apiTokens.allTitle,
  deleted: msg.deleted.title,
};
