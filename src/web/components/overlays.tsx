import { useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from "react";
import { Link } from "@tanstack/react-router";
import { CheckCircle2, X } from "lucide-react";
import { msg, timings } from "../../domain/messages";

/** What a modal focuses when it opens: an element marked `data-autofocus`, else its first field. */
const initialFocus = "[data-autofocus], input:not([type=hidden]):not([disabled]), select:not([disabled]), textarea:not([disabled])";

/**
 * A modal dialog on the native <dialog> element (focus kept inside, Escape closes), at most 80%
 * of the viewport high (SPEC.md §9) with its body scrolling. On opening it focuses its search box
 * or first field (or the element marked `data-autofocus`), and gives focus back on closing.
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
    if (open && !dialog.open) {
      dialog.showModal();
      dialog.querySelector<HTMLElement>(initialFocus)?.focus();
    }
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
export function ConfirmDialog({ open, title, message, confirmLabel, cancelLabel = msg.ui.cancel, busy, error, onConfirm, onCancel, tone = "error" }: {
  open: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
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
          <button type="button" className="btn btn-ghost" onClick={onCancel} disabled={busy} data-autofocus>{cancelLabel}</button>
          <button type="button" className={`btn ${tone === "error" ? "btn-error" : "btn-primary"}`} onClick={onConfirm} disabled={busy}>
            {busy ? <span className="loading loading-spinner loading-sm" aria-hidden /> : null}
            {confirmLabel}
          </button>
        </>
      }
    >
      <div className="text-sm text-base-content/90">{message}</div>
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
    show: (text: string, detail?: string) => {
      clearFlash();
      setMessage({ text, detail, key: Date.now() });
    },
    clear: () => setMessage(null),
  };
}

type BannerLink = { label: string; to: string; params?: Record<string, string> };

/** The banner of `useBanner` (or of `flash`); announced to screen readers. */
export function SuccessBanner({ message, testId = "success-banner" }: { message: { text: string; detail?: string; link?: BannerLink } | null; testId?: string }) {
  return (
    <div aria-live="polite" className="empty:hidden">
      {message ? (
        <div role="status" className="alert alert-success alert-soft mb-4" data-testid={testId}>
          <CheckCircle2 className="h-5 w-5 shrink-0" aria-hidden />
          <div className="min-w-0">
            <div className="font-medium">{message.text}</div>
            {message.detail ? <div className="text-sm">{message.detail}</div> : null}
          </div>
          {message.link ? (
            <Link to={message.link.to as "/"} params={message.link.params as never} className="link min-w-0 truncate font-medium">
              {message.link.label}
            </Link>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

type Flash = { text: string; link?: BannerLink; key: number };
let current: Flash | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

/**
 * A confirmation that survives the navigation that follows it ("Customer created" with a link to
 * the new record), shown by the shell above the next screen. It stays long enough to follow the
 * link (twice the spec's banner time).
 */
export function flash(text: string, link?: BannerLink) {
  current = { text, link, key: Date.now() };
  clearTimeout(timer);
  timer = setTimeout(() => {
    current = null;
    emit();
  }, timings.bannerMs * 2);
  emit();
}

/** The shell's place for `flash` messages. */
export function FlashBanner() {
  const message = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
  );
  return <SuccessBanner message={message} testId="flash-banner" />;
}

/** Hides a `flash` message at once (a screen's own banner replaces it). */
export function clearFlash() {
  if (!current) return;
  current = null;
  clearTimeout(timer);
  emit();
}
