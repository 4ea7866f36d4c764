/**
 * The texts of directory sync (SCIM 2.0, docs/onboarding.md): its API's refusals and the customer
 * page's section. Kept beside messages.ts rather than in it, so that they load with the screens
 * that show them and not in the initial JavaScript every screen pays for.
 */
export const directoryMsg = {
  tokenName: "Name",
  /** Who the audit log says made a directory's change (its operator email column). */
  auditName: (tokenName: string) => `Directory: ${tokenName}`,
  nameRequired: "Name is required",
  tokenNotFound: "Directory token not found",
  unauthorized: "A directory token is required: Authorization: Bearer scim_…",
  invalidToken: "This directory token is not valid or was revoked",
  rateLimited: (seconds: number) => `Too many requests from this directory: try again in ${seconds} seconds`,
  userNotFound: (id: string) => `User ${id} not found`,
  groupNotFound: (id: string) => `Group ${id} not found`,
  notJson: "The body must be a JSON object (application/scim+json)",
  userNameRequired: "userName is required",
  activeInvalid: "active must be true or false",
  emailInvalid: (email: string) => `${email} is not an e-mail address`,
  emailTaken: (email: string) => `A user with the e-mail ${email} already exists`,
  emailOfOtherCustomer: (email: string) => `${email} is a user of another customer`,
  groupNameTaken: (name: string) => `A team named ${name} already exists for this customer`,
  unsupportedFilter: (filter: string) =>
    `Filter not supported: ${filter}. Users take userName, externalId or emails.value with eq (joined by and); Groups take displayName or externalId with eq`,
  invalidFilter: (filter: string) => `Filter cannot be read: ${filter}`,
  invalidPatch: (detail: string) => `The PATCH cannot be applied: ${detail}`,
  memberNotFound: (id: string) => `Member ${id} is not a user of this customer`,
  immutable: (attribute: string) => `${attribute} cannot be changed`,
  notImplemented: "Not supported by this service provider",
  /** The customer page's Directory sync section. */
  title: "Directory sync",
  on: "On",
  off: "Off",
  offHint:
    "Create a directory token and give it, with the SCIM base URL, to the customer's identity provider (Okta, Entra ID…).",
  baseUrl: "SCIM base URL",
  lastRequest: "Last request",
  never: "Never",
  today: "Today",
  todayCounts: (created: number, updated: number, deactivated: number) =>
    `${created} created · ${updated} updated · ${deactivated} deactivated`,
  managed: "Managed",
  managedCounts: (users: number, teams: number) =>
    `${users} ${users === 1 ? "user" : "users"} · ${teams} ${teams === 1 ? "team" : "teams"}`,
  tokens: "Directory tokens",
  noTokens: "No directory token yet.",
  createToken: "Create Directory Token",
  creating: "Creating...",
  nameHint: "Which identity provider uses it, e.g. Okta",
  revoke: "Revoke",
  revokeConfirm: (name: string) =>
    `Revoke the directory token "${name}"? The identity provider using it is refused at once.`,
  revoked: "Directory token revoked",
  createdTitle: "Your new directory token",
  errors: "Last refusals",
  noErrors: "No refusal.",
  request: "Request",
  status: "Status",
  detail: "Detail",
  when: "When",
  loadError: "Error loading directory sync",
  source: "Source",
  managedMark: "Managed by directory",
  teamManagedHint:
    "The customer's directory (SCIM) provisioned this team as a group: its next sync overwrites the name and the members changed here.",
  managedHint:
    "The customer's directory (SCIM) provisioned this user: its next sync overwrites the e-mail, name, job title and status changed here.",
  consoleSource: "Added in the console",
  /** An edit of a field the directory owns asks first (the users' and teams' edit forms). */
  overwriteTitle: "Save over the directory?",
  overwriteConfirm: (kind: "user" | "team", fields: readonly string[]) =>
    `The directory manages this ${kind}: its next sync will overwrite ${fields.join(", ")}. Save anyway?`,
};
