import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useParams } from "@tanstack/react-router";
import { msg } from "../../domain/messages";
import { createTeamSchema } from "../../domain/teams";
import { EntityForm } from "../components/EntityForm";
import { FormScreen } from "../components/FormScreen";
import { notify } from "../components/overlays";
import { teamQuery, teamKeys, useUpdateTeam } from "./queries";
import { teamFields, teamRecord, teamValues } from "./TeamForm";

/**
 * /teams/{teamId}/edit (docs/editing.md): the add form prefilled (name, status); saved with the
 * version read (a stale save shows who changed what since); on success back to the team.
 */
export default function EditTeamPage() {
  const { teamId } = useParams({ from: "/teams/$teamId/edit" });
  const query = useQuery(teamQuery(teamId));
  const update = useUpdateTeam(teamId);
  const queryClient = useQueryClient();
  const back = { to: "/teams/$teamId", params: { teamId } };
  return (
    <FormScreen
      section={msg.nav.teams}
      title={msg.teams.editTitle}
      subtitle={msg.teams.editSubtitle}
      back={{ ...back, label: msg.teams.backToTeam }}
      load={{ query, name: (t) => t.team_name, kind: teamRecord }}
      fields={2}
    >
      {({ record: team, cancel, finish, locked }) => (
        <EntityForm
          schema={createTeamSchema}
          fields={teamFields}
          defaults={teamValues(team)}
          version={{
            updatedAt: team.updated_at,
            reset: (current) => teamValues(current as never),
            onReload: () => void queryClient.invalidateQueries({ queryKey: teamKeys.detail(teamId) }),
          }}
          locked={locked}
          submitLabel={msg.edit.save}
          busyLabel={msg.edit.saving}
          cancel={cancel}
          onSubmit={async ({ team_name, status }, { ifMatch }) => {
            await update.mutateAsync({ team_name, status, ifMatch });
            notify(msg.teams.updated);
            await finish(back);
          }}
        />
      )}
    </FormScreen>
  );
}
