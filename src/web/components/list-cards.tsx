import { Archive, CircleDot, FilePen, type LucideIcon } from "lucide-react";
import { titleCase } from "./case";
import { listCards, type ListCard } from "./ListScreen";

/** The counts every status summary has. */
type StatusCounts = { total: number; active: number; inactive: number };

/** Each status's card icon (Active and Inactive as every list shows them); a status not named here gets a plain dot. */
const statusIcons: Record<string, LucideIcon> = {
  active: listCards.active.icon,
  inactive: listCards.inactive.icon,
  archived: Archive,
  draft: FilePen,
};

/**
 * A list's cards from its record's status set: Total (with the list's own icon), then one card per
 * status in the set's order ("Active", "Archived"), each counting the summary's key of that name
 * (the list engine's `statusCards` on the server counts the same set).
 */
export function statusSetCards<const V extends string>(
  icon: LucideIcon,
  statuses: readonly V[],
): ListCard<Record<V | "total", number>>[] {
  return [
    listCards.total(icon),
    ...statuses.map((status) => ({
      label: titleCase(status),
      icon: statusIcons[status] ?? CircleDot,
      value: (s: Record<V | "total", number>) => s[status],
    })),
  ];
}

/**
 * A list's cards Total (with the list's own icon), Active and Inactive, then `extra` (its own
 * counts: Global, Recent Logins).
 */
export function statusCards<S>(icon: LucideIcon, ...extra: ListCard<S>[]): ListCard<S & StatusCounts>[] {
  return [...statusSetCards(icon, ["active", "inactive"]), ...extra];
}
