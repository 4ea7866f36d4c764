import { listsMsg } from "../../domain/messages/kit";

/**
 * Labels summary cards that are not live and exact: "Counts as of 14:05:09", "Counts are
 * estimates", or "Counting the matches…" while the server counts a search (`counting`). A status
 * region, so that a screen reader hears the count start and arrive.
 */
export function SummaryNote({
  page,
}: {
  page: { summary_exact: boolean; summary_as_of: string | null; counting: boolean } | undefined;
}) {
  if (!page || (!page.counting && page.summary_exact && !page.summary_as_of)) return null;
  const parts = page.counting
    ? [listsMsg.countingNote]
    : [
        page.summary_as_of
          ? listsMsg.summaryAsOf(new Date(page.summary_as_of).toLocaleTimeString("en-US", { hour12: false }))
          : null,
        page.summary_exact ? null : listsMsg.summaryEstimated,
      ].filter(Boolean);
  return (
    <p className="mt-2 text-xs text-base-content/60" role="status" data-testid="summary-note">
      {parts.join(" · ")}
    </p>
  );
}
