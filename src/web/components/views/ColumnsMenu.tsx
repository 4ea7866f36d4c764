import { useState } from "react";
import { ArrowDown, ArrowUp, Columns3, RotateCcw } from "lucide-react";
import { columnsMsg } from "../../../domain/messages/views";
import { Modal } from "../overlays";
import type { ColumnChoice } from "./view-state";

type Item = { id: string; label: string; visible: boolean };

/** The chooser's rows: the visible columns in their order, then the hidden ones in the spec's order. */
function itemsOf(columns: ColumnChoice[], visible: string[]): Item[] {
  const byId = new Map(columns.map((c) => [c.id, c]));
  const shown = visible.filter((id) => byId.has(id)).map((id) => ({ ...byId.get(id)!, visible: true }));
  const hidden = columns.filter((c) => !visible.includes(c.id)).map((c) => ({ ...c, visible: false }));
  return [...shown, ...hidden];
}

/** The rows with the one at `index` moved by one place (`by`: up or down). */
function moved(items: Item[], index: number, by: -1 | 1): Item[] {
  const next = [...items];
  const [item] = next.splice(index, 1);
  next.splice(index + by, 0, item);
  return next;
}

/**
 * Focus after a row moved to `to`: it stays on the button used, or goes to the other one when the
 * row reached an end of the visible ones (where the button used is now disabled).
 */
function focusMoved(id: string, to: number, by: -1 | 1, shownCount: number) {
  const direction = (to === 0 && by === -1) || (to === shownCount - 1 && by === 1) ? -by : by;
  requestAnimationFrame(() => document.getElementById(`column-${id}-${direction === -1 ? "up" : "down"}`)?.focus());
}

/** A column's Move up (`by` -1) or Move down (1) button, with the id `focusMoved` looks for. */
function MoveButton({
  item,
  by,
  disabled,
  onMove,
}: {
  item: Item;
  by: -1 | 1;
  disabled: boolean;
  onMove: (by: -1 | 1) => void;
}) {
  const up = by === -1;
  const Arrow = up ? ArrowUp : ArrowDown;
  return (
    <button
      type="button"
      id={`column-${item.id}-${up ? "up" : "down"}`}
      className="btn btn-ghost btn-xs btn-square"
      aria-label={up ? columnsMsg.moveUp(item.label) : columnsMsg.moveDown(item.label)}
      title={up ? columnsMsg.up : columnsMsg.down}
      disabled={disabled}
      onClick={() => onMove(by)}
    >
      <Arrow className="h-4 w-4" aria-hidden />
    </button>
  );
}

/** One column in the chooser: its checkbox (shown or hidden) and its Move up / Move down buttons. */
function ColumnRow({
  item,
  last,
  canMoveUp,
  canMoveDown,
  onToggle,
  onMove,
}: {
  item: Item;
  /** The only visible column. */
  last: boolean;
  canMoveUp: boolean;
  canMoveDown: boolean;
  onToggle: (visible: boolean) => void;
  onMove: (by: -1 | 1) => void;
}) {
  return (
    <li className="flex items-center gap-2 rounded-field px-2 py-1 hover:bg-base-200">
      <label
        className="flex min-w-0 flex-1 items-center gap-2 text-sm"
        title={last ? columnsMsg.lastVisible : undefined}
      >
        <input
          type="checkbox"
          className="checkbox checkbox-sm"
          checked={item.visible}
          // The last visible column stays: unticking it would leave an empty table.
          disabled={last}
          aria-describedby={last ? "columns-last-visible" : undefined}
          onChange={(e) => onToggle(e.target.checked)}
        />
        <span className="truncate">{item.label}</span>
      </label>
      <MoveButton item={item} by={-1} disabled={!canMoveUp} onMove={onMove} />
      <MoveButton item={item} by={1} disabled={!canMoveDown} onMove={onMove} />
    </li>
  );
}

/**
 * "Columns" in a list's toolbar (docs/saved-views.md "Columns"): a dialog listing the list's
 * columns, each with a checkbox (shown or hidden) and Move up / Move down buttons, and "Reset
 * columns" (the spec's columns in their order). Every change applies at once (`onChange` with the
 * visible ids in order); the last visible column cannot be hidden. A dialog rather than a menu so
 * that checkboxes and buttons keep their usual keys (Tab, Space) and focus stays on a moved row's button.
 */
export function ColumnsMenu({
  columns,
  visible,
  onChange,
  viewName,
}: {
  /** The name of the view open, whose columns a change then is (else the operator's own for the list). */
  viewName?: string;
  /** The list's choosable columns in the spec's order. */
  columns: ColumnChoice[];
  /** The visible ids in order. */
  visible: string[];
  /** A new choice; null: the spec's columns. */
  onChange: (visible: string[] | null) => void;
}) {
  const [open, setOpen] = useState(false);
  const items = itemsOf(columns, visible);
  const shownCount = items.filter((i) => i.visible).length;

  const apply = (next: Item[]) => onChange(next.filter((i) => i.visible).map((i) => i.id));
  const move = (index: number, by: -1 | 1) => {
    apply(moved(items, index, by));
    focusMoved(items[index].id, index + by, by, shownCount);
  };

  return (
    <>
      <button type="button" className="btn btn-sm" onClick={() => setOpen(true)} aria-haspopup="dialog">
        <Columns3 className="h-4 w-4" aria-hidden />
        {columnsMsg.menu}
      </button>
      <Modal
        open={open}
        title={columnsMsg.title}
        onClose={() => setOpen(false)}
        footer={
          <>
            <button type="button" className="btn btn-ghost mr-auto" onClick={() => onChange(null)}>
              <RotateCcw className="h-4 w-4" aria-hidden />
              {columnsMsg.reset}
            </button>
            <button type="button" className="btn btn-primary" onClick={() => setOpen(false)}>
              {columnsMsg.done}
            </button>
          </>
        }
      >
        <p className="mb-3 text-sm text-base-content/70">
          {columnsMsg.intro} {viewName ? columnsMsg.forView(viewName) : columnsMsg.forList}
        </p>
        <ul className="flex flex-col gap-1" aria-label={columnsMsg.title}>
          {items.map((item, index) => (
            <ColumnRow
              key={item.id}
              item={item}
              last={item.visible && shownCount === 1}
              // A hidden column has no place among the shown ones: ticked, it comes after them.
              canMoveUp={item.visible && index > 0}
              canMoveDown={item.visible && index < shownCount - 1}
              onToggle={(checked) => apply(items.map((i) => (i.id === item.id ? { ...i, visible: checked } : i)))}
              onMove={(by) => move(index, by)}
            />
          ))}
        </ul>
        {shownCount === 1 ? (
          <p id="columns-last-visible" className="mt-2 text-xs text-base-content/70">
            {columnsMsg.lastVisible}
          </p>
        ) : null}
      </Modal>
    </>
  );
}
