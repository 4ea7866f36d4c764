import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { CircleCheck, CircleSlash, UsersRound } from "lucide-react";
import { limits, msg } from "../../domain/messages";
import { teamSortKeys, type TeamListItem } from "../../domain/teams";
import { errorMessage } from "../api/client";
import { StatusBadge } from "../components/badges";
import { columnsFor, DataTable, Pagination } from "../components/DataTable";
import { formatNumber } from "../components/format";
import { DateText, Num } from "../components/text";
import { EmptyState, SearchInput, Toolbar } from "../components/inputs";
import { ErrorState, PageHeader, StatCard, StatCardSkeleton, StatGrid } from "../components/ui";
import { CustomerFilter } from "../customers/public";
import { useListSearch } from "../lib/list-search";
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

/** SPEC.md §2 "/teams": cards on the filtered set, customer filter, search, sortable table. */
export default function TeamsPage() {
  const list = useListSearch<{ q?: string; customer?: string }>({ sort: "created_at", order: "desc" });
  const customer = list.search.customer;
  const navigate = useNavigate();
  const { data, error, isPending, isFetching, refetch } = useQuery(
    teamListQuery({ q: list.q || undefined, customer_id: customer, sort: list.sort, order: list.order, limit: list.limit, offset: list.offset }),
  );

  return (
    <>
      <PageHeader title={msg.nav.teams} subtitle="Teams across all customers" />
      <StatGrid>
        {data ? (
          <>
            <StatCard label="Total Teams" value={formatNumber(data.summary.total)} icon={<UsersRound className="h-6 w-6" />} />
            <StatCard label="Active" value={formatNumber(data.summary.active)} icon={<CircleCheck className="h-6 w-6" />} />
            <StatCard label="Inactive" value={formatNumber(data.summary.inactive)} icon={<CircleSlash className="h-6 w-6" />} />
          </>
        ) : (
          Array.from({ length: limits.skeletonCards - 1 }, (_, i) => <StatCardSkeleton key={i} />)
        )}
      </StatGrid>

      <section className="mt-6" aria-label="Team list">
        <Toolbar>
          <SearchInput value={list.q} onChange={list.setQuery} placeholder="Search teams..." />
          <CustomerFilter value={customer} onChange={(id) => list.setFilter({ customer: id })} />
        </Toolbar>
        {error && !data ? (
          <ErrorState title={msg.teams.loadError} message={errorMessage(error)} onRetry={() => void refetch()} />
        ) : (
          <>
            <DataTable
              label={msg.nav.teams}
              columns={columns}
              rows={data?.items}
              rowKey={(t) => t.team_id}
              sortable={teamSortKeys}
              sort={{ sort: list.sort, order: list.order }}
              onSort={list.setSort}
              loading={isPending || isFetching}
              onRowClick={(t) => void navigate({ to: "/teams/$teamId", params: { teamId: t.team_id } })}
              empty={<EmptyState title="No teams found" text={list.q || customer ? "No teams match the search or filter." : undefined} />}
            />
            {data ? <Pagination total={data.total} limit={list.limit} offset={list.offset} onPage={list.setOffset} /> : null}
          </>
        )}
      </section>
    </>
  );
}
