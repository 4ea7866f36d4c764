import type { UseMutationResult } from "@tanstack/react-query";
import { promptsMsg } from "../../domain/messages/prompts";
import { reviewsMsg } from "../../domain/messages/reviews";
import { useCan } from "../auth/permissions";
import { useConfirmAction } from "../components/ConfirmAction";
import { notify } from "../components/overlays";
import { useUndo } from "../components/undo";
import { isProposed } from "./queries";

/**
 * Unassigning a prompt from a platform, from either side (a platform's prompts, a prompt's
 * platforms): the spec's confirm ("Unassign Platform"), then "Platform … unassigned successfully!"
 * with Undo, or, under review (docs/prompt-review.md), that the unassignment waits for another
 * operator. `id` is what the mutation takes (the other side's id), `name` how a row is named.
 * Returns the row's button (for editors and admins; none for viewers) and the dialog to render
 * once in the screen.
 */
export function useUnassignLink<R>(
  mutation: UseMutationResult<unknown, Error, string>,
  id: (row: R) => string,
  name: (row: R) => string,
) {
  const canEdit = useCan("editor");
  const offerUndo = useUndo();
  const unassign = useConfirmAction<R, string>({
    mutation,
    title: "Unassign Platform",
    message: () => <p>{promptsMsg.unassignConfirm}</p>,
    confirmLabel: promptsMsg.unassign,
    variables: id,
    done: (row, result) =>
      isProposed(result)
        ? notify(reviewsMsg.proposedUnassign(name(row)))
        : offerUndo(promptsMsg.unassigned(name(row)), result),
  });
  const button = canEdit
    ? (row: R) => (
        <button
          type="button"
          className="btn btn-ghost btn-xs whitespace-nowrap text-error"
          aria-label={`${promptsMsg.unassign} ${name(row)}`}
          onClick={() => unassign.ask(row)}
        >
          {promptsMsg.unassign}
        </button>
      )
    : undefined;
  return { button, dialog: unassign.dialog };
}
