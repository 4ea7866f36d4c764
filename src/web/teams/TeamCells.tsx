import { RecordLink } from "../components/RecordLink";

/** A team's name linking to /teams/{team_id} (SPEC.md §2: team tables link their names), cut with an ellipsis when long. */
export function TeamLink({ teamId, name }: { teamId: string; name: string }) {
  return <RecordLink to="/teams/$teamId" params={{ teamId }} text={name} />;
}
