import { Link, useNavigate } from "@tanstack/react-router";
import { CircleCheck, CircleSlash, LogIn, Plus, User } from "lucide-react";
import { limits, msg } from "../../domain/messages";
import { userSortKeys, type UserListItem, type UserPage } from "../../domain/users";
import { errorMessage } from "../api/client";
import { RoleBadges, StatusBadge } from "../components/badges";
import { columnsFor, DataTable } from "../components/DataTable";
import { ExportCsvButton } from "../components/ExportCsvButton";
import { formatCount, ListPagination } from "../components/ListPagination";
import { SummaryNote } from "../lib/SummaryNote";
import { formatDate } from "../components/format";
import { EmptyState, SearchInput, Toolbar } from "../components/inputs";
import { ErrorState, PageHeader, StatCard, StatCardSkeleton, StatGrid } from "../components/ui";
import { useCan } from "../auth/permissions";
import { CustomerFilter } from "../customers/CustomerFilter";
import { useServerList } from "../lib/server-list";
import { userListQuery } from "./queries";
import { LastLogin, UserCell } from "./UserCells";

const col = columnsFor<UserListItem>();
const columns = [
  col.display({ id: "name", header: "User", cell: ({ row }) => <div className="w-40 2xl:w-60"><UserCell user={row.original} /></div> }),
  col.accessor("customer_name", {
    id: "customer_name",
    header: "Customer",
    cell: ({ row }) => (
      <Link
        to="/customers/$customerId"
        params={{ customerId: row.original.customer_id }}
        className="line-clamp-2 max-w-36 hover:text-primary hover:underline"
        title={row.original.customer_name ?? undefined}
      >
        {row.original.customer_name ?? msg.fallbacks.unknownCustomer}
      </Link>
    ),
  }),
  col.display({ id: "roles", header: "Roles", cell: ({ row }) => <RoleBadges roles={row.original.roles} /> }),
  col.accessor("job_title", {
    id: "job_title",
    header: "Job Title",
    cell: (c) => {
      const title = c.getValue();
      return title ? <span className="line-clamp-2 max-w-40" title={title}>{title}</span> : <span className="text-base-content/50">{msg.users.noJobTitle}</span>;
    },
  }),
  col.accessor("status", { id: "status", header: "Status", cell: (c) => <StatusBadge kind="user" status={c.getValue()} /> }),
  col.accessor("last_login", {
    id: "last_login",
    header: "Last Login",
    cell: (c) => <LastLogin iso={c.getValue()} />,
  }),
  col.accessor("created_at", { id: "created_at", header: "Created", cell: (c) => <span className="whitespace-nowrap">{formatDate(c.getValue())}</span> }),
];

/**
 * SPEC.md §2 "/users": cards Total, Active, Inactive, Recent Logins (24h) over the customer filter;
 * searchable, sortable, paged table; customer filter; Add User. Search, filter, sort and page live
 * in the URL.
 */
export default function UsersPage() {
  const list = useServerList<UserListItem, UserPage["summary"]>({
    mode: "url", defaults: { sort: "created_at", order: "desc" }, filters: { customer: "customer_id" }, query: userListQuery,
  });
  const customer = list.state.filters.customer;
  const navigate = useNavigate();
  const canEdit = useCan("editor");
  const { data, failed, query } = list;
  const { error, isPending, isFetching, refetch } = query;
  const exact = data?.summary_exact ?? true;
  // SPEC.md §8: failed counts fall back to 0.
  const summary = data?.summary ?? (failed ? { total: 0, active: 0, inactive: 0, recent_logins: 0 } : undefined);

  return (
    <>
      <PageHeader
        title={msg.nav.users}
        subtitle="Users across all customers, their roles and activity"
        actions={
          canEdit ? (
            <Link to="/users/add" className="btn btn-primary btn-sm">
              <Plus className="h-4 w-4" aria-hidden /> Add User
            </Link>
          ) : null
        }
      />
      <StatGrid>
        {summary ? (
          <>
            <StatCard label="Total" value={formatCount(summary.total, exact)} icon={<User className="h-6 w-6" />} />
            <StatCard label="Active" value={formatCount(summary.active, exact)} icon={<CircleCheck className="h-6 w-6" />} />
            <StatCard label="Inactive" value={formatCount(summary.inactive, exact)} icon={<CircleSlash className="h-6 w-6" />} />
            <StatCard label="Recent Logins (24h)" value={formatCount(summary.recent_logins, exact)} icon={<LogIn className="h-6 w-6" />} />
          </>
        ) : (
          Array.from({ length: limits.skeletonCards }, (_, i) => <StatCardSkeleton key={i} />)
        )}
      </StatGrid>
      <SummaryNote page={data} />

      <section className="mt-6" aria-label="User list">
        <Toolbar actions={<ExportCsvButton path="/users" query={list.params} total={data?.total} />}>
          <SearchInput value={list.state.q} onChange={list.setQuery} placeholder="Search users..." />
          <CustomerFilter value={customer} onChange={(id) => list.setFilter({ customer: id })} />
        </Toolbar>
        {failed ? (
          <div className="mb-3">
            <ErrorState title={msg.users.loadError} message={errorMessage(error)} onRetry={() => void refetch()} />
          </div>
        ) : null}
        <DataTable
          label={msg.nav.users}
          columns={columns}
          rows={failed ? [] : data?.items}
          rowKey={(u) => u.user_id}
          sortable={userSortKeys}
          sort={{ sort: list.state.sort, order: list.state.order }}
          onSort={list.setSort}
          loading={!failed && (isPending || isFetching)}
          onRowClick={(u) => void navigate({ to: "/users/$userId", params: { userId: u.user_id } })}
          empty={
            failed ? (
              <EmptyState title={msg.users.noData} />
            ) : (
              <EmptyState
                title={msg.users.empty}
                text={list.state.q || customer ? msg.users.filtered : msg.users.emptyHint}
                action={list.state.q || customer ? undefined : <Link to="/users/add" className="btn btn-primary btn-sm"><Plus className="h-4 w-4" aria-hidden /> Add User</Link>}
              />
            )
          }
        />
        <ListPagination list={list} />
      </section>
    </>
  );
}
