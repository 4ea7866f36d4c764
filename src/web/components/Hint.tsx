import { lazy, Suspense } from "react";
import type { HintProps } from "./HintTooltip";

const load = () => import("./HintTooltip");
const Tooltip = lazy(load);

/** Loads the tooltip's code ahead of its first use (when the sidebar is collapsed, say). */
export function preloadHint() {
  void load();
}

/**
 * A short label shown beside `children` on hover and on keyboard focus (Radix Tooltip, in a portal
 * so that no scrolling container cuts it). For controls whose visible text is gone, such as the
 * collapsed sidebar's icons; their accessible name stays on the control itself. The tooltip's code
 * loads when a hint is first shown on the page, not with the first screen.
 */
export function Hint(props: HintProps) {
  return (
    <Suspense fallback={props.children}>
      <Tooltip {...props} />
    </Suspense>
  );
}
