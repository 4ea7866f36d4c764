import { FolderSync } from "lucide-react";
import { directoryMsg } from "../../domain/directory-messages";
import { editMsg } from "../../domain/messages/edit";
import { Tag } from "../components/badges";
import type { InfoItem } from "../components/detail";
import type { SaveConfirm } from "../components/EntityForm";
import { Muted } from "../components/text";

/** What the mark means, on hover: the directory's next sync overwrites what the console changes. */
const managedHint = (kind: "user" | "team") =>
  kind === "user" ? directoryMsg.managedHint : directoryMsg.teamManagedHint;

/**
 * The "Source" item of a user's or a team's information: "Managed by directory" when the customer's
 * directory provisioned the record (docs/onboarding.md), with what that means on hover; "Added in
 * the console" otherwise.
 */
export function directorySource(managed: boolean, kind: "user" | "team"): InfoItem {
  return {
    label: directoryMsg.source,
    value: managed ? (
      <span title={managedHint(kind)}>
        <Tag tone="info">{directoryMsg.managedMark}</Tag>
      </span>
    ) : (
      <Muted>{directoryMsg.consoleSource}</Muted>
    ),
  };
}

/**
 * The compact mark of a directory-managed row in the users and teams lists, beside its name: an
 * icon named "Managed by directory", with what that means on hover. It keeps to the line's height,
 * so a marked row is as high as any other.
 */
export function DirectoryIcon({ kind }: { kind: "user" | "team" }) {
  return (
    <span
      role="img"
      aria-label={directoryMsg.managedMark}
      title={`${directoryMsg.managedMark}: ${managedHint(kind)}`}
      className="inline-flex shrink-0 text-info"
    >
      <FolderSync className="h-3.5 w-3.5" aria-hidden />
    </span>
  );
}

/** The fields of a user and of a team that the directory owns: its next sync overwrites them. */
const directoryOwned = {
  user: ["email", "first_name", "last_name", "job_title", "status"],
  team: ["team_name"],
} as const;

/**
 * The confirm of an edit form's save (`confirmSave`) when the directory manages the record and the
 * operator changed a field it owns, naming those fields by their `labels`; null otherwise.
 */
export function directorySaveConfirm(
  record: { directory_managed: boolean },
  kind: "user" | "team",
  labels: Readonly<Record<string, string>>,
  changed: ReadonlySet<string>,
): SaveConfirm | null {
  if (!record.directory_managed) return null;
  const fields = directoryOwned[kind].filter((f) => changed.has(f)).map((f) => labels[f] ?? f);
  if (fields.length === 0) return null;
  return {
    title: directoryMsg.overwriteTitle,
    message: directoryMsg.overwriteConfirm(kind, fields),
    confirmLabel: editMsg.saveAnyway,
  };
}
