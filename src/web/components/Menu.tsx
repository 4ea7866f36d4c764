import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { Link } from "@tanstack/react-router";
import type { LucideIcon } from "lucide-react";

/** One entry of a `Menu`: an action, a link, a choice among several (radio), a heading or a separator. */
export type MenuEntry =
  | {
      kind?: "action";
      label: string;
      icon?: LucideIcon;
      onSelect: () => void;
      tone?: "error";
      /** Shown disabled, with this reason as its description. */
      disabledReason?: string;
    }
  | { kind: "link"; label: string; icon?: LucideIcon; to: string; search?: Record<string, unknown>; params?: Record<string, string> }
  | { kind: "radio"; label: string; icon?: LucideIcon; checked: boolean; onSelect: () => void }
  | { kind: "separator" };

/** Entries, or a labelled group of them (its label shown as a small heading). */
export type MenuSection = MenuEntry | { kind: "group"; label: string; entries: MenuEntry[] };

const itemClass = "flex w-full items-center gap-2 rounded-field px-3 py-2 text-left text-sm hover:bg-base-200 focus:bg-base-200 focus:outline-none aria-disabled:cursor-not-allowed aria-disabled:text-base-content/70";

/**
 * A menu button (WAI-ARIA menu button pattern): the items exist only while the menu is open, so
 * they are out of the Tab order until then. Opening from the keyboard focuses the first item;
 * arrows, Home and End move; Escape closes and gives focus back to the button; Tab or a click
 * outside closes.
 */
export function Menu({ label, button, buttonClassName = "btn btn-ghost btn-sm", header, entries, align = "end", width = "w-56" }: {
  /** Accessible name of the button. */
  label: string;
  button: ReactNode;
  buttonClassName?: string;
  /** Text above the items (not an item). */
  header?: ReactNode;
  entries: MenuSection[];
  align?: "start" | "end";
  width?: string;
}) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const focusFirst = useRef(false);

  const items = () => [...(root.current?.querySelectorAll<HTMLElement>("[role^=menuitem]") ?? [])];

  useEffect(() => {
    if (!open) return;
    if (focusFirst.current) items()[0]?.focus();
    const onPointer = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
  }, [open]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) trigger.current?.focus();
  };

  const onMenuKey = (e: KeyboardEvent) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLElement);
    const to = { ArrowDown: (at + 1) % list.length, ArrowUp: (at - 1 + list.length) % list.length, Home: 0, End: list.length - 1 }[e.key as "Home"];
    if (to !== undefined) {
      e.preventDefault();
      list[to]?.focus();
    } else if (e.key === "Escape") {
      e.preventDefault();
      close(true);
    } else if (e.key === "Tab") {
      setOpen(false);
    }
  };

  const select = (run: () => void) => () => {
    close(true);
    run();
  };

  return (
    <div ref={root} className="relative">
      <button
        ref={trigger}
        type="button"
        className={buttonClassName}
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={(e) => {
          // A click from Enter or Space (detail 0) moves focus into the menu; a mouse click does not.
          focusFirst.current = e.detail === 0;
          setOpen((v) => !v);
        }}
        onKeyDown={(e) => {
          if (e.key !== "ArrowDown") return;
          e.preventDefault();
          focusFirst.current = true;
          if (open) items()[0]?.focus();
          else setOpen(true);
        }}
      >
        {button}
      </button>
      {open ? (
        <div className={`absolute z-50 mt-2 ${width} ${align === "end" ? "right-0" : "left-0"} rounded-box border border-base-300 bg-base-100 p-1.5 shadow-lg`}>
          {header ? <div className="border-b border-base-300 px-3 pt-1.5 pb-2.5 mb-1">{header}</div> : null}
          <ul id={menuId} role="menu" aria-label={label} onKeyDown={onMenuKey}>
            {entries.map((entry, i) =>
              entry.kind === "group" ? (
                <li key={i} role="none">
                  <ul role="group" aria-label={entry.label}>
                    <li role="presentation" aria-hidden="true" className="px-3 pt-2 pb-1 text-xs font-semibold uppercase tracking-wide text-base-content/70">{entry.label}</li>
                    {entry.entries.map((e, j) => <MenuItem key={j} entry={e} select={select} close={() => setOpen(false)} />)}
                  </ul>
                </li>
              ) : (
                <MenuItem key={i} entry={entry} select={select} close={() => setOpen(false)} />
              ),
            )}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

function MenuItem({ entry, select, close }: { entry: MenuEntry; select: (run: () => void) => () => void; close: () => void }) {
  if (entry.kind === "separator") return <li role="separator" className="my-1 border-t border-base-300" />;
  const Icon = entry.icon;
  const icon = Icon ? <Icon className="h-4 w-4 shrink-0" aria-hidden /> : null;
  if (entry.kind === "link") {
    return (
      <li role="none">
        <Link role="menuitem" tabIndex={-1} to={entry.to as "/"} search={entry.search as never} params={entry.params as never} className={itemClass} onClick={close}>
          {icon}
          {entry.label}
        </Link>
      </li>
    );
  }
  if (entry.kind === "radio") {
    return (
      <li role="none">
        <button type="button" role="menuitemradio" aria-checked={entry.checked} tabIndex={-1} className={`${itemClass} ${entry.checked ? "font-semibold" : ""}`} onClick={select(entry.onSelect)}>
          {icon}
          <span className="flex-1">{entry.label}</span>
          {entry.checked ? <span aria-hidden className="h-1.5 w-1.5 rounded-full bg-primary" /> : null}
        </button>
      </li>
    );
  }
  const disabled = Boolean(entry.disabledReason);
  return (
    <li role="none">
      <button
        type="button"
        role="menuitem"
        tabIndex={-1}
        aria-disabled={disabled || undefined}
        aria-description={entry.disabledReason}
        title={entry.disabledReason}
        className={`${itemClass} ${entry.tone === "error" && !disabled ? "text-error" : ""}`}
        onClick={disabled ? undefined : select(entry.onSelect)}
      >
        {icon}
        <span className="flex-1">{entry.label}</span>
      </button>
    </li>
  );
}
