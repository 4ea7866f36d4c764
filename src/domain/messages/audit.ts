/**
 * The audit log screen.
 */

export const auditMsg = {
  /** The Record filter's two groups: kinds of record, and the lists whose exports are recorded. */
  recordKinds: "Records",
  exportedLists: "Exported lists",
  title: "Audit log",
  subtitle: "Who changed what, and every sign-in",
  loadError: "Error loading audit log",
  empty: "No audit entries match the filters.",
  history: "History",
} as const;
