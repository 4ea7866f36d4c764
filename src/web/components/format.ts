import { format, formatDistanceToNow } from "date-fns";
import { msg } from "../../domain/messages";

/** "Nov 22, 2026", or "N/A" when there is no date (SPEC.md §9). */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return msg.fallbacks.noDate;
  return format(new Date(iso), "MMM d, yyyy");
}

/** "Nov 22, 2026, 14:05". */
export function formatDateTime(iso: string | null | undefined, fallback: string = msg.fallbacks.noDate): string {
  if (!iso) return fallback;
  return format(new Date(iso), "MMM d, yyyy, HH:mm");
}

/** "3 hours ago", or `fallback` ("Never") when absent. */
export function formatRelative(iso: string | null | undefined, fallback: string = msg.fallbacks.neverLoggedIn): string {
  if (!iso) return fallback;
  return formatDistanceToNow(new Date(iso), { addSuffix: true });
}

export const formatNumber = (n: number) => new Intl.NumberFormat("en-US").format(n);

/** Full name, else email (SPEC.md §2 users). */
export function displayName(user: { first_name: string | null; last_name: string | null; email: string }): string {
  const name = [user.first_name, user.last_name].filter(Boolean).join(" ").trim();
  return name || user.email;
}

/** Up to two initials for an avatar. */
export function initials(text: string): string {
  const parts = text.replace(/@.*/, "").split(/[\s._-]+/).filter(Boolean);
  return ((parts[0]?.[0] ?? "") + (parts[1]?.[0] ?? "")).toUpperCase() || "?";
}

/** "active" → "Active". */
export const titleCase = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
