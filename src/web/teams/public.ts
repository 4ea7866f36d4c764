/** What other features may use of the teams feature. */
export { TeamLink } from "./TeamCells";
export { CustomerTeamTable } from "./TeamTable";
export { teamDefaults, teamFields } from "./TeamForm";
export { useCreateTeam } from "./queries";
