import type { MouseEventHandler, ReactNode } from "react";
import { Link } from "@tanstack/react-router";

/**
 * A link to a place in the app that never marks itself as the current page, even when it is the
 * page on screen (a back link, the way out of an error view, a form's Cancel).
 */
export function TargetLink({
  to,
  params,
  className,
  title,
  onClick,
  children,
}: {
  to: string;
  params?: Record<string, string>;
  className: string;
  title?: string;
  onClick?: MouseEventHandler;
  children: ReactNode;
}) {
  return (
    <Link
      to={to as "/"}
      params={params as never}
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
