import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { msg } from "../../domain/messages";
import { errorMessage } from "../api/client";
import { StatusBadge } from "../components/badges";
import { EmptyState, SearchInput } from "../components/inputs";
import { Modal } from "../components/overlays";
import { Truncate } from "../components/text";
import { Spinner } from "../components/ui";
import { assignablePlatformsQuery, useAssignPlatform } from "./queries";

/**
 * SPEC.md §2 "/prompts/{promptId}" modal "Assign Platform to Prompt": active platforms not yet
 * assigned, searched by name or description (case-insensitive, on the server), an Assign button
 * per platform; "No platforms match your search." / "No available platforms to assign.".
 */
export function AssignPlatformModal({ promptId, open, onClose, onAssigned }: { promptId: string; open: boolean; onClose: () => void; onAssigned: (platform: string) => void }) {
  const [q, setQ] = useState("");
  const assign = useAssignPlatform(promptId);
  const [busyId, setBusyId] = useState<string | null>(null);
  const platforms = useQuery({ ...assignablePlatformsQuery(promptId)({ q: q || undefined, sort: "platform_name", order: "asc", limit: 50 }), enabled: open });

  const onAssign = (platformId: string, name: string) => {
    setBusyId(platformId);
    assign.mutate(platformId, { onSuccess: () => onAssigned(name), onSettled: () => setBusyId(null) });
  };

  return (
    <Modal open={open} title={msg.prompts.assignPlatformTitle} onClose={onClose} size="lg">
      {assign.error ? <div role="alert" className="alert alert-error alert-soft mb-3 text-sm">{errorMessage(assign.error)}</div> : null}
      <div className="mb-3">
        <SearchInput value={q} onChange={setQ} placeholder={msg.prompts.searchPlatforms} />
      </div>
      {platforms.isPending ? (
        <Spinner />
      ) : platforms.error ? (
        <div role="alert" className="alert alert-error alert-soft text-sm">{errorMessage(platforms.error)}</div>
      ) : platforms.data.items.length === 0 ? (
        <div className="py-8">
          <EmptyState title={q ? msg.prompts.noPlatformMatch : msg.prompts.noPlatformAvailable} />
        </div>
      ) : (
        <ul className="divide-y divide-base-300" aria-label="Available platforms">
          {platforms.data.items.map((p) => {
            const name = p.platform_name.trim() || msg.fallbacks.unnamedPlatform;
            return (
              <li key={p.platform_id} className="flex items-center gap-3 py-3">
                <div className="min-w-0 flex-1">
                  <div className="flex min-w-0 items-center gap-2">
                    <Truncate text={name} className="font-medium" />
                    <StatusBadge kind="platform" status={p.status} />
                  </div>
                  {p.platform_description ? <p className="mt-0.5 line-clamp-2 text-sm text-base-content/70" title={p.platform_description}>{p.platform_description}</p> : null}
                </div>
                <button type="button" className="btn btn-primary btn-sm" onClick={() => onAssign(p.platform_id, name)} disabled={busyId !== null} aria-label={`${msg.prompts.assign} ${name}`}>
                  {busyId === p.platform_id ? <span className="loading loading-spinner loading-xs" aria-hidden /> : null}
                  {msg.prompts.assign}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {platforms.data && platforms.data.total > platforms.data.items.length ? (
        <p className="mt-2 text-xs text-base-content/70">Showing {platforms.data.items.length} of {platforms.data.total}; search to narrow the list.</p>
      ) : null}
    </Modal>
  );
}
