import { fallbacksMsg } from "../../domain/messages/kit";
import { promptsMsg } from "../../domain/messages/prompts";
import type { AssignablePlatform } from "../../domain/prompts";
import { StatusBadge } from "../components/badges";
import { PickModal, PickRow, type ModalState } from "../components/PickModal";
import { assignablePlatformsQuery, useAssignPlatform } from "./queries";

const nameOf = (p: AssignablePlatform) => p.platform_name.trim() || fallbacksMsg.unnamedPlatform;

/**
 * SPEC.md §2 "/prompts/{promptId}" modal "Assign Platform to Prompt": active platforms not yet
 * assigned, searched by name or description (case-insensitive, on the server), an Assign button
 * per platform; "No platforms match your search." / "No available platforms to assign.".
 */
export function AssignPlatformModal({
  promptId,
  onAssigned,
  ...modal
}: ModalState & { promptId: string; onAssigned: (platform: string, result: unknown) => void }) {
  return (
    <PickModal
      {...modal}
      title={promptsMsg.assignPlatformTitle}
      search={promptsMsg.searchPlatforms}
      query={(q) =>
        assignablePlatformsQuery(promptId)({ q: q || undefined, sort: "platform_name", order: "asc", limit: 50 })
      }
      mutation={useAssignPlatform(promptId)}
      empty={(q) => (q ? promptsMsg.noPlatformMatch : promptsMsg.noPlatformAvailable)}
      label="Available platforms"
      row={(p) => (
        <PickRow
          name={nameOf(p)}
          tags={<StatusBadge kind="platform" status={p.status} />}
          detail={p.platform_description}
        />
      )}
      pick={{
        id: (p) => p.platform_id,
        label: promptsMsg.assign,
        name: (p) => `${promptsMsg.assign} ${nameOf(p)}`,
        done: (p, result) => onAssigned(nameOf(p), result),
      }}
    />
  );
}
