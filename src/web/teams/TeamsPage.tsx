import { Link, useNavigate } from "@tanstack/react-router";
import { CircleCheck, CircleSlash, UsersRound } from "lucide-react";
import { msg } from "../../domain/messages";
import { teamSortKeys, type TeamListItem, type TeamPage } from "../../domain/teams";
import { StatusBadge } from "../components/badges";
import { columnsFor } from "../components/DataTable";
import { ListScreen } from "../components/ListScreen";
import { DateText, Num } from "../components/text";
import { EmptyState } from "../components/inputs";
import { CustomerFilter } from "../customers/public";
import { useServerList } from "../lib/server-list";
import { teamListQuery } from "./queries";
import { TeamLink } from "./TeamCells";

const col = columnsFor<TeamListItem>();
const columns = [
  col.accessor("team_name", {
    id: "team_name",
    header: "Team Name",
    meta: { grow: true },
    cell: ({ row }) => <TeamLink teamId={row.original.team_id} name={row.original.team_name} />,
  }),
  col.accessor("customer_name", {
    id: "customer_name",
    header: "Customer",
    cell: ({ row }) => {
      const name = row.original.customer_name ?? msg.fallbacks.unknownCustomer;
      return (
        <Link to="/customers/$customerId" params={{ customerId: row.original.customer_id }} className="block max-w-64 truncate hover:text-primary hover:underline" title={name}>
          {name}
        </Link>
      );
    },
  }),
  col.accessor("user_count", { id: "user_count", header: "Users", meta: { align: "right" }, cell: (c) => <Num value={c.getValue()} /> }),
  col.accessor("skills_count", { id: "skills_count", header: "Skills", meta: { align: "right" }, cell: (c) => <Num value={c.getValue()} /> }),
  col.accessor("status", { id: "status", header: "Status", cell: (c) => <StatusBadge kind="team" status={c.getValue()} /> }),
  col.accessor("created_at", { id: "created_at", header: "Created", cell: (c) => <DateText iso={c.getValue()} /> }),
];

/** SPEC.md §2 "/teams": cards on the filtered set, customer filter, search, sortable table, Export CSV. */
export default function TeamsPage() {
  const list = useServerList<TeamListItem, TeamPage["summary"]>({
    mode: "url", defaults: { sort: "created_at", order: "desc" }, filters: { customer: "customer_id" }, query: teamListQuery,
  });
  const navigate = useNavigate();
  const customer = list.state.filters.customer;

  return (
    <ListScreen
      list={list}
      title={msg.nav.teams}
      subtitle="Teams across all customers"
      cards={[
        { label: "Total Teams", icon: UsersRound, value: (s) => s.total },
        { label: "Active", icon: CircleCheck, value: (s) => s.active },
        { label: "Inactive", icon: CircleSlash, value: (s) => s.inactive },
      ]}
      section={{ label: "Team list" }}
      search="Search teams..."
      filters={<CustomerFilter value={customer} onChange={(id) => list.setFilter({ customer: id })} />}
      exportPath="/teams"
      table={{
        label: msg.nav.teams,
        columns,
        rowKey: (t) => t.team_id,
        sortable: teamSortKeys,
        onRowClick: (t) => void navigate({ to: "/teams/$teamId", params: { teamId: t.team_id } }),
        empty: <EmptyState title="No teams found" text={list.state.q || customer ? "No teams match the search or filter." : undefined} />,
      }}
      errorTitle={msg.teams.loadError}
    />
  );
}
