import { useState } from "react";
import { useParams, linkOptions } from "@tanstack/react-router";
import { CircleCheck, CircleSlash, MessageSquareText, Plus, UsersRound } from "lucide-react";
import { commentsMsg } from "../../domain/messages/comments";
import { appMsg, timings } from "../../domain/messages/common";
import { fallbacksMsg, uiMsg } from "../../domain/messages/kit";
import { promptsMsg } from "../../domain/messages/prompts";
import { searchMsg } from "../../domain/messages/search";
import { skillsMsg } from "../../domain/messages/skills";
import { teamsMsg } from "../../domain/messages/teams";
import { usersMsg } from "../../domain/messages/users";
import type { SkillAssignment, SkillComment, SkillDetail, SkillPrompt } from "../../domain/skills";
import { useCan } from "../auth/permissions";
import { ErrorAlert } from "../components/ErrorAlert";
import {
  activeOrInactive,
  archiveAction,
  editAction,
  historyAction,
  mainAction,
  sectionAddAction,
} from "../components/actions";
import { StatusBadge } from "../components/badges";
import { column, dateColumn, linkColumn, statusColumn } from "../components/columns";
import { InfoSection, Section, type InfoItem, type RecordStat } from "../components/detail";
import { RelatedList } from "../components/EmbeddedList";
import { formatNumber, titleCase } from "../components/format";
import { notify } from "../components/overlays";
import { RecordPage } from "../components/RecordPage";
import { DateText, Muted, RelativeTime, Truncate } from "../components/text";
import { RecordLink } from "../components/RecordLink";
import { useUndo } from "../components/undo";
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

/** The skill's information panel. */
const skillInfo = (s: SkillDetail): InfoItem[] => [
  { label: "Skill ID", value: s.skill_id, mono: true },
  { label: "Type", value: titleCase(s.type) },
  { label: "Scope", value: <ScopeTag global={s.is_global} /> },
  { label: "Description", value: s.skill_description ?? <Muted>{usersMsg.notProvided}</Muted> },
  { label: "Created", value: <DateText iso={s.created_at} withTime /> },
  { label: "Last Updated", value: <DateText iso={s.updated_at} withTime /> },
];

/** The skill's cards: its teams, its assignments by status, its prompts. */
const skillStats = (s: SkillDetail): RecordStat[] => [
  { label: "Total Teams", icon: UsersRound, count: s.stats.total_teams },
  { label: "Active Assignments", icon: CircleCheck, count: s.stats.active_assignments },
  { label: "Inactive Assignments", icon: CircleSlash, count: s.stats.inactive_assignments },
  { label: "Prompts", icon: MessageSquareText, count: s.stats.prompts },
];

/**
 * SPEC.md §2 "/skills/{skillId}": Assign to Team, Edit, Archive or Unarchive, Delete (§4: then
 * /skills opens after 1.5 s); the statistics, the information, the prompts (Add Prompt), the team
 * assignments and the comments.
 */
export default function SkillDetailPage() {
  const { skillId } = useParams({ from: "/skills/$skillId" });
  const update = useUpdateSkill(skillId);
  const [assignOpen, setAssignOpen] = useState(false);
  const [promptOpen, setPromptOpen] = useState(false);
  return (
    <RecordPage
      query={skillQuery(skillId)}
      kind={skillRecord}
      remove={{
        mutation: useDeleteSkill(skillId),
        title: "Delete Skill",
        message: (s) => <p className="break-words">{skillsMsg.deleteConfirm(s.skill_name)}</p>,
        done: { message: skillsMsg.deleted, to: () => ({ to: "/skills" }), afterMs: timings.afterSkillChangeMs },
        // Prompts and comments keep a skill (the server refuses with the same words): said before asking.
        refusal: (s) =>
          s.stats.prompts || s.stats.comments ? skillsMsg.deleteBlocked(s.stats.prompts, s.stats.comments) : null,
      }}
      header={(s) => ({
        title: s.skill_name.trim() || fallbacksMsg.unnamedSkill,
        badge: <StatusBadge kind="skill" status={s.status} />,
        subtitle: s.skill_description,
        actions: [
          historyAction("skill", skillId),
          mainAction({ label: skillsMsg.assignToTeam, icon: Plus, onClick: () => setAssignOpen(true) }),
          editAction({ to: "/skills/$skillId/edit", params: { skillId } }),
          archiveAction(
            s.status !== "active",
            update,
            {
              restore: uiMsg.unarchive,
              archived: skillsMsg.archived,
              restored: skillsMsg.unarchived,
            },
            activeOrInactive,
          ),
        ],
        stats: skillStats(s),
        error: update.error,
      })}
    >
      {(s) => (
        <>
          <div className="mt-6 grid grid-cols-1 gap-6 xl:grid-cols-3">
            <InfoSection title="Skill Information" className="xl:col-span-1" narrow items={skillInfo(s)} />
            <Section
              title={`Prompts (${formatNumber(s.stats.prompts)})`}
              className="xl:col-span-2"
              actionBar={[sectionAddAction(skillsMsg.addPrompt, () => setPromptOpen(true))]}
            >
              <PromptsPanel skillId={skillId} />
            </Section>
          </div>

          <div className="mt-6">
            <Section title="Team Assignments">
              <AssignmentsTable skillId={skillId} skillActive={s.status === "active"} />
            </Section>
          </div>

          <div className="mt-6">
            <Section title={`Comments (${formatNumber(s.stats.comments)})`}>
              <RelatedList
                query={skillCommentsQuery(skillId)}
                sort={{ sort: "created_at", order: "desc" }}
                limit={20}
                label="Comments"
                columns={commentColumns}
                rowKey={(c) => c.comment_id}
                // CommentRowActions renders nothing for a viewer.
                actions={(c) => <CommentRowActions comment={c} />}
                empty={() => ({ title: skillsMsg.noComments })}
                errorTitle={commentsMsg.loadError}
              />
            </Section>
          </div>

          <AssignTeamsModal
            skillId={skillId}
            skillActive={s.status === "active"}
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
              notify(promptsMsg.added);
            }}
          />
        </>
      )}
    </RecordPage>
  );
}

/** The Prompts panel: the skill's prompts, newest first, each linking to /prompts/{prompt_id}. */
function PromptsPanel({ skillId }: { skillId: string }) {
  return (
    <RelatedList
      query={skillPromptsQuery(skillId)}
      sort={{ sort: "created_at", order: "desc" }}
      limit={10}
      label="Prompts"
      items={(prompts: SkillPrompt[]) => (
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
      empty={() => ({ title: skillsMsg.noPrompts, text: skillsMsg.noPromptsText })}
      errorTitle={promptsMsg.loadError}
    />
  );
}

const teamLink = (a: SkillAssignment) => linkOptions({ to: "/teams/$teamId", params: { teamId: a.team_id } });
const assignmentColumns = [
  linkColumn<SkillAssignment>("team_name", "Team", (a) => ({
    ...teamLink(a),
    text: a.team_name ?? fallbacksMsg.unknownTeam,
  })),
  linkColumn<SkillAssignment>(
    "customer_name",
    "Customer",
    (a) => ({
      to: "/customers/$customerId",
      params: { customerId: a.customer_id },
      text: a.customer_name ?? fallbacksMsg.unknownCustomer,
      className: "block max-w-56 truncate",
    }),
    {},
  ),
  statusColumn<SkillAssignment>("assignment", (a) => a.status),
  dateColumn<SkillAssignment>("assigned_at", "Assigned", (a) => a.assigned_at),
  column<SkillAssignment>(
    "score",
    "Score",
    (a) =>
      a.score === null ? (
        <Muted>{skillsMsg.scoreNa}</Muted>
      ) : (
        <span className="tabular-nums">{Math.round(a.score)}%</span>
      ),
    { align: "right" },
  ),
  column<SkillAssignment>("last_used", "Last Used", (a) => (
    <RelativeTime iso={a.last_used} fallback={skillsMsg.never} />
  )),
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

  const change = (a: SkillAssignment) => {
    const team = teamsMsg.named(a.team_name ?? fallbacksMsg.unknownTeam, a.customer_name);
    const status = a.status === "active" ? "inactive" : "active";
    setBusy(a.team_id);
    setAssignment.mutate(
      { teamId: a.team_id, status },
      {
        onSuccess: (result) =>
          offerUndo(status === "active" ? skillsMsg.reassignedTo(team) : skillsMsg.unassignedFrom(team), result),
        onSettled: () => setBusy(null),
      },
    );
  };

  const actions = (a: SkillAssignment) => {
    const team = teamsMsg.named(a.team_name ?? fallbacksMsg.unknownTeam, a.customer_name);
    const unassign = a.status === "active";
    // Reassigning needs an active skill and team (as assigning does).
    const blocked = !unassign && (!skillActive || a.team_status !== "active");
    return (
      <button
        type="button"
        className={`btn btn-xs ${unassign ? "btn-ghost text-error" : "btn-outline"}`}
        disabled={busy !== null || blocked}
        title={blocked ? (skillActive ? skillsMsg.teamNotActive : skillsMsg.notActive) : undefined}
        aria-label={`${unassign ? skillsMsg.unassign : skillsMsg.reassign} ${team}`}
        onClick={(e) => {
          e.stopPropagation();
          change(a);
        }}
      >
        {busy === a.team_id ? <span className="loading loading-spinner loading-xs" aria-hidden /> : null}
        {unassign ? skillsMsg.unassign : skillsMsg.reassign}
      </button>
    );
  };

  return (
    <RelatedList
      query={skillAssignmentsQuery(skillId)}
      sort={{ sort: "assigned_at", order: "desc" }}
      label="Team Assignments"
      search={skillsMsg.searchTeams}
      aboveTable={<ErrorAlert error={setAssignment.error} className="mb-3" />}
      columns={assignmentColumns}
      rowKey={(a) => a.team_id}
      sortable={["team_name", "customer_name", "status", "assigned_at"]}
      rowLink={teamLink}
      actions={canEdit ? actions : undefined}
      empty={(q) => ({
        title: skillsMsg.noAssignments,
        text: q ? searchMsg.noResults(q) : skillsMsg.noAssignmentsText,
      })}
      errorTitle={appMsg.genericError}
    />
  );
}

const commenter = (c: SkillComment) =>
  [c.first_name, c.last_name].filter(Boolean).join(" ").trim() || c.email || fallbacksMsg.unknownUser;
/** The Comments columns: user, comment, status badge, created, updated (the moderation follows them). */
const commentColumns = [
  linkColumn<SkillComment>(
    "user",
    "User",
    (c) => ({
      to: "/users/$userId",
      params: { userId: c.user_id },
      text: commenter(c),
      className: "block max-w-48 truncate font-medium",
    }),
    { primary: true },
  ),
  column<SkillComment>("comment_value", "Comment", (c) => <Truncate text={c.comment_value} lines={2} />, {
    grow: true,
  }),
  statusColumn<SkillComment>("comment", (c) => c.status),
  dateColumn<SkillComment>("created_at", "Created", (c) => c.created_at),
  dateColumn<SkillComment>("updated_at", "Updated", (c) => c.updated_at),
];
