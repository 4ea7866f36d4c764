import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { Link } from "@tanstack/react-router";
import type { LucideIcon } from "lucide-react";
import type { Target } from "../lib/target";

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
  | {
      kind: "link";
      label: string;
      icon?: LucideIcon;
      link: Target;
    }
  | { kind: "radio"; label: string; icon?: LucideIcon; checked: boolean; onSelect: () => void }
  | { kind: "separator" };

/** Entries, or a labelled group of them (its label shown as a small heading). */
export type MenuSection = MenuEntry | { kind: "group"; label: string; entries: MenuEntry[] };

/** What `Menu` takes (see there). */
export type MenuProps = {
  /** Accessible name of the button. */
  label: string;
  button: ReactNode;
  buttonClassName?: string;
  /** Text above the items (not an item). */
  header?: ReactNode;
  entries: MenuSection[];
  align?: "start" | "end";
  width?: string;
};

/**
 * How the menu was asked for before its code had loaded: opened (from the keyboard, which moves
 * focus into it, or with the pointer), and whether its button had focus.
 */
export type MenuOpening = { open: "keyboard" | "pointer" | null; focused: boolean };

const itemClass =
  "flex w-full items-center gap-2 rounded-field px-3 py-2 text-left text-sm hover:bg-base-200 focus:bg-base-200 focus:outline-none aria-disabled:cursor-not-allowed aria-disabled:text-base-content/70";

/**
 * The menu of `Menu` (its own chunk, loaded on first use): Radix DropdownMenu, rendered in place
 * (no portal: Tab from an item goes on to what follows the menu) and not modal (the page keeps its
 * scrolling and stays readable to screen readers, and Radix writes no stylesheet the
 * Content-Security-Policy would refuse).
 */
export default function MenuPopup({
  label,
  button,
  buttonClassName = "btn btn-ghost btn-sm",
  header,
  entries,
  align = "end",
  width = "w-56",
  opening,
}: MenuProps & { opening: MenuOpening }) {
  const [open, setOpen] = useState(opening.open !== null);
  const firstOpen = useRef(opening.open);
  const tabbing = useRef(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const content = useRef<HTMLDivElement>(null);

  // This button replaced the one shown while the code loaded: it keeps that one's focus.
  useLayoutEffect(() => {
    if (opening.focused && opening.open === null) trigger.current?.focus();
  }, [opening]);

  // Opened from the keyboard before the code was here: focus goes to the first item, as Radix does
  // when it sees the key itself (this runs after Radix focused the menu).
  useEffect(() => {
    if (firstOpen.current === "keyboard") content.current?.querySelector<HTMLElement>("[role^=menuitem]")?.focus();
  }, []);

  // Tab leaves the menu for what follows it, as from any control; Radix would keep focus inside.
  const onKeyDownCapture = (e: KeyboardEvent) => {
    if (e.key !== "Tab") return;
    e.stopPropagation();
    tabbing.current = true;
    setOpen(false);
  };

  return (
    <div className="relative">
      <DropdownMenu.Root open={open} onOpenChange={setOpen} modal={false}>
        <DropdownMenu.Trigger ref={trigger} className={buttonClassName} aria-label={label}>
          {button}
        </DropdownMenu.Trigger>
        <DropdownMenu.Content
          ref={content}
          align={align}
          sideOffset={8}
          className={`z-50 ${width} rounded-box border border-base-300 bg-base-100 p-1.5 shadow-lg`}
          onKeyDownCapture={onKeyDownCapture}
          onCloseAutoFocus={(e) => {
            if (!tabbing.current) return;
            tabbing.current = false;
            e.preventDefault();
          }}
        >
          {header ? <div className="mb-1 border-b border-base-300 px-3 pt-1.5 pb-2.5">{header}</div> : null}
          {entries.map((entry, i) =>
            entry.kind === "group" ? (
              <Group key={i} label={entry.label} entries={entry.entries} />
            ) : (
              <Item key={i} entry={entry} />
            ),
          )}
        </DropdownMenu.Content>
      </DropdownMenu.Root>
    </div>
  );
}

/** A labelled group; a group of choices is a radio group. */
function Group({ label, entries }: { label: string; entries: MenuEntry[] }) {
  const heading = (
    <DropdownMenu.Label
      aria-hidden="true"
      className="px-3 pt-2 pb-1 text-xs font-semibold uppercase tracking-wide text-base-content/70"
    >
      {label}
    </DropdownMenu.Label>
  );
  const items = entries.map((e, j) => <Item key={j} entry={e} />);
  const radios = entries.filter((e) => e.kind === "radio");
  if (radios.length === entries.length) {
    return (
      <DropdownMenu.RadioGroup
        aria-label={label}
        value={radios.find((e) => e.checked)?.label ?? ""}
        onValueChange={(v) => radios.find((e) => e.label === v)?.onSelect()}
      >
        {heading}
        {items}
      </DropdownMenu.RadioGroup>
    );
  }
  return (
    <DropdownMenu.Group aria-label={label}>
      {heading}
      {items}
    </DropdownMenu.Group>
  );
}

function Item({ entry }: { entry: MenuEntry }) {
  if (entry.kind === "separator") return <DropdownMenu.Separator className="my-1 border-t border-base-300" />;
  const Icon = entry.icon;
  const icon = Icon ? <Icon className="h-4 w-4 shrink-0" aria-hidden /> : null;
  if (entry.kind === "link") {
    return (
      <DropdownMenu.Item asChild>
        <Link {...entry.link} className={itemClass}>
          {icon}
          {entry.label}
        </Link>
      </DropdownMenu.Item>
    );
  }
  if (entry.kind === "radio") {
    return (
      <DropdownMenu.RadioItem value={entry.label} asChild>
        <button type="button" className={`${itemClass} ${entry.checked ? "font-semibold" : ""}`}>
          {icon}
          <span className="flex-1">{entry.label}</span>
          {entry.checked ? <span aria-hidden className="h-1.5 w-1.5 rounded-full bg-primary" /> : null}
        </button>
      </DropdownMenu.RadioItem>
    );
  }
  const disabled = Boolean(entry.disabledReason);
  return (
    <DropdownMenu.Item
      asChild
      // A disabled entry stays reachable, so that its reason is read; choosing it does nothing.
      onSelect={disabled ? (e) => e.preventDefault() : entry.onSelect}
    >
      <button
        type="button"
        aria-disabled={disabled || undefined}
        aria-description={entry.disabledReason}
        title={entry.disabledReason}
        className={`${itemClass} ${entry.tone === "error" && !disabled ? "text-error" : ""}`}
      >
        {icon}
        <span className="flex-1">{entry.label}</span>
      </button>
    </DropdownMenu.Item>
  );
}
