import { navEntries } from "../lib/features";
import { useReviewsBadge } from "../reviews/public";

/** Sidebar entries in the spec's order (SPEC.md §1), as each feature's `routes.ts` declares its own. */
export const navItems = navEntries();

/** Administration entries, shown to admins only. */
export const adminNavItems = navEntries("admin");

/** What live data says about an entry: hidden for now, or shown with a count. */
export type NavBadge = { hidden: boolean; count?: number };
const plain = (): NavBadge => ({ hidden: false });

/** The entries that depend on live data (Reviews: shown while review is on or changes wait, with the pending count). */
const badges: Record<string, () => NavBadge> = { "/reviews": useReviewsBadge };

/** The hook giving the entry at `to` its badge (a plain entry has none). */
export const navBadgeHook = (to: string): (() => NavBadge) => badges[to] ?? plain;
