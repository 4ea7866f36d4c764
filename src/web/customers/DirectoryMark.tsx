import { directoryMsg } from "../../domain/directory-messages";
import { Tag } from "../components/badges";
import type { InfoItem } from "../components/detail";
import { Muted } from "../components/text";

/**
 * The "Source" item of a user's or a team's information: "Managed by directory" when the customer's
 * directory provisioned the record (docs/onboarding.md), with what that means on hover; "Added in
 * the console" otherwise.
 */
export function directorySource(managed: boolean, kind: "user" | "team"): InfoItem {
  return {
    label: directoryMsg.source,
    value: managed ? (
      <span title={kind === "user" ? directoryMsg.managedHint : directoryMsg.teamManagedHint}>
        <Tag tone="info">{directoryMsg.managedMark}</Tag>
      </span>
    ) : (
      <Muted>{directoryMsg.consoleSource}</Muted>
    ),
  };
}
