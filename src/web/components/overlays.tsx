import { lazy, Suspense, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from "react";
import { Link } from "@tanstack/react-router";
import { CheckCircle2, X } from "lucide-react";
import { shellMsg, timings } from "../../domain/messages/common";
import type { Target } from "../lib/target";

/** What a modal focuses when it opens: an element marked `data-autofocus`, else its first field. */
const initialFocus =
  "[data-autofocus], input:not([type=hidden]):not([disabled]), select:not([disabled]), textarea:not([disabled])";

/**
 * A modal's body, scrolling within the box. While its content is taller than the box (a bulk
 * report of twenty rows) it is a named region in the Tab order, so the keyboard can scroll it
 * (WCAG 2.1.1; axe's `scrollable-region-focusable`); otherwise it is no Tab stop.
 */
function ModalBody({ label, children }: { label: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  // Checked when the box is resized and when its content changes (a report arriving).
  useEffect(() => {
    const body = ref.current;
    if (!body) return;
    const check = () => setScrolls(body.scrollHeight > body.clientHeight + 1);
    check();
    const resized = new ResizeObserver(check);
    resized.observe(body);
    const changed = new MutationObserver(check);
    changed.observe(body, { childList: true, subtree: true, characterData: true });
    return () => {
      resized.disconnect();
      changed.disconnect();
    };
  }, []);
  return (
    <div
      ref={ref}
      className="min-h-0 flex-1 overflow-y-auto px-5 py-4"
      {...(scrolls ? { tabIndex: 0, role: "region", "aria-label": label } : {})}
    >
      {children}
    </div>
  );
}

/**
 * A modal dialog on the native <dialog> element (focus kept inside, Escape closes), at most 80%
 * of the viewport high (SPEC.md §9) with its body scrolling. On opening it focuses its search box
 * or first field (or the element marked `data-autofocus`), and gives focus back on closing.
 *
 * Nothing in it jumps while its content loads: on a wide screen the box hangs from a fixed top
 * (a centred box would move its search box and pickers up as a list arrives below them, under the
 * pointer), and on a phone a `lg` box (a list, a preview) keeps the full 80% from the start,
 * since a bottom sheet grows upwards.
 */
export function Modal({
  open,
  title,
  onClose,
  children,
  footer,
  size = "md",
}: {
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
    <dialog
      ref={ref}
      className="modal modal-bottom sm:modal-middle sm:items-start sm:pt-[10vh]"
      onClose={onClose}
      aria-label={title}
    >
      {open ? (
        <div
          className={`modal-box flex max-h-[80vh] flex-col p-0 ${size === "lg" ? "max-sm:h-[80vh] sm:max-w-2xl" : ""}`}
          data-testid="modal"
        >
          <div className="flex items-center justify-between border-b border-base-300 px-5 py-4">
            <h2 className="text-lg font-semibold">{title}</h2>
            <button type="button" className="btn btn-ghost btn-sm btn-square" aria-label="Close" onClick={onClose}>
              <X className="h-5 w-5" aria-hidden />
            </button>
          </div>
          <ModalBody label={title}>{children}</ModalBody>
          {footer ? <div className="flex justify-end gap-2 border-t border-base-300 px-5 py-3">{footer}</div> : null}
        </div>
      ) : null}
      <form method="dialog" className="modal-backdrop">
        <button type="submit" aria-label="Close">
          close
        </button>
      </form>
    </dialog>
  );
}

/** Confirmation before a destructive action; the confirm button shows `busyLabel` while it runs. */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  cancelLabel = shellMsg.ui.cancel,
  busy,
  error,
  onConfirm,
  onCancel,
  tone = "error",
}: {
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
          <button type="button" className="btn btn-ghost" onClick={onCancel} disabled={busy} data-autofocus>
            {cancelLabel}
          </button>
          <button
            type="button"
            className={`btn ${tone === "error" ? "btn-error" : "btn-primary"}`}
            onClick={onConfirm}
            disabled={busy}
          >
            {busy ? <span className="loading loading-spinner loading-sm" aria-hidden /> : null}
            {confirmLabel}
          </button>
        </>
      }
    >
      <div className="text-sm text-base-content/90">{message}</div>
      {error ? (
        <div role="alert" className="alert alert-error alert-soft mt-4 text-sm">
          {error}
        </div>
      ) : null}
    </Modal>
  );
}

/** A notice's link: where it goes and its text. */
export type NoticeLink = Target & { label: string };

/** A success message shown in place (a deleted record's page says so); announced to screen readers. */
export function SuccessBanner({
  message,
  testId = "success-banner",
}: {
  message: { text: string; detail?: string; link?: NoticeLink } | null;
  testId?: string;
}) {
  return (
    <div aria-live="polite" className="empty:hidden">
      {message ? <Notice {...message} testId={testId} className="mb-4" /> : null}
    </div>
  );
}

/** A button of a notice (Undo): it runs once and closes the notice. */
type NoticeAction = { label: string; onClick: () => void };

function Notice({
  text,
  detail,
  link,
  action,
  tone = "success",
  testId,
  className = "",
  onClose,
  leaving = false,
}: {
  text: string;
  detail?: string;
  link?: NoticeLink;
  action?: NoticeAction;
  tone?: "success" | "error";
  testId: string;
  className?: string;
  onClose?: () => void;
  /** Replaced by a newer notice and fading out: it no longer answers to the test ids. */
  leaving?: boolean;
}) {
  // With an action, the test id names the message alone, so that its text stays the spec's.
  return (
    <div
      role="status"
      className={`alert ${tone === "error" ? "alert-error" : "alert-success"} alert-soft ${className}`}
      data-testid={leaving ? undefined : action ? "undo-notice" : testId}
    >
      <CheckCircle2 className="h-5 w-5 shrink-0" aria-hidden />
      <div className="min-w-0" data-testid={action && !leaving ? testId : undefined}>
        <div className="font-medium">{text}</div>
        {detail ? <div className="text-sm break-words">{detail}</div> : null}
      </div>
      {action ? (
        <button
          type="button"
          className="btn btn-sm btn-outline"
          onClick={() => {
            onClose?.();
            action.onClick();
          }}
        >
          {action.label}
        </button>
      ) : null}
      {link ? <NoticeTarget {...link} /> : null}
      {onClose ? (
        <button
          type="button"
          className="btn btn-ghost btn-xs btn-square"
          aria-label={shellMsg.ui.dismiss}
          onClick={onClose}
        >
          <X className="h-4 w-4" aria-hidden />
        </button>
      ) : null}
    </div>
  );
}

/** A notice's link to what it speaks of (a record just created), cut to one line with its name on hover. */
function NoticeTarget({ label, ...target }: NoticeLink) {
  return (
    <Link {...target} className="link min-w-0 truncate font-medium" title={label}>
      {label}
    </Link>
  );
}

/** Sonner, loaded after the first screen (it is not part of the initial JavaScript). */
const sonner = () => import("sonner");
let toasterMounted: () => void = () => undefined;
/** Resolves once the notices' container is on the page: a notice sent earlier waits for it. */
const toasterReady = new Promise<void>((resolve) => (toasterMounted = resolve));

/**
 * Confirms what just happened ("Skill assigned successfully!") in a notice outside the page's
 * layout (sonner), so nothing on the page moves under the operator's pointer. It hides after 3 s
 * (SPEC.md §9); one with a link to follow (a record just created, shown on the next screen) stays
 * twice as long; `sticky` stays until dismissed (a password to hand over). A new notice replaces
 * the one showing.
 */
export function notify(
  text: string,
  options: {
    detail?: string;
    link?: NoticeLink;
    sticky?: boolean;
    /** A button in the notice (Undo), and how long the notice stays for it (10 s). */
    action?: NoticeAction;
    durationMs?: number;
    tone?: "success" | "error";
    /** The message's test id ("success-banner"); another for a notice beside the page's own banner. */
    testId?: string;
  } = {},
) {
  const duration = options.sticky
    ? Infinity
    : (options.durationMs ?? (options.link ? timings.bannerMs * 2 : timings.bannerMs));
  void Promise.all([sonner(), toasterReady]).then(([{ toast }]) => {
    // A new notice, not an update of the one showing: sonner keeps an updated toast's remaining
    // time and drops an update that lands while the old one is leaving, so a second notice could
    // show for a moment or not at all.
    const previous = showing.id;
    const id = toast.custom(
      (toastId) => (
        <ShownNotice
          toastId={toastId}
          text={text}
          detail={options.detail}
          link={options.link}
          action={options.action}
          tone={options.tone}
          testId={options.testId ?? "success-banner"}
          className="w-full shadow-md"
          onClose={() => toast.dismiss(toastId)}
        />
      ),
      { duration, unstyled: true },
    );
    showing.set(id);
    if (previous !== undefined) toast.dismiss(previous);
  });
}

/** The notice on screen; the one it replaced fades out for a moment beside it. */
const showing = {
  id: undefined as string | number | undefined,
  listeners: new Set<() => void>(),
  set: (id: string | number) => {
    showing.id = id;
    showing.listeners.forEach((listener) => listener());
  },
  subscribe: (listener: () => void) => {
    showing.listeners.add(listener);
    return () => void showing.listeners.delete(listener);
  },
};

/**
 * A notice in sonner's stack. One that is leaving keeps its look while it fades, but is no longer
 * the notice: it loses its test id and is hidden from screen readers and the keyboard.
 */
function ShownNotice({ toastId, ...notice }: Parameters<typeof Notice>[0] & { toastId: string | number }) {
  const current = useSyncExternalStore(showing.subscribe, () => showing.id) === toastId;
  return (
    <div inert={!current} aria-hidden={!current || undefined}>
      <Notice {...notice} leaving={!current} />
    </div>
  );
}

const Toaster = lazy(async () => {
  const { Toaster: SonnerToaster } = await sonner();
  return {
    default: function MountedToaster() {
      useEffect(() => toasterMounted(), []);
      return (
        <SonnerToaster
          position="bottom-right"
          visibleToasts={1}
          offset={16}
          mobileOffset={12}
          containerAriaLabel={shellMsg.ui.notifications}
          toastOptions={{ unstyled: true }}
        />
      );
    },
  };
});

/** The shell's place for notices: bottom right, above the page (bottom centre on a phone). */
export function Notices() {
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
