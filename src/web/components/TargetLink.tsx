import type { MouseEventHandler, ReactNode } from "react";
import { Link } from "@tanstack/react-router";
import type { Target } from "../lib/target";

/**
 * A link to a place in the app that never marks itself as the current page, even when it is the
 * page on screen (a back link, the way out of an error view, a form's Cancel).
 */
export function TargetLink({
  className,
  title,
  onClick,
  children,
  label: _label,
  ...target
}: Target & {
  /** A target's own name, when it comes with one (a back link's): not the link's. */
  label?: string;
  className: string;
  title?: string;
  onClick?: MouseEventHandler;
  children: ReactNode;
}) {
  return (
    <Link
      {...target}
      activeOptions={{ exact: true }}
      activeProps={{ "aria-current": undefined }}
      className={className}
      title={title}
      onClick={onClick}
    >
      {children}
    </Link>
  );
}
