import { Link, useNavigate } from "@tanstack/react-router";
import { CircleCheck, CircleSlash, UsersRound } from "lucide-react";
import { limits, msg } from "../../domain/messages";
import { teamSortKeys, type TeamListItem, type TeamPage } from "../../domain/teams";
import { errorMessage } from "../api/client";
import { StatusBadge } from "../components/badges";
import { columnsFor, DataTable } from "../components/DataTable";
import { ExportCsvButton } from "../components/ExportCsvButton";
import { DateText, Num } from "../components/text";
import { EmptyState, SearchInput, Toolbar } from "../components/inputs";
import { formatCount, ListPagination } from "../components/ListPagination";
import { ErrorState, PageHeader, StatCard, StatCardSkeleton, StatGrid } from "../components/ui";
import { CustomerFilter } from "../customers/public";
import { useServerList } from "../lib/server-list";
import { SummaryNote } from "../lib/SummaryNote";
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
  const { data, failed, query } = list;
  const customer = list.state.filters.customer;
  const exact = data?.summary_exact ?? true;

  return (
    <>
      <PageHeader title={msg.nav.teams} subtitle="Teams across all customers" />
      <StatGrid>
        {data ? (
          <>
            <StatCard label="Total Teams" value={formatCount(data.summary.total, exact)} icon={<UsersRound className="h-6 w-6" />} />
            <StatCard label="Active" value={formatCount(data.summary.active, exact)} icon={<CircleCheck className="h-6 w-6" />} />
            <StatCard label="Inactive" value={formatCount(data.summary.inactive, exact)} icon={<CircleSlash className="h-6 w-6" />} />
          </>
        ) : (
          Array.from({ length: limits.skeletonCards - 1 }, (_, i) => <StatCardSkeleton key={i} />)
        )}
      </StatGrid>
      <SummaryNote page={data} />

      <section className="mt-6" aria-label="Team list">
        <Toolbar actions={<ExportCsvButton path="/teams" query={list.params} total={data?.total} />}>
          <SearchInput value={list.state.q} onChange={list.setQuery} placeholder="Search teams..." />
          <CustomerFilter value={customer} onChange={(id) => list.setFilter({ customer: id })} />
        </Toolbar>
        {failed ? (
          <ErrorState title={msg.teams.loadError} message={errorMessage(query.error)} onRetry={() => void query.refetch()} />
        ) : (
          <>
            <DataTable
              label={msg.nav.teams}
              columns={columns}
              rows={data?.items}
              rowKey={(t) => t.team_id}
              sortable={teamSortKeys}
              sort={{ sort: list.state.sort, order: list.state.order }}
              onSort={list.setSort}
              loading={query.isPending || query.isFetching}
              onRowClick={(t) => void navigate({ to: "/teams/$teamId", params: { teamId: t.team_id } })}
              empty={<EmptyState title="No teams found" text={list.state.q || customer ? "No teams match the search or filter." : undefined} />}
            />
            <ListPagination list={list} />
          </>
        )}
      </section>
    </>
  );
}
