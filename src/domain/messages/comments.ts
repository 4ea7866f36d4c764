/**
 * The comment screens and the review queue.
 */
import { countText } from "./helpers";

export const commentsMsg = {
  title: "Comments",
  subtitle: "Manage and review skill comments across all customers",
  loadError: "Error loading comments",
  loading: "Loading comments...",
  empty: "No comments found",
  emptyNone: "No comments have been made yet.",
  emptyFiltered: "No comments match the selected filters.",
  allStatuses: "All Statuses",
  /** `n`: the count, or "about 40K" where it is an estimate. */
  tableTitle: (n: number | string) => `All Comments (${n})`,
  allCustomers: "All Customers",
  searchPlaceholder: "Search comments...",
  notFound: "Comment not found",
  badStatus: "Choose pending, active, inactive or rejected",
  approve: "Approve",
  reject: "Reject",
  deactivate: "Deactivate",
  backToPending: "Back to pending",
  rowActions: "Moderate comment",
  alreadyDecided: (who: string | null) => `Already decided by ${who ?? "another operator"}`,
  changed: (n: number, status: string) =>
    `${n.toLocaleString("en-US")} ${n === 1 ? "comment" : "comments"} set to ${status}`,
  noneSelected: "Select at least one comment",
  tooManySelected: "Select at most 500 comments, or apply to the whole filter",
  idsOrFilter: "Give either ids or a filter",
  emptyFilter: "Choose a filter, or confirm that every comment is meant",
  unknownIds: (n: number) => `${n} of the selected comments no longer exist; nothing was changed`,
  tooMany: (n: number, max: number) =>
    `${n.toLocaleString("en-US")} comments match; narrow the filter to at most ${max.toLocaleString("en-US")}`,
  /** `n`: a count, or an estimate as the screen shows it ("about 40.5K") while the count is not in. */
  selectAllMatching: (n: number | string) => `Select all ${countText(n)} comments matching this filter`,
  allMatchingSelected: (n: number | string) => `All ${countText(n)} comments matching this filter are selected`,
  selectedCount: (n: number) => `${n.toLocaleString("en-US")} selected`,
  clearSelection: "Clear selection",
  bulkTitle: (label: string) => `${label} comments`,
  bulkPreview: (n: number, label: string) =>
    `${label}: ${n.toLocaleString("en-US")} ${n === 1 ? "comment" : "comments"} will change`,
  bulkFrom: "From",
  bulkNothing: "No comment would change.",
  bulkRejectConfirm: "Rejected comments are hidden from users. Continue?",
  bulkApplying: (n: number) => `Changing ${n.toLocaleString("en-US")} comments...`,
  selectRow: (who: string) => `Select comment by ${who}`,
  selectPage: "Select every comment on this page",
  /** The selection column's label on a phone's row card, beside the row's checkbox. */
  selectColumn: "Select",
  reviewPending: "Review pending",
  reviewTitle: "Review pending comments",
  reviewSubtitle: "A approve, R reject, D deactivate, J next, K previous, U undo, ? keys",
  remaining: (n: number) => `${n.toLocaleString("en-US")} pending ${n === 1 ? "comment remains" : "comments remain"}`,
  queueEmpty: "No pending comments",
  queueEmptyText: "Every comment has been reviewed.",
  keysTitle: "Keyboard shortcuts",
  keys: [
    ["A", "Approve"],
    ["R", "Reject"],
    ["D", "Deactivate"],
    ["J", "Next comment"],
    ["K", "Previous comment"],
    ["U", "Undo the last decision"],
  ] as ReadonlyArray<readonly [string, string]>,
  undone: "Decision undone",
  nothingToUndo: "Nothing to undo",
  decided: (status: string) => `Set to ${status}`,
  backToList: "Back to comments",
} as const;
