import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { msg } from "../../domain/messages";
import { errorMessage } from "../api/client";
import { formatNumber } from "../components/format";
import { EmptyState, SearchInput } from "../components/inputs";
import { Modal, notify } from "../components/overlays";
import { Spinner } from "../components/ui";
import { availableTeamsQuery, useJoinTeam } from "./queries";

/**
 * SPEC.md §2 "/users/{userId}" modal "Add Team": the active teams of the user's customer that the
 * user is not in, each with "Add to Team". An added team leaves the list at once and the banner
 * "Successfully added to team!" shows; with none left, "You are already a member of all active
 * teams for this customer."
 */
export function AddTeamModal({ userId, customerName, open, onClose }: { userId: string; customerName: string; open: boolean; onClose: () => void }) {
  const [q, setQ] = useState("");
  const join = useJoinTeam(userId);
  const [busyId, setBusyId] = useState<string | null>(null);
  const teams = useQuery({ ...availableTeamsQuery(userId, q), enabled: open });

  const onAdd = (teamId: string) => {
    setBusyId(teamId);
    join.mutate(teamId, {
      onSuccess: () => notify(msg.users.addedToTeam),
      onSettled: () => setBusyId(null),
    });
  };
  const close = () => {
    join.reset();
    setQ("");
    onClose();
  };

  return (
    <Modal open={open} title={msg.users.addTeamTitle} onClose={close} size="lg">
      {join.error ? <div role="alert" className="alert alert-error alert-soft mb-3 text-sm">{errorMessage(join.error)}</div> : null}
      <p className="mb-3 truncate text-sm text-base-content/80" title={customerName}>{msg.users.teamsOf(customerName)}</p>
      <div className="mb-3">
        <SearchInput value={q} onChange={setQ} placeholder={msg.users.searchTeams} />
      </div>
      {teams.isPending ? (
        <Spinner />
      ) : teams.error ? (
        <div role="alert" className="alert alert-error alert-soft text-sm">{errorMessage(teams.error)}</div>
      ) : teams.data.items.length === 0 ? (
        <div className="py-8">
          <EmptyState title={q ? msg.users.noTeamMatch : msg.users.allTeamsJoined} />
        </div>
      ) : (
        <ul className="divide-y divide-base-300" aria-label="Available teams">
          {teams.data.items.map((team) => (
            <li key={team.team_id} className="flex items-center gap-3 py-3">
              <div className="min-w-0 flex-1">
                <div className="truncate font-medium" title={team.team_name}>{team.team_name}</div>
                <div className="text-xs text-base-content/70">
                  {formatNumber(team.user_count)} {team.user_count === 1 ? "member" : "members"}
                </div>
              </div>
              <button type="button" className="btn btn-primary btn-sm" onClick={() => onAdd(team.team_id)} disabled={busyId !== null}>
                {busyId === team.team_id ? <span className="loading loading-spinner loading-xs" aria-hidden /> : null}
                {busyId === team.team_id ? msg.users.adding : "Add to Team"}
              </button>
            </li>
          ))}
        </ul>
      )}
      {teams.data && teams.data.total > teams.data.items.length ? (
        <p className="mt-2 text-xs text-base-content/70">Showing {teams.data.items.length} of {teams.data.total}; search to narrow the list.</p>
      ) : null}
    </Modal>
  );
}
