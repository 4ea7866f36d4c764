import { useEffect, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "@tanstack/react-router";
import { Archive, ArchiveRestore, Building2, CircleDot, Globe, Plus, Trash2, User, UserCheck, UserMinus } from "lucide-react";
import { msg, timings } from "../../domain/messages";
import type { TeamDetail } from "../../domain/teams";
import type { UserListItem } from "../../domain/users";
import { errorMessage } from "../api/client";
import { useCan } from "../auth/permissions";
import { ActionBar, historyAction } from "../components/actions";
import { StatusBadge, Tag } from "../components/badges";
import { BackLink, DetailScaffold, InfoList, Section } from "../components/detail";
import { displayName, formatDate, formatNumber, titleCase } from "../components/format";
import { EmptyState } from "../components/inputs";
import { ConfirmDialog, SuccessBanner, notify } from "../components/overlays";
import { DateText, Truncate } from "../components/text";
import { PageHeader, StatCard, StatGrid } from "../components/ui";
import { UserTable } from "../users/public";
import { AssignSkillModal } from "./AssignSkillModal";
import { teamQuery, teamSkillsQuery, useDeleteTeam, useRemoveMember, useSetTeamStatus } from "./queries";

/** SPEC.md §2 "/teams/{teamId}". */
export default function TeamDetailPage() {
  const { teamId } = useParams({ from: "/teams/$teamId" });
  const navigate = useNavigate();
  const [deletedFor, setDeletedFor] = useState<string | null>(null);
  // Once deleted, nothing asks the server for the team again (it would answer 404); its skills
  // are asked for by the team view, which is gone by then.
  const query = useQuery({ ...teamQuery(teamId), enabled: !deletedFor });

  // SPEC.md §4: after delete, the customer page opens after 2 s.
  useEffect(() => {
    if (!deletedFor) return;
    const timer = setTimeout(() => void navigate({ to: "/customers/$customerId", params: { customerId: deletedFor } }), timings.afterTeamDeleteMs);
    return () => clearTimeout(timer);
  }, [deletedFor, navigate]);

  if (deletedFor) {
    return (
      <div className="mx-auto mt-10 max-w-xl">
        <SuccessBanner message={{ text: msg.teams.deleted, detail: msg.teams.redirectingToCustomerPage }} />
      </div>
    );
  }
  return (
    <DetailScaffold
      query={query}
      section={msg.nav.teams}
      errorTitle={msg.teams.loadOneError}
      notFound={{ title: msg.teams.loadOneError, message: msg.teams.notFound }}
      back={{ to: "/teams", label: msg.teams.backToList }}
    >
      {(team) => <TeamView team={team} onDeleted={() => setDeletedFor(team.customer_id)} />}
    </DetailScaffold>
  );
}

function TeamView({ team: t, onDeleted }: { team: TeamDetail; onDeleted: () => void }) {
  const teamId = t.team_id;
  const skills = useQuery(teamSkillsQuery(teamId));
  const setStatus = useSetTeamStatus(teamId);
  const deleteTeam = useDeleteTeam(teamId);
  const removeMember = useRemoveMember(teamId);
  const [assignOpen, setAssignOpen] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [removing, setRemoving] = useState<UserListItem | null>(null);
  const canEdit = useCan("editor");

  const active = t.status === "active";
  const customerName = t.customer_name ?? msg.fallbacks.unknownCustomer;
  const toggleStatus = () =>
    setStatus.mutate(active ? "inactive" : "active", { onSuccess: () => notify(active ? msg.teams.archived : msg.teams.unarchived) });
  const actionError = setStatus.error ?? removeMember.error;

  return (
    <>
      <BackLink to="/customers/$customerId" params={{ customerId: t.customer_id }} label={`Back to ${t.customer_name ?? "Customer"}`} />
      <PageHeader
        title={t.team_name}
        section={msg.nav.teams}
        badge={<StatusBadge kind="team" status={t.status} />}
        subtitle={<span title={customerName}>{customerName}</span>}
        actions={
          <ActionBar
            actions={[
              historyAction("team", teamId),
              { label: "Assign Skill", icon: Plus, tone: "primary", need: "editor", primary: true, disabledReason: active ? undefined : msg.skills.teamNotActive, onClick: () => setAssignOpen(true) },
              { label: active ? "Archive Team" : "Unarchive Team", icon: active ? Archive : ArchiveRestore, need: "editor", busy: setStatus.isPending, onClick: toggleStatus },
              { label: "Delete Team", icon: Trash2, tone: "danger", need: "editor", onClick: () => setConfirmDelete(true) },
            ]}
          />
        }
      />
      {actionError ? <div role="alert" className="alert alert-error alert-soft mb-4 text-sm">{errorMessage(actionError)}</div> : null}

      <StatGrid>
        <StatCard
          label="Customer"
          value={
            <Link to="/customers/$customerId" params={{ customerId: t.customer_id }} className="block min-w-0 text-lg leading-snug hover:text-primary hover:underline">
              <Truncate text={customerName} lines={2} />
            </Link>
          }
          icon={<Building2 className="h-6 w-6" />}
        />
        <StatCard label="Status" value={<span className="text-lg">{titleCase(t.status)}</span>} icon={<CircleDot className="h-6 w-6" />} />
        <StatCard label="Total Users" value={formatNumber(t.stats.total_users)} icon={<User className="h-6 w-6" />} />
        <StatCard label="Active Users" value={formatNumber(t.stats.active_users)} icon={<UserCheck className="h-6 w-6" />} />
      </StatGrid>

      <div className="mt-6 grid grid-cols-1 gap-6 xl:grid-cols-3">
        <Section title="Team Information" className="xl:col-span-1">
          <InfoList
            narrow
            items={[
              { label: "Team ID", value: t.team_id, mono: true },
              { label: "Customer ID", value: t.customer_id, mono: true },
              { label: "Team Name", value: t.team_name },
              { label: "Last Updated", value: <DateText iso={t.updated_at} withTime /> },
            ]}
          />
        </Section>
        <Section title={`Assigned Skills${skills.data ? ` (${skills.data.total})` : ""}`} className="xl:col-span-2">
          {skills.isPending ? (
            <div className="flex flex-col gap-2" aria-hidden>{[0, 1, 2].map((i) => <div key={i} className="skeleton h-12" />)}</div>
          ) : skills.error ? (
            <div role="alert" className="alert alert-error alert-soft text-sm">{errorMessage(skills.error)}</div>
          ) : skills.data.items.length === 0 ? (
            <div className="py-6">
              <EmptyState title="No skills assigned" text="Use Assign Skill to give this team a skill." />
            </div>
          ) : (
            <ul className="grid grid-cols-1 gap-2 md:grid-cols-2" aria-label="Assigned skills">
              {skills.data.items.map((s) => (
                <li key={s.skill_id} className="min-w-0">
                  <Link to="/skills/$skillId" params={{ skillId: s.skill_id }} className="flex h-full min-w-0 flex-col gap-1 rounded-lg border border-base-300 p-3 hover:border-primary hover:bg-base-200/50">
                    <span className="flex min-w-0 items-center gap-2 font-medium">
                      <Truncate text={s.skill_name} />
                      {s.is_global ? <Tag tone="info"><Globe className="h-3 w-3" aria-hidden />Global</Tag> : null}
                    </span>
                    <span className="text-xs text-base-content/70">
                      {titleCase(s.type)} · assigned {formatDate(s.assigned_at)}{s.score !== null ? ` · score ${Math.round(s.score)}%` : ""}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </Section>
      </div>

      <div className="mt-6">
        <Section title="Members">
          <UserTable
            filter={{ team_id: teamId }}
            label="Members"
            actions={canEdit ? (user) => (
              <button type="button" className="btn btn-ghost btn-xs text-error" onClick={() => setRemoving(user)} aria-label={`Remove ${displayName(user)}`}>
                <UserMinus className="h-4 w-4" aria-hidden /> Remove
              </button>
            ) : undefined}
          />
        </Section>
      </div>

      <AssignSkillModal teamId={teamId} open={assignOpen} onClose={() => setAssignOpen(false)} />
      <ConfirmDialog
        open={confirmDelete}
        title="Delete Team"
        message={<>Are you sure you want to delete <strong className="break-all">{t.team_name}</strong>? Its memberships and skill assignments will be removed. This action cannot be undone.</>}
        confirmLabel={deleteTeam.isPending ? "Deleting..." : "Delete Team"}
        busy={deleteTeam.isPending}
        error={deleteTeam.error ? errorMessage(deleteTeam.error) : null}
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() => deleteTeam.mutate(undefined, { onSuccess: () => { setConfirmDelete(false); onDeleted(); } })}
      />
      <ConfirmDialog
        open={removing !== null}
        title="Remove Member"
        message={removing ? <>Remove <strong>{displayName(removing)}</strong> from {t.team_name}?</> : null}
        confirmLabel={removeMember.isPending ? "Removing..." : "Remove"}
        busy={removeMember.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() => removing && removeMember.mutate(removing.user_id, { onSuccess: () => { setRemoving(null); notify(msg.teams.userRemoved); } })}
      />
    </>
  );
}
