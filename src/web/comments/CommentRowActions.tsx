import { useState } from "react";
import { MoreHorizontal } from "lucide-react";
import { moderationActions } from "../../domain/comments";
import { commentStatuses, known, type CommentStatus } from "../../domain/enums";
import { commentsMsg } from "../../domain/messages/comments";
import { errorMessage } from "../api/client";
import { useCan } from "../auth/permissions";
import { Menu } from "../components/Menu";
import { useSetCommentStatus } from "./queries";

/**
 * The per-row moderation of one comment (beyond the spec), shared by /comments and the skill
 * page's Comments table: a menu with Approve, Reject, Deactivate and Back to pending (all but the
 * status it has). Sends the status shown as the expected one, so a comment decided meanwhile is
 * refused with "Already decided by …" (shown next to the menu). Renders nothing for a viewer
 * (per-row action columns are left out for roles that cannot use them).
 */
export function CommentRowActions({
  comment,
  onDone,
}: {
  comment: { comment_id: string; status: string };
  /** After a change: the new status (for a banner). */
  onDone?: (status: CommentStatus) => void;
}) {
  const can = useCan("editor");
  const mutation = useSetCommentStatus();
  const [error, setError] = useState<string | null>(null);
  if (!can) return null;
  const choose = (status: CommentStatus) => {
    setError(null);
    mutation.mutate(
      { commentId: comment.comment_id, status, expected_status: known(commentStatuses, comment.status) },
      { onSuccess: () => onDone?.(status), onError: (e) => setError(errorMessage(e)) },
    );
  };
  return (
    <span className="inline-flex items-center gap-2">
      <Menu
        label={commentsMsg.rowActions}
        buttonClassName="btn btn-ghost btn-sm btn-square"
        button={
          mutation.isPending ? (
            <span className="loading loading-spinner loading-xs" aria-hidden />
          ) : (
            <MoreHorizontal className="h-4 w-4" aria-hidden />
          )
        }
        entries={moderationActions
          .filter((a) => a.status !== comment.status)
          .map((a) => ({ label: a.label, onSelect: () => choose(a.status) }))}
      />
      {error ? (
        <span role="alert" className="text-xs text-error">
          {error}
        </span>
      ) : null}
    </span>
  );
}
