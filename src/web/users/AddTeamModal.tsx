import { usersMsg } from "../../domain/messages/users";
import { formatNumber } from "../components/format";
import { notify } from "../components/overlays";
import { PickModal, type ModalState } from "../components/PickModal";
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
  ...modal
}: ModalState & { userId: string; customerName: string }) {
  return (
    <PickModal
      {...modal}
      title={usersMsg.addTeamTitle}
      intro={usersMsg.teamsOf(customerName)}
      search={usersMsg.searchTeams}
      query={(q) => availableTeamsQuery(userId, q)}
      mutation={useJoinTeam(userId)}
      empty={(q) => (q ? usersMsg.noTeamMatch : usersMsg.allTeamsJoined)}
      label="Available teams"
      pick={{
        id: (team) => team.team_id,
        label: usersMsg.addToTeam,
        busyLabel: usersMsg.adding,
        done: () => notify(usersMsg.addedToTeam),
      }}
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
    />
  );
}
