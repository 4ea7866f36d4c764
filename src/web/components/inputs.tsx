import { cloneElement, isValidElement, useEffect, useState, type ReactElement, type ReactNode } from "react";
import { Search } from "lucide-react";
import { useDebounce } from "use-debounce";
import { listsMsg } from "../../domain/messages/kit";

/**
 * A search box that reports its value 300 ms after typing stops (and at once on Enter). It takes
 * at most `maxLength` characters (the API's 200) and says so when the limit is reached.
 */
export function SearchInput({
  value,
  onChange,
  placeholder,
  label,
  maxLength = 200,
}: {
  value: string;
  onChange: (v: string) => void;
  placeholder: string;
  label?: string;
  maxLength?: number;
}) {
  const [draft, setDraft] = useState(value);
  // The list's own search changes (Back, a link): the box shows it.
  useEffect(() => setDraft(value), [value]);
  const [settled] = useDebounce(draft, 300);
  useEffect(() => {
    // Reported once typing stops, unless the list already has it (Enter, or a change from outside).
    if (settled !== value) onChange(settled);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settled]);
  return (
    <label className="input input-sm w-full sm:w-72">
      <Search className="h-4 w-4 opacity-60" aria-hidden />
      <input
        type="search"
        value={draft}
        placeholder={placeholder}
        aria-label={label ?? placeholder}
        onChange={(e) => setDraft(e.target.value.slice(0, maxLength))}
        onKeyDown={(e) => e.key === "Enter" && onChange(draft)}
        maxLength={maxLength}
      />
      {draft.length >= maxLength ? (
        <span className="whitespace-nowrap text-xs text-warning-content/80" role="status">
          {listsMsg.searchLimit(maxLength)}
        </span>
      ) : null}
    </label>
  );
}

/** A labelled select for list filters. */
export function FilterSelect({
  label,
  value,
  onChange,
  children,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  children: ReactNode;
}) {
  return (
    <label className="grid grid-cols-[6.5rem_minmax(0,1fr)] items-center gap-2 text-sm sm:flex">
      <span className="whitespace-nowrap text-base-content/80">{label}</span>
      <select className="select select-sm w-full sm:w-44" value={value} onChange={(e) => onChange(e.target.value)}>
        {children}
      </select>
    </label>
  );
}

/**
 * A form field: label, control, hint, and the field's error message. The control (the only child)
 * is described by the hint or the error, and marked invalid while there is an error.
 */
export function Field({
  label,
  htmlFor,
  error,
  hint,
  required,
  children,
}: {
  label: string;
  htmlFor: string;
  error?: string;
  hint?: ReactNode;
  required?: boolean;
  children: ReactNode;
}) {
  const describedBy = error ? `${htmlFor}-error` : hint ? `${htmlFor}-hint` : undefined;
  const control = isValidElement(children)
    ? cloneElement(children as ReactElement<Record<string, unknown>>, {
        "aria-describedby": describedBy,
        "aria-invalid": error ? true : undefined,
      })
    : children;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={htmlFor} className="text-sm font-medium">
        {label}
        {required ? (
          <span className="text-error" aria-hidden>
            {" "}
            *
          </span>
        ) : null}
      </label>
      {control}
      {hint && !error ? (
        <p className="text-xs text-base-content/70" id={`${htmlFor}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="text-xs font-medium text-error" id={`${htmlFor}-error`} role="alert" data-testid="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The one toolbar of every list: search and filters on the left (wrapping among themselves when
 * they do not fit), Export and the list's other actions at the top right, never pushed under them.
 * On a phone everything stacks, filters aligned on one column.
 */
export function Toolbar({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-3 flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
      <div className="flex min-w-0 flex-col gap-2 sm:flex-1 sm:flex-row sm:flex-wrap sm:items-center">{children}</div>
      {actions ? <div className="flex shrink-0 gap-2">{actions}</div> : null}
    </div>
  );
}

/** Empty state: a title, larger than the hint under it, and an optional action. */
export function EmptyState({ title, text, action }: { title: string; text?: string; action?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-1 text-center">
      <p className="text-base font-semibold">{title}</p>
      {text ? <p className="max-w-prose text-sm text-base-content/70">{text}</p> : null}
      {action ? <div className="mt-3">{action}</div> : null}
    </div>
  );
}
