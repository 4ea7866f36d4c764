import { Building2, CircleCheck, CircleSlash, Clock } from "lucide-react";
import { customerSortKeys, type CustomerListItem, type CustomerPage } from "../../domain/customers";
import { msg } from "../../domain/messages";
import { StatusBadge } from "../components/badges";
import { columnsFor } from "../components/DataTable";
import { ListScreen } from "../components/ListScreen";
import { DateText, Num } from "../components/text";
import { EmptyState } from "../components/inputs";
import { RecordLink } from "../components/RecordLink";
import { useServerList } from "../lib/server-list";
import { customerListQuery } from "./queries";

const col = columnsFor<CustomerListItem>();
const columns = [
  col.accessor("customer_name", {
    id: "customer_name",
    header: "Company",
    meta: { grow: true },
    cell: ({ row }) => (
      <RecordLink
        to="/customers/$customerId"
        params={{ customerId: row.original.customer_id }}
        text={row.original.customer_name.trim() || msg.fallbacks.unnamedCompany}
        className="block truncate font-medium"
      />
    ),
  }),
  col.accessor("user_count", {
    id: "user_count",
    header: "Users",
    meta: { align: "right" },
    cell: (c) => <Num value={c.getValue()} />,
  }),
  col.accessor("team_count", {
    id: "team_count",
    header: "Teams",
    meta: { align: "right" },
    cell: (c) => <Num value={c.getValue()} />,
  }),
  col.accessor("status", {
    id: "status",
    header: "Status",
    cell: (c) => <StatusBadge kind="customer" status={c.getValue()} />,
  }),
  col.accessor("created_at", { id: "created_at", header: "Created", cell: (c) => <DateText iso={c.getValue()} /> }),
  col.accessor("updated_at", {
    id: "updated_at",
    header: "Last Updated",
    cell: (c) => <DateText iso={c.getValue()} />,
  }),
];

/** SPEC.md §2 "/customers": summary cards, searchable and sortable table, Add Customer, Export CSV. */
export default function CustomersPage() {
  const list = useServerList<CustomerListItem, CustomerPage["summary"]>({
    mode: "url",
    defaults: { sort: "created_at", order: "desc" },
    query: customerListQuery,
  });
  const { failed, query } = list;

  return (
    <ListScreen
      list={list}
      title={msg.nav.customers}
      subtitle="Customer organizations, their status and size"
      add={{ label: "Add Customer", to: "/customers/add" }}
      cards={[
        { label: "Total Customers", icon: Building2, value: (s) => s.total },
        { label: "Active", icon: CircleCheck, value: (s) => s.active },
        { label: "Trial", icon: Clock, value: (s) => s.trial },
        { label: "Inactive", icon: CircleSlash, value: (s) => s.inactive },
      ]}
      section={{ label: "Customer list" }}
      search="Search customers..."
      exportPath="/customers"
      bulk={{
        entity: "customers",
        actions: [{ action: "archive" }, { action: "unarchive" }],
        rowLabel: (r) => r.customer_name,
      }}
      table={{
        label: msg.nav.customers,
        columns,
        rowKey: (r) => r.customer_id,
        sortable: customerSortKeys,
        rowLink: (r) => ({ to: "/customers/$customerId", params: { customerId: r.customer_id } }),
        empty: (
          <EmptyState
            title={failed ? msg.customers.noData : msg.customers.empty}
            text={!failed && list.state.q ? `Nothing matches “${list.state.q}”.` : undefined}
            // SPEC.md §2: Retry under the empty state; not when a search simply found nothing, nor
            // when the load failed (the error above has the one Retry of the screen).
            action={
              list.state.q || failed ? undefined : (
                <button type="button" className="btn btn-sm" onClick={() => void query.refetch()}>
                  {msg.app.retry}
                </button>
              )
            }
          />
        ),
      }}
      errorTitle={msg.customers.loadError}
      errorKeepsTable
    />
  );
}
