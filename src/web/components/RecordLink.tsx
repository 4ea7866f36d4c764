import type { MouseEvent } from "react";
import { Link } from "@tanstack/react-router";
import type { Target } from "../lib/target";

/**
 * A record's name opening its page (SPEC.md §2: tables link their names), on one line cut with an
 * ellipsis (the whole name on hover). `className` sizes it ("block min-w-0 truncate font-medium"
 * in a table's growing column, a max width elsewhere). With `detail` (even null: the same block
 * either way) it sits in a block with that line under it (a description, an excerpt; `mono` for
 * content).
 */
export function RecordLink({
  text,
  detail,
  mono,
  className = "block min-w-0 truncate font-medium",
  onClick,
  ...target
}: Target & {
  text: string;
  detail?: string | null;
  mono?: boolean;
  className?: string;
  onClick?: (e: MouseEvent) => void;
}) {
  const link = (
    <Link {...target} className={`${className} hover:text-primary hover:underline`} title={text} onClick={onClick}>
      {text}
    </Link>
  );
  if (detail === undefined) return link;
  return (
    <div className="min-w-0">
      {link}
      {detail ? (
        <span
          className={`block min-w-0 truncate ${mono ? "font-mono " : ""}text-xs text-base-content/70`}
          title={detail}
        >
          {detail}
        </span>
      ) : null}
    </div>
  );
}
