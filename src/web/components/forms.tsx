import { useId, useRef, type ReactNode } from "react";
import { useBlocker } from "@tanstack/react-router";
import type { LucideIcon } from "lucide-react";
import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import type { OperatorRole } from "../../domain/enums";
import { shellMsg } from "../../domain/messages/common";
import { uiMsg } from "../../domain/messages/kit";
import { ApiError, errorMessage } from "../api/client";
import { ReadOnlyNotice, useRoleReason } from "./actions";
import { titleCase } from "./format";
import { ConfirmDialog } from "./overlays";
import { Card } from "./ui";

/**
 * Puts a failed mutation's field messages on the form's fields and returns the message for the
 * red box above the form (the server's own message), or null when every problem is already shown
 * under its field, so a message never shows twice.
 */
export function applyServerError<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>): string | null {
  if (error instanceof ApiError && error.fields) {
    const fields = Object.entries(error.fields).filter(([field]) => field);
    for (const [field, message] of fields) setError(field as Path<T>, { type: "server", message });
    if (fields.length > 0) return null;
  }
  return errorMessage(error);
}

/** A red box with a server error, above a form (SPEC.md §8). */
export function FormError({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <div role="alert" className="alert alert-error alert-soft text-sm" data-testid="form-error">
      {message}
    </div>
  );
}

/** A card holding a form, with a title. */
export function FormCard({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-2xl">
      <Card bodyClassName="gap-5">
        <div className="min-w-0">
          <h1 className="text-xl font-semibold">{title}</h1>
          {subtitle ? <div className="mt-1 text-sm text-base-content/70">{subtitle}</div> : null}
        </div>
        {children}
      </Card>
    </div>
  );
}

/**
 * The frame of an add or edit page: the back link, then the form, or, for a role that may not
 * change data, "Your role can view but not change this" instead of a form that would fail on submit.
 */
export function FormPage({
  need = "editor",
  back,
  children,
}: {
  need?: OperatorRole;
  back: ReactNode;
  children: ReactNode;
}) {
  const reason = useRoleReason(need);
  return (
    <>
      {back}
      {reason ? <ReadOnlyNotice /> : children}
    </>
  );
}

/** `<option>`s for a status or type list of `src/domain/enums.ts`, labelled "Active", "Inactive"... */
export function EnumOptions({ values }: { values: readonly string[] }) {
  return (
    <>
      {values.map((v) => (
        <option key={v} value={v}>
          {titleCase(v)}
        </option>
      ))}
    </>
  );
}

/**
 * Asks before leaving a form with unsaved changes (in-app navigation and reload or tab close).
 * `allowLeave()` lets the next navigation through without asking: after a successful save, or
 * when the operator chose Cancel.
 */
export function useUnsavedChanges(dirty: boolean) {
  const allowed = useRef(false);
  const blocker = useBlocker({
    shouldBlockFn: () => dirty && !allowed.current,
    enableBeforeUnload: () => dirty && !allowed.current,
    withResolver: true,
  });
  const prompt = (
    <ConfirmDialog
      open={blocker.status === "blocked"}
      title={uiMsg.unsavedTitle}
      message={uiMsg.unsavedText}
      confirmLabel={uiMsg.discard}
      cancelLabel={uiMsg.keepEditing}
      onConfirm={() => blocker.proceed?.()}
      onCancel={() => blocker.reset?.()}
    />
  );
  return {
    prompt,
    allowLeave: () => {
      allowed.current = true;
    },
    /** Asks again (after a failed save). */
    blockLeave: () => {
      allowed.current = false;
    },
  };
}

/**
 * Cancel and submit at the foot of a form in a modal: Cancel closes it (`onCancel`), the submit
 * button carries `icon` and shows `busyLabel` while the form is sent.
 */
export function ModalActions({
  onCancel,
  icon: Icon,
  submitLabel,
  busyLabel,
  busy,
}: {
  onCancel: () => void;
  icon: LucideIcon;
  submitLabel: string;
  busyLabel: string;
  busy: boolean;
}) {
  return (
    <div className="flex justify-end gap-2">
      <button type="button" className="btn btn-ghost" onClick={onCancel}>
        {shellMsg.ui.cancel}
      </button>
      <button type="submit" className="btn btn-primary" disabled={busy}>
        <Icon className="h-4 w-4" aria-hidden /> {busy ? busyLabel : submitLabel}
      </button>
    </div>
  );
}

/** Cancel and submit at the foot of a form; the submit button shows `busyLabel` while saving. */
export function FormActions({
  cancel,
  submitLabel,
  busyLabel,
  busy,
  disabled,
  hint,
}: {
  cancel: ReactNode;
  submitLabel: string;
  busyLabel: string;
  busy: boolean;
  disabled?: boolean;
  /** A line under the buttons saying what the save will do ("Changes wait for review"), read with the button. */
  hint?: ReactNode;
}) {
  const hintId = useId();
  return (
    <div className="flex flex-col items-end gap-1 pt-2">
      <div className="flex justify-end gap-2">
        {cancel}
        <button
          type="submit"
          className="btn btn-primary"
          disabled={busy || disabled}
          aria-describedby={hint ? hintId : undefined}
        >
          {busy ? <span className="loading loading-spinner loading-sm" aria-hidden /> : null}
          {busy ? busyLabel : submitLabel}
        </button>
      </div>
      {hint ? (
        <p id={hintId} className="text-right text-xs text-base-content/70" data-testid="submit-hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
