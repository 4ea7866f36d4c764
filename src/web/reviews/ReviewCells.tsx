import { reviewsMsg } from "../../domain/messages/reviews";
import { StatusBadge, Tag } from "../components/badges";
import { Muted } from "../components/text";

/** A change's author as the screens name them: the email, else the id kept with the change. */
export const authorName = (c: { proposed_by: string; proposed_by_email: string | null }) =>
  c.proposed_by_email ?? c.proposed_by;

/** What a change does: "Edit", "Delete", "Assign platform", "Unassign platform". */
export const kindLabel = (kind: string) => reviewsMsg.kindLabels[kind] ?? kind;

/** "Out of date": the prompt moved on since the change was proposed. */
export function StaleTag() {
  return <Tag tone="warning">{reviewsMsg.staleBadge}</Tag>;
}

/** The change's status badge, "Out of date" beside it while a pending change is stale. */
export function ChangeStatus({ status, stale }: { status: string; stale: boolean }) {
  return (
    <span className="flex flex-wrap items-center gap-1">
      <StatusBadge kind="review" status={status} />
      {stale && status === "pending" ? <StaleTag /> : null}
    </span>
  );
}

/** A line cut with an ellipsis (the whole text on hover), or a muted placeholder. */
export function CellText({
  text,
  empty,
  className = "max-w-48",
}: {
  text: string | null;
  empty: string;
  className?: string;
}) {
  if (!text) return <Muted>{empty}</Muted>;
  return (
    <span className={`block truncate ${className}`} title={text}>
      {text}
    </span>
  );
}
