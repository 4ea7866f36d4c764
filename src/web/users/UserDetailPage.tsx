import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "@tanstack/react-router";
import { Building2, CircleDot, LogOut, Plus, UsersRound, UserRoundCheck } from "lucide-react";
import { userRoles } from "../../domain/enums";
import { msg } from "../../domain/messages";
import { membershipSortKeys, type UserDetail, type UserMembership } from "../../domain/users";
import { errorMessage } from "../api/client";
import { useCan } from "../auth/permissions";
import { ActionBar, historyAction } from "../components/actions";
import { RoleBadges, StatusBadge } from "../components/badges";
import { columnsFor, DataTable } from "../components/DataTable";
import { ListPagination } from "../components/ListPagination";
import { useServerList } from "../lib/server-list";
import { BackLink, DetailScaffold, InfoList, Section } from "../components/detail";
import { displayName, formatNumber, titleCase } from "../components/format";
import { EmptyState, SearchInput } from "../components/inputs";
import { ConfirmDialog, notify } from "../components/overlays";
import { DateText, Muted, Num, RelativeTime, Truncate } from "../components/text";
import { ErrorState, PageHeader, StatCard, StatGrid } from "../components/ui";
import { TeamLink } from "../teams/public";
import { AddTeamModal } from "./AddTeamModal";
import { useLeaveTeam, userMembershipsQuery, userQuery } from "./queries";

const col = columnsFor<UserMembership>();
const baseColumns = [
  col.accessor("team_name", {
    id: "team_name",
    header: "Team Name",
    meta: { grow: true },
    cell: ({ row }) => <TeamLink teamId={row.original.team_id} name={row.original.team_name} />,
  }),
  col.accessor("customer_name", {
    id: "customer_name",
    header: "Customer",
    cell: (c) => <Truncate text={c.getValue() ?? msg.fallbacks.unknownCustomer} className="max-w-64" />,
  }),
  col.accessor("status", { id: "status", header: "Status", cell: (c) => <StatusBadge kind="team" status={c.getValue()} /> }),
  col.accessor("user_count", { id: "user_count", header: "Members", meta: { align: "right" }, cell: (c) => <Num value={c.getValue()} /> }),
  col.accessor("created_at", { id: "created_at", header: "Created", cell: (c) => <DateText iso={c.getValue()} /> }),
];

/**
 * The user's Team Memberships (SPEC.md §2 "/users/{userId}"): searched, sorted and paged by the
 * server, each row with "Leave Team".
 */
function MembershipTable({ userId, onLeave }: { userId: string; onLeave?: (team: UserMembership) => void }) {
  const navigate = useNavigate();
  const list = useServerList<UserMembership>({ mode: "local", defaults: { sort: "team_name", order: "asc" }, query: (params) => userMembershipsQuery(userId, params) });
  const { data, failed, query } = list;
  const q = list.state.q;
  const columns = !onLeave ? baseColumns : [
    ...baseColumns,
    col.display({
      id: "actions",
      meta: { actions: true },
      header: () => <span className="sr-only">{msg.ui.actions}</span>,
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
            onRowClick={(m) => void navigate({ to: "/teams/$teamId", params: { teamId: m.team_id } })}
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
  const query = useQuery(userQuery(userId));
  return (
    <DetailScaffold
      query={query}
      section={msg.nav.users}
      errorTitle={msg.users.loadOneError}
      notFound={{ title: msg.users.loadOneError, message: msg.users.notFound }}
      back={{ to: "/users", label: msg.users.backToList }}
    >
      {(user) => <UserView user={user} />}
    </DetailScaffold>
  );
}

function UserView({ user: u }: { user: UserDetail }) {
  const userId = u.user_id;
  const leave = useLeaveTeam(userId);
  const [addOpen, setAddOpen] = useState(false);
  const [leaving, setLeaving] = useState<UserMembership | null>(null);
  const canEdit = useCan("editor");
  const name = displayName(u);
  const fullName = [u.first_name, u.last_name].filter(Boolean).join(" ").trim();
  const customerName = u.customer_name ?? msg.fallbacks.unknownCustomer;
  const closeLeave = () => {
    setLeaving(null);
    leave.reset();
  };

  return (
    <>
      <BackLink to="/customers/$customerId" params={{ customerId: u.customer_id }} label={msg.teams.backToCustomer} />
      <PageHeader
        title={name}
        section={msg.nav.users}
        badge={<StatusBadge kind="user" status={u.status} />}
        subtitle={name !== u.email ? <span title={u.email}>{u.email}</span> : undefined}
        actions={<ActionBar actions={[historyAction("user", userId)]} />}
      />

      <StatGrid>
        <StatCard
          label="Customer"
          value={
            <Link to="/customers/$customerId" params={{ customerId: u.customer_id }} className="block min-w-0 text-lg leading-snug hover:text-primary hover:underline">
              <Truncate text={customerName} lines={2} />
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
              { label: "Full Name", value: fullName || <Muted>{msg.users.notProvided}</Muted> },
              { label: "Job Title", value: u.job_title || <Muted>{msg.users.notSpecified}</Muted> },
              { label: "Created", value: <DateText iso={u.created_at} withTime /> },
              { label: "Last Updated", value: <DateText iso={u.updated_at} withTime /> },
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
                <div className="text-sm"><DateText iso={u.last_login} withTime /></div>
                <div className="text-xs text-base-content/70"><RelativeTime iso={u.last_login} /></div>
              </div>
            ) : (
              <Muted>{msg.users.neverLoggedIn}</Muted>
            )}
          </Section>
        </div>
      </div>

      <div className="mt-6">
        <Section
          title="Team Memberships"
          actions={<ActionBar actions={[{ label: "Add Team", icon: Plus, tone: "primary", need: "editor", primary: true, onClick: () => setAddOpen(true) }]} />}
        >
          <MembershipTable userId={userId} onLeave={canEdit ? setLeaving : undefined} />
        </Section>
      </div>

      <AddTeamModal userId={userId} customerName={customerName} open={addOpen} onClose={() => setAddOpen(false)} />
      <ConfirmDialog
        open={leaving !== null}
        title="Leave Team"
        message={leaving ? <>Remove <strong>{name}</strong> from <strong>{leaving.team_name}</strong>? They can be added again later.</> : null}
        confirmLabel={leave.isPending ? msg.users.leaving : "Leave Team"}
        busy={leave.isPending}
        error={leave.error ? errorMessage(leave.error) : null}
        onCancel={closeLeave}
        onConfirm={() => leaving && leave.mutate(leaving.team_id, { onSuccess: () => { closeLeave(); notify(msg.users.leftTeam); } })}
      />
    </>
  );
}
