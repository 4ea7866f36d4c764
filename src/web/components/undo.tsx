import { useQueryClient } from "@tanstack/react-query";
import { restoreReportSchema, undoWindowMs, type RestoreReport } from "../../domain/deleted";
import { bulkMsg } from "../../domain/messages/bulk";
import { deletedMsg } from "../../domain/messages/deleted";
import { api, errorMessage } from "../api/client";
import { queryRoots } from "../lib/query-client";
import { recordPage } from "../lib/record-pages";
import { notify, type NoticeLink } from "./overlays";

/** POST /api/deleted/{deletionId}/restore: the report of what came back and what could not. */
export const restoreDeletion = (deletionId: string) =>
  api(`/deleted/${deletionId}/restore`, restoreReportSchema, { method: "POST" });

/** Every query root a restore can change: a team comes back into customers, users, skills, the dashboard. */
export const restoreChanges = {
  invalidates: [
    queryRoots.customers,
    queryRoots.teams,
    queryRoots.users,
    queryRoots.skills,
    queryRoots.prompts,
    queryRoots.platforms,
    queryRoots.dashboard,
    queryRoots.deleted,
  ],
};

/**
 * The restore report in one notice's words: "… restored", how many related came back, what could
 * not and why, and a link to the record's page (a notice with a link stays twice as long).
 */
export function reportText(report: RestoreReport): { text: string; detail?: string; link?: NoticeLink } {
  // Nothing came back: prompt review made the restore a proposed change.
  if (report.restored.length === 0) return { text: deletedMsg.sentForReview(report.label) };
  const related = report.restored.length - 1;
  const lines = [
    related > 0 ? deletedMsg.restoredWith(related) : "",
    report.not_restored.length > 0
      ? `${deletedMsg.partial(report.not_restored.length)} ${report.not_restored.map((p) => `${p.label} (${p.reason})`).join("; ")}`
      : "",
  ].filter(Boolean);
  const page = recordPage[report.entity]?.(report.entity_id);
  return {
    text: deletedMsg.restored(report.label),
    detail: lines.join(" ") || undefined,
    link: page ? { ...page, label: deletedMsg.open } : undefined,
  };
}

/** Says what a restore brought back (`reportText`); a partial one stays until dismissed. */
export function notifyRestored(report: RestoreReport) {
  const { text, ...shown } = reportText(report);
  notify(text, { ...shown, sticky: report.not_restored.length > 0 });
}

/**
 * Undo in a confirmation toast (issue 33): `offer(text, result)` shows `text` (the spec's message)
 * with an Undo button for 10 s when the answer carries a `deletion_id`, else the plain notice.
 * Undo restores the deletion, refreshes every list it can show up in, and says what came back,
 * listing the parts that could not (with a partial report the notice stays until dismissed);
 * `onRestored` runs once the record is back (a deleted record's page stays on it).
 */
export function useUndo() {
  const client = useQueryClient();
  const undo = async (deletionId: string, onRestored?: () => void) => {
    try {
      const report = await restoreDeletion(deletionId);
      // Said as soon as the server answers: the lists refetch behind the notice, not before it.
      notifyRestored(report);
      if (report.restored.length > 0) onRestored?.();
      for (const queryKey of [...restoreChanges.invalidates, queryRoots.audit])
        void client.invalidateQueries({ queryKey });
    } catch (err) {
      notify(errorMessage(err), { tone: "error" });
    }
  };
  return (
    text: string,
    result: unknown,
    { onRestored, ...options }: { detail?: string; testId?: string; onRestored?: () => void } = {},
  ) => {
    const deletionId = (result as { deletion_id?: string } | undefined)?.deletion_id;
    notify(text, {
      ...options,
      ...(deletionId
        ? {
            action: { label: deletedMsg.undo, onClick: () => void undo(deletionId, onRestored) },
            durationMs: undoWindowMs,
          }
        : {}),
    });
  };
}

/**
 * The notice of a bulk action that ended (docs/bulk-actions.md, "Undo"): `text` with Undo for
 * 10 s, as the other Undo notices; `onUndo` starts the undo and shows its progress.
 */
export function offerBulkUndo(text: string, onUndo: () => void) {
  notify(text, { action: { label: bulkMsg.undo, onClick: onUndo }, durationMs: undoWindowMs });
}
