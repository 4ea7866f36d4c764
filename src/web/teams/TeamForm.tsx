import { useParams } from "@tanstack/react-router";
import { teamFormStatuses } from "../../domain/enums";
import { known } from "../../domain/enums";
import { navMsg } from "../../domain/messages/common";
import { teamsMsg } from "../../domain/messages/teams";
import { createTeamSchema, type CreateTeamInput, type TeamListItem } from "../../domain/teams";
import type { RecordKind } from "../components/RecordPage";
import type { FieldSpec } from "../components/EntityForm";
import { editScreen, type Screen } from "../components/FormScreen";
import { flatFields } from "../components/form-values";
import { directorySaveConfirm } from "../customers/public";
import { teamQuery, useUpdateTeam } from "./queries";

/**
 * The team form (SPEC.md §5 "Add team"): Team Name (required, trimmed) and Status
 * (`teamFormStatuses`). Rendered by `EntityForm` with `createTeamSchema`; the customer is the page's.
 */
export const teamFields: FieldSpec<CreateTeamInput>[] = [
  { kind: "text", name: "team_name", label: "Team Name", required: true },
  { kind: "select", name: "status", label: "Status", options: teamFormStatuses },
];

/** The fields' labels by name, for naming the fields the directory's next sync overwrites. */
const teamLabels = Object.fromEntries(flatFields(teamFields).map((f) => [f.name, f.label]));

/** A new team of `customerId`. */
export const teamDefaults = (customerId: string): CreateTeamInput => ({
  customer_id: customerId,
  team_name: "",
  status: "active",
});

/** The form's values for a team being edited (also a stale save's current record on Reload). */
const teamValues = (t: Pick<TeamListItem, "customer_id" | "team_name" | "status">): CreateTeamInput => ({
  customer_id: t.customer_id,
  team_name: t.team_name,
  status: known(teamFormStatuses, t.status),
});

/** A team as its page and edit screen load it: a 404 says the spec's "Error loading team" / "Team not found". */
export const teamRecord: RecordKind = {
  section: navMsg.teams,
  errorTitle: teamsMsg.loadOneError,
  notFound: { title: teamsMsg.loadOneError, message: teamsMsg.notFound },
  list: { to: "/teams", label: teamsMsg.backToList },
};

/**
 * /teams/{teamId}/edit (docs/editing.md): the add form prefilled (name, status); saved with the
 * version read (a stale save shows who changed what since); a new name of a team the customer's
 * directory manages asks first (its next sync overwrites it); on success back to the team. A team
 * is added from its customer's page (customers/AddTeamPage.tsx).
 */
export const EditPage: Screen = editScreen({
  kind: teamRecord,
  texts: teamsMsg,
  schema: createTeamSchema,
  fields: teamFields,
  useId: () => useParams({ from: "/teams/$teamId/edit" }).teamId,
  query: teamQuery,
  values: teamValues,
  name: (t) => t.team_name,
  useUpdate: useUpdateTeam,
  send: ({ team_name, status }, { ifMatch }) => ({ team_name, status, ifMatch }),
  back: (teamId) => ({ to: "/teams/$teamId", params: { teamId }, label: teamsMsg.backToTeam }),
  reload: true,
  skeleton: 2,
  confirmSave: (t, changed) => directorySaveConfirm(t, "team", teamLabels, changed),
});
