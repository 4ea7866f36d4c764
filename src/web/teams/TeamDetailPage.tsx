import { useEffect, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "@tanstack/react-router";
import { Archive, ArchiveRestore, ArrowLeft, Building2, CircleDot, Globe, Plus, Trash2, User, UserCheck, UserMinus } from "lucide-react";
import { msg, timings } from "../../domain/messages";
import type { UserListItem } from "../../domain/users";
import { ApiError, errorMessage } from "../api/client";
import { useCan } from "../auth/permissions";
import { HistoryLink } from "../audit/HistoryLink";
import { StatusBadge } from "../components/badges";
import { DetailSkeleton, InfoList, Section } from "../components/detail";
import { displayName, formatDate, formatDateTime, formatNumber, titleCase } from "../components/format";
import { EmptyState } from "../components/inputs";
import { ConfirmDialog, SuccessBanner, useBanner } from "../components/overlays";
import { ErrorState, PageHeader, StatCard, StatGrid } from "../components/ui";
import { UserTable } from "../users/UserTable";
import { AssignSkillModal } from "./AssignSkillModal";
import { teamQuery, teamSkillsQuery, useDeleteTeam, useRemoveMember, useSetTeamStatus } from "./queries";

/** SPEC.md §2 "/teams/{teamId}". */
export default function TeamDetailPage() {
  const { teamId } = useParams({ from: "/teams/$teamId" });
  const navigate = useNavigate();
  const [deletedFor, setDeletedFor] = useState<string | null>(null);
  // Once deleted, nothing asks the server for the team again (it would answer 404).
  const team = useQuery({ ...teamQuery(teamId), enabled: !deletedFor });
  const skills = useQuery({ ...teamSkillsQuery(teamId), enabled: !deletedFor });
  const setStatus = useSetTeamStatus(teamId);
  const deleteTeam = useDeleteTeam(teamId);
  const removeMember = useRemoveMember(teamId);
  const banner = useBanner();
  const [assignOpen, setAssignOpen] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [removing, setRemoving] = useState<UserListItem | null>(null);
  const canEdit = useCan("editor");
  const isAdmin = useCan("admin");

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
  if (team.isPending) return <DetailSkeleton />;
  if (team.error || !team.data) {
    const missing = team.error instanceof ApiError && team.error.status === 404;
    return (
      <ErrorState title={msg.teams.loadOneError} message={missing ? msg.teams.notFound : errorMessage(team.error) || msg.teams.notFound} onRetry={() => void team.refetch()}>
        <Link activeOptions={{ exact: true }} activeProps={{ "aria-current": undefined }} to="/teams" className="btn btn-ghost btn-sm">Back to Teams</Link>
      </ErrorState>
    );
  }

  const t = team.data;
  const active = t.status === "active";
  const toggleStatus = () =>
    setStatus.mutate(active ? "inactive" : "active", { onSuccess: () => banner.show(active ? msg.teams.archived : msg.teams.unarchived) });
  const actionError = setStatus.error ?? removeMember.error;

  return (
    <>
      <Link activeOptions={{ exact: true }} activeProps={{ "aria-current": undefined }} to="/customers/$customerId" params={{ customerId: t.customer_id }} className="btn btn-ghost btn-sm mb-4 gap-1">
        <ArrowLeft className="h-4 w-4" aria-hidden /> Back to {t.customer_name ?? "Customer"}
      </Link>
      <PageHeader
        title={<span className="flex flex-wrap items-center gap-3">{t.team_name}<StatusBadge kind="team" status={t.status} /></span>}
        subtitle={t.customer_name ?? msg.fallbacks.unknownCustomer}
        actions={
          <>
            {isAdmin ? <HistoryLink entity="team" id={teamId} /> : null}
            {canEdit ? (
          <>
            <button type="button" className="btn btn-primary btn-sm" onClick={() => setAssignOpen(true)}>
              <Plus className="h-4 w-4" aria-hidden /> Assign Skill
            </button>
            <button type="button" className="btn btn-outline btn-sm" onClick={toggleStatus} disabled={setStatus.isPending}>
              {active ? <Archive className="h-4 w-4" aria-hidden /> : <ArchiveRestore className="h-4 w-4" aria-hidden />}
              {active ? "Archive Team" : "Unarchive Team"}
            </button>
            <button type="button" className="btn btn-outline btn-error btn-sm" onClick={() => setConfirmDelete(true)}>
              <Trash2 className="h-4 w-4" aria-hidden /> Delete Team
            </button>
          </>
            ) : null}
          </>
        }
      />
      <SuccessBanner message={banner.message} />
      {actionError ? <div role="alert" className="alert alert-error alert-soft mb-4 text-sm">{errorMessage(actionError)}</div> : null}

      <StatGrid>
        <StatCard label="Customer" value={<span className="block truncate text-lg">{t.customer_name ?? msg.fallbacks.unknownCustomer}</span>} icon={<Building2 className="h-6 w-6" />} />
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
              { label: "Last Updated", value: formatDateTime(t.updated_at) },
            ]}
          />
        </Section>
        <Section title={`Assigned Skills${skills.data ? ` (${skills.data.total})` : ""}`} className="xl:col-span-2">
          {skills.isPending ? (
            <div className="flex flex-col gap-2" aria-hidden>{[0, 1, 2].map((i) => <div key={i} className="skeleton h-12" />)}</div>
          ) : skills.error ? (
            <div role="alert" className="alert alert-error alert-soft text-sm">{errorMessage(skills.error)}</div>
          ) : skills.data.items.length === 0 ? (
            <EmptyState title="No skills assigned" text="Use Assign Skill to give this team a skill." />
          ) : (
            <ul className="grid grid-cols-1 gap-2 md:grid-cols-2" aria-label="Assigned skills">
              {skills.data.items.map((s) => (
                <li key={s.skill_id}>
                  {/* The skill screens own /skills/{skill_id}. */}
                  <Link to={`/skills/${s.skill_id}` as "/"} className="flex h-full flex-col gap-1 rounded-lg border border-base-300 p-3 hover:border-primary hover:bg-base-200/50">
                    <span className="flex flex-wrap items-center gap-2 font-medium">
                      {s.skill_name}
                      {s.is_global ? <span className="badge badge-info badge-soft badge-xs gap-1"><Globe className="h-3 w-3" aria-hidden />Global</span> : null}
                    </span>
                    <span className="text-xs text-base-content/60">
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
        message={<>Are you sure you want to delete <strong>{t.team_name}</strong>? Its memberships and skill assignments will be removed. This action cannot be undone.</>}
        confirmLabel={deleteTeam.isPending ? "Deleting..." : "Delete Team"}
        busy={deleteTeam.isPending}
        error={deleteTeam.error ? errorMessage(deleteTeam.error) : null}
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() => deleteTeam.mutate(undefined, { onSuccess: () => { setConfirmDelete(false); setDeletedFor(t.customer_id); } })}
      />
      <ConfirmDialog
        open={removing !== null}
        title="Remove Member"
        message={removing ? <>Remove <strong>{displayName(removing)}</strong> from {t.team_name}?</> : null}
        confirmLabel={removeMember.isPending ? "Removing..." : "Remove"}
        busy={removeMember.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() => removing && removeMember.mutate(removing.user_id, { onSuccess: () => { setRemoving(null); banner.show(msg.teams.userRemoved); } })}
      />
    </>
  );
}
