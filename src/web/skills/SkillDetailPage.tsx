import { useEffect, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "@tanstack/react-router";
import { Archive, ArchiveRestore, CircleCheck, CircleSlash, MessageSquareText, Pencil, Plus, Trash2, UsersRound } from "lucide-react";
import { msg, timings } from "../../domain/messages";
import type { SkillAssignment, SkillComment, SkillDetail, SkillPrompt } from "../../domain/skills";
import { errorMessage } from "../api/client";
import { useCan } from "../auth/permissions";
import { ActionBar, historyAction } from "../components/actions";
import { StatusBadge } from "../components/badges";
import { columnsFor, DataTable } from "../components/DataTable";
import { BackLink, DetailScaffold, InfoList, Section } from "../components/detail";
import { formatNumber, titleCase } from "../components/format";
import { EmptyState, SearchInput } from "../components/inputs";
import { ListPagination } from "../components/ListPagination";
import { ConfirmDialog, SuccessBanner, notify } from "../components/overlays";
import { DateText, Muted, RelativeTime, Truncate } from "../components/text";
import { ErrorState, PageHeader, StatCard, StatGrid } from "../components/ui";
import { useServerList } from "../lib/server-list";
import { CommentRowActions } from "../comments/public";
import { AddPromptModal } from "./AddPromptModal";
import { AssignTeamsModal } from "./AssignTeamsModal";
import { skillAssignmentsQuery, skillCommentsQuery, skillPromptsQuery, skillQuery, useDeleteSkill, useSetAssignment, useUpdateSkill } from "./queries";
import { ScopeTag } from "./SkillCells";

/** SPEC.md §2 "/skills/{skillId}". */
export default function SkillDetailPage() {
  const { skillId } = useParams({ from: "/skills/$skillId" });
  const navigate = useNavigate();
  const [deleted, setDeleted] = useState(false);
  // Once deleted, nothing asks the server for the skill again (it would answer 404).
  const query = useQuery({ ...skillQuery(skillId), enabled: !deleted });

  // SPEC.md §4: after delete, /skills opens after 1.5 s.
  useEffect(() => {
    if (!deleted) return;
    const timer = setTimeout(() => void navigate({ to: "/skills" }), timings.afterSkillChangeMs);
    return () => clearTimeout(timer);
  }, [deleted, navigate]);

  if (deleted) {
    return (
      <div className="mx-auto mt-10 max-w-xl">
        <SuccessBanner message={{ text: msg.skills.deleted }} />
      </div>
    );
  }
  return (
    <DetailScaffold
      query={query}
      section={msg.nav.skills}
      errorTitle={msg.skills.loadOneError}
      notFound={{ title: msg.skills.notFound }}
      back={{ to: "/skills", label: msg.skills.backToList }}
    >
      {(skill) => <SkillView skill={skill} onDeleted={() => setDeleted(true)} />}
    </DetailScaffold>
  );
}

function SkillView({ skill: s, onDeleted }: { skill: SkillDetail; onDeleted: () => void }) {
  const skillId = s.skill_id;
  const update = useUpdateSkill(skillId);
  const remove = useDeleteSkill(skillId);
  const [assignOpen, setAssignOpen] = useState(false);
  const [promptOpen, setPromptOpen] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const active = s.status === "active";
  const name = s.skill_name.trim() || msg.fallbacks.unnamedSkill;

  const toggle = () =>
    update.mutate({ status: active ? "inactive" : "active" }, { onSuccess: () => notify(active ? msg.skills.archived : msg.skills.unarchived) });

  return (
    <>
      <BackLink to="/skills" label={msg.skills.backToList} />
      <PageHeader
        title={name}
        section={msg.nav.skills}
        badge={<StatusBadge kind="skill" status={s.status} />}
        subtitle={s.skill_description ? <span title={s.skill_description}>{s.skill_description}</span> : undefined}
        actions={
          <ActionBar
            actions={[
              historyAction("skill", skillId),
              { label: msg.skills.assignToTeam, icon: Plus, tone: "primary", need: "editor", primary: true, onClick: () => setAssignOpen(true) },
              { label: "Edit", icon: Pencil, need: "editor", to: "/skills/$skillId/edit", params: { skillId } },
              { label: active ? "Archive" : "Unarchive", icon: active ? Archive : ArchiveRestore, need: "editor", busy: update.isPending, onClick: toggle },
              { label: "Delete", icon: Trash2, tone: "danger", need: "editor", onClick: () => setConfirmDelete(true) },
            ]}
          />
        }
      />
      {update.error ? <div role="alert" className="alert alert-error alert-soft mb-4 text-sm">{errorMessage(update.error)}</div> : null}

      <StatGrid>
        <StatCard label="Total Teams" value={formatNumber(s.stats.total_teams)} icon={<UsersRound className="h-6 w-6" />} />
        <StatCard label="Active Assignments" value={formatNumber(s.stats.active_assignments)} icon={<CircleCheck className="h-6 w-6" />} />
        <StatCard label="Inactive Assignments" value={formatNumber(s.stats.inactive_assignments)} icon={<CircleSlash className="h-6 w-6" />} />
        <StatCard label="Prompts" value={formatNumber(s.stats.prompts)} icon={<MessageSquareText className="h-6 w-6" />} />
      </StatGrid>

      <div className="mt-6 grid grid-cols-1 gap-6 xl:grid-cols-3">
        <Section title="Skill Information" className="xl:col-span-1">
          <InfoList
            narrow
            items={[
              { label: "Skill ID", value: s.skill_id, mono: true },
              { label: "Type", value: titleCase(s.type) },
              { label: "Scope", value: <ScopeTag global={s.is_global} /> },
              { label: "Description", value: s.skill_description ?? <Muted>{msg.users.notProvided}</Muted> },
              { label: "Created", value: <DateText iso={s.created_at} withTime /> },
              { label: "Last Updated", value: <DateText iso={s.updated_at} withTime /> },
            ]}
          />
        </Section>
        <Section
          title={`Prompts (${formatNumber(s.stats.prompts)})`}
          className="xl:col-span-2"
          actions={<ActionBar actions={[{ label: msg.skills.addPrompt, icon: Plus, need: "editor", primary: true, onClick: () => setPromptOpen(true) }]} />}
        >
          <PromptsPanel skillId={skillId} />
        </Section>
      </div>

      <div className="mt-6">
        <Section title="Team Assignments">
          <AssignmentsTable skillId={skillId} skillActive={active} onChanged={(text) => notify(text)} />
        </Section>
      </div>

      <div className="mt-6">
        <Section title={`Comments (${formatNumber(s.stats.comments)})`}>
          <CommentsTable skillId={skillId} />
        </Section>
      </div>

      <AssignTeamsModal skillId={skillId} skillActive={active} open={assignOpen} onClose={() => setAssignOpen(false)} onAssigned={(text) => notify(text)} />
      <AddPromptModal
        skillId={skillId}
        open={promptOpen}
        onClose={() => setPromptOpen(false)}
        onAdded={() => {
          setPromptOpen(false);
          notify(msg.prompts.added);
        }}
      />
      <ConfirmDialog
        open={confirmDelete}
        title="Delete Skill"
        message={<p className="break-words">{msg.skills.deleteConfirm(s.skill_name)}</p>}
        confirmLabel={remove.isPending ? "Deleting..." : "Delete"}
        busy={remove.isPending}
        error={remove.error ? errorMessage(remove.error) : null}
        onCancel={() => {
          setConfirmDelete(false);
          remove.reset();
        }}
        onConfirm={() => remove.mutate(undefined, { onSuccess: () => { setConfirmDelete(false); onDeleted(); } })}
      />
    </>
  );
}

/** The Prompts panel: the skill's prompts, newest first, each linking to /prompts/{prompt_id}. */
function PromptsPanel({ skillId }: { skillId: string }) {
  const list = useServerList<SkillPrompt>({ mode: "local", defaults: { sort: "created_at", order: "desc" }, limit: 10, query: skillPromptsQuery(skillId) });
  const { data, failed, query } = list;
  if (failed) return <ErrorState title={msg.prompts.loadError} message={errorMessage(query.error)} onRetry={() => void query.refetch()} />;
  if (!data) return <div className="flex flex-col gap-2" aria-hidden>{[0, 1, 2].map((i) => <div key={i} className="skeleton h-12" />)}</div>;
  if (data.items.length === 0) return <div className="py-6"><EmptyState title={msg.skills.noPrompts} text={msg.skills.noPromptsText} /></div>;
  return (
    <>
      <ul className="divide-y divide-base-300" aria-label="Prompts">
        {data.items.map((p) => (
          <li key={p.prompt_id} className="flex min-w-0 items-start gap-3 py-2.5">
            <div className="min-w-0 flex-1">
              <Link to="/prompts/$promptId" params={{ promptId: p.prompt_id }} className="block min-w-0 truncate font-medium hover:text-primary hover:underline" title={p.prompt_title}>
                {p.prompt_title}
              </Link>
              {p.prompt_value ? <span className="block min-w-0 truncate text-xs text-base-content/70" title={p.prompt_value}>{p.prompt_value}</span> : null}
            </div>
            <StatusBadge kind="prompt" status={p.status} />
            <span className="text-xs text-base-content/70"><DateText iso={p.created_at} /></span>
          </li>
        ))}
      </ul>
      <ListPagination list={list} label="Prompts pages" />
    </>
  );
}

const assignmentCol = columnsFor<SkillAssignment>();

/**
 * The Team Assignments table: team, customer, status, assigned date, score ("N/A"), last used
 * ("Never"), and Unassign or Reassign (SPEC.md §2, §4: the row is kept).
 */
function AssignmentsTable({ skillId, skillActive, onChanged }: { skillId: string; skillActive: boolean; onChanged: (text: string) => void }) {
  const navigate = useNavigate();
  const canEdit = useCan("editor");
  const setAssignment = useSetAssignment(skillId);
  const [busy, setBusy] = useState<string | null>(null);
  const list = useServerList<SkillAssignment>({ mode: "local", defaults: { sort: "assigned_at", order: "desc" }, query: skillAssignmentsQuery(skillId) });
  const { data, failed, query } = list;

  const change = (a: SkillAssignment) => {
    const team = a.team_name ?? msg.fallbacks.unknownTeam;
    const status = a.status === "active" ? "inactive" : "active";
    setBusy(a.team_id);
    setAssignment.mutate({ teamId: a.team_id, status }, {
      onSuccess: () => onChanged(status === "active" ? msg.skills.reassignedTo(team) : msg.skills.unassignedFrom(team)),
      onSettled: () => setBusy(null),
    });
  };

  const columns = [
    assignmentCol.accessor("team_name", {
      id: "team_name",
      header: "Team",
      meta: { grow: true, primary: true },
      cell: ({ row }) => {
        const team = row.original.team_name ?? msg.fallbacks.unknownTeam;
        return (
          <Link to="/teams/$teamId" params={{ teamId: row.original.team_id }} className="block min-w-0 truncate font-medium hover:text-primary hover:underline" title={team}>
            {team}
          </Link>
        );
      },
    }),
    assignmentCol.accessor("customer_name", {
      id: "customer_name",
      header: "Customer",
      cell: ({ row }) => {
        const customer = row.original.customer_name ?? msg.fallbacks.unknownCustomer;
        return (
          <Link to="/customers/$customerId" params={{ customerId: row.original.customer_id }} className="block max-w-56 truncate hover:text-primary hover:underline" title={customer}>
            {customer}
          </Link>
        );
      },
    }),
    assignmentCol.accessor("status", { id: "status", header: "Status", cell: (c) => <StatusBadge kind="assignment" status={c.getValue()} /> }),
    assignmentCol.accessor("assigned_at", { id: "assigned_at", header: "Assigned", cell: (c) => <DateText iso={c.getValue()} /> }),
    assignmentCol.accessor("score", {
      id: "score",
      header: "Score",
      meta: { align: "right" },
      cell: (c) => { const v = c.getValue(); return v === null ? <Muted>{msg.skills.scoreNa}</Muted> : <span className="tabular-nums">{Math.round(v)}%</span>; },
    }),
    assignmentCol.accessor("last_used", { id: "last_used", header: "Last Used", cell: (c) => <RelativeTime iso={c.getValue()} fallback={msg.skills.never} /> }),
    ...(canEdit
      ? [assignmentCol.display({
        id: "actions",
        meta: { actions: true },
        header: () => <span className="sr-only">{msg.ui.actions}</span>,
        cell: ({ row }) => {
          const a = row.original;
          const team = a.team_name ?? msg.fallbacks.unknownTeam;
          const unassign = a.status === "active";
          // Reassigning needs an active skill and team (as assigning does).
          const blocked = !unassign && (!skillActive || a.team_status !== "active");
          return (
            <div className="flex justify-end">
              <button
                type="button"
                className={`btn btn-xs ${unassign ? "btn-ghost text-error" : "btn-outline"}`}
                disabled={busy !== null || blocked}
                title={blocked ? (skillActive ? msg.skills.teamNotActive : msg.skills.notActive) : undefined}
                aria-label={`${unassign ? msg.skills.unassign : msg.skills.reassign} ${team}`}
                onClick={(e) => { e.stopPropagation(); change(a); }}
              >
                {busy === a.team_id ? <span className="loading loading-spinner loading-xs" aria-hidden /> : null}
                {unassign ? msg.skills.unassign : msg.skills.reassign}
              </button>
            </div>
          );
        },
      })]
      : []),
  ];

  return (
    <div>
      <div className="mb-3">
        <SearchInput value={list.state.q} onChange={list.setQuery} placeholder={msg.skills.searchTeams} label="Search team assignments" />
      </div>
      {setAssignment.error ? <div role="alert" className="alert alert-error alert-soft mb-3 text-sm">{errorMessage(setAssignment.error)}</div> : null}
      {failed ? (
        <ErrorState title={msg.app.genericError} message={errorMessage(query.error)} onRetry={() => void query.refetch()} />
      ) : (
        <>
          <DataTable
            label="Team Assignments"
            columns={columns}
            rows={data?.items}
            rowKey={(a) => a.team_id}
            sortable={["team_name", "customer_name", "status", "assigned_at"]}
            sort={{ sort: list.state.sort, order: list.state.order }}
            onSort={list.setSort}
            loading={query.isPending || query.isFetching}
            onRowClick={(a) => void navigate({ to: "/teams/$teamId", params: { teamId: a.team_id } })}
            empty={<EmptyState title={msg.skills.noAssignments} text={list.state.q ? `Nothing matches “${list.state.q}”.` : msg.skills.noAssignmentsText} />}
          />
          <ListPagination list={list} label="Team Assignments pages" />
        </>
      )}
    </div>
  );
}

const commentCol = columnsFor<SkillComment>();
const commenter = (c: SkillComment) => [c.first_name, c.last_name].filter(Boolean).join(" ").trim() || c.email || msg.fallbacks.unknownUser;
const commentColumns = [
  commentCol.display({
    id: "user",
    header: "User",
    meta: { primary: true },
    cell: ({ row }) => (
      <Link to="/users/$userId" params={{ userId: row.original.user_id }} className="block max-w-48 truncate font-medium hover:text-primary hover:underline" title={commenter(row.original)}>
        {commenter(row.original)}
      </Link>
    ),
  }),
  commentCol.accessor("comment_value", { id: "comment_value", header: "Comment", meta: { grow: true }, cell: (c) => <Truncate text={c.getValue()} lines={2} /> }),
  commentCol.accessor("status", { id: "status", header: "Status", cell: (c) => <StatusBadge kind="comment" status={c.getValue()} /> }),
  commentCol.accessor("created_at", { id: "created_at", header: "Created", cell: (c) => <DateText iso={c.getValue()} /> }),
  commentCol.accessor("updated_at", { id: "updated_at", header: "Updated", cell: (c) => <DateText iso={c.getValue()} /> }),
  // The same per-row moderation as /comments (it renders nothing for a viewer).
  commentCol.display({
    id: "actions",
    header: () => <span className="sr-only">Actions</span>,
    meta: { actions: true, label: "Actions" },
    cell: ({ row }) => <CommentRowActions comment={row.original} />,
  }),
];

/** The Comments table: user, comment, status badge, created, updated; newest first. */
function CommentsTable({ skillId }: { skillId: string }) {
  const list = useServerList<SkillComment>({ mode: "local", defaults: { sort: "created_at", order: "desc" }, limit: 20, query: skillCommentsQuery(skillId) });
  const { data, failed, query } = list;
  if (failed) return <ErrorState title={msg.comments.loadError} message={errorMessage(query.error)} onRetry={() => void query.refetch()} />;
  return (
    <>
      <DataTable
        label="Comments"
        columns={commentColumns}
        rows={data?.items}
        rowKey={(c) => c.comment_id}
        loading={query.isPending || query.isFetching}
        empty={<EmptyState title={msg.skills.noComments} />}
      />
      <ListPagination list={list} label="Comments pages" />
    </>
  );
}
