import { navEntries } from "../lib/features";

/** Sidebar entries in the spec's order (SPEC.md §1), as each feature's `routes.ts` declares its own. */
export const navItems = navEntries();

/** Administration entries, shown to admins only. */
export const adminNavItems = navEntries("admin");
