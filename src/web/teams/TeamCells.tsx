import { RecordLink } from "../components/RecordLink";
import { DirectoryIcon } from "../customers/public";

/** A team's name linking to /teams/{team_id} (SPEC.md §2: team tables link their names), cut with an ellipsis when long. */
export function TeamLink({ teamId, name }: { teamId: string; name: string }) {
  return <RecordLink to="/teams/$teamId" params={{ teamId }} text={name} />;
}

/** A team table's name cell: the link, then the mark of a team the customer's directory manages, on one line. */
export function TeamNameCell({ team }: { team: { team_id: string; team_name: string; directory_managed: boolean } }) {
  return (
    <div className="flex min-w-0 items-center gap-1">
      <TeamLink teamId={team.team_id} name={team.team_name} />
      {team.directory_managed ? <DirectoryIcon kind="team" /> : null}
    </div>
  );
}
