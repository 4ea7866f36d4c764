import { useParams } from "@tanstack/react-router";
import { useUndo } from "../components/undo";
import { Archive, ArchiveRestore, Pencil } from "lucide-react";
import { msg } from "../../domain/messages";
import type { PlatformDetail, PlatformPrompt } from "../../domain/platforms";
import { useCan } from "../auth/permissions";
import { ActionBar, historyAction, type Action } from "../components/actions";
import { StatusBadge } from "../components/badges";
import { useConfirmAction } from "../components/ConfirmAction";
import { columnsFor } from "../components/DataTable";
import { InfoList, Section } from "../components/detail";
import { EmbeddedList } from "../components/EmbeddedList";
import { formatNumber } from "../components/format";
import { notify } from "../components/overlays";
import { RecordHeader, RecordPage } from "../components/RecordPage";
import { DateText, Muted } from "../components/text";
import { RecordLink } from "../components/RecordLink";
import { useServerList } from "../lib/server-list";
import { platformRecord } from "./PlatformForm";
import {
  platformPromptsQuery,
  platformQuery,
  useDeletePlatform,
  useUnassignPrompt,
  useUpdatePlatform,
} from "./queries";

/**
 * /platforms/{platform_id} (SPEC.md §2 links it; docs/decisions.md): the platform's information,
 * Edit, Archive or Activate, Delete (its assignments too, after a confirm that says how many), and
 * the prompts assigned to it with links, status and Unassign.
 */
export default function PlatformDetailPage() {
  const { platformId } = useParams({ from: "/platforms/$platformId" });
  const remove = useDeletePlatform(platformId);
  const nameOf = (p: PlatformDetail) => p.platform_name.trim() || msg.fallbacks.unnamedPlatform;
  return (
    <RecordPage
      query={platformQuery(platformId)}
      kind={platformRecord}
      loadingLabel={msg.platforms.loading}
      remove={{
        mutation: remove,
        title: "Delete Platform",
        message: (p) => (
          <p className="break-words">
            {p.prompt_count > 0
              ? msg.platforms.deleteConfirmCascade(nameOf(p), p.prompt_count)
              : msg.platforms.deleteConfirm(nameOf(p))}
          </p>
        ),
        // The confirm names the assignments, so the delete removes them (a newer one than shown is refused: 409).
        variables: (p) => p.prompt_count > 0,
        done: { message: msg.platforms.deleted, to: () => ({ to: "/platforms" }) },
      }}
    >
      {(platform, { deleteAction }) => (
        <PlatformView platform={platform} name={nameOf(platform)} deleteAction={deleteAction} />
      )}
    </RecordPage>
  );
}

function PlatformView({
  platform: p,
  name,
  deleteAction,
}: {
  platform: PlatformDetail;
  name: string;
  deleteAction?: Action;
}) {
  const platformId = p.platform_id;
  const update = useUpdatePlatform(platformId);
  const inactive = p.status === "inactive";
  const toggle = () =>
    update.mutate(
      { status: inactive ? "active" : "inactive" },
      { onSuccess: () => notify(inactive ? msg.platforms.activated : msg.platforms.archived) },
    );

  return (
    <>
      <RecordHeader
        back={platformRecord.list}
        title={name}
        section={msg.nav.platforms}
        badge={<StatusBadge kind="platform" status={p.status} />}
        subtitle={
          p.platform_description ? <span title={p.platform_description}>{p.platform_description}</span> : undefined
        }
        actions={
          <ActionBar
            actions={[
              historyAction("platform", platformId),
              {
                label: "Edit",
                icon: Pencil,
                tone: "primary",
                need: "editor",
                primary: true,
                to: "/platforms/$platformId/edit",
                params: { platformId },
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
        <Section title="Platform Information" className="xl:col-span-1">
          <InfoList
            narrow
            items={[
              { label: "Platform ID", value: p.platform_id, mono: true },
              { label: "Status", value: <StatusBadge kind="platform" status={p.status} /> },
              { label: "Description", value: p.platform_description ?? <Muted>{msg.users.notProvided}</Muted> },
              { label: "Prompts", value: formatNumber(p.prompt_count) },
              { label: "Created", value: <DateText iso={p.created_at} withTime /> },
              {
                label: "Last Updated",
                value: p.updated_at ? <DateText iso={p.updated_at} withTime /> : <Muted>{msg.prompts.never}</Muted>,
              },
            ]}
          />
        </Section>
        <Section title={`Prompts (${formatNumber(p.prompt_count)})`} className="xl:col-span-2">
          <PromptsTable platformId={platformId} />
        </Section>
      </div>
    </>
  );
}

const col = columnsFor<PlatformPrompt>();
const promptColumns = [
  col.accessor("prompt_title", {
    id: "prompt_title",
    header: "Prompt",
    meta: { grow: true, primary: true },
    cell: ({ row }) => (
      <RecordLink
        to="/prompts/$promptId"
        params={{ promptId: row.original.prompt_id }}
        text={row.original.prompt_title}
      />
    ),
  }),
  col.accessor("status", {
    id: "status",
    header: "Status",
    cell: (c) => <StatusBadge kind="prompt" status={c.getValue()} />,
  }),
  col.accessor("is_active", {
    id: "is_active",
    header: "Assignment",
    cell: (c) => <StatusBadge kind="assignment" status={c.getValue() ? "active" : "inactive"} />,
  }),
  col.accessor("assigned_at", { id: "assigned_at", header: "Assigned", cell: (c) => <DateText iso={c.getValue()} /> }),
];

/** The prompts assigned to the platform: title (link), prompt status, assignment status, assigned date, Unassign after the spec's confirm. */
function PromptsTable({ platformId }: { platformId: string }) {
  const offerUndo = useUndo();
  const canEdit = useCan("editor");
  const list = useServerList<PlatformPrompt>({
    mode: "local",
    defaults: { sort: "assigned_at", order: "desc" },
    query: platformPromptsQuery(platformId),
  });
  const unassign = useConfirmAction<PlatformPrompt, string>({
    mutation: useUnassignPrompt(platformId),
    title: "Unassign Platform",
    message: () => <p>{msg.prompts.unassignConfirm}</p>,
    confirmLabel: msg.prompts.unassign,
    variables: (a) => a.prompt_id,
    done: (a, result) => offerUndo(msg.prompts.unassigned(a.prompt_title), result),
  });
  return (
    <EmbeddedList
      list={list}
      label="Assigned prompts"
      search="Search prompts..."
      columns={promptColumns}
      rowKey={(a) => a.prompt_id}
      rowLink={(a) => ({ to: "/prompts/$promptId", params: { promptId: a.prompt_id } })}
      actions={
        canEdit
          ? (a) => (
              <button
                type="button"
                className="btn btn-xs btn-ghost text-error"
                aria-label={`${msg.prompts.unassign} ${a.prompt_title}`}
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
      empty={(q) => ({ title: msg.platforms.noPrompts, text: q ? undefined : msg.platforms.noPromptsText })}
      errorTitle={msg.prompts.loadError}
    >
      {unassign.dialog}
    </EmbeddedList>
  );
}
