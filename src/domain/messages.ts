/**
 * Every user-visible text the spec (SPEC.md) quotes, as one `msg`: the server and the tests import
 * these; change a text and both follow. Functions build the texts that take a value.
 *
 * The texts themselves live in src/domain/messages/: one module per feature, `kit` for the parts
 * every screen shares, and `common` for what the web app shows before any screen (the shell, the
 * sign-in, errors; its `shellMsg` holds the few texts of other groups the shell shows, put back into
 * their groups here). This file only puts them together. The web app imports the modules, never
 * this file (ESLint says so), so that a screen's texts load with the screen and not in the initial
 * JavaScript. A new text goes into its feature's module (or a new one, added here).
 */
import { appMsg, navMsg, loginMsg, ssoMsg, shortcutsMsg, shellMsg } from "./messages/common";
import { uiMsg, listsMsg, fallbacksMsg } from "./messages/kit";
import { apiMsg, textMsg, authMsg } from "./messages/api";
import { sessionsMsg, twoFactorMsg, reauthMsg } from "./messages/account";
import { operatorsMsg } from "./messages/operators";
import { apiTokensMsg, deliveryMsg } from "./messages/tokens";
import { auditMsg } from "./messages/audit";
import { dashboardMsg, attentionMsg, trendsMsg, activityMsg } from "./messages/dashboard";
import { viewsMsg, columnsMsg } from "./messages/views";
import { analyticsMsg } from "./messages/analytics";
import { searchMsg } from "./messages/search";
import { configMsg } from "./messages/config";
import { deletedMsg } from "./messages/deleted";
import { editMsg } from "./messages/edit";
import { customersMsg } from "./messages/customers";
import { teamsMsg } from "./messages/teams";
import { usersMsg } from "./messages/users";
import { skillsMsg } from "./messages/skills";
import { platformsMsg } from "./messages/platforms";
import { promptsMsg } from "./messages/prompts";
import { reviewsMsg } from "./messages/reviews";
import { bulkMsg } from "./messages/bulk";
import { commentsMsg } from "./messages/comments";

export { timings } from "./messages/common";
export { limits } from "./messages/kit";

export const msg = {
  app: appMsg,
  ui: { ...shellMsg.ui, ...uiMsg },
  api: apiMsg,
  lists: { ...shellMsg.lists, ...listsMsg },
  text: textMsg,
  auth: authMsg,
  sso: ssoMsg,
  operators: operatorsMsg,
  apiTokens: { ...shellMsg.apiTokens, ...apiTokensMsg },
  audit: auditMsg,
  sessions: { ...shellMsg.sessions, ...sessionsMsg },
  nav: navMsg,
  login: loginMsg,
  twoFactor: { ...shellMsg.twoFactor, ...twoFactorMsg },
  dashboard: dashboardMsg,
  attention: attentionMsg,
  trends: trendsMsg,
  activity: activityMsg,
  views: viewsMsg,
  columns: columnsMsg,
  shortcuts: shortcutsMsg,
  analytics: analyticsMsg,
  search: { ...shellMsg.search, ...searchMsg },
  config: configMsg,
  deleted: { ...shellMsg.deleted, ...deletedMsg },
  fallbacks: fallbacksMsg,
  edit: editMsg,
  customers: customersMsg,
  teams: teamsMsg,
  users: usersMsg,
  skills: skillsMsg,
  platforms: platformsMsg,
  prompts: promptsMsg,
  reauth: reauthMsg,
  reviews: { ...shellMsg.reviews, ...reviewsMsg },
  delivery: deliveryMsg,
  bulk: bulkMsg,
  comments: commentsMsg,
} as const;
