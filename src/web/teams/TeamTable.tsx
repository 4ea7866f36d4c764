import { teamsMsg } from "../../domain/messages/teams";
import type { TeamListItem } from "../../domain/teams";
import { StatusBadge } from "../components/badges";
import { columnsFor } from "../components/DataTable";
import { EmbeddedList } from "../components/EmbeddedList";
import { DateText, Num } from "../components/text";
import { useServerList } from "../lib/server-list";
import { teamListQuery } from "./queries";
import { TeamNameCell } from "./TeamCells";

const col = columnsFor<TeamListItem>();
/** The columns of a team row, shared by /teams and a customer's Teams table (SPEC.md §2). */
export const teamColumns = {
  name: col.accessor("team_name", {
    id: "team_name",
    header: "Team Name",
    meta: { grow: true },
    cell: ({ row }) => <TeamNameCell team={row.original} />,
  }),
  users: col.accessor("user_count", {
    id: "user_count",
    header: "Users",
    meta: { align: "right" },
    cell: (c) => <Num value={c.getValue()} />,
  }),
  skills: col.accessor("skills_count", {
    id: "skills_count",
    header: "Skills",
    meta: { align: "right" },
    cell: (c) => <Num value={c.getValue()} />,
  }),
  status: col.accessor("status", {
    id: "status",
    header: "Status",
    cell: (c) => <StatusBadge kind="team" status={c.getValue()} />,
  }),
  created: col.accessor("created_at", {
    id: "created_at",
    header: "Created",
    cell: (c) => <DateText iso={c.getValue()} />,
  }),
};
const columns = [teamColumns.name, teamColumns.users, teamColumns.skills, teamColumns.status, teamColumns.created];

/** The teams of one customer (SPEC.md §2 "/customers/{customerId}"), sorted and paged by the server. */
export function CustomerTeamTable({ customerId }: { customerId: string }) {
  const list = useServerList<TeamListItem>({
    mode: "local",
    defaults: { sort: "team_name", order: "asc" },
    fixed: { customer_id: customerId },
    query: teamListQuery,
  });
  return (
    <EmbeddedList
      list={list}
      label="Teams"
      columns={columns}
      rowKey={(t) => t.team_id}
      sortable={["team_name", "user_count", "skills_count", "status", "created_at"]}
      rowLink={(t) => ({ to: "/teams/$teamId", params: { teamId: t.team_id } })}
      empty={() => ({ title: "No teams yet", text: "Add a team to group this customer's users." })}
      errorTitle={teamsMsg.loadError}
    />
  );
}
