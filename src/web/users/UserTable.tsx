import type { ReactNode } from "react";
import type { UserListItem } from "../../domain/users";
import { msg } from "../../domain/messages";
import { RoleBadges, StatusBadge } from "../components/badges";
import { columnsFor, type Column } from "../components/DataTable";
import { EmbeddedList } from "../components/EmbeddedList";
import { Muted, Truncate } from "../components/text";
import { useServerList } from "../lib/server-list";
import { userListQuery } from "./queries";
import { LastLogin, UserCell } from "./UserCells";

const col = columnsFor<UserListItem>();
const columns: Column<UserListItem>[] = [
  col.display({
    id: "name",
    header: "User",
    meta: { grow: true },
    cell: ({ row }) => <UserCell user={row.original} />,
  }),
  col.display({ id: "roles", header: "Roles", cell: ({ row }) => <RoleBadges roles={row.original.roles} /> }),
  col.accessor("job_title", {
    id: "job_title",
    header: "Job Title",
    cell: (c) => {
      const t = c.getValue();
      return t ? <Truncate text={t} className="max-w-48" /> : <Muted>{msg.users.noJobTitle}</Muted>;
    },
  }),
  col.accessor("status", {
    id: "status",
    header: "Status",
    cell: (c) => <StatusBadge kind="user" status={c.getValue()} />,
  }),
  col.accessor("last_login", { id: "last_login", header: "Last Login", cell: (c) => <LastLogin iso={c.getValue()} /> }),
];

/**
 * The users of a customer or a team (SPEC.md §2 customer and team pages): User, Roles, Job Title,
 * Status, Last Login, with server-side search, sort and paging, and optional row actions.
 */
export function UserTable({
  filter,
  label,
  actions,
}: {
  filter: { customer_id?: string; team_id?: string };
  label: string;
  actions?: (user: UserListItem) => ReactNode;
}) {
  const list = useServerList<UserListItem>({
    mode: "local",
    defaults: { sort: "name", order: "asc" },
    fixed: filter,
    query: userListQuery,
  });
  return (
    <EmbeddedList
      list={list}
      label={label}
      search="Search users..."
      columns={columns}
      rowKey={(u) => u.user_id}
      sortable={["name", "job_title", "status", "last_login"]}
      rowLink={(u) => ({ to: "/users/$userId", params: { userId: u.user_id } })}
      actions={actions}
      empty={(q) => ({ title: msg.users.empty, text: q ? msg.search.noResults(q) : undefined })}
      errorTitle={msg.users.loadError}
    />
  );
}
