import type { ReactNode } from "react";
import { X } from "lucide-react";
import { attentionMsg } from "../../domain/messages/dashboard";
import { uiMsg } from "../../domain/messages/kit";
import type { ServerList } from "../lib/server-list";
import { ListFilter } from "./ListScreen";

/** The list state a filter reads and changes. */
type FilteredList = Pick<ServerList, "state" | "setFilter">;

/**
 * A row of filters above a list's table, one named group for assistive technology; it stacks on
 * phones and wraps on wider screens.
 */
export function FilterGroup({ children }: { children: ReactNode }) {
  return (
    <div
      className="mb-3 flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center"
      role="group"
      aria-label="Filters"
    >
      {children}
    </div>
  );
}

/** The "Status" filter of a list (`status` in its state): `all` clears it, `options` are the statuses. */
export function StatusFilter<V extends string>({
  list,
  all,
  options,
}: {
  list: FilteredList;
  all: string;
  options: readonly V[];
}) {
  return <ListFilter list={list} name="status" label={attentionMsg.statusFilter} all={all} options={options} />;
}

/**
 * A filter with the single value `none`, shown as `none` ("No prompt"): the records the dashboard's
 * "Needs attention" links to (no prompt, no platform, no active skill); `all` clears it.
 */
export function NoneFilter({
  list,
  name,
  label,
  all,
  none,
}: {
  list: FilteredList;
  name: string;
  label: string;
  all: string;
  none: string;
}) {
  return (
    <ListFilter list={list} name={name} label={label} all={all} options={["none"] as const} optionLabel={() => none} />
  );
}

/**
 * A filter the screen has no control for (a link brought it: the dashboard's "Signed in at least
 * once", a trend's day), shown as a chip that removes it: `label` says what it keeps, `onClear`
 * takes it away.
 */
export function FilterChip({ label, onClear }: { label: string; onClear: () => void }) {
  return (
    <button
      type="button"
      className="badge badge-primary badge-soft h-8 gap-1.5 px-3"
      onClick={onClear}
      aria-label={uiMsg.clearFilter(label)}
    >
      {label} <X className="h-3.5 w-3.5" aria-hidden />
    </button>
  );
}
