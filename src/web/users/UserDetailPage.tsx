import { useState } from "react";
import { useUndo } from "../components/undo";
import { useParams } from "@tanstack/react-router";
import { Building2, CircleDot, LogOut, Pencil, Plus, UsersRound, UserRoundCheck } from "lucide-react";
import { userRoles } from "../../domain/enums";
import { msg } from "../../domain/messages";
import { membershipSortKeys, type UserDetail, type UserMembership } from "../../domain/users";
import { useCan } from "../auth/permissions";
import { ActionBar, historyAction } from "../components/actions";
import { RoleBadges, StatusBadge } from "../components/badges";
import { useConfirmAction } from "../components/ConfirmAction";
import { columnsFor } from "../components/DataTable";
import { InfoList, RecordStats, Section, StatLink, StatText } from "../components/detail";
import { EmbeddedList } from "../components/EmbeddedList";
import { displayName } from "../components/format";
import { RecordHeader, RecordPage } from "../components/RecordPage";
import { DateText, Muted, Num, RelativeTime, Truncate } from "../components/text";
import { useServerList } from "../lib/server-list";
import { TeamLink } from "../teams/public";
import { AddTeamModal } from "./AddTeamModal";
import { userRecord } from "./UserForm";
import { useLeaveTeam, userMembershipsQuery, userQuery } from "./queries";

const col = columnsFor<UserMembership>();
const columns = [
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
  col.accessor("status", {
    id: "status",
    header: "Status",
    cell: (c) => <StatusBadge kind="team" status={c.getValue()} />,
  }),
  col.accessor("user_count", {
    id: "user_count",
    header: "Members",
    meta: { align: "right" },
    cell: (c) => <Num value={c.getValue()} />,
  }),
  col.accessor("created_at", { id: "created_at", header: "Created", cell: (c) => <DateText iso={c.getValue()} /> }),
];

/**
 * The user's Team Memberships (SPEC.md §2 "/users/{userId}"): searched, sorted and paged by the
 * server, each row with "Leave Team" (`onLeave`, editors and up).
 */
function MembershipTable({ userId, onLeave }: { userId: string; onLeave?: (team: UserMembership) => void }) {
  const list = useServerList<UserMembership>({
    mode: "local",
    defaults: { sort: "team_name", order: "asc" },
    query: userMembershipsQuery(userId),
  });
  return (
    <EmbeddedList
      list={list}
      label="Team Memberships"
      search="Search teams..."
      columns={columns}
      rowKey={(m) => m.team_id}
      sortable={membershipSortKeys}
      rowLink={(m) => ({ to: "/teams/$teamId", params: { teamId: m.team_id } })}
      actions={
        onLeave
          ? (m) => (
              <button
                type="button"
                className="btn btn-ghost btn-xs whitespace-nowrap text-error"
                onClick={() => onLeave(m)}
                aria-label={`Leave Team ${m.team_name}`}
              >
                <LogOut className="h-4 w-4" aria-hidden /> Leave Team
              </button>
            )
          : undefined
      }
      empty={(q) => ({
        title: msg.users.noMemberships,
        text: q ? msg.search.noResults(q) : msg.users.noMembershipsText,
      })}
      errorTitle={msg.teams.loadError}
    />
  );
}

/** SPEC.md §2 "/users/{userId}". */
export default function UserDetailPage() {
  const { userId } = useParams({ from: "/users/$userId" });
  return (
    <RecordPage query={userQuery(userId)} kind={userRecord}>
      {(user) => <UserView user={user} />}
    </RecordPage>
  );
}

function UserView({ user: u }: { user: UserDetail }) {
  const offerUndo = useUndo();
  const userId = u.user_id;
  const [addOpen, setAddOpen] = useState(false);
  const canEdit = useCan("editor");
  const name = displayName(u);
  const fullName = [u.first_name, u.last_name].filter(Boolean).join(" ").trim();
  const customerName = u.customer_name ?? msg.fallbacks.unknownCustomer;
  const leave = useConfirmAction<UserMembership, string>({
    mutation: useLeaveTeam(userId),
    title: "Leave Team",
    message: (team) => (
      <>
        Remove <strong>{name}</strong> from <strong>{team.team_name}</strong>? They can be added again later.
      </>
    ),
    confirmLabel: "Leave Team",
    busyLabel: msg.users.leaving,
    variables: (team) => team.team_id,
    done: (_team, result) => offerUndo(msg.users.leftTeam, result),
  });

  return (
    <>
      <RecordHeader
        back={{ to: "/customers/$customerId", params: { customerId: u.customer_id }, label: msg.teams.backToCustomer }}
        title={name}
        section={msg.nav.users}
        badge={<StatusBadge kind="user" status={u.status} />}
        subtitle={name !== u.email ? <span title={u.email}>{u.email}</span> : undefined}
        actions={
          <ActionBar
            actions={[
              historyAction("user", userId),
              { label: msg.edit.edit, icon: Pencil, need: "editor", to: "/users/$userId/edit", params: { userId } },
            ]}
          />
        }
      />

      <RecordStats
        stats={[
          {
            label: "Customer",
            icon: Building2,
            value: <StatLink to="/customers/$customerId" params={{ customerId: u.customer_id }} text={customerName} />,
          },
          { label: "Status", icon: CircleDot, value: <StatText text={u.status} /> },
          { label: "Total Teams", icon: UsersRound, count: u.stats.total_teams },
          { label: "Active Teams", icon: UserRoundCheck, count: u.stats.active_teams },
        ]}
      />

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
                <div className="text-sm">
                  <DateText iso={u.last_login} withTime />
                </div>
                <div className="text-xs text-base-content/70">
                  <RelativeTime iso={u.last_login} />
                </div>
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
          actions={
            <ActionBar
              actions={[
                {
                  label: "Add Team",
                  icon: Plus,
                  tone: "primary",
                  need: "editor",
                  primary: true,
                  onClick: () => setAddOpen(true),
                },
              ]}
            />
          }
        >
          <MembershipTable userId={userId} onLeave={canEdit ? leave.ask : undefined} />
        </Section>
      </div>

      <AddTeamModal userId={userId} customerName={customerName} open={addOpen} onClose={() => setAddOpen(false)} />
      {leave.dialog}
    </>
  );
}
