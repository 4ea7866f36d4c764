import { FilePen, type LucideIcon } from "lucide-react";
import { listCards, type ListCard } from "./ListScreen";

/** The counts every status summary has. */
type StatusCounts = { total: number; active: number; inactive: number };

/** The "Draft" card of a list whose records may be drafts (platforms, prompts). */
export const draftCard: ListCard<{ draft: number }> = { label: "Draft", icon: FilePen, value: (s) => s.draft };

/**
 * A list's cards Total (with the list's own icon), Active and Inactive, then `extra` (its own
 * counts: Draft, Global, Recent Logins).
 */
export function statusCards<S>(icon: LucideIcon, ...extra: ListCard<S>[]): ListCard<S & StatusCounts>[] {
  return [listCards.total(icon), listCards.active, listCards.inactive, ...extra];
}
