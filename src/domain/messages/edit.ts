/**
 * Add and edit forms: unsaved and conflicting changes, and the forms' shared checks
 * (docs/editing.md).
 */

export const editMsg = {
  stale: "This record changed since you opened it",
  staleText: "Saving now would overwrite these changes:",
  staleChange: (who: string, fields: string, when: string) => `${who} changed ${fields} ${when}`,
  /** Fields the operator and a colleague both changed: Save anyway keeps the operator's values. */
  bothChanged: "You both changed:",
  theirsMine: (field: string, theirs: string, mine: string) => `${field}: theirs “${theirs}”, yours “${mine}”`,
  /** Per field both changed: take the colleague's value (Save anyway keeps yours for the rest). */
  keepTheirs: "Keep theirs",
  keepTheirsFor: (field: string) => `Keep theirs for ${field}`,
  emptyValue: "empty",
  yes: "Yes",
  no: "No",
  someone: "Someone",
  /** When a concurrent change is under a minute old ("0 seconds ago" reads as a glitch). */
  justNow: "just now",
  noFields: "the record",
  reload: "Reload",
  reloadHint: "Take the current values, losing mine",
  saveAnyway: "Save anyway",
  ifMatchInvalid: "If-Match must be the updated_at the record was read at (an ISO date and time)",
  nothingToUpdate: "Nothing to update",
  edit: "Edit",
  saved: "Changes saved",
  save: "Save Changes",
  saving: "Saving...",
  domainInvalid: (entry: string) => `"${entry}" is not a valid domain name`,
  domainsTooMany: (max: number) => `At most ${max} domains`,
  domainClaimed: "Another customer already lists this domain",
  domainsClaimed: (n: number) =>
    n === 1 ? "Another customer already lists this domain" : "Other customers already list these domains",
  domainClaimedBy: (domain: string) => `${domain} is listed by`,
  domainMismatch: (domain: string) => `The e-mail domain ${domain} is not one of the customer's domains`,
  customerDomains: (domains: string) => `The customer's domains: ${domains}`,
  confirmHint: "Check the details, then save anyway if this is intended.",
} as const;
