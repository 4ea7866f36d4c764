import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link, useParams, linkOptions } from "@tanstack/react-router";
import { appMsg } from "../../domain/messages/common";
import { fallbacksMsg } from "../../domain/messages/kit";
import { promptsMsg } from "../../domain/messages/prompts";
import { reviewsMsg } from "../../domain/messages/reviews";
import type { PromptDetail, PromptPlatform, PromptVersion } from "../../domain/prompts";
import { Archive, ArchiveRestore } from "lucide-react";
import { useCan } from "../auth/permissions";
import { ErrorAlert } from "../components/ErrorAlert";
import { editAction, historyAction, sectionAddAction, type Action } from "../components/actions";
import { StatusBadge } from "../components/badges";
import { column, dateColumn, linkColumn, statusColumn } from "../components/columns";
import { useConfirmAction } from "../components/ConfirmAction";
import { useUnassignLink } from "./unassign";
import { InfoSection, Section } from "../components/detail";
import { RelatedList } from "../components/EmbeddedList";
import { Modal, notify } from "../components/overlays";
import { RecordPage } from "../components/RecordPage";
import { DateText, Muted } from "../components/text";
import { Spinner } from "../components/ui";
import { AssignPlatformModal } from "./AssignPlatformModal";
import { promptRecord } from "./PromptForm";
import { PendingReviewPanel, ReviewHistory, usePromptChanges, VariablesSection } from "./PromptReview";
import {
  isProposed,
  promptPlatformsQuery,
  promptQuery,
  promptVersionQuery,
  promptVersionsQuery,
  useDeletePrompt,
  useRestoreVersion,
  useUnassignPlatform,
  useUpdatePrompt,
} from "./queries";
import { VersionDiff } from "./VersionDiff";

const platformName = (a: PromptPlatform) => a.platform_name?.trim() || fallbacksMsg.unnamedPlatform;
const platformLink = (a: PromptPlatform) =>
  linkOptions({ to: "/platforms/$platformId", params: { platformId: a.platform_id } });

/** The Platform Assignments columns (SPEC.md §2): Platform (link, description, "Unnamed Platform"), Status (from is_active), Assigned. */
const assignmentColumns = [
  linkColumn<PromptPlatform>("platform_name", "Platform", (a) => ({
    ...platformLink(a),
    text: platformName(a),
    detail: a.platform_description,
  })),
  statusColumn<PromptPlatform>("assignment", (a) => (a.is_active ? "active" : "inactive"), { id: "is_active" }),
  dateColumn<PromptPlatform>("assigned_at", "Assigned", (a) => a.assigned_at),
];

/**
 * SPEC.md §2 "/prompts/{promptId}": "Loading prompt...", the prompt with Edit Prompt, Activate or
 * Archive and Delete, its content, its platform assignments (search, Unassign after the spec's
 * confirm, Assign Platform), its associated skill and metadata, and its versions. Under review
 * (docs/prompt-review.md) each change is sent for review instead (202, said in a notice, the page
 * staying), the changes waiting show in Pending review, the decided ones in Review history, and
 * Variables lists the content's `{{variables}}` with those an assigned platform does not provide.
 */
export default function PromptDetailPage() {
  const { promptId } = useParams({ from: "/prompts/$promptId" });
  const update = useUpdatePrompt(promptId);
  const [assignOpen, setAssignOpen] = useState(false);
  const changes = usePromptChanges(promptId);
  const pending = changes.data?.items.filter((c) => c.status === "pending") ?? [];
  const decided = changes.data?.items.filter((c) => c.status !== "pending") ?? [];
  return (
    <RecordPage
      query={promptQuery(promptId)}
      kind={promptRecord}
      loadingLabel={promptsMsg.loading}
      remove={{
        mutation: useDeletePrompt(promptId),
        title: "Delete Prompt",
        message: (p) => (
          <>
            <p>{promptsMsg.deleteConfirm}</p>
            {p.review_required ? (
              <p className="mt-2 text-sm text-base-content/70" data-testid="delete-review-hint">
                {promptsMsg.deleteReviewHint}
              </p>
            ) : null}
          </>
        ),
        done: { message: promptsMsg.deleted, to: () => ({ to: "/prompts" }) },
        kept: (result) => (isProposed(result) ? reviewsMsg.proposedDelete : null),
      }}
      header={(p) => ({
        title: p.prompt_title,
        badge: <StatusBadge kind="prompt" status={p.status} />,
        actions: [
          historyAction("prompt", promptId),
          editAction(
            { to: "/prompts/$promptId/edit", params: { promptId } },
            { label: promptsMsg.editPrompt, main: true },
          ),
          statusAction(p.status === "inactive", update),
        ],
        error: update.error,
      })}
    >
      {(p) => (
        <>
          <div className="grid grid-cols-1 gap-6 xl:grid-cols-3">
            <div className="flex min-w-0 flex-col gap-6 xl:col-span-2">
              <PendingReviewPanel promptId={promptId} changes={pending} />
              <Section title="Prompt Content">
                {p.prompt_value ? (
                  <pre
                    className="max-h-[28rem] overflow-auto whitespace-pre-wrap break-words rounded-box bg-base-200 p-4 font-mono text-sm"
                    data-testid="prompt-content"
                  >
                    {p.prompt_value}
                  </pre>
                ) : (
                  <Muted>{promptsMsg.noContent}</Muted>
                )}
              </Section>
              <Section
                title="Platform Assignments"
                actionBar={[sectionAddAction(promptsMsg.assignPlatform, () => setAssignOpen(true))]}
              >
                <AssignmentsList promptId={promptId} />
              </Section>
              <Section title={promptsMsg.versions}>
                <VersionsPanel prompt={p} />
              </Section>
              {changes.error ? <ErrorAlert error={changes.error} /> : null}
              {decided.length > 0 || p.review_required ? <ReviewHistory changes={decided} /> : null}
            </div>
            <div className="flex min-w-0 flex-col gap-6">
              <VariablesSection prompt={p} />
              <Section title={promptsMsg.associatedSkill}>
                <Link
                  to="/skills/$skillId"
                  params={{ skillId: p.skill_id }}
                  className="link link-hover break-words font-medium"
                  data-testid="associated-skill"
                >
                  {p.skill_name?.trim() || fallbacksMsg.unknownSkill}
                </Link>
              </Section>
              <InfoSection
                title="Metadata"
                narrow
                items={[
                  { label: "Status", value: <StatusBadge kind="prompt" status={p.status} /> },
                  { label: "Created", value: <DateText iso={p.created_at} withTime /> },
                  {
                    label: "Updated",
                    value: p.updated_at ? <DateText iso={p.updated_at} withTime /> : <Muted>{promptsMsg.never}</Muted>,
                  },
                  { label: "Prompt ID", value: p.prompt_id, mono: true },
                ]}
              />
            </div>
          </div>
          <AssignPlatformModal
            promptId={promptId}
            open={assignOpen}
            onClose={() => setAssignOpen(false)}
            onAssigned={(platform, result) =>
              notify(isProposed(result) ? reviewsMsg.proposedAssign(platform) : promptsMsg.assigned(platform))
            }
          />
        </>
      )}
    </RecordPage>
  );
}

/**
 * SPEC.md §4 the one status button: Activate when inactive, otherwise Archive; "Prompt activated /
 * archived successfully!", or, under review, that the change waits for it.
 */
function statusAction(archived: boolean, update: ReturnType<typeof useUpdatePrompt>): Action {
  return {
    label: archived ? promptsMsg.activate : promptsMsg.archive,
    icon: archived ? ArchiveRestore : Archive,
    need: "editor",
    busy: update.isPending,
    onClick: () =>
      update.mutate(
        { status: archived ? "active" : "inactive" },
        {
          onSuccess: (result) =>
            notify(isProposed(result) ? reviewsMsg.proposed : archived ? promptsMsg.activated : promptsMsg.archived),
        },
      ),
  };
}

/**
 * The Platform Assignments table: Unassign after the spec's confirm, then "Platform … unassigned
 * successfully!" with Undo, or, under review, that the unassignment waits for it.
 */
function AssignmentsList({ promptId }: { promptId: string }) {
  const unassign = useUnassignLink<PromptPlatform>(useUnassignPlatform(promptId), (a) => a.platform_id, platformName);
  return (
    <RelatedList
      query={promptPlatformsQuery(promptId)}
      sort={{ sort: "assigned_at", order: "desc" }}
      label="Platform Assignments"
      search={promptsMsg.searchPlatforms}
      columns={assignmentColumns}
      rowKey={(a) => a.platform_id}
      sortable={["platform_name", "assigned_at"]}
      rowLink={platformLink}
      actions={unassign.button}
      empty={(q) =>
        q
          ? { title: promptsMsg.noPlatformMatch }
          : { title: promptsMsg.noAssignments, text: promptsMsg.noAssignmentsText }
      }
      errorTitle={appMsg.genericError}
    >
      {unassign.dialog}
    </RelatedList>
  );
}

/**
 * The Versions panel (beyond the spec): number, who, when, newest first, paged; Compare shows the
 * diff of a version against the current prompt; Restore makes it current as a new version.
 */
function VersionsPanel({ prompt }: { prompt: PromptDetail }) {
  const promptId = prompt.prompt_id;
  const canEdit = useCan("editor");
  const [compare, setCompare] = useState<number | null>(null);
  const restore = useConfirmAction<number, number>({
    mutation: useRestoreVersion(promptId),
    title: promptsMsg.restore,
    tone: "primary",
    message: (v) => <p>{promptsMsg.restoreConfirm(v)}</p>,
    confirmLabel: promptsMsg.restore,
    variables: (v) => v,
    done: (v, result) => notify(isProposed(result) ? reviewsMsg.proposed : promptsMsg.restored(v)),
  });
  const latest = prompt.version_count;

  const columns = [
    column<PromptVersion>("version", "Version", (v) => (
      <span className="flex items-center gap-2 tabular-nums">
        {v.version}
        {v.version === latest ? <span className="badge badge-sm badge-outline">{promptsMsg.current}</span> : null}
      </span>
    )),
    column<PromptVersion>(
      "title",
      "Title",
      (v) => (
        <div className="min-w-0">
          <span className="block truncate" title={v.prompt_title}>
            {v.prompt_title}
          </span>
          {v.restored_from ? (
            <span className="block text-xs text-base-content/70">{promptsMsg.restoredFrom(v.restored_from)}</span>
          ) : null}
        </div>
      ),
      { grow: true },
    ),
    // A version that went through review names its author and its approver.
    column<PromptVersion>("by", "By", (v) =>
      v.proposed_by_email && v.approved_by_email ? (
        <span className="block min-w-0 break-words" data-testid="version-reviewed">
          {promptsMsg.reviewedVersion(v.proposed_by_email, v.approved_by_email)}
        </span>
      ) : (
        (v.operator_email ?? <Muted>{promptsMsg.unknownOperator}</Muted>)
      ),
    ),
    dateColumn<PromptVersion>("created_at", "When", (v) => v.created_at, true),
  ];

  return (
    <RelatedList
      query={promptVersionsQuery(promptId)}
      sort={{ sort: "version", order: "desc" }}
      limit={10}
      label={promptsMsg.versions}
      columns={columns}
      rowKey={(v) => String(v.version)}
      actions={({ version: v }) =>
        v === latest ? null : (
          <>
            <button
              type="button"
              className="btn btn-xs btn-outline"
              aria-label={`${promptsMsg.compare} version ${v}`}
              onClick={() => setCompare(v)}
            >
              {promptsMsg.compare}
            </button>
            {canEdit ? (
              <button
                type="button"
                className="btn btn-xs btn-ghost"
                aria-label={`${promptsMsg.restore} version ${v}`}
                onClick={() => restore.ask(v)}
              >
                {promptsMsg.restore}
              </button>
            ) : null}
          </>
        )
      }
      empty={() => ({ title: promptsMsg.noVersions, text: promptsMsg.noVersionsText })}
      errorTitle={appMsg.genericError}
    >
      <Modal
        open={compare !== null}
        title={compare ? promptsMsg.diffTitle(compare) : promptsMsg.compare}
        onClose={() => setCompare(null)}
        size="lg"
      >
        {compare ? <DiffView promptId={promptId} version={compare} current={prompt} /> : null}
      </Modal>
      {restore.dialog}
    </RelatedList>
  );
}

function DiffView({ promptId, version, current }: { promptId: string; version: number; current: PromptDetail }) {
  const source = useQuery(promptVersionQuery(promptId, version));
  if (source.isPending) return <Spinner />;
  if (source.error) return <ErrorAlert error={source.error} />;
  return <VersionDiff from={source.data} to={current} />;
}
