import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { Building2, CircleCheck, CircleSlash, Clock, Plus } from "lucide-react";
import { customerSortKeys, type CustomerListItem } from "../../domain/customers";
import { limits, msg } from "../../domain/messages";
import { errorMessage } from "../api/client";
import { ActionBar } from "../components/actions";
import { StatusBadge } from "../components/badges";
import { columnsFor, DataTable, Pagination } from "../components/DataTable";
import { formatNumber } from "../components/format";
import { DateText, Num } from "../components/text";
import { EmptyState, SearchInput, Toolbar } from "../components/inputs";
import { ErrorState, PageHeader, StatCard, StatCardSkeleton, StatGrid } from "../components/ui";
import { useListSearch } from "../lib/list-search";
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

/** SPEC.md §2 "/customers": summary cards, searchable and sortable table, Add Customer. */
export default function CustomersPage() {
  const list = useListSearch<{ q?: string }>({ sort: "created_at", order: "desc" });
  const navigate = useNavigate();
  const { data, error, isPending, isFetching, refetch } = useQuery(
    customerListQuery({ q: list.q || undefined, sort: list.sort, order: list.order, limit: list.limit, offset: list.offset }),
  );
  const failed = Boolean(error && !data);

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
            <StatCard label="Total Customers" value={formatNumber(data.summary.total)} icon={<Building2 className="h-6 w-6" />} />
            <StatCard label="Active" value={formatNumber(data.summary.active)} icon={<CircleCheck className="h-6 w-6" />} />
            <StatCard label="Trial" value={formatNumber(data.summary.trial)} icon={<Clock className="h-6 w-6" />} />
            <StatCard label="Inactive" value={formatNumber(data.summary.inactive)} icon={<CircleSlash className="h-6 w-6" />} />
          </>
        ) : (
          Array.from({ length: limits.skeletonCards }, (_, i) => <StatCardSkeleton key={i} />)
        )}
      </StatGrid>

      <section className="mt-6" aria-label="Customer list">
        <Toolbar>
          <SearchInput value={list.q} onChange={list.setQuery} placeholder="Search customers..." />
        </Toolbar>
        {failed ? (
          <div className="mb-3">
            <ErrorState title={msg.customers.loadError} message={errorMessage(error)} onRetry={() => void refetch()} />
          </div>
        ) : null}
        <DataTable
          label={msg.nav.customers}
          columns={columns}
          rows={failed ? [] : data?.items}
          rowKey={(r) => r.customer_id}
          sortable={customerSortKeys}
          sort={{ sort: list.sort, order: list.order }}
          onSort={list.setSort}
          loading={!failed && (isPending || isFetching)}
          onRowClick={(r) => void navigate({ to: "/customers/$customerId", params: { customerId: r.customer_id } })}
          empty={
            <EmptyState
              title={failed ? msg.customers.noData : msg.customers.empty}
              text={!failed && list.q ? `Nothing matches “${list.q}”.` : undefined}
              action={<button type="button" className="btn btn-sm" onClick={() => void refetch()}>{msg.app.retry}</button>}
            />
          }
        />
        {data && !failed ? <Pagination total={data.total} limit={list.limit} offset={list.offset} onPage={list.setOffset} /> : null}
      </section>
    </>
  );
}
