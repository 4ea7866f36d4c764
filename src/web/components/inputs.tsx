import { useEffect, useState, type ReactNode } from "react";
import { Search } from "lucide-react";
import { msg } from "../../domain/messages";

/**
 * A search box that reports its value 300 ms after typing stops (and at once on Enter). It takes
 * at most `maxLength` characters (the API's 200) and says so when the limit is reached.
 */
export function SearchInput({ value, onChange, placeholder, label, maxLength = 200 }: { value: string; onChange: (v: string) => void; placeholder: string; label?: string; maxLength?: number }) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  useEffect(() => {
    if (draft === value) return;
    const timer = setTimeout(() => onChange(draft), 300);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [draft]);
  return (
    <label className="input input-sm w-full sm:w-72">
      <Search className="h-4 w-4 opacity-60" aria-hidden />
      <input
        type="search"
        value={draft}
        placeholder={placeholder}
        aria-label={label ?? placeholder}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => e.key === "Enter" && onChange(draft)}
        maxLength={maxLength}
      />
      {draft.length >= maxLength ? <span className="whitespace-nowrap text-xs text-warning-content/80" role="status">{msg.lists.searchLimit(maxLength)}</span> : null}
    </label>
  );
}

/** A labelled select for list filters. */
export function FilterSelect({ label, value, onChange, children }: { label: string; value: string; onChange: (v: string) => void; children: ReactNode }) {
  return (
    <label className="flex items-center gap-2 text-sm">
      <span className="whitespace-nowrap text-base-content/70">{label}</span>
      <select className="select select-sm w-full sm:w-56" value={value} onChange={(e) => onChange(e.target.value)}>
        {children}
      </select>
    </label>
  );
}

/** A form field: label, control, hint, and the field's error message. */
export function Field({ label, htmlFor, error, hint, required, children }: { label: string; htmlFor: string; error?: string; hint?: ReactNode; required?: boolean; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={htmlFor} className="text-sm font-medium">
        {label}
        {required ? <span className="text-error" aria-hidden> *</span> : null}
      </label>
      {children}
      {hint && !error ? <p className="text-xs text-base-content/60">{hint}</p> : null}
      {error ? <p className="text-xs text-error" id={`${htmlFor}-error`} role="alert">{error}</p> : null}
    </div>
  );
}

/** A toolbar row above a table: search and filters on the left, actions on the right. */
export function Toolbar({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-3 flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center sm:justify-between">
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center">{children}</div>
      {actions ? <div className="flex gap-2">{actions}</div> : null}
    </div>
  );
}

/** Empty state: title and optional text and action. */
export function EmptyState({ title, text, action }: { title: string; text?: string; action?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-1 text-center">
      <p className="font-medium">{title}</p>
      {text ? <p className="text-sm text-base-content/60">{text}</p> : null}
      {action ? <div className="mt-2">{action}</div> : null}
    </div>
  );
}
