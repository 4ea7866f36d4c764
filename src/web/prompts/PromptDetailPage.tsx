import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "@tanstack/react-router";
import { Archive, ArchiveRestore, Pencil, Plus, Trash2 } from "lucide-react";
import { msg } from "../../domain/messages";
import { toggledPromptStatus, type PromptDetail, type PromptPlatform, type PromptVersion } from "../../domain/prompts";
import { errorMessage } from "../api/client";
import { useCan } from "../auth/permissions";
import { ActionBar, historyAction } from "../components/actions";
import { StatusBadge } from "../components/badges";
import { columnsFor, DataTable } from "../components/DataTable";
import { BackLink, DetailScaffold, InfoList, Section } from "../components/detail";
import { ConfirmDialog, Modal, notify } from "../components/overlays";
import { EmptyState, SearchInput } from "../components/inputs";
import { ListPagination } from "../components/ListPagination";
import { DateText, Muted } from "../components/text";
import { ErrorState, PageHeader, Spinner } from "../components/ui";
import { useServerList } from "../lib/server-list";
import { AssignPlatformModal } from "./AssignPlatformModal";
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
  const navigate = useNavigate();
  const [deleted, setDeleted] = useState(false);
  // Once deleted, nothing asks the server for the prompt again (it would answer 404).
  const query = useQuery({ ...promptQuery(promptId), enabled: !deleted });
  if (query.isPending && !deleted) return <Spinner label={msg.prompts.loading} />;
  return (
    <DetailScaffold
      query={query}
      section={msg.nav.prompts}
      errorTitle={msg.prompts.loadOneError}
      notFound={{ title: msg.prompts.notFound, message: msg.prompts.notFoundText }}
      back={{ to: "/prompts", label: msg.prompts.backToPrompts }}
    >
      {(prompt) => (
        <PromptView
          prompt={prompt}
          onDeleted={() => {
            setDeleted(true);
            notify(msg.prompts.deleted);
            void navigate({ to: "/prompts" });
          }}
        />
      )}
    </DetailScaffold>
  );
}

function PromptView({ prompt: p, onDeleted }: { prompt: PromptDetail; onDeleted: () => void }) {
  const promptId = p.prompt_id;
  const update = useUpdatePrompt(promptId);
  const remove = useDeletePrompt(promptId);
  const [assignOpen, setAssignOpen] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const inactive = p.status === "inactive";
  const skillName = p.skill_name?.trim() || msg.fallbacks.unknownSkill;

  // SPEC.md §4: Activate when inactive; otherwise Archive (active or draft becomes inactive).
  const toggle = () =>
    update.mutate({ status: toggledPromptStatus(p.status) }, { onSuccess: () => notify(inactive ? msg.prompts.activated : msg.prompts.archived) });

  return (
    <>
      <BackLink to="/prompts" label={msg.prompts.backToPrompts} />
      <PageHeader
        title={p.prompt_title}
        section={msg.nav.prompts}
        badge={<StatusBadge kind="prompt" status={p.status} />}
        actions={
          <ActionBar
            actions={[
              historyAction("prompt", promptId),
              { label: msg.prompts.editPrompt, icon: Pencil, tone: "primary", need: "editor", primary: true, to: "/prompts/$promptId/edit", params: { promptId } },
              { label: inactive ? msg.prompts.activate : msg.prompts.archive, icon: inactive ? ArchiveRestore : Archive, need: "editor", busy: update.isPending, onClick: toggle },
              { label: "Delete", icon: Trash2, tone: "danger", need: "editor", onClick: () => setConfirmDelete(true) },
            ]}
          />
        }
      />
      {update.error ? <div role="alert" className="alert alert-error alert-soft mb-4 text-sm">{errorMessage(update.error)}</div> : null}

      <div className="grid grid-cols-1 gap-6 xl:grid-cols-3">
        <div className="flex min-w-0 flex-col gap-6 xl:col-span-2">
          <Section title="Prompt Content">
            {p.prompt_value ? (
              <pre className="max-h-[28rem] overflow-auto whitespace-pre-wrap break-words rounded-box bg-base-200 p-4 font-mono text-sm" data-testid="prompt-content">{p.prompt_value}</pre>
            ) : (
              <Muted>{msg.prompts.noContent}</Muted>
            )}
          </Section>
          <Section
            title="Platform Assignments"
            actions={<ActionBar actions={[{ label: msg.prompts.assignPlatform, icon: Plus, need: "editor", primary: true, onClick: () => setAssignOpen(true) }]} />}
          >
            <AssignmentsTable promptId={promptId} onChanged={(text) => notify(text)} />
          </Section>
          <Section title={msg.prompts.versions}>
            <VersionsPanel prompt={p} onRestored={(n) => notify(msg.prompts.restored(n))} />
          </Section>
        </div>
        <div className="flex min-w-0 flex-col gap-6">
          <Section title={msg.prompts.associatedSkill}>
            <Link to="/skills/$skillId" params={{ skillId: p.skill_id }} className="link link-hover break-words font-medium" data-testid="associated-skill">
              {skillName}
            </Link>
          </Section>
          <Section title="Metadata">
            <InfoList
              narrow
              items={[
                { label: "Status", value: <StatusBadge kind="prompt" status={p.status} /> },
                { label: "Created", value: <DateText iso={p.created_at} withTime /> },
                { label: "Updated", value: p.updated_at ? <DateText iso={p.updated_at} withTime /> : <Muted>{msg.prompts.never}</Muted> },
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
      <ConfirmDialog
        open={confirmDelete}
        title="Delete Prompt"
        message={<p>{msg.prompts.deleteConfirm}</p>}
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

const assignmentCol = columnsFor<PromptPlatform>();

/**
 * The Platform Assignments table (SPEC.md §2): Platform (link, description, "Unnamed Platform"),
 * Status (Active or Inactive from is_active), Assigned date, Unassign after the spec's confirm.
 */
function AssignmentsTable({ promptId, onChanged }: { promptId: string; onChanged: (text: string) => void }) {
  const navigate = useNavigate();
  const canEdit = useCan("editor");
  const unassign = useUnassignPlatform(promptId);
  const [confirm, setConfirm] = useState<PromptPlatform | null>(null);
  const list = useServerList<PromptPlatform>({ mode: "local", defaults: { sort: "assigned_at", order: "desc" }, query: promptPlatformsQuery(promptId) });
  const { data, failed, query } = list;
  const nameOf = (a: PromptPlatform) => a.platform_name?.trim() || msg.fallbacks.unnamedPlatform;

  const columns = [
    assignmentCol.accessor("platform_name", {
      id: "platform_name",
      header: "Platform",
      meta: { grow: true, primary: true },
      cell: ({ row }) => (
        <div className="min-w-0">
          <Link to="/platforms/$platformId" params={{ platformId: row.original.platform_id }} className="block min-w-0 truncate font-medium hover:text-primary hover:underline" title={nameOf(row.original)}>
            {nameOf(row.original)}
          </Link>
          {row.original.platform_description ? <span className="block min-w-0 truncate text-xs text-base-content/70" title={row.original.platform_description}>{row.original.platform_description}</span> : null}
        </div>
      ),
    }),
    assignmentCol.accessor("is_active", { id: "is_active", header: "Status", cell: (c) => <StatusBadge kind="assignment" status={c.getValue() ? "active" : "inactive"} /> }),
    assignmentCol.accessor("assigned_at", { id: "assigned_at", header: "Assigned", cell: (c) => <DateText iso={c.getValue()} /> }),
    ...(canEdit
      ? [assignmentCol.display({
        id: "actions",
        meta: { actions: true },
        header: () => <span className="sr-only">{msg.ui.actions}</span>,
        cell: ({ row }) => (
          <div className="flex justify-end">
            <button
              type="button"
              className="btn btn-xs btn-ghost text-error"
              aria-label={`${msg.prompts.unassign} ${nameOf(row.original)}`}
              onClick={(e) => { e.stopPropagation(); setConfirm(row.original); }}
            >
              {msg.prompts.unassign}
            </button>
          </div>
        ),
      })]
      : []),
  ];

  return (
    <div>
      <div className="mb-3">
        <SearchInput value={list.state.q} onChange={list.setQuery} placeholder={msg.prompts.searchPlatforms} label="Search platform assignments" />
      </div>
      {failed ? (
        <ErrorState title={msg.app.genericError} message={errorMessage(query.error)} onRetry={() => void query.refetch()} />
      ) : (
        <>
          <DataTable
            label="Platform Assignments"
            columns={columns}
            rows={data?.items}
            rowKey={(a) => a.platform_id}
            sortable={["platform_name", "assigned_at"]}
            sort={{ sort: list.state.sort, order: list.state.order }}
            onSort={list.setSort}
            loading={query.isPending || query.isFetching}
            onRowClick={(a) => void navigate({ to: "/platforms/$platformId", params: { platformId: a.platform_id } })}
            empty={<EmptyState title={list.state.q ? msg.prompts.noPlatformMatch : msg.prompts.noAssignments} text={list.state.q ? undefined : msg.prompts.noAssignmentsText} />}
          />
          <ListPagination list={list} label="Platform Assignments pages" />
        </>
      )}
      <ConfirmDialog
        open={confirm !== null}
        title="Unassign Platform"
        message={<p>{msg.prompts.unassignConfirm}</p>}
        confirmLabel={msg.prompts.unassign}
        busy={unassign.isPending}
        error={unassign.error ? errorMessage(unassign.error) : null}
        onCancel={() => { setConfirm(null); unassign.reset(); }}
        onConfirm={() => {
          const target = confirm!;
          unassign.mutate(target.platform_id, { onSuccess: () => { setConfirm(null); onChanged(msg.prompts.unassigned(nameOf(target))); } });
        }}
      />
    </div>
  );
}

const versionCol = columnsFor<PromptVersion>();

/**
 * The Versions panel (beyond the spec): number, who, when, newest first, paged; Compare shows the
 * diff of a version against the current prompt; Restore makes it current as a new version.
 */
function VersionsPanel({ prompt, onRestored }: { prompt: PromptDetail; onRestored: (version: number) => void }) {
  const promptId = prompt.prompt_id;
  const canEdit = useCan("editor");
  const restore = useRestoreVersion(promptId);
  const [compare, setCompare] = useState<number | null>(null);
  const [confirm, setConfirm] = useState<number | null>(null);
  const list = useServerList<PromptVersion>({ mode: "local", defaults: { sort: "version", order: "desc" }, limit: 10, query: promptVersionsQuery(promptId) });
  const { data, failed, query } = list;
  const latest = prompt.version_count;

  const columns = [
    versionCol.accessor("version", {
      id: "version",
      header: "Version",
      cell: ({ row }) => (
        <span className="flex items-center gap-2 tabular-nums">
          {row.original.version}
          {row.original.version === latest ? <span className="badge badge-sm badge-outline">{msg.prompts.current}</span> : null}
        </span>
      ),
    }),
    versionCol.accessor("prompt_title", {
      id: "title",
      header: "Title",
      meta: { grow: true },
      cell: ({ row }) => (
        <div className="min-w-0">
          <span className="block truncate" title={row.original.prompt_title}>{row.original.prompt_title}</span>
          {row.original.restored_from ? <span className="block text-xs text-base-content/70">{msg.prompts.restoredFrom(row.original.restored_from)}</span> : null}
        </div>
      ),
    }),
    versionCol.accessor("operator_email", { id: "by", header: "By", cell: (c) => c.getValue() ?? <Muted>{msg.prompts.unknownOperator}</Muted> }),
    versionCol.accessor("created_at", { id: "created_at", header: "When", cell: (c) => <DateText iso={c.getValue()} withTime /> }),
    versionCol.display({
      id: "actions",
      meta: { actions: true },
      header: () => <span className="sr-only">{msg.ui.actions}</span>,
      cell: ({ row }) => {
        const v = row.original.version;
        if (v === latest) return null;
        return (
          <div className="flex justify-end gap-1">
            <button type="button" className="btn btn-xs btn-outline" aria-label={`${msg.prompts.compare} version ${v}`} onClick={() => setCompare(v)}>{msg.prompts.compare}</button>
            {canEdit ? (
              <button type="button" className="btn btn-xs btn-ghost" aria-label={`${msg.prompts.restore} version ${v}`} onClick={() => setConfirm(v)}>{msg.prompts.restore}</button>
            ) : null}
          </div>
        );
      },
    }),
  ];

  if (failed) return <ErrorState title={msg.app.genericError} message={errorMessage(query.error)} onRetry={() => void query.refetch()} />;
  return (
    <>
      <DataTable
        label={msg.prompts.versions}
        columns={columns}
        rows={data?.items}
        rowKey={(v) => String(v.version)}
        loading={query.isPending || query.isFetching}
        empty={<EmptyState title={msg.prompts.noVersions} text={msg.prompts.noVersionsText} />}
      />
      <ListPagination list={list} label="Versions pages" />
      <Modal open={compare !== null} title={compare ? msg.prompts.diffTitle(compare) : msg.prompts.compare} onClose={() => setCompare(null)} size="lg">
        {compare ? <DiffView promptId={promptId} version={compare} current={prompt} /> : null}
      </Modal>
      <ConfirmDialog
        open={confirm !== null}
        title={msg.prompts.restore}
        tone="primary"
        message={<p>{confirm ? msg.prompts.restoreConfirm(confirm) : null}</p>}
        confirmLabel={msg.prompts.restore}
        busy={restore.isPending}
        error={restore.error ? errorMessage(restore.error) : null}
        onCancel={() => { setConfirm(null); restore.reset(); }}
        onConfirm={() => {
          const v = confirm!;
          restore.mutate(v, { onSuccess: () => { setConfirm(null); onRestored(v); } });
        }}
      />
    </>
  );
}

function DiffView({ promptId, version, current }: { promptId: string; version: number; current: PromptDetail }) {
  const source = useQuery(promptVersionQuery(promptId, version));
  if (source.isPending) return <Spinner />;
  if (source.error) return <div role="alert" className="alert alert-error alert-soft text-sm">{errorMessage(source.error)}</div>;
  return <VersionDiff from={source.data} to={current} />;
}
