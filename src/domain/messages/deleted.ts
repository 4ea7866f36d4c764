/**
 * Recently deleted and restoring (docs/undo-and-restore.md).
 */

export const deletedMsg = {
  subtitle: "Deleted records and removed links, kept for 30 days: restore one as it was.",
  loadError: "Error loading deleted records",
  empty: "Nothing was deleted recently",
  emptyFiltered: "No deleted records match the search or filter.",
  allKinds: "All kinds",
  kindLabel: "Kind",
  restore: "Restore",
  restoring: "Restoring...",
  undo: "Undo",
  undoHint: "Deleted by mistake? Undo brings it back as it was.",
  /** A delete confirm's last words where the spec quotes none: what comes back, and how. */
  restorable: "Undo right after, or Restore from Recently deleted, brings it back with them.",
  restoreTitle: "Restore",
  restoreConfirm: (label: string) => `Restore "${label}" as it was when deleted?`,
  restored: (label: string) => `"${label}" restored`,
  /** The restore notice's link to the record's page. */
  open: "Open",
  /** A restore prompt review turned into a proposal (docs/prompt-review.md): nothing came back yet. */
  sentForReview: (label: string) => `"${label}" was sent for review: it comes back when another operator approves it`,
  restoredWith: (n: number) => `${n} related ${n === 1 ? "record" : "records"} restored with it.`,
  partial: (n: number) => `${n} ${n === 1 ? "part" : "parts"} could not come back:`,
  notFound: "Deleted record not found",
  alreadyRestored: "This deletion was already restored",
  exists: "It exists again: there is nothing to restore",
  wasDeleted: (kind: string) => `This ${kind} was deleted`,
  wasDeletedText: (when: string, who: string | null) =>
    `Deleted ${when}${who ? ` by ${who}` : ""}. It can be restored.`,
  deletedAt: "Deleted",
  deletedBy: "Deleted by",
  record: "Record",
  includes: "Included",
  cascade: (n: number) => (n === 0 ? "—" : `${n} related`),
  kinds: {
    team: "Team",
    skill: "Skill",
    prompt: "Prompt",
    platform: "Platform",
    team_member: "Team member",
    skill_assignment: "Skill assignment",
    prompt_platform: "Prompt platform",
    prompt_version: "Prompt version",
  },
  reasons: {
    customerDeleted: "Its customer was deleted since",
    teamDeleted: "Its team was deleted since",
    teamArchived: "Its team is archived",
    userDeleted: "Its user was deleted since",
    userMoved: "Its user belongs to another customer now",
    skillDeleted: "Its skill was deleted since",
    skillArchived: "Its skill is archived",
    promptDeleted: "Its prompt was deleted since",
    platformDeleted: "Its platform was deleted since",
    platformInactive: "Its platform is not active",
    alreadyThere: "It exists again",
    sentForReview: "Sent for review: it comes back when another operator approves it",
  },
} as const;
