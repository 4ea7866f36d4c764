/** The Reviews queue's sort keys (the API's `sort` values), apart from the route table and the screens that both use them. */
export const reviewSortKeys = ["proposed_at", "prompt_title", "status"] as const;
