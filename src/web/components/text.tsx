import type { ReactNode } from "react";
import { fallbacksMsg } from "../../domain/messages/kit";
import { formatDate, formatDateTime, formatFullTime, formatNumber, formatRelative } from "./format";

/**
 * Text cut once, at the end, with an ellipsis when it does not fit (after one line, or two with
 * `lines={2}`); the full text stays in the page for screen readers and shows on hover. The parent must give it a width (a flex item with
 * `min-w-0`, a table cell with a max width...).
 */
export function Truncate({
  text,
  lines = 1,
  className = "",
  children,
}: {
  text: string;
  lines?: 1 | 2;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <span
      className={`min-w-0 ${lines === 2 ? "line-clamp-2 break-words" : "block truncate"} ${className}`}
      title={text}
    >
      {children ?? text}
    </span>
  );
}

/** A date ("Nov 22, 2026"), with the exact time and its time zone on hover; "N/A" when absent. */
export function DateText({ iso, withTime = false }: { iso: string | null | undefined; withTime?: boolean }) {
  if (!iso) return <span className="text-base-content/70">{fallbacksMsg.noDate}</span>;
  return (
    <time dateTime={iso} title={formatFullTime(iso)} className="whitespace-nowrap">
      {withTime ? formatDateTime(iso) : formatDate(iso)}
    </time>
  );
}

/** A time as "3 hours ago", with the exact time and its time zone on hover; `fallback` when absent. */
export function RelativeTime({
  iso,
  fallback = fallbacksMsg.neverLoggedIn,
}: {
  iso: string | null | undefined;
  fallback?: string;
}) {
  if (!iso) return <span className="whitespace-nowrap text-base-content/70">{fallback}</span>;
  return (
    <time dateTime={iso} title={formatFullTime(iso)} className="whitespace-nowrap">
      {formatRelative(iso, fallback)}
    </time>
  );
}

/** A count with tabular figures (right-aligned in table columns declared `align: "right"`). */
export function Num({ value }: { value: number }) {
  return <span className="tabular-nums">{formatNumber(value)}</span>;
}

/** A muted placeholder such as "N/A" or "Not specified". */
export function Muted({ children }: { children: ReactNode }) {
  return <span className="text-base-content/70">{children}</span>;
}
