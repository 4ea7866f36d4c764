import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { limits, msg } from "../../domain/messages";
import type { TeamListItem } from "../../domain/teams";
import { errorMessage } from "../api/client";
import { StatusBadge } from "../components/badges";
import { columnsFor, DataTable, Pagination, type SortState } from "../components/DataTable";
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
  const [sort, setSort] = useState<SortState>({ sort: "team_name", order: "asc" });
  const [offset, setOffset] = useState(0);
  const { data, error, isPending, isFetching, refetch } = useQuery(teamListQuery({ customer_id: customerId, ...sort, limit: limits.pageSize, offset }));
  if (error && !data) return <ErrorState title={msg.teams.loadError} message={errorMessage(error)} onRetry={() => void refetch()} />;
  return (
    <>
      <DataTable
        label="Teams"
        columns={columns}
        rows={data?.items}
        rowKey={(t) => t.team_id}
        sortable={["team_name", "user_count", "skills_count", "status", "created_at"]}
        sort={sort}
        onSort={(s) => { setSort(s); setOffset(0); }}
        loading={isPending || isFetching}
        onRowClick={(t) => void navigate({ to: "/teams/$teamId", params: { teamId: t.team_id } })}
        empty={<EmptyState title="No teams yet" text="Add a team to group this customer's users." />}
      />
      {data ? <Pagination total={data.total} limit={limits.pageSize} offset={offset} onPage={setOffset} /> : null}
    </>
  );
}
