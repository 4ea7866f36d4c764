import { useEffect, useId, useRef, useState } from "react";
import { keepPreviousData, useInfiniteQuery, type QueryKey } from "@tanstack/react-query";
import { ChevronDown, X } from "lucide-react";
import { msg } from "../../domain/messages";

export type PickerOption = { id: string; label: string };

/**
 * A picker (ARIA combobox with a listbox) over an options endpoint: it lists every record sorted
 * by name, a page of about 20 at a time from the server (`search`, with the cursor of the page
 * before), loading the next as the list scrolls (or the arrow keys reach its end), so no picker
 * loads a whole table; typing narrows it. `value` is the chosen id; `current` its label (shown when
 * closed); `emptyLabel` names "no choice" (e.g. "All Customers") when given. Keyboard: arrows
 * move, Enter chooses, Escape closes. `field`: sized as a form's full-width field (a list filter
 * otherwise).
 */
export function EntityPicker({ label, value, current, onChange, search, queryKey, emptyLabel, placeholder, id: givenId, invalid, disabled, describedBy, field = false }: {
  label: string;
  value: string | undefined;
  current: string | undefined;
  onChange: (id: string | undefined) => void;
  search: (q: string, after: string | undefined, signal: AbortSignal) => Promise<{ items: PickerOption[]; next: string | null }>;
  queryKey: QueryKey;
  emptyLabel?: string;
  placeholder?: string;
  id?: string;
  invalid?: boolean;
  disabled?: boolean;
  /** Ids of the text describing the field (a form's hint or error). */
  describedBy?: string;
  field?: boolean;
}) {
  const autoId = useId();
  const id = givenId ?? autoId;
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  const [q, setQ] = useState("");
  const [active, setActive] = useState(0);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const timer = setTimeout(() => setQ(text.trim()), 200);
    return () => clearTimeout(timer);
  }, [text]);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => !box.current?.contains(e.target as Node) && setOpen(false);
    document.addEventListener("mousedown", onDown);
    return () => document.removeEventListener("mousedown", onDown);
  }, [open]);
  const matches = useInfiniteQuery({
    queryKey: [...queryKey, q],
    queryFn: ({ signal, pageParam }) => search(q, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next ?? undefined,
    enabled: open,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const found = matches.data?.pages.flatMap((p) => p.items) ?? [];
  const options: Array<PickerOption | null> = [...(emptyLabel && !q ? [null] : []), ...found];
  const loadMore = () => {
    if (matches.hasNextPage && !matches.isFetchingNextPage) void matches.fetchNextPage();
  };
  // The next page is asked for when the list is scrolled near its end.
  const onScroll = (e: React.UIEvent<HTMLUListElement>) => {
    const list = e.currentTarget;
    if (list.scrollHeight - list.scrollTop - list.clientHeight < 80) loadMore();
  };
  const choose = (option: PickerOption | null) => {
    onChange(option?.id);
    setOpen(false);
    setText("");
  };
  const listId = `${id}-list`;
  const optionId = (i: number) => `${id}-opt-${i}`;

  return (
    <div ref={box} className={`relative w-full ${field ? "" : "sm:w-64"}`}>
      <div className={`input w-full ${field ? "" : "input-sm"} ${invalid ? "input-error" : ""}`}>
        <input
          id={id}
          role="combobox"
          aria-label={label}
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={open && options.length ? optionId(active) : undefined}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          disabled={disabled}
          className="grow"
          placeholder={open ? placeholder ?? msg.lists.pickerMore : current ?? emptyLabel ?? placeholder ?? ""}
          value={open ? text : current ?? (value ? "" : emptyLabel ?? "")}
          onFocus={() => { setOpen(true); setActive(0); }}
          onClick={() => setOpen(true)}
          onChange={(e) => { setText(e.target.value); setOpen(true); setActive(0); }}
          onKeyDown={(e) => {
            if (e.key === "ArrowDown") {
              e.preventDefault();
              setOpen(true);
              setActive((a) => Math.min(options.length - 1, a + 1));
              if (active >= options.length - 3) loadMore();
            }
            else if (e.key === "ArrowUp") { e.preventDefault(); setActive((a) => Math.max(0, a - 1)); }
            else if (e.key === "Enter" && open && options.length) { e.preventDefault(); choose(options[active] ?? null); }
            else if (e.key === "Escape") setOpen(false);
          }}
          maxLength={200}
          autoComplete="off"
        />
        {value && emptyLabel && !disabled ? (
          <button type="button" className="btn btn-ghost btn-xs btn-square" aria-label={`Clear ${label}`} onClick={() => choose(null)}>
            <X className="h-3.5 w-3.5" aria-hidden />
          </button>
        ) : (
          <ChevronDown className="h-4 w-4 opacity-50" aria-hidden />
        )}
      </div>
      {open ? (
        <ul id={listId} role="listbox" aria-label={label} onScroll={onScroll} className="menu absolute z-40 mt-1 max-h-80 w-full flex-nowrap overflow-y-auto rounded-box border border-base-300 bg-base-100 p-1 shadow-lg">
          {options.map((option, i) => (
            <li key={option?.id ?? "none"} role="none">
              <button
                type="button"
                role="option"
                id={optionId(i)}
                aria-selected={(option?.id ?? undefined) === value}
                tabIndex={-1}
                className={`truncate ${i === active ? "menu-active" : ""}`}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => choose(option)}
              >
                {option ? option.label : emptyLabel}
              </button>
            </li>
          ))}
          {matches.isPending || matches.isFetchingNextPage ? <li className="px-3 py-2 text-sm text-base-content/70" role="none">{msg.lists.pickerLoading}</li> : null}
          {matches.data && found.length === 0 && q ? <li className="px-3 py-2 text-sm text-base-content/70" role="none">{msg.lists.pickerNone}</li> : null}
        </ul>
      ) : null}
    </div>
  );
}
