import { useState, type ReactNode } from "react";
import type { UseMutationResult } from "@tanstack/react-query";
import { errorMessage } from "../api/client";
import { ConfirmDialog } from "./overlays";

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
