import { LogIn, Plus, User, X } from "lucide-react";
import { msg } from "../../domain/messages";
import { userRoles, userStatuses } from "../../domain/enums";
import { userSortKeys, type UserListItem, type UserPage } from "../../domain/users";
import { createdColumn, customerColumn } from "../components/columns";
import { activeRecordParam, type BulkParam } from "../components/bulk";
import { statusCards } from "../components/list-cards";
import { StatusFilter } from "../components/list-filters";
import { ListScreen } from "../components/ListScreen";
import { ActionButton } from "../components/actions";
import { EmptyState } from "../components/inputs";
import { CustomerFilter } from "../customers/public";
import { useScreenList } from "../lib/screen-list";
import { userListQuery } from "./queries";
import { userColumns } from "./UserTable";

const columns = [
  userColumns.name,
  customerColumn<UserListItem>("line-clamp-2 max-w-32 break-words 2xl:max-w-56"),
  userColumns.roles,
  userColumns.jobTitle({ lines: 2, className: "sm:w-32 2xl:w-60" }),
  userColumns.status,
  userColumns.lastLogin,
  createdColumn<UserListItem>(),
];

/** The role the bulk actions Add role and Remove role give or take. */
const roleParam: BulkParam = { name: "role", label: msg.bulk.chooseRole, kind: "choice", options: userRoles };

/**
 * SPEC.md §2 "/users": cards Total, Active, Inactive, Recent Logins (24h) over the customer and
 * status filters (and `signed_in=true`, the dashboard's Active Users, shown as a removable chip); searchable,
 * sortable, paged table; customer filter; Export CSV; Add User. Search, filters, sort and page
 * live in the URL.
 */
export default function UsersPage() {
  const list = useScreenList(userListQuery, {
    customer: "customer_id",
    status: "status",
    signed_in: "signed_in",
  });
  const customer = list.state.filters.customer;
  const signedIn = list.state.filters.signed_in;
  const narrowed = list.state.q || customer || signedIn || list.state.filters.status;

  return (
    <ListScreen
      list={list}
      title={msg.nav.users}
      subtitle="Users across all customers, their roles and activity"
      add={{ label: "Add User", link: { to: "/users/add" } }}
      cards={statusCards<UserPage["summary"]>(User, {
        label: "Recent Logins (24h)",
        icon: LogIn,
        value: (s) => s.recent_logins,
      })}
      // SPEC.md §8: failed counts fall back to 0.
      section={{ label: "User list" }}
      search="Search users..."
      filters={
        <>
          <CustomerFilter value={customer} onChange={(id) => list.setFilter({ customer: id })} />
          <StatusFilter list={list} all={msg.attention.allStatuses} options={userStatuses} />
          {signedIn === "true" || signedIn === "false" ? (
            <button
              type="button"
              className="badge badge-primary badge-soft h-8 gap-1.5 px-3"
              onClick={() => list.setFilter({ signed_in: undefined })}
              aria-label={msg.ui.clearFilter(signedIn === "true" ? msg.ui.signedInFilter : msg.attention.neverSignedIn)}
            >
              {signedIn === "true" ? msg.ui.signedInFilter : msg.attention.neverSignedIn}{" "}
              <X className="h-3.5 w-3.5" aria-hidden />
            </button>
          ) : null}
        </>
      }
      exportPath="/users"
      bulk={{
        entity: "users",
        actions: [
          { action: "archive" },
          { action: "unarchive" },
          {
            action: "set_status",
            param: { name: "status", label: msg.bulk.chooseStatus, kind: "choice", options: userStatuses },
          },
          { action: "add_to_team", param: activeRecordParam("teams", "team_id", msg.bulk.chooseTeam) },
          { action: "add_role", param: roleParam },
          { action: "remove_role", param: roleParam },
        ],
      }}
      record={{
        key: (u) => u.user_id,
        label: (u) => u.email,
        link: (u) => ({ to: "/users/$userId", params: { userId: u.user_id } }),
      }}
      table={{
        label: msg.nav.users,
        columns,
        sortable: userSortKeys,
        empty: list.failed ? (
          <EmptyState title={msg.users.noData} />
        ) : (
          <EmptyState
            title={msg.users.empty}
            text={narrowed ? msg.users.filtered : msg.users.emptyHint}
            action={
              narrowed ? undefined : (
                <ActionButton
                  action={{
                    label: "Add User",
                    icon: Plus,
                    tone: "primary",
                    need: "editor",
                    link: { to: "/users/add" },
                  }}
                />
              )
            }
          />
        ),
      }}
      errorTitle={msg.users.loadError}
      errorKeepsTable
    />
  );
}
