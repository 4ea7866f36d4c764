import { LogIn, Plus, Upload, User } from "lucide-react";
import { importMsg } from "../../domain/import-messages";
import { bulkMsg } from "../../domain/messages/bulk";
import { navMsg } from "../../domain/messages/common";
import { attentionMsg } from "../../domain/messages/dashboard";
import { uiMsg } from "../../domain/messages/kit";
import { usersMsg } from "../../domain/messages/users";
import { userRoles, userStatuses } from "../../domain/enums";
import { userSortKeys, type UserListItem, type UserPage } from "../../domain/users";
import { createdColumn, customerColumn } from "../components/columns";
import { activeRecordParam, type BulkParam } from "../components/bulk";
import { statusCards } from "../components/list-cards";
import { FilterChip, StatusFilter } from "../components/list-filters";
import { formatDate } from "../components/format";
import { ListScreen } from "../components/ListScreen";
import { ActionBar, ActionButton, mainAction } from "../components/actions";
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

/** The day filters a dashboard trend's point opens, each shown as one chip. */
const dayRanges = [
  { from: "last_login_from", to: "last_login_to", label: uiMsg.lastLoginDays },
  { from: "created_from", to: "created_to", label: uiMsg.createdDays },
] as const;

/** A `YYYY-MM-DD` filter value as the console writes a day ("Nov 28, 2026"). */
const dayText = (day: string | undefined) => (day ? formatDate(`${day}T00:00:00`) : undefined);

/** The role the bulk actions Add role and Remove role give or take. */
const roleParam: BulkParam = { name: "role", label: bulkMsg.chooseRole, kind: "choice", options: userRoles };

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
    last_login_from: "last_login_from",
    last_login_to: "last_login_to",
    created_from: "created_from",
    created_to: "created_to",
  });
  const { customer, signed_in: signedIn, ...filters } = list.state.filters;
  const days = dayRanges.filter((d) => filters[d.from] || filters[d.to]);
  const narrowed = list.state.q || customer || signedIn || filters.status || days.length > 0;

  return (
    <ListScreen
      list={list}
      title={navMsg.users}
      subtitle="Users across all customers, their roles and activity"
      actions={
        <ActionBar
          actions={[
            { label: importMsg.importButton, icon: Upload, need: "editor", link: { to: "/users/import" } },
            mainAction({ label: "Add User", icon: Plus, link: { to: "/users/add" } }),
          ]}
        />
      }
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
          <StatusFilter list={list} all={attentionMsg.allStatuses} options={userStatuses} />
          {signedIn === "true" || signedIn === "false" ? (
            <FilterChip
              label={signedIn === "true" ? uiMsg.signedInFilter : attentionMsg.neverSignedIn}
              onClear={() => list.setFilter({ signed_in: undefined })}
            />
          ) : null}
          {days.map((d) => (
            <FilterChip
              key={d.from}
              label={uiMsg.dayRangeFilter(d.label, dayText(filters[d.from]), dayText(filters[d.to]))}
              onClear={() => list.setFilter({ [d.from]: undefined, [d.to]: undefined })}
            />
          ))}
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
            param: { name: "status", label: bulkMsg.chooseStatus, kind: "choice", options: userStatuses },
          },
          { action: "add_to_team", param: activeRecordParam("teams", "team_id", bulkMsg.chooseTeam) },
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
        label: navMsg.users,
        columns,
        sortable: userSortKeys,
        empty: list.failed ? (
          <EmptyState title={usersMsg.noData} />
        ) : (
          <EmptyState
            title={usersMsg.empty}
            text={narrowed ? usersMsg.filtered : usersMsg.emptyHint}
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
      errorTitle={usersMsg.loadError}
      errorKeepsTable
    />
  );
}
