import { useState } from "react";
import { useUndo } from "../components/undo";
import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { Archive, ArchiveRestore, Pencil, Plus } from "lucide-react";
import { msg } from "../../domain/messages";
import { toggledPromptStatus, type PromptDetail, type PromptPlatform, type PromptVersion } from "../../domain/prompts";
import { errorMessage } from "../api/client";
import { useCan } from "../auth/permissions";
import { ActionBar, historyAction, type Action } from "../components/actions";
import { StatusBadge } from "../components/badges";
import { useConfirmAction } from "../components/ConfirmAction";
import { columnsFor } from "../components/DataTable";
import { InfoList, Section } from "../components/detail";
import { EmbeddedList } from "../components/EmbeddedList";
import { Modal, notify } from "../components/overlays";
import { RecordHeader, RecordPage } from "../components/RecordPage";
import { DateText, Muted } from "../components/text";
import { Spinner } from "../components/ui";
import { RecordLink } from "../components/RecordLink";
import { useServerList } from "../lib/server-list";
import { AssignPlatformModal } from "./AssignPlatformModal";
import { promptRecord } from "./PromptForm";
import {
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

/** SPEC.md §2 "/prompts/{promptId}": "Loading prompt...", the prompt, its platform assignments, and its versions. */
export default function PromptDetailPage() {
  const { promptId } = useParams({ from: "/prompts/$promptId" });
  const remove = useDeletePrompt(promptId);
  return (
    <RecordPage
      query={promptQuery(promptId)}
      kind={promptRecord}
      loadingLabel={msg.prompts.loading}
      remove={{
        mutation: remove,
        title: "Delete Prompt",
        message: () => <p>{msg.prompts.deleteConfirm}</p>,
        done: { message: msg.prompts.deleted, to: () => ({ to: "/prompts" }) },
      }}
    >
      {(prompt, { deleteAction }) => <PromptView prompt={prompt} deleteAction={deleteAction} />}
    </RecordPage>
  );
}

function PromptView({ prompt: p, deleteAction }: { prompt: PromptDetail; deleteAction?: Action }) {
  const promptId = p.prompt_id;
  const update = useUpdatePrompt(promptId);
  const [assignOpen, setAssignOpen] = useState(false);
  const inactive = p.status === "inactive";
  const skillName = p.skill_name?.trim() || msg.fallbacks.unknownSkill;

  // SPEC.md §4: Activate when inactive; otherwise Archive (active or draft becomes inactive).
  const toggle = () =>
    update.mutate(
      { status: toggledPromptStatus(p.status) },
      { onSuccess: () => notify(inactive ? msg.prompts.activated : msg.prompts.archived) },
    );

  return (
    <>
      <RecordHeader
        back={promptRecord.list}
        title={p.prompt_title}
        section={msg.nav.prompts}
        badge={<StatusBadge kind="prompt" status={p.status} />}
        actions={
          <ActionBar
            actions={[
              historyAction("prompt", promptId),
              {
                label: msg.prompts.editPrompt,
                icon: Pencil,
                tone: "primary",
                need: "editor",
                primary: true,
                to: "/prompts/$promptId/edit",
                params: { promptId },
              },
              {
                label: inactive ? msg.prompts.activate : msg.prompts.archive,
                icon: inactive ? ArchiveRestore : Archive,
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

      <div className="grid grid-cols-1 gap-6 xl:grid-cols-3">
        <div className="flex min-w-0 flex-col gap-6 xl:col-span-2">
          <Section title="Prompt Content">
            {p.prompt_value ? (
              <pre
                className="max-h-[28rem] overflow-auto whitespace-pre-wrap break-words rounded-box bg-base-200 p-4 font-mono text-sm"
                data-testid="prompt-content"
              >
                {p.prompt_value}
              </pre>
            ) : (
              <Muted>{msg.prompts.noContent}</Muted>
            )}
          </Section>
          <Section
            title="Platform Assignments"
            actions={
              <ActionBar
                actions={[
                  {
                    label: msg.prompts.assignPlatform,
                    icon: Plus,
                    need: "editor",
                    primary: true,
                    onClick: () => setAssignOpen(true),
                  },
                ]}
              />
            }
          >
            <AssignmentsTable promptId={promptId} />
          </Section>
          <Section title={msg.prompts.versions}>
            <VersionsPanel prompt={p} />
          </Section>
        </div>
        <div className="flex min-w-0 flex-col gap-6">
          <Section title={msg.prompts.associatedSkill}>
            <Link
              to="/skills/$skillId"
              params={{ skillId: p.skill_id }}
              className="link link-hover break-words font-medium"
              data-testid="associated-skill"
            >
              {skillName}
            </Link>
          </Section>
          <Section title="Metadata">
            <InfoList
              narrow
              items={[
                { label: "Status", value: <StatusBadge kind="prompt" status={p.status} /> },
                { label: "Created", value: <DateText iso={p.created_at} withTime /> },
                {
                  label: "Updated",
                  value: p.updated_at ? <DateText iso={p.updated_at} withTime /> : <Muted>{msg.prompts.never}</Muted>,
                },
                { label: "Prompt ID", value: p.prompt_id, mono: true },
              ]}
            />
          </Section>
        </div>
      </div>

      <AssignPlatformModal
        promptId={promptId}
        open={assignOpen}
        onClose={() => setAssignOpen(false)}
        onAssigned={(platform) => notify(msg.prompts.assigned(platform))}
      />
    </>
  );
}

const assignmentCol = columnsFor<PromptPlatform>();
const platformName = (a: PromptPlatform) => a.platform_name?.trim() || msg.fallbacks.unnamedPlatform;
const assignmentColumns = [
  assignmentCol.accessor("platform_name", {
    id: "platform_name",
    header: "Platform",
    meta: { grow: true, primary: true },
    cell: ({ row }) => (
      <RecordLink
        to="/platforms/$platformId"
        params={{ platformId: row.original.platform_id }}
        text={platformName(row.original)}
        detail={row.original.platform_description}
      />
    ),
  }),
  assignmentCol.accessor("is_active", {
    id: "is_active",
    header: "Status",
    cell: (c) => <StatusBadge kind="assignment" status={c.getValue() ? "active" : "inactive"} />,
  }),
  assignmentCol.accessor("assigned_at", {
    id: "assigned_at",
    header: "Assigned",
    cell: (c) => <DateText iso={c.getValue()} />,
  }),
];

/**
 * The Platform Assignments table (SPEC.md §2): Platform (link, description, "Unnamed Platform"),
 * Status (Active or Inactive from is_active), Assigned date, Unassign after the spec's confirm.
 */
function AssignmentsTable({ promptId }: { promptId: string }) {
  const offerUndo = useUndo();
  const canEdit = useCan("editor");
  const list = useServerList<PromptPlatform>({
    mode: "local",
    defaults: { sort: "assigned_at", order: "desc" },
    query: promptPlatformsQuery(promptId),
  });
  const unassign = useConfirmAction<PromptPlatform, string>({
    mutation: useUnassignPlatform(promptId),
    title: "Unassign Platform",
    message: () => <p>{msg.prompts.unassignConfirm}</p>,
    confirmLabel: msg.prompts.unassign,
    variables: (a) => a.platform_id,
    done: (a, result) => offerUndo(msg.prompts.unassigned(platformName(a)), result),
  });
  return (
    <EmbeddedList
      list={list}
      label="Platform Assignments"
      search={msg.prompts.searchPlatforms}
      columns={assignmentColumns}
      rowKey={(a) => a.platform_id}
      sortable={["platform_name", "assigned_at"]}
      rowLink={(a) => ({ to: "/platforms/$platformId", params: { platformId: a.platform_id } })}
      actions={
        canEdit
          ? (a) => (
              <button
                type="button"
                className="btn btn-xs btn-ghost text-error"
                aria-label={`${msg.prompts.unassign} ${platformName(a)}`}
                onClick={(e) => {
                  e.stopPropagation();
                  unassign.ask(a);
                }}
              >
                {msg.prompts.unassign}
              </button>
            )
          : undefined
      }
      empty={(q) =>
        q
          ? { title: msg.prompts.noPlatformMatch }
          : { title: msg.prompts.noAssignments, text: msg.prompts.noAssignmentsText }
      }
      errorTitle={msg.app.genericError}
    >
      {unassign.dialog}
    </EmbeddedList>
  );
}

const versionCol = columnsFor<PromptVersion>();

/**
 * The Versions panel (beyond the spec): number, who, when, newest first, paged; Compare shows the
 * diff of a version against the current prompt; Restore makes it current as a new version.
 */
function VersionsPanel({ prompt }: { prompt: PromptDetail }) {
  const promptId = prompt.prompt_id;
  const canEdit = useCan("editor");
  const [compare, setCompare] = useState<number | null>(null);
  const list = useServerList<PromptVersion>({
    mode: "local",
    defaults: { sort: "version", order: "desc" },
    limit: 10,
    query: promptVersionsQuery(promptId),
  });
  const restore = useConfirmAction<number, number>({
    mutation: useRestoreVersion(promptId),
    title: msg.prompts.restore,
    tone: "primary",
    message: (v) => <p>{msg.prompts.restoreConfirm(v)}</p>,
    confirmLabel: msg.prompts.restore,
    variables: (v) => v,
    done: (v) => notify(msg.prompts.restored(v)),
  });
  const latest = prompt.version_count;

  const columns = [
    versionCol.accessor("version", {
      id: "version",
      header: "Version",
      cell: ({ row }) => (
        <span className="flex items-center gap-2 tabular-nums">
          {row.original.version}
          {row.original.version === latest ? (
            <span className="badge badge-sm badge-outline">{msg.prompts.current}</span>
          ) : null}
        </span>
      ),
    }),
    versionCol.accessor("prompt_title", {
      id: "title",
      header: "Title",
      meta: { grow: true },
      cell: ({ row }) => (
        <div className="min-w-0">
          <span className="block truncate" title={row.original.prompt_title}>
            {row.original.prompt_title}
          </span>
          {row.original.restored_from ? (
            <span className="block text-xs text-base-content/70">
              {msg.prompts.restoredFrom(row.original.restored_from)}
            </span>
          ) : null}
        </div>
      ),
    }),
    versionCol.accessor("operator_email", {
      id: "by",
      header: "By",
      cell: (c) => c.getValue() ?? <Muted>{msg.prompts.unknownOperator}</Muted>,
    }),
    versionCol.accessor("created_at", {
      id: "created_at",
      header: "When",
      cell: (c) => <DateText iso={c.getValue()} withTime />,
    }),
  ];

  return (
    <EmbeddedList
      list={list}
      label={msg.prompts.versions}
      columns={columns}
      rowKey={(v) => String(v.version)}
      actions={({ version: v }) =>
        v === latest ? null : (
          <>
            <button
              type="button"
              className="btn btn-xs btn-outline"
              aria-label={`${msg.prompts.compare} version ${v}`}
              onClick={() => setCompare(v)}
            >
              {msg.prompts.compare}
            </button>
            {canEdit ? (
              <button
                type="button"
                className="btn btn-xs btn-ghost"
                aria-label={`${msg.prompts.restore} version ${v}`}
                onClick={() => restore.ask(v)}
              >
                {msg.prompts.restore}
              </button>
            ) : null}
          </>
        )
      }
      empty={() => ({ title: msg.prompts.noVersions, text: msg.prompts.noVersionsText })}
      errorTitle={msg.app.genericError}
    >
      <Modal
        open={compare !== null}
        title={compare ? msg.prompts.diffTitle(compare) : msg.prompts.compare}
        onClose={() => setCompare(null)}
        size="lg"
      >
        {compare ? <DiffView promptId={promptId} version={compare} current={prompt} /> : null}
      </Modal>
      {restore.dialog}
    </EmbeddedList>
  );
}

function DiffView({ promptId, version, current }: { promptId: string; version: number; current: PromptDetail }) {
  const source = useQuery(promptVersionQuery(promptId, version));
  if (source.isPending) return <Spinner />;
  if (source.error)
    return (
      <div role="alert" className="alert alert-error alert-soft text-sm">
        {errorMessage(source.error)}
      </div>
    );
  return <VersionDiff from={source.data} to={current} />;
}
