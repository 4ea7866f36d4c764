import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { msg } from "../../domain/messages";
import { formatNumber } from "../components/format";
import { notify } from "../components/overlays";
import { PickModal } from "../components/PickModal";
import { availableTeamsQuery, useJoinTeam } from "./queries";

/**
 * SPEC.md §2 "/users/{userId}" modal "Add Team": the active teams of the user's customer that the
 * user is not in, each with "Add to Team". An added team leaves the list at once and the banner
 * "Successfully added to team!" shows; with none left, "You are already a member of all active
 * teams for this customer."
 */
export function AddTeamModal({
  userId,
  customerName,
  open,
  onClose,
}: {
  userId: string;
  customerName: string;
  open: boolean;
  onClose: () => void;
}) {
  const [q, setQ] = useState("");
  const join = useJoinTeam(userId);
  const [busyId, setBusyId] = useState<string | null>(null);
  const teams = useQuery({ ...availableTeamsQuery(userId, q), enabled: open });
  const close = () => {
    join.reset();
    setQ("");
    onClose();
  };

  return (
    <PickModal
      open={open}
      title={msg.users.addTeamTitle}
      onClose={close}
      error={join.error}
      intro={
        <p className="mb-3 truncate text-sm text-base-content/80" title={customerName}>
          {msg.users.teamsOf(customerName)}
        </p>
      }
      search={msg.users.searchTeams}
      q={q}
      onSearch={setQ}
      query={teams}
      empty={(q) => (q ? msg.users.noTeamMatch : msg.users.allTeamsJoined)}
      label="Available teams"
      rowKey={(team) => team.team_id}
      row={(team) => (
        <>
          <div className="truncate font-medium" title={team.team_name}>
            {team.team_name}
          </div>
          <div className="text-xs text-base-content/70">
            {formatNumber(team.user_count)} {team.user_count === 1 ? "member" : "members"}
          </div>
        </>
      )}
      action={{
        content: (_team, busy) => (
          <>
            {busy ? <span className="loading loading-spinner loading-xs" aria-hidden /> : null}
            {busy ? msg.users.adding : "Add to Team"}
          </>
        ),
        run: (team) => {
          setBusyId(team.team_id);
          join.mutate(team.team_id, {
            onSuccess: () => notify(msg.users.addedToTeam),
            onSettled: () => setBusyId(null),
          });
        },
      }}
      busyId={busyId}
    />
  );
}
