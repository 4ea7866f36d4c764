import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { ArrowLeft, Building2, CircleDot, LogOut, Plus, UsersRound, UserRoundCheck } from "lucide-react";
import { userRoles } from "../../domain/enums";
import { msg } from "../../domain/messages";
import { membershipSortKeys, type UserMembership } from "../../domain/users";
import { ApiError, errorMessage } from "../api/client";
import { RoleBadges, StatusBadge } from "../components/badges";
import { columnsFor, DataTable } from "../components/DataTable";
import { ListPagination } from "../components/ListPagination";
import { useServerList } from "../lib/server-list";
import { DetailSkeleton, InfoList, Section } from "../components/detail";
import { displayName, formatDate, formatDateTime, formatNumber, formatRelative, titleCase } from "../components/format";
import { EmptyState, SearchInput } from "../components/inputs";
import { ConfirmDialog, SuccessBanner, useBanner } from "../components/overlays";
import { ErrorState, PageHeader, StatCard, StatGrid } from "../components/ui";
import { useCan } from "../auth/permissions";
import { HistoryLink } from "../audit/HistoryLink";
import { AddTeamModal } from "./AddTeamModal";
import { useLeaveTeam, userMembershipsQuery, userQuery } from "./queries";
import { TeamLink } from "../teams/TeamCells";

const col = columnsFor<UserMembership>();
const baseColumns = [
  col.accessor("team_name", {
    id: "team_name",
    header: "Team Name",
    cell: ({ row }) => <TeamLink teamId={row.original.team_id} name={row.original.team_name} />,
  }),
  col.accessor("customer_name", {
    id: "customer_name",
    header: "Customer",
    cell: (c) => <span className="whitespace-nowrap">{c.getValue() ?? msg.fallbacks.unknownCustomer}</span>,
  }),
  col.accessor("status", { id: "status", header: "Status", cell: (c) => <StatusBadge kind="team" status={c.getValue()} /> }),
  col.accessor("user_count", { id: "user_count", header: "Members", cell: (c) => <span className="tabular-nums">{formatNumber(c.getValue())}</span> }),
  col.accessor("created_at", { id: "created_at", header: "Created", cell: (c) => <span className="whitespace-nowrap">{formatDate(c.getValue())}</span> }),
];

/**
 * The user's Team Memberships (SPEC.md §2 "/users/{userId}"): searched, sorted and paged by the
 * server, each row with "Leave Team".
 */
function MembershipTable({ userId, onLeave }: { userId: string; onLeave?: (team: UserMembership) => void }) {
  const list = useServerList<UserMembership>({ mode: "local", defaults: { sort: "team_name", order: "asc" }, query: (params) => userMembershipsQuery(userId, params) });
  const { data, failed, query } = list;
  const q = list.state.q;
  const columns = !onLeave ? baseColumns : [
    ...baseColumns,
    col.display({
      id: "actions",
      header: () => <span className="sr-only">Actions</span>,
      cell: ({ row }) => (
        <div className="text-right">
          <button type="button" className="btn btn-ghost btn-xs whitespace-nowrap text-error" onClick={() => onLeave(row.original)} aria-label={`Leave Team ${row.original.team_name}`}>
            <LogOut className="h-4 w-4" aria-hidden /> Leave Team
          </button>
        </div>
      ),
    }),
  ];

  return (
    <div>
      <div className="mb-3">
        <SearchInput value={q} onChange={list.setQuery} placeholder="Search teams..." label="Search team memberships" />
      </div>
      {failed ? (
        <ErrorState title={msg.teams.loadError} message={errorMessage(query.error)} onRetry={() => void query.refetch()} />
      ) : (
        <>
          <DataTable
            label="Team Memberships"
            columns={columns}
            rows={data?.items}
            rowKey={(m) => m.team_id}
            sortable={membershipSortKeys}
            sort={{ sort: list.state.sort, order: list.state.order }}
            onSort={list.setSort}
            loading={query.isPending || query.isFetching}
            empty={<EmptyState title={msg.users.noMemberships} text={q ? `Nothing matches “${q}”.` : msg.users.noMembershipsText} />}
          />
          <ListPagination list={list} label="Team Memberships pages" />
        </>
      )}
    </div>
  );
}

/** SPEC.md §2 "/users/{userId}". */
export default function UserDetailPage() {
  const { userId } = useParams({ from: "/users/$userId" });
  const user = useQuery(userQuery(userId));
  const leave = useLeaveTeam(userId);
  const banner = useBanner();
  const [addOpen, setAddOpen] = useState(false);
  const [leaving, setLeaving] = useState<UserMembership | null>(null);
  const canEdit = useCan("editor");
  const isAdmin = useCan("admin");

  if (user.isPending) return <DetailSkeleton />;
  if (user.error || !user.data) {
    const missing = user.error instanceof ApiError && user.error.status === 404;
    return (
      <ErrorState title={msg.users.loadOneError} message={missing ? msg.users.notFound : errorMessage(user.error) || msg.users.notFound} onRetry={() => void user.refetch()}>
        <Link activeOptions={{ exact: true }} activeProps={{ "aria-current": undefined }} to="/users" className="btn btn-ghost btn-sm">Back to Users</Link>
      </ErrorState>
    );
  }

  const u = user.data;
  const name = displayName(u);
  const fullName = [u.first_name, u.last_name].filter(Boolean).join(" ").trim();
  const closeLeave = () => {
    setLeaving(null);
    leave.reset();
  };

  return (
    <>
      <Link activeOptions={{ exact: true }} activeProps={{ "aria-current": undefined }} to="/customers/$customerId" params={{ customerId: u.customer_id }} className="btn btn-ghost btn-sm mb-4 gap-1">
        <ArrowLeft className="h-4 w-4" aria-hidden /> Back to Customer
      </Link>
      <PageHeader
        title={<span className="flex flex-wrap items-center gap-3">{name}<StatusBadge kind="user" status={u.status} /></span>}
        subtitle={name !== u.email ? u.email : undefined}
        actions={isAdmin ? <HistoryLink entity="user" id={userId} /> : undefined}
      />
      <SuccessBanner message={banner.message} />

      <StatGrid>
        <StatCard
          label="Customer"
          value={
            <Link
              to="/customers/$customerId"
              params={{ customerId: u.customer_id }}
              className="line-clamp-2 break-words text-lg leading-snug hover:text-primary hover:underline"
              title={u.customer_name ?? undefined}
            >
              {u.customer_name ?? msg.fallbacks.unknownCustomer}
            </Link>
          }
          icon={<Building2 className="h-6 w-6" />}
        />
        <StatCard label="Status" value={<span className="text-lg">{titleCase(u.status)}</span>} icon={<CircleDot className="h-6 w-6" />} />
        <StatCard label="Total Teams" value={formatNumber(u.stats.total_teams)} icon={<UsersRound className="h-6 w-6" />} />
        <StatCard label="Active Teams" value={formatNumber(u.stats.active_teams)} icon={<UserRoundCheck className="h-6 w-6" />} />
      </StatGrid>

      <div className="mt-6 grid grid-cols-1 gap-6 xl:grid-cols-3">
        <Section title="User Information" className="xl:col-span-2">
          <InfoList
            items={[
              { label: "User ID", value: u.user_id, mono: true },
              { label: "Email", value: u.email },
              { label: "Full Name", value: fullName || <span className="text-base-content/60">{msg.users.notProvided}</span> },
              { label: "Job Title", value: u.job_title || <span className="text-base-content/60">{msg.users.notSpecified}</span> },
              { label: "Created", value: formatDateTime(u.created_at) },
              { label: "Last Updated", value: formatDateTime(u.updated_at) },
            ]}
          />
        </Section>
        <div className="flex flex-col gap-6">
          <Section title="Roles">
            <RoleBadges roles={u.roles} max={userRoles.length} empty={msg.users.noRolesAssigned} />
          </Section>
          <Section title="Last Login">
            {u.last_login ? (
              <div>
                <div className="text-sm">{formatDateTime(u.last_login)}</div>
                <div className="text-xs text-base-content/60">{formatRelative(u.last_login)}</div>
              </div>
            ) : (
              <span className="text-sm text-base-content/60">{msg.users.neverLoggedIn}</span>
            )}
          </Section>
        </div>
      </div>

      <div className="mt-6">
        <Section
          title="Team Memberships"
          actions={
            canEdit ? (
              <button type="button" className="btn btn-primary btn-sm" onClick={() => setAddOpen(true)}>
                <Plus className="h-4 w-4" aria-hidden /> Add Team
              </button>
            ) : undefined
          }
        >
          <MembershipTable userId={userId} onLeave={canEdit ? setLeaving : undefined} />
        </Section>
      </div>

      <AddTeamModal userId={userId} open={addOpen} onClose={() => setAddOpen(false)} />
      <ConfirmDialog
        open={leaving !== null}
        title="Leave Team"
        message={leaving ? <>Remove <strong>{name}</strong> from <strong>{leaving.team_name}</strong>? They can be added again later.</> : null}
        confirmLabel={leave.isPending ? msg.users.leaving : "Leave Team"}
        busy={leave.isPending}
        error={leave.error ? errorMessage(leave.error) : null}
        onCancel={closeLeave}
        onConfirm={() => leaving && leave.mutate(leaving.team_id, { onSuccess: () => { closeLeave(); banner.show(msg.users.leftTeam); } })}
      />
    </>
  );
}
