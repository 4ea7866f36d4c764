import type { ReactNode } from "react";
import type { UserListItem } from "../../domain/users";
import { msg } from "../../domain/messages";
import { errorMessage } from "../api/client";
import { RoleBadges, StatusBadge } from "../components/badges";
import { columnsFor, DataTable, type Column } from "../components/DataTable";
import { ListPagination } from "../components/ListPagination";
import { useServerList } from "../lib/server-list";
import { formatRelative } from "../components/format";
import { EmptyState, SearchInput } from "../components/inputs";
import { ErrorState } from "../components/ui";
import { userListQuery } from "./queries";
import { UserCell } from "./UserCells";

const col = columnsFor<UserListItem>();
const baseColumns: Column<UserListItem>[] = [
  col.display({ id: "name", header: "User", cell: ({ row }) => <UserCell user={row.original} /> }),
  col.display({ id: "roles", header: "Roles", cell: ({ row }) => <RoleBadges roles={row.original.roles} /> }),
  col.accessor("job_title", { id: "job_title", header: "Job Title", cell: (c) => c.getValue() ?? <span className="text-base-content/50">{msg.users.noJobTitle}</span> }),
  col.accessor("status", { id: "status", header: "Status", cell: (c) => <StatusBadge kind="user" status={c.getValue()} /> }),
  col.accessor("last_login", { id: "last_login", header: "Last Login", cell: (c) => <span className="whitespace-nowrap">{formatRelative(c.getValue(), msg.fallbacks.neverLoggedIn)}</span> }),
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
  const list = useServerList<UserListItem>({ mode: "local", defaults: { sort: "name", order: "asc" }, fixed: filter, query: userListQuery });
  const { data, failed, query } = list;
  const q = list.state.q;
  const columns = actions
    ? [...baseColumns, col.display({ id: "actions", header: () => <span className="sr-only">Actions</span>, cell: ({ row }) => <div className="text-right">{actions(row.original)}</div> })]
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
            empty={<EmptyState title={msg.users.empty} text={q ? `Nothing matches “${q}”.` : undefined} />}
          />
          <ListPagination list={list} label={`${label} pages`} />
        </>
      )}
    </div>
  );
}
