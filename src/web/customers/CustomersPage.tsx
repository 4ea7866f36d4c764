import { Link, useNavigate } from "@tanstack/react-router";
import { Building2, CircleCheck, CircleSlash, Clock, Plus } from "lucide-react";
import { customerSortKeys, type CustomerListItem, type CustomerPage } from "../../domain/customers";
import { limits, msg } from "../../domain/messages";
import { errorMessage } from "../api/client";
import { ActionBar } from "../components/actions";
import { StatusBadge } from "../components/badges";
import { columnsFor, DataTable } from "../components/DataTable";
import { ExportCsvButton } from "../components/ExportCsvButton";
import { DateText, Num } from "../components/text";
import { EmptyState, SearchInput, Toolbar } from "../components/inputs";
import { formatCount, ListPagination } from "../components/ListPagination";
import { ErrorState, PageHeader, StatCard, StatCardSkeleton, StatGrid } from "../components/ui";
import { useServerList } from "../lib/server-list";
import { SummaryNote } from "../lib/SummaryNote";
import { customerListQuery } from "./queries";

const col = columnsFor<CustomerListItem>();
const columns = [
  col.accessor("customer_name", {
    id: "customer_name",
    header: "Company",
    meta: { grow: true },
    cell: ({ row }) => {
      const name = row.original.customer_name.trim() || msg.fallbacks.unnamedCompany;
      return (
        <Link to="/customers/$customerId" params={{ customerId: row.original.customer_id }} className="block truncate font-medium hover:text-primary hover:underline" title={name}>
          {name}
        </Link>
      );
    },
  }),
  col.accessor("user_count", { id: "user_count", header: "Users", meta: { align: "right" }, cell: (c) => <Num value={c.getValue()} /> }),
  col.accessor("team_count", { id: "team_count", header: "Teams", meta: { align: "right" }, cell: (c) => <Num value={c.getValue()} /> }),
  col.accessor("status", { id: "status", header: "Status", cell: (c) => <StatusBadge kind="customer" status={c.getValue()} /> }),
  col.accessor("created_at", { id: "created_at", header: "Created", cell: (c) => <DateText iso={c.getValue()} /> }),
  col.accessor("updated_at", { id: "updated_at", header: "Last Updated", cell: (c) => <DateText iso={c.getValue()} /> }),
];

/** SPEC.md §2 "/customers": summary cards, searchable and sortable table, Add Customer, Export CSV. */
export default function CustomersPage() {
  const list = useServerList<CustomerListItem, CustomerPage["summary"]>({ mode: "url", defaults: { sort: "created_at", order: "desc" }, query: customerListQuery });
  const navigate = useNavigate();
  const { data, failed, query } = list;
  const exact = data?.summary_exact ?? true;

  return (
    <>
      <PageHeader
        title={msg.nav.customers}
        subtitle="Customer organizations, their status and size"
        actions={<ActionBar actions={[{ label: "Add Customer", icon: Plus, tone: "primary", need: "editor", primary: true, to: "/customers/add" }]} />}
      />
      <StatGrid>
        {data ? (
          <>
            <StatCard label="Total Customers" value={formatCount(data.summary.total, exact)} icon={<Building2 className="h-6 w-6" />} />
            <StatCard label="Active" value={formatCount(data.summary.active, exact)} icon={<CircleCheck className="h-6 w-6" />} />
            <StatCard label="Trial" value={formatCount(data.summary.trial, exact)} icon={<Clock className="h-6 w-6" />} />
            <StatCard label="Inactive" value={formatCount(data.summary.inactive, exact)} icon={<CircleSlash className="h-6 w-6" />} />
          </>
        ) : (
          Array.from({ length: limits.skeletonCards }, (_, i) => <StatCardSkeleton key={i} />)
        )}
      </StatGrid>
      <SummaryNote page={data} />

      <section className="mt-6" aria-label="Customer list">
        <Toolbar actions={<ExportCsvButton path="/customers" query={list.params} total={data?.total} />}>
          <SearchInput value={list.state.q} onChange={list.setQuery} placeholder="Search customers..." />
        </Toolbar>
        {failed ? (
          <div className="mb-3">
            <ErrorState title={msg.customers.loadError} message={errorMessage(query.error)} onRetry={() => void query.refetch()} />
          </div>
        ) : null}
        <DataTable
          label={msg.nav.customers}
          columns={columns}
          rows={failed ? [] : data?.items}
          rowKey={(r) => r.customer_id}
          sortable={customerSortKeys}
          sort={{ sort: list.state.sort, order: list.state.order }}
          onSort={list.setSort}
          loading={!failed && (query.isPending || query.isFetching)}
          onRowClick={(r) => void navigate({ to: "/customers/$customerId", params: { customerId: r.customer_id } })}
          empty={
            <EmptyState
              title={failed ? msg.customers.noData : msg.customers.empty}
              text={!failed && list.state.q ? `Nothing matches “${list.state.q}”.` : undefined}
              // SPEC.md §2: Retry under the empty state; not when a search simply found nothing.
              action={list.state.q && !failed ? undefined : <button type="button" className="btn btn-sm" onClick={() => void query.refetch()}>{msg.app.retry}</button>}
            />
          }
        />
        <ListPagination list={list} />
      </section>
    </>
  );
}
