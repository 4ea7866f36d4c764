import { useRef, useState } from "react";
import type { default as MenuPopupComponent, MenuOpening, MenuProps } from "./MenuPopup";

export type { MenuEntry, MenuSection } from "./MenuPopup";

type Popup = typeof MenuPopupComponent;
/** The menu's code once here: menus shown from then on render it at once. */
let loaded: Popup | undefined;
let loading: Promise<Popup> | undefined;
const load = () => (loading ??= import("./MenuPopup").then((m) => (loaded = m.default)));

/**
 * A menu button (WAI-ARIA menu button pattern, Radix DropdownMenu): the items exist only while the
 * menu is open, so they are out of the Tab order until then. Opening from the keyboard focuses the
 * first item; arrows, Home and End move; typing a letter goes to the item it starts; Escape
 * closes and gives focus back to the button; Tab or a click outside closes.
 *
 * Until the button is first pointed at or focused, it is a plain button of the same look: the
 * menu's code (MenuPopup, with Radix) loads then, not with the first screen. That button stays
 * (with its focus) until the code is here; a menu asked for meanwhile opens then.
 */
export function Menu(props: MenuProps) {
  const [MenuPopup, setMenuPopup] = useState<Popup | undefined>(() => loaded);
  const button = useRef<HTMLButtonElement>(null);
  const opening = useRef<MenuOpening>({ open: null, focused: false });
  const asked = useRef(false);
  const want = () => {
    if (asked.current) return;
    asked.current = true;
    void load().then((popup) => {
      opening.current.focused = document.activeElement === button.current;
      setMenuPopup(() => popup);
    });
  };
  const ask = (how: "keyboard" | "pointer") => {
    opening.current.open ??= how;
    want();
  };
  if (MenuPopup) return <MenuPopup {...props} opening={opening.current} />;
  return (
    <div className="relative">
      <button
        ref={button}
        type="button"
        className={props.buttonClassName ?? "btn btn-ghost btn-sm"}
        aria-label={props.label}
        aria-haspopup="menu"
        aria-expanded={false}
        onPointerEnter={want}
        onFocus={want}
        onPointerDown={(e) => e.button === 0 && ask("pointer")}
        onKeyDown={(e) => {
          if (e.key !== "Enter" && e.key !== " " && e.key !== "ArrowDown") return;
          e.preventDefault();
          ask("keyboard");
        }}
        onClick={(e) => ask(e.detail === 0 ? "keyboard" : "pointer")}
      >
        {props.button}
      </button>
    </div>
  );
}
