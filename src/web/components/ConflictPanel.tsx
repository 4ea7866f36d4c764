import type { ReactNode } from "react";
import { AlertTriangle } from "lucide-react";
import { editMsg } from "../../domain/messages/edit";
import { formatRelative } from "./format";

/** A change made to a record since the form read it (the server's 409 `stale` answer). */
export type ChangeSince = { operator_email: string | null; at: string; fields: string[] };

/** A field both the operator and a colleague changed: its label, the record's value now and the form's. */
export type BothChanged = { field: string; theirs: unknown; mine: unknown };

/** A field's value as the panel quotes it. */
function shown(value: unknown): string {
  if (value === null || value === undefined || value === "") return editMsg.emptyValue;
  if (Array.isArray(value)) return value.length ? value.map(shown).join(", ") : editMsg.emptyValue;
  if (typeof value === "boolean") return value ? editMsg.yes : editMsg.no;
  if (typeof value === "string") return value;
  return typeof value === "number" ? value.toLocaleString() : JSON.stringify(value);
}

/**
 * The panel of a save the server sent back for a decision (docs/editing.md): for a stale save,
 * "This record changed since you opened it" with who changed which fields since, the fields both
 * changed with both values (`both`), each with Keep theirs, Reload (take the current values, losing
 * mine) and Save anyway (mine for the fields both changed and not kept as theirs; a colleague's
 * other changes are kept); for a warning (a domain another customer lists, an
 * e-mail outside the customer's domains), the server's message, `children` and Save anyway.
 */
export function ConflictPanel({
  stale,
  message,
  changes,
  both = [],
  labels,
  busy,
  onSaveAnyway,
  onReload,
  onKeepTheirs,
  children,
}: {
  stale: boolean;
  message: string;
  changes?: ChangeSince[];
  both?: BothChanged[];
  /** Field labels by name, to name the changed fields as the form does. */
  labels: Record<string, string>;
  busy: boolean;
  onSaveAnyway: () => void;
  onReload?: () => void;
  /** Takes the colleague's value of one field both changed; Save anyway then leaves it as theirs. */
  onKeepTheirs?: (field: string) => void;
  children?: ReactNode;
}) {
  const named = (fields: string[]) =>
    fields.length ? fields.map((f) => labels[f] ?? f.replace(/_/g, " ")).join(", ") : editMsg.noFields;
  return (
    <div
      role="alert"
      className="alert alert-warning alert-soft flex flex-col items-stretch gap-2 text-sm"
      data-testid="conflict-panel"
    >
      <div className="flex items-center gap-2 font-semibold">
        <AlertTriangle className="h-4 w-4 shrink-0" aria-hidden />
        {stale ? editMsg.stale : message}
      </div>
      {stale ? (
        <>
          <p>{editMsg.staleText}</p>
          <ul className="list-disc pl-5">
            {(changes ?? []).map((c, i) => (
              <li key={i}>
                {editMsg.staleChange(c.operator_email ?? editMsg.someone, named(c.fields), changedWhen(c.at))}
              </li>
            ))}
          </ul>
          <BothChangedList both={both} labels={labels} busy={busy} onKeepTheirs={onKeepTheirs} />
        </>
      ) : (
        <>
          {children}
          <p>{editMsg.confirmHint}</p>
        </>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        {onReload ? (
          <button type="button" className="btn btn-sm" onClick={onReload} title={editMsg.reloadHint} disabled={busy}>
            {editMsg.reload}
          </button>
        ) : null}
        <button type="button" className="btn btn-sm btn-warning" onClick={onSaveAnyway} disabled={busy}>
          {busy ? <span className="loading loading-spinner loading-xs" aria-hidden /> : null}
          {editMsg.saveAnyway}
        </button>
      </div>
    </div>
  );
}

/** How long ago a concurrent change was made: "just now" under a minute, else "3 minutes ago". */
function changedWhen(at: string): string {
  return Date.now() - Date.parse(at) < 60_000 ? editMsg.justNow : formatRelative(at, "");
}

/** The fields both changed, each with both values and (when it can be taken) Keep theirs. */
function BothChangedList({
  both,
  labels,
  busy,
  onKeepTheirs,
}: {
  both: BothChanged[];
  labels: Record<string, string>;
  busy: boolean;
  onKeepTheirs?: (field: string) => void;
}) {
  if (both.length === 0) return null;
  return (
    <>
      <p>{editMsg.bothChanged}</p>
      <ul className="flex flex-col gap-1" data-testid="both-changed">
        {both.map((b) => (
          <li key={b.field} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
            <span className="min-w-0 break-words">
              {editMsg.theirsMine(labels[b.field] ?? b.field, shown(b.theirs), shown(b.mine))}
            </span>
            {onKeepTheirs ? (
              <button
                type="button"
                className="btn btn-xs ml-auto shrink-0"
                aria-label={editMsg.keepTheirsFor(labels[b.field] ?? b.field)}
                onClick={() => onKeepTheirs(b.field)}
                disabled={busy}
              >
                {editMsg.keepTheirs}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </>
  );
}
