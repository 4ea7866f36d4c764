import { format, formatDistanceToNowStrict } from "date-fns";
import { fallbacksMsg } from "../../domain/messages/kit";

/**
 * The console's only time formats, so every screen says a time the same way:
 * dates "Nov 22, 2026"; date-times "Nov 22, 2026, 14:05"; relative "2 months ago" (never
 * "about 2 months ago"); and, on hover, the full time with its zone "Nov 22, 2026, 14:05:09 GMT+1".
 */

/** "Nov 22, 2026", or "N/A" when there is no date (SPEC.md §9). */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return fallbacksMsg.noDate;
  return format(new Date(iso), "MMM d, yyyy");
}

/** "Nov 22, 2026, 14:05", or `fallback` ("N/A") when absent. */
export function formatDateTime(iso: string | null | undefined, fallback: string = fallbacksMsg.noDate): string {
  if (!iso) return fallback;
  return format(new Date(iso), "MMM d, yyyy, HH:mm");
}

/** "3 hours ago" / "in 2 days", or `fallback` ("Never") when absent. */
export function formatRelative(iso: string | null | undefined, fallback: string = fallbacksMsg.neverLoggedIn): string {
  if (!iso) return fallback;
  return formatDistanceToNowStrict(new Date(iso), { addSuffix: true });
}

const fullFormat = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
  timeZoneName: "short",
});

/** The exact time with its time zone, for hover titles: "Nov 22, 2026, 14:05:09 UTC". */
export function formatFullTime(iso: string): string {
  return fullFormat.format(new Date(iso));
}

const numberFormat = new Intl.NumberFormat("en-US");
/** "12,345". */
export const formatNumber = (n: number) => numberFormat.format(n);

/** Full name, else email (SPEC.md §2 users). */
export function displayName(user: { first_name: string | null; last_name: string | null; email: string }): string {
  const name = [user.first_name, user.last_name].filter(Boolean).join(" ").trim();
  return name || user.email;
}

/** Up to two initials for an avatar. */
export function initials(text: string): string {
  const parts = text
    .replace(/@.*/, "")
    .split(/[\s._-]+/)
    .filter(Boolean);
  return ((parts[0]?.[0] ?? "") + (parts[1]?.[0] ?? "")).toUpperCase() || "?";
}

export { titleCase } from "./case";
