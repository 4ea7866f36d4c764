import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { msg } from "../../domain/messages";
import type { AssignablePlatform } from "../../domain/prompts";
import { StatusBadge } from "../components/badges";
import { PickModal } from "../components/PickModal";
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
  open,
  onClose,
  onAssigned,
}: {
  promptId: string;
  open: boolean;
  onClose: () => void;
  onAssigned: (platform: string) => void;
}) {
  const [q, setQ] = useState("");
  const assign = useAssignPlatform(promptId);
  const [busyId, setBusyId] = useState<string | null>(null);
  const platforms = useQuery({
    ...assignablePlatformsQuery(promptId)({ q: q || undefined, sort: "platform_name", order: "asc", limit: 50 }),
    enabled: open,
  });

  return (
    <PickModal
      open={open}
      title={msg.prompts.assignPlatformTitle}
      onClose={onClose}
      error={assign.error}
      search={msg.prompts.searchPlatforms}
      q={q}
      onSearch={setQ}
      query={platforms}
      empty={(q) => (q ? msg.prompts.noPlatformMatch : msg.prompts.noPlatformAvailable)}
      label="Available platforms"
      rowKey={(p) => p.platform_id}
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
      action={{
        content: (_p, busy) => (
          <>
            {busy ? <span className="loading loading-spinner loading-xs" aria-hidden /> : null}
            {msg.prompts.assign}
          </>
        ),
        label: (p) => `${msg.prompts.assign} ${nameOf(p)}`,
        run: (p) => {
          setBusyId(p.platform_id);
          assign.mutate(p.platform_id, { onSuccess: () => onAssigned(nameOf(p)), onSettled: () => setBusyId(null) });
        },
      }}
      busyId={busyId}
    />
  );
}
