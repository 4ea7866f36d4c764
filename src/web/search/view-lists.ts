import { navMsg, shellMsg } from "../../domain/messages/common";
import { apiTokensMsg } from "../../domain/messages/tokens";
import type { SavedViewList } from "../../domain/views";

/** Each list a view can be saved for, named as its screen is titled. */
export const viewListLabels: Record<SavedViewList, string> = {
  customers: navMsg.customers,
  teams: navMsg.teams,
  users: navMsg.users,
  skills: navMsg.skills,
  prompts: navMsg.prompts,
  platforms: navMsg.platforms,
  comments: navMsg.comments,
  operators: navMsg.operators,
  audit: navMsg.audit,
  "prompt-changes": navMsg.reviews,
  "api-tokens": apiTokensMsg.allTitle,
  deleted: shellMsg.deleted.title,
};
