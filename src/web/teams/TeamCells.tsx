import { Link } from "@tanstack/react-router";

/** A team's name linking to /teams/{team_id} (SPEC.md §2: team tables link their names), cut with an ellipsis when long. */
export function TeamLink({ teamId, name }: { teamId: string; name: string }) {
  return (
    <Link to="/teams/$teamId" params={{ teamId }} className="block min-w-0 truncate font-medium hover:text-primary hover:underline" title={name}>
      {name}
    </Link>
  );
}
