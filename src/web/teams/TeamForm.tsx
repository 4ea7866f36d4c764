import { teamFormStatuses } from "../../domain/enums";
import type { CreateTeamInput } from "../../domain/teams";
import type { FieldSpec } from "../components/EntityForm";

/**
 * The team form (SPEC.md §5 "Add team"): Team Name (required, trimmed) and Status
 * (`teamFormStatuses`). Rendered by `EntityForm` with `createTeamSchema`; the customer is the page's.
 */
export const teamFields: FieldSpec<CreateTeamInput>[] = [
  { kind: "text", name: "team_name", label: "Team Name", required: true },
  { kind: "select", name: "status", label: "Status", options: teamFormStatuses },
];

/** A new team of `customerId`. */
export const teamDefaults = (customerId: string): CreateTeamInput => ({
  customer_id: customerId,
  team_name: "",
  status: "active",
});
