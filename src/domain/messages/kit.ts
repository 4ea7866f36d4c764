/**
 * The texts of the parts every screen is built from (src/web/components: lists, filters, tables,
 * record pages, forms' buttons), and placeholders for missing values. Loaded with the first screen
 * (the screen-kit chunk), not before; the few the shell shows too are common.ts's shellMsg.
 */

export const uiMsg = {
  readOnly: "Your role can view but not change this",
  adminOnly: "Only admins can open this",
  moreActions: "More actions",
  actions: "Actions",
  unsavedTitle: "Discard unsaved changes?",
  unsavedText: "You have changes that are not saved. If you leave this page they will be lost.",
  discard: "Discard changes",
  keepEditing: "Keep editing",
  signedInFilter: "Signed in at least once",
  /** A removable chip of whole days: "Last sign-in Nov 28", "Created Nov 23 – Nov 29". */
  dayRangeFilter: (what: string, from?: string, to?: string) =>
    from && to
      ? from === to
        ? `${what} ${from}`
        : `${what} ${from} – ${to}`
      : from
        ? `${what} from ${from}`
        : `${what} until ${to}`,
  lastLoginDays: "Last sign-in",
  createdDays: "Created",
  clearFilter: (name: string) => `Clear filter: ${name}`,
  delete: "Delete",
  deleting: "Deleting...",
  saving: "Saving...",
  status: "Status",
  created: "Created",
  lastUpdated: "Last Updated",
  archive: "Archive",
  unarchive: "Unarchive",
} as const;

export const listsMsg = {
  about: (n: string) => `about ${n}`,
  first: "First",
  previous: "Previous",
  next: "Next",
  last: "Last",
  pageOf: (page: string, pages: string) => `Page ${page} of ${pages}`,
  pageOfAbout: (page: string, pages: string) => `Page ${page} of about ${pages}`,
  showing: (from: string, to: string, total: string) => `Showing ${from}–${to} of ${total}`,
  rows: (n: string, one: boolean) => `${n} ${one ? "row" : "rows"}`,
  /** The accessible names of a table's pager and search box inside a page ("Team Memberships pages"). */
  pagerOf: (table: string) => `${table} pages`,
  searchOf: (table: string) => `Search ${table.toLowerCase()}`,
  /** Under a modal's first matches when there are more. */
  showingFirst: (shown: string, total: string) => `Showing ${shown} of ${total}; search to narrow the list.`,
  exportCsv: "Export CSV",
  exportBom: "Excel-friendly (UTF-8 BOM)",
  exporting: (rows: string, total: string) => `Exporting… ${rows} of ${total} rows`,
  exported: (rows: string) => `Exported ${rows} rows`,
  exportFailed: "Export failed",
  summaryAsOf: (time: string) => `Counts as of ${time}`,
  summaryEstimated: "Counts are estimates",
  counting: "Counting…",
  countingNote: "Counting the matches…",
  searchLimit: (n: number) => `Search is limited to ${n} characters`,
  pickerMore: "Type to narrow the list",
  pickerNone: "No matches",
  pickerLoading: "Searching...",
  cardUnavailable: "Not available",
} as const;

export const fallbacksMsg = {
  unnamedCompany: "Unnamed Company",
  unknownCustomer: "Unknown Customer",
  unknownUser: "Unknown User",
  unknownSkill: "Unknown Skill",
  unknownTeam: "Unknown Team",
  unnamedSkill: "Unnamed Skill",
  unnamedPlatform: "Unnamed Platform",
  noDate: "N/A",
  neverLoggedIn: "Never",
} as const;

/** SPEC.md §9 constants. */
export const limits = {
  recentLoginHours: 24,
  maxRoleBadges: 2,
  skeletonCards: 4,
  skeletonRows: 5,
  pageSize: 50,
  /** While the server counts a search's matches (`counting`), the page is asked for again this often (ms). */
  countingRefetchMs: 1_000,
} as const;
