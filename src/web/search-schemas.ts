import { commentStatuses, platformStatuses, promptStatuses, skillStatuses, skillTypes } from "../domain/enums";
import {
  commentSortKeys,
  customerSortKeys,
  platformSortKeys,
  promptSortKeys,
  skillScopes,
  skillSortKeys,
  teamSortKeys,
  userSortKeys,
} from "../domain/sort-keys";
import { isoDate, isTrue, listSearchSchema, oneOf, positiveInt, searchSchema, text, uuid } from "./lib/url-search";

/**
 * URL search parameters of each list screen (validated by the router; bad values are dropped).
 * Hand-written validators (lib/url-search.ts), not zod: the route table is in the initial JavaScript.
 */
export const customersSearch = listSearchSchema(customerSortKeys, {});
export const teamsSearch = listSearchSchema(teamSortKeys, { customer: uuid });
export const usersSearch = listSearchSchema(userSortKeys, {
  customer: uuid,
  /** `true`: users who have signed in at least once (the dashboard's Active Users card). */
  signed_in: isTrue,
});

export const skillsSearch = listSearchSchema(skillSortKeys, {
  type: oneOf(skillTypes),
  scope: oneOf(skillScopes),
  status: oneOf(skillStatuses),
});

export const commentsSearch = listSearchSchema(commentSortKeys, {
  status: oneOf(commentStatuses),
  customer: uuid,
});
/** The review queue: optionally one customer's pending comments. */
export const reviewSearch = searchSchema({ customer: uuid });

export const promptsSearch = listSearchSchema(promptSortKeys, { status: oneOf(promptStatuses) });
export const platformsSearch = listSearchSchema(platformSortKeys, { status: oneOf(platformStatuses) });

/** Audit log filters (admins). */
export const auditSearch = searchSchema({
  operator: text(100),
  entity: text(50),
  entity_id: text(100),
  action: text(50),
  from: isoDate,
  to: isoDate,
  page: positiveInt,
  cursor: text(2000),
});

/** /config: the customer whose configuration is shown. */
export const configSearch = searchSchema({ customer: uuid });
