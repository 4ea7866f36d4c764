/**
 * The console's keyboard (docs/keyboard.md): one listener for the whole app, in the shell.
 *
 *  - `g` then a letter goes to a sidebar entry (each feature declares its letter in its `nav`);
 *  - `?` shows or hides every shortcut of the current screen: its own keys, the go-to letters and
 *    the keys that work anywhere;
 *  - a screen's own single keys (the review queues' A, R, J, K …) are registered with
 *    `useShortcutKeys` and run while that screen shows.
 *
 * Keys with Ctrl, Cmd or Alt, keys typed in a field, keys while another dialog is open and keys
 * being composed by an input method are never taken, so no keystroke meant for a field is lost.
 */
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import { Keyboard } from "lucide-react";
import { shortcutsMsg } from "../../domain/messages/common";
import { Modal } from "../components/overlays";

/** A screen's keys: a lower-case key (or "?") mapped to what it does. */
export type ShortcutKeys = Record<string, () => void>;

/** Lines of the shortcuts list: the keys as written ("A", "G then C") and what they do. */
export type KeyHelp = ReadonlyArray<readonly [string, string]>;

/** A sidebar entry reachable with `g` then `key`. */
export type GoToEntry = { key: string; label: string; to: string };

/** How long after `g` its letter is awaited, in milliseconds. */
export const goToWindowMs = 1_500;

type Registration = { keys: ShortcutKeys; help: KeyHelp };

type Keyboard = {
  register: (r: { current: Registration }) => () => void;
  helpOpen: boolean;
  setHelpOpen: (open: boolean | ((open: boolean) => boolean)) => void;
};

const KeyboardContext = createContext<Keyboard | null>(null);

/** True when a key press belongs to a field (typing a comment, choosing a filter). */
export const inField = (target: EventTarget | null) => {
  const t = target as HTMLElement | null;
  return Boolean(t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName)));
};

/** Another dialog or menu has the keyboard (a confirmation, the search palette, an open menu). */
const otherLayerOpen = () =>
  [...document.querySelectorAll("dialog[open]")].some((d) => d.getAttribute("aria-label") !== shortcutsMsg.title) ||
  Boolean(document.querySelector("[role=menu]"));

/**
 * Holds the keyboard for the app: the `g` letters (`goTo`, already filtered to the operator's
 * role), the current screen's keys, and the shortcuts dialog. `onGo` opens a path (the router's
 * navigate; a prop so the keyboard needs no router).
 */
export function KeyboardProvider({
  goTo,
  onGo,
  now = () => performance.now(),
  children,
}: {
  goTo: readonly GoToEntry[];
  onGo: (to: string) => void;
  /** The clock the `g` window is measured on, in milliseconds (tests move it). */
  now?: () => number;
  children: ReactNode;
}) {
  const [helpOpen, setHelpOpen] = useState(false);
  // The screens' registrations, latest last: the last one mounted is the screen showing.
  const screens = useRef<Array<{ current: Registration }>>([]);
  const [, setRevision] = useState(0);
  const latest = useRef({ goTo, onGo, helpOpen, now });
  latest.current = { goTo, onGo, helpOpen, now };
  const gAt = useRef<number | null>(null);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.isComposing || inField(e.target)) return;
      const { helpOpen: showing } = latest.current;
      if (e.key === "?") {
        if (!showing && otherLayerOpen()) return;
        e.preventDefault();
        setHelpOpen((v) => !v);
        return;
      }
      if (showing || otherLayerOpen()) return;
      const key = e.key.toLowerCase();
      // The letter after `g`: compared with the time of the `g`, so nothing waits on a timer.
      const at = latest.current.now();
      if (gAt.current !== null && at - gAt.current <= goToWindowMs) {
        gAt.current = null;
        const entry = latest.current.goTo.find((g) => g.key === key);
        if (entry) {
          e.preventDefault();
          latest.current.onGo(entry.to);
        }
        return;
      }
      gAt.current = null;
      const screen = screens.current.at(-1)?.current;
      const action = screen?.keys[key];
      if (action) {
        e.preventDefault();
        action();
        return;
      }
      if (key === "g" && !e.shiftKey) gAt.current = at;
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const keyboard: Keyboard = {
    register: (r) => {
      screens.current.push(r);
      setRevision((n) => n + 1);
      return () => {
        screens.current = screens.current.filter((s) => s !== r);
        setRevision((n) => n + 1);
      };
    },
    helpOpen,
    setHelpOpen,
  };
  const screenHelp = screens.current.at(-1)?.current.help ?? [];
  return (
    <KeyboardContext.Provider value={keyboard}>
      {children}
      <ShortcutsDialog open={helpOpen} onClose={() => setHelpOpen(false)} screen={screenHelp} goTo={goTo} />
    </KeyboardContext.Provider>
  );
}

/**
 * A screen's own keys (the review queues): `keys` maps a lower-case key to its action (the latest
 * `keys` are used, so actions may read the screen's current state); `help` lists them for the
 * shortcuts dialog. Returns the dialog's state, for a screen's "Keyboard shortcuts" button.
 * A screen's key wins over `g`; the go-to letters are read only right after `g`.
 */
export function useShortcutKeys(keys: ShortcutKeys, help: KeyHelp = []) {
  const keyboard = useContext(KeyboardContext);
  if (!keyboard) throw new Error("useShortcutKeys needs a KeyboardProvider");
  const registration = useRef<Registration>({ keys, help });
  registration.current = { keys, help };
  const { register } = keyboard;
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => register(registration), []);
  return { showKeys: keyboard.helpOpen, setShowKeys: keyboard.setHelpOpen };
}

/** Opens the shortcuts dialog (the user menu's entry, a screen's button). */
export function useShortcutsHelp() {
  const keyboard = useContext(KeyboardContext);
  return () => keyboard?.setHelpOpen(true);
}

/** The "Keyboard shortcuts" button that opens the list of keys. */
export function KeysButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button type="button" className="btn btn-ghost btn-sm" onClick={onClick} aria-keyshortcuts="?">
      <Keyboard className="h-4 w-4" aria-hidden /> {label}
    </button>
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

/** Every shortcut of the current screen, in three groups: this screen's, Go to, Anywhere. */
function ShortcutsDialog({
  open,
  onClose,
  screen,
  goTo,
}: {
  open: boolean;
  onClose: () => void;
  screen: KeyHelp;
  goTo: readonly GoToEntry[];
}) {
  const s = shortcutsMsg;
  const groups: Array<[string, KeyHelp]> = [
    ...(screen.length > 0 ? [[s.onThisScreen, screen] as [string, KeyHelp]] : []),
    [s.goTo, goTo.map((g) => [s.goToKeys(g.key), g.label] as const)],
    [
      s.anywhere,
      [
        [s.searchKeys, s.search],
        [s.helpKeys, s.help],
        [s.closeKeys, s.close],
      ],
    ],
  ];
  return (
    <Modal open={open} title={s.title} onClose={onClose}>
      <div className="grid gap-5 sm:grid-cols-2" data-autofocus tabIndex={-1} data-testid="shortcuts">
        {groups.map(([title, lines]) => (
          <section key={title} aria-label={title} className={title === s.goTo ? "sm:row-span-2" : ""}>
            <h3 className="mb-2 text-sm font-semibold">{title}</h3>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
              {lines.map(([k, text]) => (
                <div key={k} className="contents">
                  <dt className="whitespace-nowrap">
                    <kbd className="kbd kbd-sm">{k}</kbd>
                  </dt>
                  <dd>{text}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </Modal>
  );
}
