import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { Plus, User, UserCheck, UserCog, UserMinus, UserPlus } from "lucide-react";
import { timings } from "../../domain/messages/common";
import { deletedMsg } from "../../domain/messages/deleted";
import { fallbacksMsg } from "../../domain/messages/kit";
import { skillsMsg } from "../../domain/messages/skills";
import { teamsMsg } from "../../domain/messages/teams";
import { usersMsg } from "../../domain/messages/users";
import type { TeamDetail } from "../../domain/teams";
import type { UserListItem } from "../../domain/users";
import { ErrorAlert } from "../components/ErrorAlert";
import { activeOrInactive, archiveAction, editAction, historyAction, mainAction } from "../components/actions";
import { StatusBadge } from "../components/badges";
import { useCan } from "../auth/permissions";
import { useRowRemoval } from "../components/ConfirmAction";
import { InfoSection, Section, statusStat, type InfoItem } from "../components/detail";
import { displayName, formatDate, titleCase } from "../components/format";
import { EmptyState } from "../components/inputs";
import { RecordPage } from "../components/RecordPage";
import { DateText, Truncate } from "../components/text";
import { ScopeTag } from "../skills/public";
import { backToCustomer, customerStat, directorySource } from "../customers/public";
import { RolesModal, UserTable } from "../users/public";
import { AddMemberModal } from "./AddMemberModal";
import { AssignSkillModal } from "./AssignSkillModal";
import { teamRecord } from "./TeamForm";
import { teamQuery, teamSkillsQuery, useDeleteTeam, useRemoveMember, useSetTeamStatus } from "./queries";

/** The team's information panel. */
const teamInfo = (t: TeamDetail): InfoItem[] => [
  { label: "Team ID", value: t.team_id, mono: true },
  { label: "Customer ID", value: t.customer_id, mono: true },
  { label: "Team Name", value: t.team_name },
  directorySource(t.directory_managed, "team"),
  { label: "Last Updated", value: <DateText iso={t.updated_at} withTime /> },
];

/** SPEC.md §2 "/teams/{teamId}"; §4: after delete, the customer page opens after 2 s. */
export default function TeamDetailPage() {
  const { teamId } = useParams({ from: "/teams/$teamId" });
  const setStatus = useSetTeamStatus(teamId);
  const [assignOpen, setAssignOpen] = useState(false);
  return (
    <RecordPage
      query={teamQuery(teamId)}
      kind={teamRecord}
      remove={{
        mutation: useDeleteTeam(teamId),
        title: "Delete Team",
        label: "Delete Team",
        message: (t) => (
          <>
            Are you sure you want to delete <strong className="break-all">{t.team_name}</strong>? Its memberships and
            skill assignments will be removed. {deletedMsg.restorable}
          </>
        ),
        done: {
          message: teamsMsg.deleted,
          detail: teamsMsg.redirectingToCustomerPage,
          to: (t) => ({ to: "/customers/$customerId", params: { customerId: t.customer_id } }),
          afterMs: timings.afterTeamDeleteMs,
        },
      }}
      header={(t) => ({
        title: t.team_name,
        back: backToCustomer(t.customer_id, `Back to ${t.customer_name ?? "Customer"}`),
        badge: <StatusBadge kind="team" status={t.status} />,
        subtitle: t.customer_name ?? fallbacksMsg.unknownCustomer,
        actions: [
          historyAction("team", teamId),
          mainAction({
            label: "Assign Skill",
            icon: Plus,
            disabledReason: t.status === "active" ? undefined : skillsMsg.teamNotActive,
            onClick: () => setAssignOpen(true),
          }),
          editAction({ to: "/teams/$teamId/edit", params: { teamId } }),
          archiveAction(
            t.status !== "active",
            setStatus,
            {
              archive: teamsMsg.archiveTeam,
              restore: teamsMsg.unarchiveTeam,
              archived: teamsMsg.archived,
              restored: teamsMsg.unarchived,
            },
            { ...activeOrInactive, send: (status) => status },
          ),
        ],
        stats: [
          customerStat(t.customer_id, t.customer_name ?? fallbacksMsg.unknownCustomer),
          statusStat(t.status),
          { label: "Total Users", icon: User, count: t.stats.total_users },
          { label: "Active Users", icon: UserCheck, count: t.stats.active_users },
        ],
        error: setStatus.error,
      })}
    >
      {(team) => (
        <>
          <TeamView team={team} />
          <AssignSkillModal teamId={teamId} open={assignOpen} onClose={() => setAssignOpen(false)} />
        </>
      )}
    </RecordPage>
  );
}

/** The team's information, assigned skills and members (Add Member; Remove after a confirm, with Undo). */
function TeamView({ team: t }: { team: TeamDetail }) {
  const teamId = t.team_id;
  const skills = useQuery(teamSkillsQuery(teamId));
  const [memberOpen, setMemberOpen] = useState(false);
  const [rolesOf, setRolesOf] = useState<UserListItem | null>(null);
  const canEdit = useCan("editor");
  const customerName = t.customer_name ?? fallbacksMsg.unknownCustomer;
  const removeMember = useRowRemoval<UserListItem, string>({
    mutation: useRemoveMember(teamId),
    variables: (user) => user.user_id,
    label: "Remove",
    icon: UserMinus,
    name: (user) => `Remove ${displayName(user)}`,
    title: "Remove Member",
    message: (user) => (
      <>
        Remove <strong>{displayName(user)}</strong> from {t.team_name}?
      </>
    ),
    busyLabel: "Removing...",
    undo: () => teamsMsg.userRemoved,
  });

  return (
    <>
      <div className="mt-6 grid grid-cols-1 gap-6 xl:grid-cols-3">
        <InfoSection title="Team Information" className="xl:col-span-1" narrow items={teamInfo(t)} />
        <Section title={`Assigned Skills${skills.data ? ` (${skills.data.total})` : ""}`} className="xl:col-span-2">
          {skills.isPending ? (
            <div className="flex flex-col gap-2" aria-hidden>
              {[0, 1, 2].map((i) => (
                <div key={i} className="skeleton h-12" />
              ))}
            </div>
          ) : skills.error ? (
            <ErrorAlert error={skills.error} />
          ) : skills.data.items.length === 0 ? (
            <div className="py-6">
              <EmptyState title="No skills assigned" text="Use Assign Skill to give this team a skill." />
            </div>
          ) : (
            <ul className="grid grid-cols-1 gap-2 md:grid-cols-2" aria-label="Assigned skills">
              {skills.data.items.map((s) => (
                <li key={s.skill_id} className="min-w-0">
                  <Link
                    to="/skills/$skillId"
                    params={{ skillId: s.skill_id }}
                    className="flex h-full min-w-0 flex-col gap-1 rounded-lg border border-base-300 p-3 hover:border-primary hover:bg-base-200/50"
                  >
                    <span className="flex min-w-0 items-center gap-2 font-medium">
                      <Truncate text={s.skill_name} />
                      {s.is_global ? <ScopeTag global /> : null}
                    </span>
                    <span className="text-xs text-base-content/70">
                      {titleCase(s.type)} · assigned {formatDate(s.assigned_at)}
                      {s.score !== null ? ` · score ${Math.round(s.score)}%` : ""}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </Section>
      </div>

      <div className="mt-6">
        <Section
          title="Members"
          actionBar={[
            mainAction({
              label: teamsMsg.addMemberTitle,
              icon: UserPlus,
              disabledReason: t.status === "active" ? undefined : usersMsg.teamNotActive,
              onClick: () => setMemberOpen(true),
            }),
          ]}
        >
          <UserTable
            filter={{ team_id: teamId }}
            label="Members"
            actions={
              canEdit && removeMember.actions
                ? (user) => (
                    <>
                      <button
                        type="button"
                        className="btn btn-ghost btn-xs whitespace-nowrap"
                        aria-label={usersMsg.changeRoles(displayName(user))}
                        onClick={() => setRolesOf(user)}
                      >
                        <UserCog className="h-4 w-4" aria-hidden />
                        {usersMsg.roles}
                      </button>
                      {removeMember.actions?.(user)}
                    </>
                  )
                : undefined
            }
          />
        </Section>
      </div>

      <AddMemberModal
        teamId={teamId}
        customerName={customerName}
        open={memberOpen}
        onClose={() => setMemberOpen(false)}
      />
      <RolesModal user={rolesOf} onClose={() => setRolesOf(null)} />
      {removeMember.dialog}
    </>
  );
}
