import { shellMsg } from "../../domain/messages/common";

/**
 * A modal's footer buttons: Cancel, then its main button (`label`; a spinner while `busy`,
 * disabled while busy or `disabled`), submitting the form `form` or running `onClick`.
 */
export function ModalButtons({
  onCancel,
  cancelDisabled,
  label,
  busy,
  disabled,
  form,
  onClick,
}: {
  onCancel: () => void;
  cancelDisabled?: boolean;
  label: string;
  busy: boolean;
  disabled?: boolean;
  form?: string;
  onClick?: () => void;
}) {
  return (
    <>
      <button type="button" className="btn btn-ghost" onClick={onCancel} disabled={cancelDisabled}>
        {shellMsg.ui.cancel}
      </button>
      <button
        type={form ? "submit" : "button"}
        form={form}
        className="btn btn-primary"
        disabled={disabled || busy}
        onClick={onClick}
      >
        {busy ? <span className="loading loading-spinner loading-sm" aria-hidden /> : null}
        {label}
      </button>
    </>
  );
}
