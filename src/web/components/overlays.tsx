import { useEffect, useRef, useState, type ReactNode } from "react";
import { CheckCircle2, X } from "lucide-react";
import { timings } from "../../domain/messages";

/**
 * A modal dialog on the native <dialog> element (focus kept inside, Escape closes), at most 80%
 * of the viewport high (SPEC.md §9) with its body scrolling.
 */
export function Modal({ open, title, onClose, children, footer, size = "md" }: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  size?: "md" | "lg";
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className="modal modal-bottom sm:modal-middle" onClose={onClose} aria-label={title}>
      {open ? (
        <div className={`modal-box flex max-h-[80vh] flex-col p-0 ${size === "lg" ? "sm:max-w-2xl" : ""}`} data-testid="modal">
          <div className="flex items-center justify-between border-b border-base-300 px-5 py-4">
            <h2 className="text-lg font-semibold">{title}</h2>
            <button type="button" className="btn btn-ghost btn-sm btn-square" aria-label="Close" onClick={onClose}>
              <X className="h-5 w-5" aria-hidden />
            </button>
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4">{children}</div>
          {footer ? <div className="flex justify-end gap-2 border-t border-base-300 px-5 py-3">{footer}</div> : null}
        </div>
      ) : null}
      <form method="dialog" className="modal-backdrop">
        <button type="submit" aria-label="Close">close</button>
      </form>
    </dialog>
  );
}

/** Confirmation before a destructive action; the confirm button shows `busyLabel` while it runs. */
export function ConfirmDialog({ open, title, message, confirmLabel, busy, error, onConfirm, onCancel, tone = "error" }: {
  open: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
  tone?: "error" | "primary";
}) {
  return (
    <Modal
      open={open}
      title={title}
      onClose={busy ? () => undefined : onCancel}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onCancel} disabled={busy}>Cancel</button>
          <button type="button" className={`btn ${tone === "error" ? "btn-error" : "btn-primary"}`} onClick={onConfirm} disabled={busy}>
            {busy ? <span className="loading loading-spinner loading-sm" aria-hidden /> : null}
            {confirmLabel}
          </button>
        </>
      }
    >
      <div className="text-sm text-base-content/80">{message}</div>
      {error ? <div role="alert" className="alert alert-error alert-soft mt-4 text-sm">{error}</div> : null}
    </Modal>
  );
}

/**
 * A success message that hides itself after 3 s (SPEC.md §9). `show(text)` displays it; a new
 * message restarts the timer.
 */
export function useBanner(duration: number = timings.bannerMs) {
  const [message, setMessage] = useState<{ text: string; detail?: string; key: number } | null>(null);
  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setMessage(null), duration);
    return () => clearTimeout(timer);
  }, [message, duration]);
  return {
    message,
    show: (text: string, detail?: string) => setMessage({ text, detail, key: Date.now() }),
    clear: () => setMessage(null),
  };
}

/** The banner of `useBanner`; announced to screen readers. */
export function SuccessBanner({ message }: { message: { text: string; detail?: string } | null }) {
  return (
    <div aria-live="polite" className="empty:hidden">
      {message ? (
        <div role="status" className="alert alert-success alert-soft mb-4" data-testid="success-banner">
          <CheckCircle2 className="h-5 w-5" aria-hidden />
          <div>
            <div className="font-medium">{message.text}</div>
            {message.detail ? <div className="text-sm opacity-80">{message.detail}</div> : null}
          </div>
        </div>
      ) : null}
    </div>
  );
}
