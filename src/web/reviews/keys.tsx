import { useEffect, useRef, useState } from "react";
import { Keyboard } from "lucide-react";
import { Modal } from "../components/overlays";

/** A shortcut key (lower case, or "?") and what it does. */
export type ShortcutKeys = Record<string, () => void>;

/** True when a key press belongs to a field (typing a comment, choosing a filter). */
const inField = (target: EventTarget | null) => {
  const t = target as HTMLElement | null;
  return Boolean(t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName)));
};

/**
 * The review screens' keyboard (the comment review queue, a proposed prompt change): single keys
 * without Ctrl, Cmd or Alt, ignored while typing in a field; `?` shows or hides the list of keys
 * (`KeysDialog`), and while it shows the other keys do nothing. `keys` maps a lower-case key to
 * its action; the latest `keys` are used, so actions may read the screen's current state.
 */
export function useShortcutKeys(keys: ShortcutKeys) {
  const [showKeys, setShowKeys] = useState(false);
  const latest = useRef({ keys, showKeys });
  latest.current = { keys, showKeys };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || e.isComposing || inField(e.target)) return;
      if (e.key === "?") {
        e.preventDefault();
        setShowKeys((v) => !v);
        return;
      }
      if (latest.current.showKeys) return;
      const action = latest.current.keys[e.key.toLowerCase()];
      if (!action) return;
      e.preventDefault();
      action();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  return { showKeys, setShowKeys };
}

/** The "Keyboard shortcuts" button that opens the list of keys. */
export function KeysButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button type="button" className="btn btn-ghost btn-sm" onClick={onClick} aria-keyshortcuts="?">
      <Keyboard className="h-4 w-4" aria-hidden /> {label}
    </button>
  );
}

/** The list of a screen's keys, each with what it does. */
export function KeysDialog({
  open,
  title,
  keys,
  onClose,
}: {
  open: boolean;
  title: string;
  keys: ReadonlyArray<readonly [string, string]>;
  onClose: () => void;
}) {
  return (
    <Modal open={open} title={title} onClose={onClose}>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm" data-autofocus tabIndex={-1}>
        {keys.map(([k, text]) => (
          <div key={k} className="contents">
            <dt>
              <kbd className="kbd kbd-sm">{k}</kbd>
            </dt>
            <dd>{text}</dd>
          </div>
        ))}
      </dl>
    </Modal>
  );
}

/** A button with its keyboard shortcut shown and announced. */
export function KeyButton({
  label,
  shortcut,
  disabled,
  onClick,
  className = "btn btn-ghost btn-sm",
}: {
  label: string;
  shortcut: string;
  disabled?: boolean;
  onClick: () => void;
  className?: string;
}) {
  return (
    <button type="button" className={className} disabled={disabled} onClick={onClick} aria-keyshortcuts={shortcut}>
      {label} <kbd className="kbd kbd-xs">{shortcut}</kbd>
    </button>
  );
}
