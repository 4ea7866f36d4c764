/**
 * Summary cards read from maintained counters (the `status_counts` table, kept by triggers:
 * docs/lists.md "Counters"), shared by the lists whose cards are statuses.
 */
import { sql } from "drizzle-orm";

/** The status cards (total, active, inactive, draft) of `entity`, from its maintained counters. */
export const statusCardsSql = (entity: string) => sql`
  select coalesce(sum(n), 0)::int as total,
    coalesce(sum(n) filter (where status = 'active'), 0)::int as active,
    coalesce(sum(n) filter (where status = 'inactive'), 0)::int as inactive,
    coalesce(sum(n) filter (where status = 'draft'), 0)::int as draft
  from status_counts where entity = ${entity}`;

/** The list's total is a card when only the status filter narrows it. */
export const totalFromStatusCards = ({ filters, q }: { filters: { status?: string }; q: string | undefined }) => {
  if (q) return undefined;
  const status = filters.status as "active" | "inactive" | "draft" | undefined;
  return (s: { total: number; active: number; inactive: number; draft: number }) => (status ? s[status] : s.total);
};
