import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { msg } from "../../domain/messages";
import { displayName } from "../components/format";
import { notify } from "../components/overlays";
import { PickModal } from "../components/PickModal";
import { availableUsersQuery, useAddMember } from "./queries";

/**
 * The team page's "Add Member" (the mirror of the user page's Add Team): the active users of the
 * team's customer who are not members, searched and paged by the server, each with "Add to Team";
 * an added user leaves the list (it refetches) and "Successfully added to team!" shows.
 */
export function AddMemberModal({
  teamId,
  customerName,
  open,
  onClose,
}: {
  teamId: string;
  customerName: string;
  open: boolean;
  onClose: () => void;
}) {
  const [q, setQ] = useState("");
  const add = useAddMember(teamId);
  const [busyId, setBusyId] = useState<string | null>(null);
  const users = useQuery({ ...availableUsersQuery(teamId, q), enabled: open });
  const close = () => {
    add.reset();
    setQ("");
    onClose();
  };

  return (
    <PickModal
      open={open}
      title={msg.teams.addMemberTitle}
      onClose={close}
      error={add.error}
      intro={
        <p className="mb-3 truncate text-sm text-base-content/80" title={customerName}>
          {msg.teams.usersOf(customerName)}
        </p>
      }
      search={msg.teams.searchUsers}
      q={q}
      onSearch={setQ}
      query={users}
      empty={(q) => (q ? msg.teams.noUserMatch : msg.teams.allUsersMember)}
      label="Available users"
      rowKey={(user) => user.user_id}
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
      action={{
        content: (_user, busy) => (
          <>
            {busy ? <span className="loading loading-spinner loading-xs" aria-hidden /> : null}
            {busy ? msg.users.adding : "Add to Team"}
          </>
        ),
        label: (user) => `Add ${displayName(user)} to the team`,
        run: (user) => {
          setBusyId(user.user_id);
          add.mutate(user.user_id, {
            onSuccess: () => notify(msg.teams.memberAdded),
            onSettled: () => setBusyId(null),
          });
        },
      }}
      busyId={busyId}
    />
  );
}
