import { Building2, Clock } from "lucide-react";
import { customerSortKeys, type CustomerListItem } from "../../domain/customers";
import { appMsg, navMsg } from "../../domain/messages/common";
import { customersMsg } from "../../domain/messages/customers";
import { attentionMsg } from "../../domain/messages/dashboard";
import { fallbacksMsg } from "../../domain/messages/kit";
import { customerStatuses } from "../../domain/enums";
import { countColumn, createdColumn, dateColumn, linkColumn, statusColumn } from "../components/columns";
import { StatusFilter } from "../components/list-filters";
import { listCards, ListScreen } from "../components/ListScreen";
import { EmptyState } from "../components/inputs";
import { useScreenList } from "../lib/screen-list";
import { customerListQuery } from "./queries";

const columns = [
  linkColumn<CustomerListItem>(
    "customer_name",
    "Company",
    (c) => ({
      to: "/customers/$customerId",
      params: { customerId: c.customer_id },
      text: c.customer_name.trim() || fallbacksMsg.unnamedCompany,
      className: "block truncate font-medium",
    }),
    { grow: true },
  ),
  countColumn<CustomerListItem>("user_count", "Users"),
  countColumn<CustomerListItem>("team_count", "Teams"),
  statusColumn<CustomerListItem>("customer", (c) => c.status),
  createdColumn<CustomerListItem>(),
  dateColumn<CustomerListItem>("updated_at", "Last Updated", (c) => c.updated_at),
];

/** SPEC.md §2 "/customers": summary cards, searchable and sortable table, Add Customer, Export CSV. */
export default function CustomersPage() {
  const list = useScreenList(customerListQuery, { status: "status" });
  const { failed, query } = list;

  return (
    <ListScreen
      list={list}
      title={navMsg.customers}
      subtitle="Customer organizations, their status and size"
      add={{ label: "Add Customer", link: { to: "/customers/add" } }}
      cards={[
        listCards.total(Building2, "Total Customers"),
        listCards.active,
        { label: "Trial", icon: Clock, value: (s) => s.trial },
        listCards.inactive,
      ]}
      section={{ label: "Customer list" }}
      search="Search customers..."
      filters={<StatusFilter list={list} all={attentionMsg.allStatuses} options={customerStatuses} />}
      exportPath="/customers"
      bulk={{
        entity: "customers",
        actions: [{ action: "archive" }, { action: "unarchive" }],
      }}
      record={{
        key: (r) => r.customer_id,
        label: (r) => r.customer_name,
        link: (r) => ({ to: "/customers/$customerId", params: { customerId: r.customer_id } }),
      }}
      table={{
        label: navMsg.customers,
        columns,
        sortable: customerSortKeys,
        empty: (
          <EmptyState
            title={failed ? customersMsg.noData : customersMsg.empty}
            text={!failed && list.state.q ? `Nothing matches “${list.state.q}”.` : undefined}
            // SPEC.md §2: Retry under the empty state; not when a search simply found nothing, nor
            // when the load failed (the error above has the one Retry of the screen).
            action={
              list.state.q || failed ? undefined : (
                <button type="button" className="btn btn-sm" onClick={() => void query.refetch()}>
                  {appMsg.retry}
                </button>
              )
            }
          />
        ),
      }}
      errorTitle={customersMsg.loadError}
      errorKeepsTable
    />
  );
}
