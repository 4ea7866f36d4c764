import type { ReactElement } from "react";
import * as Tooltip from "@radix-ui/react-tooltip";

/**
 * A short label shown beside `children` on hover and on keyboard focus (Radix Tooltip: placed in
 * a portal, so no scrolling container cuts it). For controls whose visible text is gone, such as
 * the collapsed sidebar's icons; their accessible name stays on the control itself.
 */
export function Hint({ label, side = "right", children }: { label: string; side?: "top" | "right" | "bottom" | "left"; children: ReactElement }) {
  return (
    <Tooltip.Provider delayDuration={150}>
      <Tooltip.Root>
        <Tooltip.Trigger asChild>{children}</Tooltip.Trigger>
        <Tooltip.Portal>
          <Tooltip.Content side={side} sideOffset={8} className="z-50 rounded-md bg-neutral px-2.5 py-1.5 text-xs font-medium text-neutral-content shadow-md" data-testid="hint">
            {label}
          </Tooltip.Content>
        </Tooltip.Portal>
      </Tooltip.Root>
    </Tooltip.Provider>
  );
}
