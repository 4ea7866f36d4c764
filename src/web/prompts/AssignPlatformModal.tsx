import { msg } from "../../domain/messages";
import type { AssignablePlatform } from "../../domain/prompts";
import { StatusBadge } from "../components/badges";
import { PickModal, type ModalState } from "../components/PickModal";
import { Truncate } from "../components/text";
import { assignablePlatformsQuery, useAssignPlatform } from "./queries";

const nameOf = (p: AssignablePlatform) => p.platform_name.trim() || msg.fallbacks.unnamedPlatform;

/**
 * SPEC.md §2 "/prompts/{promptId}" modal "Assign Platform to Prompt": active platforms not yet
 * assigned, searched by name or description (case-insensitive, on the server), an Assign button
 * per platform; "No platforms match your search." / "No available platforms to assign.".
 */
export function AssignPlatformModal({
  promptId,
  onAssigned,
  ...modal
}: ModalState & { promptId: string; onAssigned: (platform: string) => void }) {
  return (
    <PickModal
      {...modal}
      title={msg.prompts.assignPlatformTitle}
      search={msg.prompts.searchPlatforms}
      query={(q) =>
        assignablePlatformsQuery(promptId)({ q: q || undefined, sort: "platform_name", order: "asc", limit: 50 })
      }
      mutation={useAssignPlatform(promptId)}
      empty={(q) => (q ? msg.prompts.noPlatformMatch : msg.prompts.noPlatformAvailable)}
      label="Available platforms"
      row={(p) => (
        <>
          <div className="flex min-w-0 items-center gap-2">
            <Truncate text={nameOf(p)} className="font-medium" />
            <StatusBadge kind="platform" status={p.status} />
          </div>
          {p.platform_description ? (
            <p className="mt-0.5 line-clamp-2 text-sm text-base-content/70" title={p.platform_description}>
              {p.platform_description}
            </p>
          ) : null}
        </>
      )}
      pick={{
        id: (p) => p.platform_id,
        label: msg.prompts.assign,
        name: (p) => `${msg.prompts.assign} ${nameOf(p)}`,
        done: (p) => onAssigned(nameOf(p)),
      }}
    />
  );
}
