/**
 * Summary cards read from maintained counters (the `status_counts` table, kept by triggers:
 * docs/lists.md "Counters"), shared by the lists whose cards are statuses.
 */
import { sql } from "drizzle-orm";
import { statusCardsOf } from "../../../domain/common";

/**
 * The status cards of `entity` from its maintained counters: `total`, and one count per status of
 * `statuses` (the entity's own set in the domain's order, so the card schema is `statusCardsOf` of
 * it, or the statuses its card schema names, in that order). With `status` (a list's status
 * filter) only that status is counted: its card and the total are its count, the others 0.
 */
export const statusCardsSql = (entity: string, statuses: readonly string[], status?: string) => sql`
  select coalesce(sum(n), 0)::int as total, ${sql.join(
    statuses.map((s) => sql`coalesce(sum(n) filter (where status = ${s}), 0)::int as ${sql.identifier(s)}`),
    sql`, `,
  )}
  from status_counts where entity = ${entity}${status ? sql` and status = ${status}` : sql``}`;

/** The list's total is a card when only the status filter narrows it (the card of that status, or the total). */
export const totalFromStatusCards = ({ filters, q }: { filters: { status?: string }; q: string | undefined }) => {
  if (q) return undefined;
  const status = filters.status;
  return (s: { total: number } & Record<string, number>) => (status ? (s[status] ?? 0) : s.total);
};

/**
 * The summary of a list whose cards are its statuses (Total and one per status of `statuses`), read
 * from the counters `register_status_counter` keeps under `entity`, spread into its declaration:
 * `defineList({ ..., ...statusCards("models", modelStatuses) })`. A search's total that needed a
 * count is reused like a big list's; a total narrowed by the status filter alone is its card (a
 * list with other filters overrides `totalFromSummary`).
 */
export function statusCards<S extends string>(entity: string, statuses: readonly S[]) {
  return {
    summarySchema: statusCardsOf(statuses),
    summaryCounts: "set" as const,
    summary: () => statusCardsSql(entity, statuses),
    cacheSummary: "counted" as const,
    totalFromSummary: totalFromStatusCards,
  };
}
