import type { ReactElement } from "react";
import * as Tooltip from "@radix-ui/react-tooltip";

/** What `Hint` takes: the label, the side it shows on, and the control it names. */
export type HintProps = { label: string; side?: "top" | "right" | "bottom" | "left"; children: ReactElement };

/** The tooltip of `Hint` (its own chunk, loaded on first use). */
export default function HintTooltip({ label, side = "right", children }: HintProps) {
  return (
    <Tooltip.Provider delayDuration={150}>
      <Tooltip.Root>
        <Tooltip.Trigger asChild>{children}</Tooltip.Trigger>
        <Tooltip.Portal>
          <Tooltip.Content
            side={side}
            sideOffset={8}
            className="z-50 rounded-md bg-neutral px-2.5 py-1.5 text-xs font-medium text-neutral-content shadow-md"
            data-testid="hint"
          >
            {label}
          </Tooltip.Content>
        </Tooltip.Portal>
      </Tooltip.Root>
    </Tooltip.Provider>
  );
}
