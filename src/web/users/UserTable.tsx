import type { ComponentProps, ReactNode } from "react";
import type { UserListItem } from "../../domain/users";
import { searchMsg } from "../../domain/messages/search";
import { usersMsg } from "../../domain/messages/users";
import { RoleBadges } from "../components/badges";
import { column, statusColumn } from "../components/columns";
import { EmbeddedList } from "../components/EmbeddedList";
import { Muted, Truncate } from "../components/text";
import { useServerList } from "../lib/server-list";
import { userListQuery } from "./queries";
import { LastLogin, UserCell } from "./UserCells";

/** The columns of a user row, shared by /users and the users of a customer or a team (SPEC.md §2). */
export const userColumns = {
  name: column<UserListItem>("name", "User", (u) => <UserCell user={u} />, { grow: true }),
  roles: column<UserListItem>("roles", "Roles", (u) => <RoleBadges roles={u.roles} />),
  /** The job title, truncated as `truncate` says (each table has its own width), or "Not specified". */
  jobTitle: (truncate: Pick<ComponentProps<typeof Truncate>, "lines" | "className">) =>
    column<UserListItem>("job_title", "Job Title", (u) =>
      u.job_title ? <Truncate text={u.job_title} {...truncate} /> : <Muted>{usersMsg.noJobTitle}</Muted>,
    ),
  status: statusColumn<UserListItem>("user", (u) => u.status),
  lastLogin: column<UserListItem>("last_login", "Last Login", (u) => <LastLogin iso={u.last_login} />),
};
const columns = [
  userColumns.name,
  userColumns.roles,
  userColumns.jobTitle({ className: "max-w-48" }),
  userColumns.status,
  userColumns.lastLogin,
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
      empty={(q) => ({ title: usersMsg.empty, text: q ? searchMsg.noResults(q) : undefined })}
      errorTitle={usersMsg.loadError}
    />
  );
}
