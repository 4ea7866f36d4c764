/** What other features may use of the reviews feature: the sidebar's count. */
export { useReviewsBadge } from "./badge";
