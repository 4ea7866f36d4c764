/**
 * API tokens (the operator's own and every operator's), and the platforms' read API a token can be
 * limited to.
 */

export const apiTokensMsg = {
  title: "API tokens",
  subtitle: "Personal tokens for scripts: Authorization: Bearer <token> on any /api route",
  allTitle: "All API tokens",
  allSubtitle: "Tokens of every operator; revoking one ends it at once",
  allLink: "API tokens of every operator",
  loadError: "Error loading API tokens",
  empty: "No API tokens yet.",
  allEmpty: "No operator has an API token.",
  searchPlaceholder: "Search tokens...",
  auditVia: "with an API token",
  create: "Create Token",
  creating: "Creating...",
  name: "Name",
  nameRequired: "Name is required",
  nameHint: "What the token is for, e.g. nightly export script",
  role: "Role",
  roleHint: "The token never acts above your own role, now or later.",
  roleTooHigh: "A token's role cannot be higher than your own",
  expiresInDays: "Expires in (days)",
  expiryHint: "1 to 365 days; 90 by default.",
  expiryRange: "Expiry must be a whole number of days from 1 to 365",
  operator: "Operator",
  prefix: "Token",
  created: "Created",
  expires: "Expires",
  lastUsed: "Last used",
  neverUsed: "Never",
  expired: "Expired",
  revoke: "Revoke",
  revokeConfirm: (name: string) => `Revoke the token "${name}"? Scripts using it stop working at once.`,
  revoked: "Token revoked.",
  /** A revoked token's mark in lists, and its hover: when, and how long it stays listed. */
  revokedTag: "Revoked",
  revokedOn: (when: string) => `Revoked ${when}; listed for 30 days, then removed`,
  createdTitle: "Your new token",
  createdWarning: "Copy it now: it is shown only once and cannot be read again.",
  copy: "Copy",
  copied: "Copied",
  done: "Done",
  notFound: "API token not found",
  sessionOnly:
    "Operators, passwords, two-factor, sessions and API tokens are changed from a signed-in session, not with an API token",
  inQuery: "Send an API token in the Authorization header (Bearer), never in the query string",
  invalid: "The API token is malformed, unknown, revoked or expired",
  rateLimited: (seconds: number) =>
    `Too many requests with this API token: try again in ${seconds} second${seconds === 1 ? "" : "s"}`,
} as const;

export const deliveryMsg = {
  platformOnly: "This token reads one platform's prompts only",
  platformNotFound: "Platform not found",
  /** The API token form's platform picker and the token lists' column. */
  tokenPlatform: "Only for one platform's prompts",
  tokenPlatformHint:
    "Optional. A token for one platform reads that platform's live prompts (its read API) and nothing else.",
  tokenPlatformNone: "No: every route its role allows",
  platformPlaceholder: "Type a platform name...",
  platformLabel: "Platform",
  column: "Platform",
  allRoutes: "All routes",
} as const;
