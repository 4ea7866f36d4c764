import { Link, useNavigate } from "@tanstack/react-router";
import { CircleCheck, CircleSlash, LogIn, Plus, User, X } from "lucide-react";
import { limits, msg } from "../../domain/messages";
import { userSortKeys, type UserListItem, type UserPage } from "../../domain/users";
import { errorMessage } from "../api/client";
import { RoleBadges, StatusBadge } from "../components/badges";
import { columnsFor, DataTable } from "../components/DataTable";
import { ExportCsvButton } from "../components/ExportCsvButton";
import { formatCount, ListPagination } from "../components/ListPagination";
import { SummaryNote } from "../lib/SummaryNote";
import { DateText, Muted, Truncate } from "../components/text";
import { ActionBar, ActionButton } from "../components/actions";
import { EmptyState, SearchInput, Toolbar } from "../components/inputs";
import { ErrorState, PageHeader, StatCard, StatCardSkeleton, StatGrid } from "../components/ui";
import { CustomerFilter } from "../customers/public";
import { useServerList } from "../lib/server-list";
import { userListQuery } from "./queries";
import { LastLogin, UserCell } from "./UserCells";

const col = columnsFor<UserListItem>();
const columns = [
  col.display({ id: "name", header: "User", meta: { grow: true }, cell: ({ row }) => <UserCell user={row.original} /> }),
  col.accessor("customer_name", {
    id: "customer_name",
    header: "Customer",
    cell: ({ row }) => {
      const name = row.original.customer_name ?? msg.fallbacks.unknownCustomer;
      return (
        <Link to="/customers/$customerId" params={{ customerId: row.original.customer_id }} className="block max-w-32 truncate hover:text-primary hover:underline" title={name}>
          {name}
        </Link>
      );
    },
  }),
  col.display({ id: "roles", header: "Roles", cell: ({ row }) => <RoleBadges roles={row.original.roles} /> }),
  col.accessor("job_title", {
    id: "job_title",
    header: "Job Title",
    cell: (c) => {
      const title = c.getValue();
      return title ? <Truncate text={title} className="max-w-32" /> : <Muted>{msg.users.noJobTitle}</Muted>;
    },
  }),
  col.accessor("status", { id: "status", header: "Status", cell: (c) => <StatusBadge kind="user" status={c.getValue()} /> }),
  col.accessor("last_login", {
    id: "last_login",
    header: "Last Login",
    cell: (c) => <LastLogin iso={c.getValue()} />,
  }),
  col.accessor("created_at", { id: "created_at", header: "Created", cell: (c) => <DateText iso={c.getValue()} /> }),
];

/**
 * SPEC.md §2 "/users": cards Total, Active, Inactive, Recent Logins (24h) over the customer filter
 * (and `signed_in=true`, the dashboard's Active Users, shown as a removable chip); searchable,
 * sortable, paged table; customer filter; Export CSV; Add User. Search, filters, sort and page
 * live in the URL.
 */
export default function UsersPage() {
  const list = useServerList<UserListItem, UserPage["summary"]>({
    mode: "url",
    defaults: { sort: "created_at", order: "desc" },
    filters: { customer: "customer_id", signed_in: "signed_in" },
    query: userListQuery,
  });
  const customer = list.state.filters.customer;
  const signedIn = list.state.filters.signed_in === "true";
  const navigate = useNavigate();
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
        actions={<ActionBar actions={[{ label: "Add User", icon: Plus, tone: "primary", need: "editor", primary: true, to: "/users/add" }]} />}
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
          {signedIn ? (
            <button type="button" className="badge badge-primary badge-soft h-8 gap-1.5 px-3" onClick={() => list.setFilter({ signed_in: undefined })} aria-label={msg.ui.clearFilter(msg.ui.signedInFilter)}>
              {msg.ui.signedInFilter} <X className="h-3.5 w-3.5" aria-hidden />
            </button>
          ) : null}
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
                text={list.state.q || customer || signedIn ? msg.users.filtered : msg.users.emptyHint}
                action={list.state.q || customer || signedIn ? undefined : <ActionButton action={{ label: "Add User", icon: Plus, tone: "primary", need: "editor", to: "/users/add" }} />}
              />
            )
          }
        />
        <ListPagination list={list} />
      </section>
    </>
  );
}
