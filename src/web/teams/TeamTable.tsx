import { useNavigate } from "@tanstack/react-router";
import { msg } from "../../domain/messages";
import type { TeamListItem } from "../../domain/teams";
import { errorMessage } from "../api/client";
import { StatusBadge } from "../components/badges";
import { columnsFor, DataTable } from "../components/DataTable";
import { ListPagination } from "../components/ListPagination";
import { useServerList } from "../lib/server-list";
import { DateText, Num } from "../components/text";
import { EmptyState } from "../components/inputs";
import { ErrorState } from "../components/ui";
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
  col.accessor("user_count", { id: "user_count", header: "Users", meta: { align: "right" }, cell: (c) => <Num value={c.getValue()} /> }),
  col.accessor("skills_count", { id: "skills_count", header: "Skills", meta: { align: "right" }, cell: (c) => <Num value={c.getValue()} /> }),
  col.accessor("status", { id: "status", header: "Status", cell: (c) => <StatusBadge kind="team" status={c.getValue()} /> }),
  col.accessor("created_at", { id: "created_at", header: "Created", cell: (c) => <DateText iso={c.getValue()} /> }),
];

/** The teams of one customer (SPEC.md §2 "/customers/{customerId}"), sorted and paged by the server. */
export function CustomerTeamTable({ customerId }: { customerId: string }) {
  const navigate = useNavigate();
  const list = useServerList<TeamListItem>({ mode: "local", defaults: { sort: "team_name", order: "asc" }, fixed: { customer_id: customerId }, query: teamListQuery });
  const { data, failed, query } = list;
  if (failed) return <ErrorState title={msg.teams.loadError} message={errorMessage(query.error)} onRetry={() => void query.refetch()} />;
  return (
    <>
      <DataTable
        label="Teams"
        columns={columns}
        rows={data?.items}
        rowKey={(t) => t.team_id}
        sortable={["team_name", "user_count", "skills_count", "status", "created_at"]}
        sort={{ sort: list.state.sort, order: list.state.order }}
        onSort={list.setSort}
        loading={query.isPending || query.isFetching}
        onRowClick={(t) => void navigate({ to: "/teams/$teamId", params: { teamId: t.team_id } })}
        empty={<EmptyState title="No teams yet" text="Add a team to group this customer's users." />}
      />
      <ListPagination list={list} label="Teams pages" />
    </>
  );
}
