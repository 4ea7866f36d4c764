import type { ReactNode } from "react";
import { useNavigate } from "@tanstack/react-router";
import type { UserListItem } from "../../domain/users";
import { msg } from "../../domain/messages";
import { errorMessage } from "../api/client";
import { RoleBadges, StatusBadge } from "../components/badges";
import { columnsFor, DataTable, type Column } from "../components/DataTable";
import { ListPagination } from "../components/ListPagination";
import { useServerList } from "../lib/server-list";
import { EmptyState, SearchInput } from "../components/inputs";
import { ErrorState } from "../components/ui";
import { userListQuery } from "./queries";
import { LastLogin, UserCell } from "./UserCells";
import { Muted, Truncate } from "../components/text";

const col = columnsFor<UserListItem>();
const baseColumns: Column<UserListItem>[] = [
  col.display({ id: "name", header: "User", meta: { grow: true }, cell: ({ row }) => <UserCell user={row.original} /> }),
  col.display({ id: "roles", header: "Roles", cell: ({ row }) => <RoleBadges roles={row.original.roles} /> }),
  col.accessor("job_title", { id: "job_title", header: "Job Title", cell: (c) => { const t = c.getValue(); return t ? <Truncate text={t} className="max-w-48" /> : <Muted>{msg.users.noJobTitle}</Muted>; } }),
  col.accessor("status", { id: "status", header: "Status", cell: (c) => <StatusBadge kind="user" status={c.getValue()} /> }),
  col.accessor("last_login", { id: "last_login", header: "Last Login", cell: (c) => <LastLogin iso={c.getValue()} /> }),
];

/**
 * The users of a customer or a team (SPEC.md §2 customer and team pages): User, Roles, Job Title,
 * Status, Last Login, with server-side search, sort and paging, and optional row actions.
 */
export function UserTable({ filter, label, actions }: {
  filter: { customer_id?: string; team_id?: string };
  label: string;
  actions?: (user: UserListItem) => ReactNode;
}) {
  const navigate = useNavigate();
  const list = useServerList<UserListItem>({ mode: "local", defaults: { sort: "name", order: "asc" }, fixed: filter, query: userListQuery });
  const { data, failed, query } = list;
  const q = list.state.q;
  const columns = actions
    ? [...baseColumns, col.display({ id: "actions", meta: { actions: true }, header: () => <span className="sr-only">{msg.ui.actions}</span>, cell: ({ row }) => <div className="flex justify-end">{actions(row.original)}</div> })]
    : baseColumns;

  return (
    <div>
      <div className="mb-3">
        <SearchInput value={q} onChange={list.setQuery} placeholder="Search users..." label={`Search ${label.toLowerCase()}`} />
      </div>
      {failed ? (
        <ErrorState title={msg.users.loadError} message={errorMessage(query.error)} onRetry={() => void query.refetch()} />
      ) : (
        <>
          <DataTable
            label={label}
            columns={columns}
            rows={data?.items}
            rowKey={(u) => u.user_id}
            sortable={["name", "job_title", "status", "last_login"]}
            sort={{ sort: list.state.sort, order: list.state.order }}
            onSort={list.setSort}
            loading={query.isPending || query.isFetching}
            onRowClick={(u) => void navigate({ to: "/users/$userId", params: { userId: u.user_id } })}
            empty={<EmptyState title={msg.users.empty} text={q ? `Nothing matches “${q}”.` : undefined} />}
          />
          <ListPagination list={list} label={`${label} pages`} />
        </>
      )}
    </div>
  );
}
