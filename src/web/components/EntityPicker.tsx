import { useId, useState, type UIEvent } from "react";
import { keepPreviousData, useInfiniteQuery, useQuery, type QueryKey } from "@tanstack/react-query";
import {
  useCombobox,
  type UseComboboxReturnValue,
  type UseComboboxState,
  type UseComboboxStateChangeOptions,
} from "downshift";
import { ChevronDown, X } from "lucide-react";
import { useDebounce } from "use-debounce";
import type { z } from "zod";
import { matchesSearch } from "../../domain/limits";
import { listsMsg } from "../../domain/messages/kit";
import { api } from "../api/client";

export type PickerOption = { id: string; label: string };

/** The "no choice" entry ("All Customers"), first in the list while nothing is typed. */
const none: PickerOption = { id: "", label: "" };

const { stateChangeTypes: change } = useCombobox;

/**
 * Downshift's moves, kept to this picker's keyboard model: the arrows stop at the ends instead of
 * wrapping; Home and End stay the text box's; a click never closes the list (focus opened it); the
 * active option stays when the pointer leaves the list; leaving the field chooses nothing and keeps
 * the typed text. Choosing (click, Enter) empties the text: the chosen label shows from `current`.
 */
function stateReducer(
  state: UseComboboxState<PickerOption>,
  { type, changes, props }: UseComboboxStateChangeOptions<PickerOption>,
) {
  const last = props.items.length - 1;
  switch (type) {
    case change.InputKeyDownArrowDown:
      return state.isOpen ? { ...changes, highlightedIndex: Math.min(last, state.highlightedIndex + 1) } : changes;
    case change.InputKeyDownArrowUp:
      return state.isOpen ? { ...changes, highlightedIndex: Math.max(0, state.highlightedIndex - 1) } : changes;
    case change.InputClick:
      return { ...changes, isOpen: true, highlightedIndex: state.isOpen ? state.highlightedIndex : 0 };
    case change.MenuMouseLeave:
      return { ...changes, highlightedIndex: state.highlightedIndex };
    case change.InputBlur:
      return { ...changes, selectedItem: state.selectedItem, inputValue: state.inputValue };
    default:
      return changes;
  }
}

/** What an `EntityPicker` takes (see `EntityPicker`). */
type EntityPickerProps = {
  label: string;
  value: string | undefined;
  current: string | undefined;
  onChange: (id: string | undefined) => void;
  search: (
    q: string,
    after: string | undefined,
    signal: AbortSignal,
  ) => Promise<{ items: PickerOption[]; next: string | null }>;
  queryKey: QueryKey;
  emptyLabel?: string;
  placeholder?: string;
  id?: string;
  invalid?: boolean;
  disabled?: boolean;
  /** Ids of the text describing the field (a form's hint or error). */
  describedBy?: string;
  field?: boolean;
};

/**
 * An `EntityPicker`'s state: whether its list is open, the typed text, the pages of matches loaded
 * so far (the "no choice" entry first while nothing is typed), and Downshift's combobox over them.
 */
function useEntityPicker({ id: givenId, onChange, search, queryKey, emptyLabel }: EntityPickerProps) {
  const autoId = useId();
  const id = givenId ?? autoId;
  const optionId = (i: number) => `${id}-opt-${i}`;
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  const [q] = useDebounce(text.trim(), 200);
  const matches = useInfiniteQuery({
    queryKey: [...queryKey, q],
    queryFn: ({ signal, pageParam }) => search(q, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next ?? undefined,
    enabled: open,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  // Until the answer for what is typed arrives, the options shown are narrowed by it as the server
  // narrows them, so that an option does not move under the pointer when the answer lands.
  const typed = text.trim();
  const stale = typed !== q || matches.isPlaceholderData;
  const loaded = matches.data?.pages.flatMap((p) => p.items) ?? [];
  const found = stale ? loaded.filter((o) => matchesSearch(o.label, typed)) : loaded;
  const options = [...(emptyLabel && !typed ? [none] : []), ...found];
  const loadMore = () => {
    if (matches.hasNextPage && !matches.isFetchingNextPage) void matches.fetchNextPage();
  };
  const combobox = useCombobox<PickerOption>({
    items: options,
    isOpen: open,
    onIsOpenChange: ({ isOpen }) => setOpen(Boolean(isOpen)),
    inputValue: text,
    onInputValueChange: ({ inputValue }) => setText(inputValue ?? ""),
    inputId: id,
    menuId: `${id}-list`,
    getItemId: optionId,
    itemToString: () => "",
    itemToKey: (item) => item?.id,
    // The picker keeps no selection of its own: `value` is the page's, and every choice is reported.
    selectedItem: null,
    onSelectedItemChange: ({ selectedItem }) =>
      selectedItem && onChange(selectedItem === none ? undefined : selectedItem.id),
    // The arrow keys reaching the end of what is loaded ask for the next page.
    onHighlightedIndexChange: ({ highlightedIndex: at, type }) => {
      if (type === change.InputKeyDownArrowDown && (at ?? 0) >= options.length - 3) loadMore();
    },
    defaultHighlightedIndex: 0,
    stateReducer,
  });
  // The next page is asked for when the list is scrolled near its end.
  const onScroll = (e: UIEvent<HTMLUListElement>) => {
    const list = e.currentTarget;
    if (list.scrollHeight - list.scrollTop - list.clientHeight < 80) loadMore();
  };
  /** The clear button: reports "no choice", closes the list and forgets the typed text. */
  const clear = () => {
    onChange(undefined);
    setOpen(false);
    setText("");
  };
  const loading = matches.isPending || matches.isFetchingNextPage || stale;
  const noneFound = !stale && Boolean(matches.data) && found.length === 0 && Boolean(q);
  return { optionId, open, text, options, combobox, onScroll, clear, loading, noneFound };
}

/**
 * A picker (ARIA combobox with a listbox, Downshift's `useCombobox`) over an options endpoint: it
 * lists every record sorted by name, a page of about 20 at a time from the server (`search`, with
 * the cursor of the page before), loading the next as the list scrolls (or the arrow keys reach
 * its end), so no picker loads a whole table; typing narrows it (200 ms after the last key).
 * `value` is the chosen id; `current` its label (shown when closed); `emptyLabel` names "no
 * choice" (e.g. "All Customers") when given. Keyboard: arrows move, Enter chooses, Escape closes.
 * `field`: sized as a form's full-width field (a list filter otherwise).
 */
export function EntityPicker(props: EntityPickerProps) {
  const { label, value, current, emptyLabel, placeholder, invalid, disabled, describedBy, field = false } = props;
  const { optionId, open, text, options, combobox, onScroll, clear, loading, noneFound } = useEntityPicker(props);
  const { getInputProps, highlightedIndex, openMenu } = combobox;
  return (
    <div className={`relative w-full ${field ? "" : "sm:w-64"}`}>
      <div className={`input w-full ${field ? "" : "input-sm"} ${invalid ? "input-error" : ""}`}>
        <input
          {...getInputProps({
            "aria-label": label,
            "aria-invalid": invalid || undefined,
            "aria-describedby": describedBy,
            disabled,
            className: "grow",
            placeholder: open ? (placeholder ?? listsMsg.pickerMore) : (current ?? emptyLabel ?? placeholder ?? ""),
            maxLength: 200,
            onFocus: () => !open && openMenu(),
            // Home and End move the caret in the text, as in any text box.
            onKeyDown: (e) => {
              if (e.key === "Home" || e.key === "End")
                (e.nativeEvent as KeyboardEvent & { preventDownshiftDefault?: boolean }).preventDownshiftDefault = true;
            },
          })}
          // Closed, the field shows the choice (or "All Customers"); open, what is typed.
          value={open ? text : (current ?? (value ? "" : (emptyLabel ?? "")))}
          aria-activedescendant={
            open && options.length && highlightedIndex >= 0 ? optionId(highlightedIndex) : undefined
          }
        />
        {value && emptyLabel && !disabled ? (
          <button
            type="button"
            className="btn btn-ghost btn-xs btn-square"
            aria-label={`Clear ${label}`}
            onClick={clear}
          >
            <X className="h-3.5 w-3.5" aria-hidden />
          </button>
        ) : (
          <ChevronDown className="h-4 w-4 opacity-50" aria-hidden />
        )}
      </div>
      <PickerMenu
        label={label}
        value={value}
        emptyLabel={emptyLabel}
        open={open}
        options={options}
        combobox={combobox}
        onScroll={onScroll}
        loading={loading}
        noneFound={noneFound}
      />
    </div>
  );
}

/**
 * An `EntityPicker`'s listbox: its options (the page's choice marked selected, the active one
 * highlighted), then "Loading…" while a page loads and "No matches" when the search finds none.
 * Hidden, and empty, while closed.
 */
function PickerMenu({
  label,
  value,
  emptyLabel,
  open,
  options,
  combobox: { getMenuProps, getItemProps, highlightedIndex },
  onScroll,
  loading,
  noneFound,
}: {
  label: string;
  value: string | undefined;
  emptyLabel: string | undefined;
  open: boolean;
  options: PickerOption[];
  combobox: Pick<UseComboboxReturnValue<PickerOption>, "getMenuProps" | "getItemProps" | "highlightedIndex">;
  onScroll: (e: UIEvent<HTMLUListElement>) => void;
  loading: boolean;
  noneFound: boolean;
}) {
  return (
    <ul
      {...getMenuProps({ "aria-label": label, onScroll }, { suppressRefError: true })}
      hidden={!open}
      className="menu absolute z-40 mt-1 max-h-80 w-full flex-nowrap overflow-y-auto rounded-box border border-base-300 bg-base-100 p-1 shadow-lg"
    >
      {open
        ? options.map((option, i) => (
            <li key={option.id || "none"} role="none">
              <button
                type="button"
                {...getItemProps({ item: option, index: i })}
                // Selected is the page's choice (not the active option).
                aria-selected={(option === none ? undefined : option.id) === value}
                tabIndex={-1}
                className={`truncate ${i === highlightedIndex ? "menu-active" : ""}`}
              >
                {option === none ? emptyLabel : option.label}
              </button>
            </li>
          ))
        : null}
      {open && loading ? (
        <li className="px-3 py-2 text-sm text-base-content/70" role="none">
          {listsMsg.pickerLoading}
        </li>
      ) : null}
      {open && noneFound ? (
        <li className="px-3 py-2 text-sm text-base-content/70" role="none">
          {listsMsg.pickerNone}
        </li>
      ) : null}
    </ul>
  );
}

/** What the pickers made by `optionsPicker` take (a form `Field` sets the two aria props). */
export type OptionsPickerProps = {
  value: string | undefined;
  onChange: (id: string | undefined) => void;
  /** Only active records (the forms that link one). */
  activeOnly?: boolean;
  /** The "no choice" entry of a filter ("All Customers"). */
  emptyLabel?: string;
  id?: string;
  invalid?: boolean;
  disabled?: boolean;
  /** The accessible name; the kind's `label` unless given ("Customer" on the configuration screen). */
  label?: string;
  /** Sized as a form's full-width field. */
  field?: boolean;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
};

/**
 * One picker per options endpoint, declared by what differs: `path` ("/customers/options", which
 * answers `{ items, next }` sorted by name, `?q=`, `?active=true`, `?limit=`, `?after=` the `next`
 * cursor; `/customers/{id}/option` for one option), the zod schemas of a page and of one option, how an
 * option reads (`option`: its id and label), its query keys' root (so that the kind's changes
 * refetch it), and its texts. Returns `Picker` (an `EntityPicker` over it) and `Filter`, the list
 * toolbar's "Customer" filter laid out as `FilterSelect` with `labels.all` as its no-choice entry.
 */
export function optionsPicker<O, P extends z.ZodType<{ items: O[]; next: string | null }>>({
  path,
  page,
  one,
  option,
  root,
  labels,
}: {
  path: string;
  page: P;
  one: z.ZodType<O>;
  option: (o: O) => PickerOption;
  root: QueryKey;
  labels: { label: string; placeholder: string; all?: string };
}) {
  function Picker({
    value,
    onChange,
    activeOnly = false,
    emptyLabel,
    id,
    invalid,
    disabled,
    label = labels.label,
    field,
    ...aria
  }: OptionsPickerProps) {
    const chosen = useQuery({
      queryKey: [...root, "option", value],
      // The current choice: GET /api/<records>/{id}/option beside the list of options.
      queryFn: ({ signal }) =>
        api(`${path.replace(/\/options$/, "")}/${encodeURIComponent(value ?? "")}/option`, one, { signal }),
      enabled: Boolean(value),
      staleTime: 60_000,
    });
    return (
      <EntityPicker
        id={id}
        label={label}
        value={value}
        current={value && chosen.data ? option(chosen.data).label : undefined}
        onChange={onChange}
        emptyLabel={emptyLabel}
        invalid={invalid || aria["aria-invalid"]}
        describedBy={aria["aria-describedby"]}
        field={field}
        disabled={disabled}
        placeholder={labels.placeholder}
        queryKey={[...root, "options", activeOnly]}
        search={async (q, after, signal) => {
          const answer = await api(path, page, {
            query: { q: q || undefined, active: activeOnly ? "true" : undefined, limit: 20, after },
            signal,
          });
          return { items: answer.items.map(option), next: answer.next };
        }}
      />
    );
  }

  function Filter({ value, onChange }: { value: string | undefined; onChange: (id: string | undefined) => void }) {
    return (
      // Laid out as FilterSelect is, so that filters on a phone line up in one column.
      <div className="grid grid-cols-[6.5rem_minmax(0,1fr)] items-center gap-2 text-sm sm:flex">
        <span className="whitespace-nowrap text-base-content/80" aria-hidden>
          {labels.label}
        </span>
        <Picker value={value} onChange={onChange} emptyLabel={labels.all} />
      </div>
    );
  }

  return { Picker, Filter };
}
