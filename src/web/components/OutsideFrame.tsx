import type { ReactNode } from "react";
import { appMsg } from "../../domain/messages/common";
import { Logo } from "./Logo";

/**
 * The frame of a screen shown outside the console's shell (sign-in, the two-factor setup that
 * REQUIRE_MFA asks for): the logo, the heading and the lines under it, a card holding the screen's
 * form, what follows the card, and the copyright.
 */
export function OutsideFrame({
  title,
  lines,
  width,
  children,
  after,
}: {
  title: string;
  lines: ReactNode;
  /** The card's width: `sm` for a sign-in form, `md` for the longer setup. */
  width: "sm" | "md";
  children: ReactNode;
  after?: ReactNode;
}) {
  return (
    <div className="flex min-h-full flex-col bg-base-200">
      <main className="flex flex-1 items-center justify-center px-4 py-12">
        <div className={`w-full ${width === "sm" ? "max-w-sm" : "max-w-md"}`}>
          <div className="mb-8 flex flex-col items-center text-center">
            <Logo className="h-12 w-12" />
            <h1 className="mt-4 text-2xl font-semibold tracking-tight">{title}</h1>
            {lines}
          </div>
          <div className="card border border-base-300 bg-base-100 shadow-sm">{children}</div>
          {after}
        </div>
      </main>
      <footer className="py-6 text-center text-xs text-base-content/60">
        {appMsg.copyright(new Date().getFullYear())}
      </footer>
    </div>
  );
}
