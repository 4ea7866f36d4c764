/** What other features may use of the reviews feature: the review screens' keyboard, the sidebar's count. */
export { KeyButton, KeysButton, KeysDialog, useShortcutKeys } from "./keys";
export { useReviewsBadge } from "./badge";
