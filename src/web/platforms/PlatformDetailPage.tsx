import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "@tanstack/react-router";
import { Archive, ArchiveRestore, Pencil, Trash2 } from "lucide-react";
import { msg } from "../../domain/messages";
import type { PlatformDetail, PlatformPrompt } from "../../domain/platforms";
import { errorMessage } from "../api/client";
import { useCan } from "../auth/permissions";
import { ActionBar, historyAction } from "../components/actions";
import { StatusBadge } from "../components/badges";
import { columnsFor, DataTable } from "../components/DataTable";
import { BackLink, DetailScaffold, InfoList, Section } from "../components/detail";
import { formatNumber } from "../components/format";
import { EmptyState, SearchInput } from "../components/inputs";
import { ListPagination } from "../components/ListPagination";
import { ConfirmDialog, notify } from "../components/overlays";
import { DateText, Muted } from "../components/text";
import { ErrorState, PageHeader, Spinner } from "../components/ui";
import { useServerList } from "../lib/server-list";
import { platformPromptsQuery, platformQuery, useDeletePlatform, useUnassignPrompt, useUpdatePlatform } from "./queries";

/**
 * /platforms/{platform_id} (SPEC.md §2 links it; docs/decisions.md): the platform's information,
 * Edit, Archive or Activate, Delete (its assignments too, after a confirm that says how many), and
 * the prompts assigned to it with links, status and Unassign.
 */
export default function PlatformDetailPage() {
  const { platformId } = useParams({ from: "/platforms/$platformId" });
  const navigate = useNavigate();
  const [deleted, setDeleted] = useState(false);
  const query = useQuery({ ...platformQuery(platformId), enabled: !deleted });
  if (query.isPending && !deleted) return <Spinner label={msg.platforms.loading} />;
  return (
    <DetailScaffold
      query={query}
      section={msg.nav.platforms}
      errorTitle={msg.platforms.loadOneError}
      notFound={{ title: msg.platforms.notFound, message: msg.platforms.notFoundText }}
      back={{ to: "/platforms", label: msg.platforms.backToList }}
    >
      {(platform) => (
        <PlatformView
          platform={platform}
          onDeleted={() => {
            setDeleted(true);
            notify(msg.platforms.deleted);
            void navigate({ to: "/platforms" });
          }}
        />
      )}
    </DetailScaffold>
  );
}

function PlatformView({ platform: p, onDeleted }: { platform: PlatformDetail; onDeleted: () => void }) {
  const platformId = p.platform_id;
  const update = useUpdatePlatform(platformId);
  const remove = useDeletePlatform(platformId);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const inactive = p.status === "inactive";
  const name = p.platform_name.trim() || msg.fallbacks.unnamedPlatform;

  const toggle = () =>
    update.mutate({ status: inactive ? "active" : "inactive" }, { onSuccess: () => notify(inactive ? msg.platforms.activated : msg.platforms.archived) });

  return (
    <>
      <BackLink to="/platforms" label={msg.platforms.backToList} />
      <PageHeader
        title={name}
        section={msg.nav.platforms}
        badge={<StatusBadge kind="platform" status={p.status} />}
        subtitle={p.platform_description ? <span title={p.platform_description}>{p.platform_description}</span> : undefined}
        actions={
          <ActionBar
            actions={[
              historyAction("platform", platformId),
              { label: "Edit", icon: Pencil, tone: "primary", need: "editor", primary: true, to: "/platforms/$platformId/edit", params: { platformId } },
              { label: inactive ? msg.prompts.activate : msg.prompts.archive, icon: inactive ? ArchiveRestore : Archive, need: "editor", busy: update.isPending, onClick: toggle },
              { label: "Delete", icon: Trash2, tone: "danger", need: "editor", onClick: () => setConfirmDelete(true) },
            ]}
          />
        }
      />
      {update.error ? <div role="alert" className="alert alert-error alert-soft mb-4 text-sm">{errorMessage(update.error)}</div> : null}

      <div className="grid grid-cols-1 gap-6 xl:grid-cols-3">
        <Section title="Platform Information" className="xl:col-span-1">
          <InfoList
            narrow
            items={[
              { label: "Platform ID", value: p.platform_id, mono: true },
              { label: "Status", value: <StatusBadge kind="platform" status={p.status} /> },
              { label: "Description", value: p.platform_description ?? <Muted>{msg.users.notProvided}</Muted> },
              { label: "Prompts", value: formatNumber(p.prompt_count) },
              { label: "Created", value: <DateText iso={p.created_at} withTime /> },
              { label: "Last Updated", value: p.updated_at ? <DateText iso={p.updated_at} withTime /> : <Muted>{msg.prompts.never}</Muted> },
            ]}
          />
        </Section>
        <Section title={`Prompts (${formatNumber(p.prompt_count)})`} className="xl:col-span-2">
          <PromptsTable platformId={platformId} onChanged={(text) => notify(text)} />
        </Section>
      </div>

      <ConfirmDialog
        open={confirmDelete}
        title="Delete Platform"
        message={<p className="break-words">{p.prompt_count > 0 ? msg.platforms.deleteConfirmCascade(name, p.prompt_count) : msg.platforms.deleteConfirm(name)}</p>}
        confirmLabel={remove.isPending ? "Deleting..." : "Delete"}
        busy={remove.isPending}
        error={remove.error ? errorMessage(remove.error) : null}
        onCancel={() => {
          setConfirmDelete(false);
          remove.reset();
        }}
        // The confirm names the assignments, so the delete removes them (a newer one than shown is refused: 409).
        onConfirm={() => remove.mutate(p.prompt_count > 0, { onSuccess: () => { setConfirmDelete(false); onDeleted(); } })}
      />
    </>
  );
}

const col = columnsFor<PlatformPrompt>();

/** The prompts assigned to the platform: title (link), prompt status, assignment status, assigned date, Unassign after the spec's confirm. */
function PromptsTable({ platformId, onChanged }: { platformId: string; onChanged: (text: string) => void }) {
  const navigate = useNavigate();
  const canEdit = useCan("editor");
  const unassign = useUnassignPrompt(platformId);
  const [confirm, setConfirm] = useState<PlatformPrompt | null>(null);
  const list = useServerList<PlatformPrompt>({ mode: "local", defaults: { sort: "assigned_at", order: "desc" }, query: platformPromptsQuery(platformId) });
  const { data, failed, query } = list;

  const columns = [
    col.accessor("prompt_title", {
      id: "prompt_title",
      header: "Prompt",
      meta: { grow: true, primary: true },
      cell: ({ row }) => (
        <Link to="/prompts/$promptId" params={{ promptId: row.original.prompt_id }} className="block min-w-0 truncate font-medium hover:text-primary hover:underline" title={row.original.prompt_title}>
          {row.original.prompt_title}
        </Link>
      ),
    }),
    col.accessor("status", { id: "status", header: "Status", cell: (c) => <StatusBadge kind="prompt" status={c.getValue()} /> }),
    col.accessor("is_active", { id: "is_active", header: "Assignment", cell: (c) => <StatusBadge kind="assignment" status={c.getValue() ? "active" : "inactive"} /> }),
    col.accessor("assigned_at", { id: "assigned_at", header: "Assigned", cell: (c) => <DateText iso={c.getValue()} /> }),
    ...(canEdit
      ? [col.display({
        id: "actions",
        meta: { actions: true },
        header: () => <span className="sr-only">{msg.ui.actions}</span>,
        cell: ({ row }) => (
          <div className="flex justify-end">
            <button type="button" className="btn btn-xs btn-ghost text-error" aria-label={`${msg.prompts.unassign} ${row.original.prompt_title}`} onClick={(e) => { e.stopPropagation(); setConfirm(row.original); }}>
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
        <SearchInput value={list.state.q} onChange={list.setQuery} placeholder="Search prompts..." label="Search assigned prompts" />
      </div>
      {failed ? (
        <ErrorState title={msg.prompts.loadError} message={errorMessage(query.error)} onRetry={() => void query.refetch()} />
      ) : (
        <>
          <DataTable
            label="Assigned prompts"
            columns={columns}
            rows={data?.items}
            rowKey={(a) => a.prompt_id}
            loading={query.isPending || query.isFetching}
            onRowClick={(a) => void navigate({ to: "/prompts/$promptId", params: { promptId: a.prompt_id } })}
            empty={<EmptyState title={msg.platforms.noPrompts} text={list.state.q ? undefined : msg.platforms.noPromptsText} />}
          />
          <ListPagination list={list} label="Assigned prompts pages" />
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
          unassign.mutate(target.prompt_id, { onSuccess: () => { setConfirm(null); onChanged(msg.prompts.unassigned(target.prompt_title)); } });
        }}
      />
    </div>
  );
}
