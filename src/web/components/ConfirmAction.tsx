import { useState, type ReactNode } from "react";
import type { UseMutationResult } from "@tanstack/react-query";
import type { LucideIcon } from "lucide-react";
import { errorMessage } from "../api/client";
import { useCan } from "../auth/permissions";
import { ConfirmDialog } from "./overlays";
import { useUndo } from "./undo";

/**
 * A change that asks first (Delete, Unassign, Leave Team, Restore): `ask(target)` opens the
 * confirm for that target; Confirm runs `mutation` with `variables(target)`, its button showing
 * `busyLabel` while it runs and the server's refusal inside the dialog; on success the dialog
 * closes and `done(target)` follows (a notice, a redirect). Cancel closes it and forgets the
 * error. Render `dialog` once in the screen.
 */
export function useConfirmAction<T, V>({
  mutation,
  title,
  message,
  confirmLabel,
  busyLabel,
  tone,
  variables,
  done,
}: {
  /** Optional so that a screen can call the hook for an action it does not always offer. */
  mutation: UseMutationResult<unknown, Error, V> | undefined;
  title: string;
  message: (target: T) => ReactNode;
  confirmLabel: string;
  busyLabel?: string;
  tone?: "error" | "primary";
  variables: (target: T) => V;
  /** After success, with the answer (a delete's `deletion_id`, for Undo). */
  done: (target: T, result: unknown) => void;
}): { ask: (target: T) => void; dialog: ReactNode } {
  const [target, setTarget] = useState<{ value: T } | null>(null);
  const busy = mutation?.isPending ?? false;
  const cancel = () => {
    setTarget(null);
    mutation?.reset();
  };
  const dialog = mutation ? (
    <ConfirmDialog
      open={target !== null}
      title={title}
      tone={tone}
      message={target ? message(target.value) : null}
      confirmLabel={busy && busyLabel ? busyLabel : confirmLabel}
      busy={busy}
      error={mutation.error ? errorMessage(mutation.error) : null}
      onCancel={cancel}
      onConfirm={() => {
        if (!target) return;
        const { value } = target;
        mutation.mutate(variables(value), {
          onSuccess: (result) => {
            setTarget(null);
            done(value, result);
          },
        });
      }}
    />
  ) : null;
  return { ask: (value) => setTarget({ value }), dialog };
}

/**
 * A row action that removes a link after a confirm (Unassign, Remove, Leave Team): the button's
 * label, icon and accessible name ("Unassign Summarise tickets"), the confirm, and the notice with
 * Undo once done.
 */
export type RowRemoval<T, V> = {
  mutation: UseMutationResult<unknown, Error, V>;
  variables: (row: T) => V;
  label: string;
  icon?: LucideIcon;
  name: (row: T) => string;
  /** The confirm's title and message; its button says `confirmLabel` (`label` unless given), `busyLabel` while it runs. */
  title: string;
  message: (row: T) => ReactNode;
  confirmLabel?: string;
  busyLabel?: string;
  /** The notice once removed, with Undo. */
  undo: (row: T) => string;
};

/**
 * A `RowRemoval` at work: `actions`, each row's button (none for a role that may not change data),
 * and the confirm's `dialog`, to render once.
 */
export function useRowRemoval<T, V>(removal: RowRemoval<T, V>) {
  const offerUndo = useUndo();
  const canEdit = useCan("editor");
  const { label, icon: Icon, name } = removal;
  const confirm = useConfirmAction<T, V>({
    mutation: removal.mutation,
    title: removal.title,
    message: removal.message,
    confirmLabel: removal.confirmLabel ?? label,
    busyLabel: removal.busyLabel,
    variables: removal.variables,
    done: (row, result) => offerUndo(removal.undo(row), result),
  });
  const actions = canEdit
    ? (row: T) => (
        <button
          type="button"
          className="btn btn-ghost btn-xs whitespace-nowrap text-error"
          aria-label={name(row)}
          onClick={() => confirm.ask(row)}
        >
          {Icon ? <Icon className="h-4 w-4" aria-hidden /> : null}
          {label}
        </button>
      )
    : undefined;
  return { actions, dialog: confirm.dialog };
}
