import { teamsMsg } from "../../domain/messages/teams";
import { usersMsg } from "../../domain/messages/users";
import { displayName } from "../components/format";
import { notify } from "../components/overlays";
import { PickModal, type ModalState } from "../components/PickModal";
import { availableUsersQuery, useAddMember } from "./queries";

/**
 * The team page's "Add Member" (the mirror of the user page's Add Team): the active users of the
 * team's customer who are not members, searched and paged by the server, each with "Add to Team";
 * an added user leaves the list (it refetches) and "Successfully added to team!" shows.
 */
export function AddMemberModal({
  teamId,
  customerName,
  ...modal
}: ModalState & { teamId: string; customerName: string }) {
  return (
    <PickModal
      {...modal}
      title={teamsMsg.addMemberTitle}
      intro={teamsMsg.usersOf(customerName)}
      search={teamsMsg.searchUsers}
      query={(q) => availableUsersQuery(teamId, q)}
      mutation={useAddMember(teamId)}
      empty={(q) => (q ? teamsMsg.noUserMatch : teamsMsg.allUsersMember)}
      label="Available users"
      row={(user) => (
        <>
          <div className="truncate font-medium" title={displayName(user)}>
            {displayName(user)}
          </div>
          <div className="truncate text-xs text-base-content/70" title={user.email}>
            {user.email}
            {user.job_title ? ` · ${user.job_title}` : ""}
          </div>
        </>
      )}
      pick={{
        id: (user) => user.user_id,
        label: usersMsg.addToTeam,
        busyLabel: usersMsg.adding,
        name: (user) => `Add ${displayName(user)} to the team`,
        done: () => notify(teamsMsg.memberAdded),
      }}
    />
  );
}
