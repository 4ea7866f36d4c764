/**
 * Bulk actions (docs/bulk-actions.md): selection, preview, progress, report and undo.
 */
import { countText } from "./helpers";

export const bulkMsg = {
  needsReview: "Changes to this prompt need review: propose them from the prompt's page",
  /** Skip reasons (the per-row report and the preview). */
  alreadyStatus: (status: string) => `Already ${status}`,
  alreadyArchived: "Already archived",
  alreadyActive: "Already active",
  notArchived: "Not archived",
  notActiveTeam: "Not an active team",
  notActiveSkill: "Not an active skill",
  alreadyMember: "Already a member",
  otherCustomer: "Not a user of the team's customer",
  alreadyHasRole: "Already has the role",
  lacksRole: "Does not have the role",
  alreadyAssigned: "Already assigned",
  notFound: "No longer exists",
  failed: "The change failed; nothing of its batch was written",
  /** Errors of the API. */
  idsOrFilter: "Give either ids or a filter",
  tooMany: (n: number, max: number) =>
    `${n.toLocaleString("en-US")} records are selected; narrow the filter to at most ${max.toLocaleString("en-US")}`,
  unknownIds: (n: number) =>
    `${n.toLocaleString("en-US")} of the selected records no longer exist; nothing was changed`,
  runNotFound: "Bulk action not found",
  busy: (n: number) =>
    `You already have ${n} bulk actions or previews under way: wait for one to finish, then try again`,
  notRunning: "This bulk action has already ended",
  /** Actions' names (bulk bar buttons and dialog titles). */
  actions: {
    archive: "Archive",
    unarchive: "Unarchive",
    activate: "Activate",
    deactivate: "Deactivate",
    set_status: "Set status",
    add_to_team: "Add to team",
    add_role: "Add role",
    remove_role: "Remove role",
    assign_skill: "Assign skill",
    assign_to_teams: "Assign to teams",
    assign_platform: "Assign platform",
  } as Record<string, string>,
  /** The screens. */
  selectRow: (label: string) => `Select ${label}`,
  selectPage: "Select every row on this page",
  selectColumn: "Select",
  selectedCount: (n: number) => `${n.toLocaleString("en-US")} selected`,
  selectAllMatching: (n: number | string) => `Select all ${countText(n)} matching this filter`,
  allMatchingSelected: (n: number | string) => `All ${countText(n)} matching this filter are selected`,
  clearSelection: "Clear selection",
  exportSelection: "Export selection",
  previewTitle: (action: string) => `${action}: preview`,
  previewing: "Checking what would change...",
  willChange: (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "record" : "records"} will change`,
  skippedLine: (reason: string, n: number) => `${n.toLocaleString("en-US")} skipped: ${reason}`,
  nothingChanges: "Nothing would change.",
  firstRows: "First rows",
  outcome: { changed: "Changed", skipped: "Skipped", failed: "Failed" } as Record<string, string>,
  confirm: "Apply",
  cancel: "Cancel",
  close: "Close",
  running: (done: number, total: number) =>
    `${done.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} processed`,
  counts: (changed: number, skipped: number, failed: number) =>
    `${changed.toLocaleString("en-US")} changed, ${skipped.toLocaleString("en-US")} skipped, ${failed.toLocaleString("en-US")} failed`,
  status: {
    running: "Running",
    done: "Done",
    cancelled: "Cancelled",
    failed: "Failed",
    interrupted: "Interrupted by a server restart",
  } as Record<string, string>,
  progressLabel: "Progress",
  report: "Report",
  downloadReport: "Download CSV",
  reportRecord: "Record",
  reportOutcome: "Outcome",
  reportReason: "Reason",
  chooseTeam: "Team",
  chooseSkill: "Skill",
  choosePlatform: "Platform",
  chooseRole: "Role",
  chooseStatus: "Status",
  chooseTeamId: "Team id",
  paramsRequired: "Choose a value first",
  /** Undo (docs/bulk-actions.md, "Undo"): skip reasons, the API's refusals, the screens. */
  undoStatusChanged: "Its status changed since the action",
  undoNoLongerMember: "No longer a member of the team",
  undoNoLongerAssigned: "Unassigned or assigned again since the action",
  undoNoLongerHasRole: "No longer has the role",
  undoHasRoleAgain: "Has the role again",
  undoAlreadyPutBack: "Already put back by an earlier undo",
  undoOthers: "Only an admin can undo another operator's bulk action",
  undoOfUndo: "An undo cannot be undone",
  undoRunning: "This bulk action is still running: undo it once it has ended",
  beingUndone: "This bulk action is being undone",
  alreadyUndone: "This bulk action was already undone",
  nothingToUndo: "This bulk action changed nothing that Undo could put back",
  undo: "Undo",
  undoTitle: (action: string) => `Undo: ${action}`,
  finished: (action: string, changed: number) =>
    `${action}: ${changed.toLocaleString("en-US")} ${changed === 1 ? "record" : "records"} changed`,
  undone: (changed: number) =>
    `Undo: ${changed.toLocaleString("en-US")} ${changed === 1 ? "record" : "records"} put back`,
} as const;
