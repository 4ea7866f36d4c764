import { useState } from "react";
import { useUndo } from "../components/undo";
import { useParams } from "@tanstack/react-router";
import {
  Archive,
  ArchiveRestore,
  CircleCheck,
  CircleSlash,
  MessageSquareText,
  Pencil,
  Plus,
  UsersRound,
} from "lucide-react";
import { msg, timings } from "../../domain/messages";
import type { SkillAssignment, SkillComment, SkillDetail, SkillPrompt } from "../../domain/skills";
import { errorMessage } from "../api/client";
import { useCan } from "../auth/permissions";
import { ActionBar, historyAction, type Action } from "../components/actions";
import { StatusBadge } from "../components/badges";
import { columnsFor } from "../components/DataTable";
import { InfoList, RecordStats, Section } from "../components/detail";
import { EmbeddedList } from "../components/EmbeddedList";
import { formatNumber, titleCase } from "../components/format";
import { notify } from "../components/overlays";
import { RecordHeader, RecordPage } from "../components/RecordPage";
import { DateText, Muted, RelativeTime, Truncate } from "../components/text";
import { RecordLink } from "../components/RecordLink";
import { useServerList } from "../lib/server-list";
import { CommentRowActions } from "../comments/public";
import { AddPromptModal } from "./AddPromptModal";
import { AssignTeamsModal } from "./AssignTeamsModal";
import {
  skillAssignmentsQuery,
  skillCommentsQuery,
  skillPromptsQuery,
  skillQuery,
  useDeleteSkill,
  useSetAssignment,
  useUpdateSkill,
} from "./queries";
import { ScopeTag } from "./SkillCells";
import { skillRecord } from "./SkillForm";

/** SPEC.md §2 "/skills/{skillId}"; §4: after delete, /skills opens after 1.5 s. */
export default function SkillDetailPage() {
  const { skillId } = useParams({ from: "/skills/$skillId" });
  const remove = useDeleteSkill(skillId);
  return (
    <RecordPage
      query={skillQuery(skillId)}
      kind={skillRecord}
      remove={{
        mutation: remove,
        title: "Delete Skill",
        message: (s) => <p className="break-words">{msg.skills.deleteConfirm(s.skill_name)}</p>,
        done: { message: msg.skills.deleted, to: () => ({ to: "/skills" }), afterMs: timings.afterSkillChangeMs },
      }}
    >
      {(skill, { deleteAction }) => <SkillView skill={skill} deleteAction={deleteAction} />}
    </RecordPage>
  );
}

function SkillView({ skill: s, deleteAction }: { skill: SkillDetail; deleteAction?: Action }) {
  const skillId = s.skill_id;
  const update = useUpdateSkill(skillId);
  const [assignOpen, setAssignOpen] = useState(false);
  const [promptOpen, setPromptOpen] = useState(false);
  const active = s.status === "active";
  const name = s.skill_name.trim() || msg.fallbacks.unnamedSkill;

  const toggle = () =>
    update.mutate(
      { status: active ? "inactive" : "active" },
      { onSuccess: () => notify(active ? msg.skills.archived : msg.skills.unarchived) },
    );

  return (
    <>
      <RecordHeader
        back={skillRecord.list}
        title={name}
        section={msg.nav.skills}
        badge={<StatusBadge kind="skill" status={s.status} />}
        subtitle={s.skill_description ? <span title={s.skill_description}>{s.skill_description}</span> : undefined}
        actions={
          <ActionBar
            actions={[
              historyAction("skill", skillId),
              {
                label: msg.skills.assignToTeam,
                icon: Plus,
                tone: "primary",
                need: "editor",
                primary: true,
                onClick: () => setAssignOpen(true),
              },
              { label: "Edit", icon: Pencil, need: "editor", to: "/skills/$skillId/edit", params: { skillId } },
              {
                label: active ? "Archive" : "Unarchive",
                icon: active ? Archive : ArchiveRestore,
                need: "editor",
                busy: update.isPending,
                onClick: toggle,
              },
              deleteAction,
            ]}
          />
        }
        error={update.error}
      />

      <RecordStats
        stats={[
          { label: "Total Teams", icon: UsersRound, count: s.stats.total_teams },
          { label: "Active Assignments", icon: CircleCheck, count: s.stats.active_assignments },
          { label: "Inactive Assignments", icon: CircleSlash, count: s.stats.inactive_assignments },
          { label: "Prompts", icon: MessageSquareText, count: s.stats.prompts },
        ]}
      />

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
          actions={
            <ActionBar
              actions={[
                {
                  label: msg.skills.addPrompt,
                  icon: Plus,
                  need: "editor",
                  primary: true,
                  onClick: () => setPromptOpen(true),
                },
              ]}
            />
          }
        >
          <PromptsPanel skillId={skillId} />
        </Section>
      </div>

      <div className="mt-6">
        <Section title="Team Assignments">
          <AssignmentsTable skillId={skillId} skillActive={active} />
        </Section>
      </div>

      <div className="mt-6">
        <Section title={`Comments (${formatNumber(s.stats.comments)})`}>
          <CommentsTable skillId={skillId} />
        </Section>
      </div>

      <AssignTeamsModal
        skillId={skillId}
        skillActive={active}
        open={assignOpen}
        onClose={() => setAssignOpen(false)}
        onAssigned={(text) => notify(text)}
      />
      <AddPromptModal
        skillId={skillId}
        open={promptOpen}
        onClose={() => setPromptOpen(false)}
        onAdded={() => {
          setPromptOpen(false);
          notify(msg.prompts.added);
        }}
      />
    </>
  );
}

/** The Prompts panel: the skill's prompts, newest first, each linking to /prompts/{prompt_id}. */
function PromptsPanel({ skillId }: { skillId: string }) {
  const list = useServerList<SkillPrompt>({
    mode: "local",
    defaults: { sort: "created_at", order: "desc" },
    limit: 10,
    query: skillPromptsQuery(skillId),
  });
  return (
    <EmbeddedList
      list={list}
      label="Prompts"
      items={(prompts) => (
        <ul className="divide-y divide-base-300" aria-label="Prompts">
          {prompts.map((p) => (
            <li key={p.prompt_id} className="flex min-w-0 items-start gap-3 py-2.5">
              <div className="min-w-0 flex-1">
                <RecordLink to="/prompts/$promptId" params={{ promptId: p.prompt_id }} text={p.prompt_title} />
                {p.prompt_value ? (
                  <span className="block min-w-0 truncate text-xs text-base-content/70" title={p.prompt_value}>
                    {p.prompt_value}
                  </span>
                ) : null}
              </div>
              <StatusBadge kind="prompt" status={p.status} />
              <span className="text-xs text-base-content/70">
                <DateText iso={p.created_at} />
              </span>
            </li>
          ))}
        </ul>
      )}
      empty={() => ({ title: msg.skills.noPrompts, text: msg.skills.noPromptsText })}
      errorTitle={msg.prompts.loadError}
    />
  );
}

const assignmentCol = columnsFor<SkillAssignment>();
const assignmentColumns = [
  assignmentCol.accessor("team_name", {
    id: "team_name",
    header: "Team",
    meta: { grow: true, primary: true },
    cell: ({ row }) => (
      <RecordLink
        to="/teams/$teamId"
        params={{ teamId: row.original.team_id }}
        text={row.original.team_name ?? msg.fallbacks.unknownTeam}
      />
    ),
  }),
  assignmentCol.accessor("customer_name", {
    id: "customer_name",
    header: "Customer",
    cell: ({ row }) => (
      <RecordLink
        to="/customers/$customerId"
        params={{ customerId: row.original.customer_id }}
        text={row.original.customer_name ?? msg.fallbacks.unknownCustomer}
        className="block max-w-56 truncate"
      />
    ),
  }),
  assignmentCol.accessor("status", {
    id: "status",
    header: "Status",
    cell: (c) => <StatusBadge kind="assignment" status={c.getValue()} />,
  }),
  assignmentCol.accessor("assigned_at", {
    id: "assigned_at",
    header: "Assigned",
    cell: (c) => <DateText iso={c.getValue()} />,
  }),
  assignmentCol.accessor("score", {
    id: "score",
    header: "Score",
    meta: { align: "right" },
    cell: (c) => {
      const v = c.getValue();
      return v === null ? <Muted>{msg.skills.scoreNa}</Muted> : <span className="tabular-nums">{Math.round(v)}%</span>;
    },
  }),
  assignmentCol.accessor("last_used", {
    id: "last_used",
    header: "Last Used",
    cell: (c) => <RelativeTime iso={c.getValue()} fallback={msg.skills.never} />,
  }),
];

/**
 * The Team Assignments table: team, customer, status, assigned date, score ("N/A"), last used
 * ("Never"), and Unassign or Reassign (SPEC.md §2, §4: the row is kept).
 */
function AssignmentsTable({ skillId, skillActive }: { skillId: string; skillActive: boolean }) {
  const offerUndo = useUndo();
  const canEdit = useCan("editor");
  const setAssignment = useSetAssignment(skillId);
  const [busy, setBusy] = useState<string | null>(null);
  const list = useServerList<SkillAssignment>({
    mode: "local",
    defaults: { sort: "assigned_at", order: "desc" },
    query: skillAssignmentsQuery(skillId),
  });

  const change = (a: SkillAssignment) => {
    const team = a.team_name ?? msg.fallbacks.unknownTeam;
    const status = a.status === "active" ? "inactive" : "active";
    setBusy(a.team_id);
    setAssignment.mutate(
      { teamId: a.team_id, status },
      {
        onSuccess: (result) =>
          offerUndo(status === "active" ? msg.skills.reassignedTo(team) : msg.skills.unassignedFrom(team), result),
        onSettled: () => setBusy(null),
      },
    );
  };

  const actions = (a: SkillAssignment) => {
    const team = a.team_name ?? msg.fallbacks.unknownTeam;
    const unassign = a.status === "active";
    // Reassigning needs an active skill and team (as assigning does).
    const blocked = !unassign && (!skillActive || a.team_status !== "active");
    return (
      <button
        type="button"
        className={`btn btn-xs ${unassign ? "btn-ghost text-error" : "btn-outline"}`}
        disabled={busy !== null || blocked}
        title={blocked ? (skillActive ? msg.skills.teamNotActive : msg.skills.notActive) : undefined}
        aria-label={`${unassign ? msg.skills.unassign : msg.skills.reassign} ${team}`}
        onClick={(e) => {
          e.stopPropagation();
          change(a);
        }}
      >
        {busy === a.team_id ? <span className="loading loading-spinner loading-xs" aria-hidden /> : null}
        {unassign ? msg.skills.unassign : msg.skills.reassign}
      </button>
    );
  };

  return (
    <EmbeddedList
      list={list}
      label="Team Assignments"
      search={msg.skills.searchTeams}
      aboveTable={
        setAssignment.error ? (
          <div role="alert" className="alert alert-error alert-soft mb-3 text-sm">
            {errorMessage(setAssignment.error)}
          </div>
        ) : null
      }
      columns={assignmentColumns}
      rowKey={(a) => a.team_id}
      sortable={["team_name", "customer_name", "status", "assigned_at"]}
      rowLink={(a) => ({ to: "/teams/$teamId", params: { teamId: a.team_id } })}
      actions={canEdit ? actions : undefined}
      empty={(q) => ({
        title: msg.skills.noAssignments,
        text: q ? msg.search.noResults(q) : msg.skills.noAssignmentsText,
      })}
      errorTitle={msg.app.genericError}
    />
  );
}

const commentCol = columnsFor<SkillComment>();
const commenter = (c: SkillComment) =>
  [c.first_name, c.last_name].filter(Boolean).join(" ").trim() || c.email || msg.fallbacks.unknownUser;
const commentColumns = [
  commentCol.display({
    id: "user",
    header: "User",
    meta: { primary: true },
    cell: ({ row }) => (
      <RecordLink
        to="/users/$userId"
        params={{ userId: row.original.user_id }}
        text={commenter(row.original)}
        className="block max-w-48 truncate font-medium"
      />
    ),
  }),
  commentCol.accessor("comment_value", {
    id: "comment_value",
    header: "Comment",
    meta: { grow: true },
    cell: (c) => <Truncate text={c.getValue()} lines={2} />,
  }),
  commentCol.accessor("status", {
    id: "status",
    header: "Status",
    cell: (c) => <StatusBadge kind="comment" status={c.getValue()} />,
  }),
  commentCol.accessor("created_at", {
    id: "created_at",
    header: "Created",
    cell: (c) => <DateText iso={c.getValue()} />,
  }),
  commentCol.accessor("updated_at", {
    id: "updated_at",
    header: "Updated",
    cell: (c) => <DateText iso={c.getValue()} />,
  }),
];

/** The Comments table: user, comment, status badge, created, updated, and the same per-row moderation as /comments; newest first. */
function CommentsTable({ skillId }: { skillId: string }) {
  const list = useServerList<SkillComment>({
    mode: "local",
    defaults: { sort: "created_at", order: "desc" },
    limit: 20,
    query: skillCommentsQuery(skillId),
  });
  return (
    <EmbeddedList
      list={list}
      label="Comments"
      columns={commentColumns}
      rowKey={(c) => c.comment_id}
      // CommentRowActions renders nothing for a viewer.
      actions={(c) => <CommentRowActions comment={c} />}
      empty={() => ({ title: msg.skills.noComments })}
      errorTitle={msg.comments.loadError}
    />
  );
}
