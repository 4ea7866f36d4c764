import { useQuery } from "@tanstack/react-query";
import { queryRoots } from "../lib/query-client";

/** How often the sidebar's count is asked for again while the console is open. */
const refreshMs = 60_000;

/**
 * The sidebar's Reviews entry: hidden while PROMPT_REVIEW is off and nothing is pending (or the
 * count cannot be read), else shown with the pending count. Refreshed after every decision (the
 * decisions invalidate the reviews root), every minute, and when the window regains focus. The
 * schema loads with the query's first run, keeping zod out of the shell's code.
 */
export function useReviewsBadge(): { hidden: boolean; count?: number } {
  const summary = useQuery({
    queryKey: [...queryRoots.reviews, "summary"],
    queryFn: ({ signal }) => import("./queries").then((m) => m.fetchSummary(signal)),
    refetchInterval: refreshMs,
    staleTime: 10_000,
  });
  const data = summary.data;
  if (!data || (data.mode === "off" && data.pending === 0)) return { hidden: true };
  return { hidden: false, count: data.pending };
}
