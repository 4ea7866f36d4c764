import { useState, type ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import type { UserListItem } from "../../domain/users";
import { msg } from "../../domain/messages";
import { errorMessage } from "../api/client";
import { RoleBadges, StatusBadge } from "../components/badges";
import { columnsFor, DataTable, Pagination, type Column, type SortState } from "../components/DataTable";
import { EmptyState, SearchInput } from "../components/inputs";
import { ErrorState } from "../components/ui";
import { limits } from "../../domain/messages";
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
  const [q, setQ] = useState("");
  const [sort, setSort] = useState<SortState>({ sort: "name", order: "asc" });
  const [offset, setOffset] = useState(0);
  const { data, error, isPending, isFetching, refetch } = useQuery(userListQuery({ ...filter, q: q || undefined, ...sort, limit: limits.pageSize, offset }));
  const columns = actions
    ? [...baseColumns, col.display({ id: "actions", meta: { actions: true }, header: () => <span className="sr-only">{msg.ui.actions}</span>, cell: ({ row }) => <div className="flex justify-end">{actions(row.original)}</div> })]
    : baseColumns;

  return (
    <div>
      <div className="mb-3">
        <SearchInput value={q} onChange={(v) => { setQ(v); setOffset(0); }} placeholder="Search users..." label={`Search ${label.toLowerCase()}`} />
      </div>
      {error && !data ? (
        <ErrorState title={msg.users.loadError} message={errorMessage(error)} onRetry={() => void refetch()} />
      ) : (
        <>
          <DataTable
            label={label}
            columns={columns}
            rows={data?.items}
            rowKey={(u) => u.user_id}
            sortable={["name", "job_title", "status", "last_login"]}
            sort={sort}
            onSort={(s) => { setSort(s); setOffset(0); }}
            loading={isPending || isFetching}
            onRowClick={(u) => void navigate({ to: "/users/$userId", params: { userId: u.user_id } })}
            empty={<EmptyState title={msg.users.empty} text={q ? `Nothing matches “${q}”.` : undefined} />}
          />
          {data ? <Pagination total={data.total} limit={limits.pageSize} offset={offset} onPage={setOffset} /> : null}
        </>
      )}
    </div>
  );
}
