import { useParams, linkOptions } from "@tanstack/react-router";
import { msg } from "../../domain/messages";
import type { PlatformDetail, PlatformPrompt } from "../../domain/platforms";
import { activeOrInactive, archiveAction, editAction, historyAction } from "../components/actions";
import { StatusBadge } from "../components/badges";
import { dateColumn, linkColumn, statusColumn } from "../components/columns";
import { InfoSection, Section, type InfoItem } from "../components/detail";
import { RelatedList } from "../components/EmbeddedList";
import { formatNumber } from "../components/format";
import { RecordPage } from "../components/RecordPage";
import { DateText, Muted } from "../components/text";
import { useUnassignLink } from "../prompts/public";
import { platformRecord } from "./PlatformForm";
import {
  platformPromptsQuery,
  platformQuery,
  useDeletePlatform,
  useUnassignPrompt,
  useUpdatePlatform,
} from "./queries";

const nameOf = (p: PlatformDetail) => p.platform_name.trim() || msg.fallbacks.unnamedPlatform;
const promptLink = (a: PlatformPrompt) => linkOptions({ to: "/prompts/$promptId", params: { promptId: a.prompt_id } });

/** The platform's information panel. */
const platformInfo = (p: PlatformDetail): InfoItem[] => [
  { label: "Platform ID", value: p.platform_id, mono: true },
  { label: "Status", value: <StatusBadge kind="platform" status={p.status} /> },
  { label: "Description", value: p.platform_description ?? <Muted>{msg.users.notProvided}</Muted> },
  { label: "Prompts", value: formatNumber(p.prompt_count) },
  {
    label: msg.platforms.needsReview,
    value: (
      <span data-testid="platform-needs-review">
        {p.needs_review ? msg.platforms.needsReviewYes : msg.platforms.needsReviewNo}
      </span>
    ),
  },
  {
    label: msg.platforms.providedVariables,
    value: p.provided_variables?.length ? (
      <ul className="flex flex-wrap gap-1" data-testid="platform-variables">
        {p.provided_variables.map((v) => (
          <li key={v}>
            <code className="inline-block max-w-full break-all rounded bg-base-200 px-1.5 py-0.5 text-xs">{`{{${v}}}`}</code>
          </li>
        ))}
      </ul>
    ) : (
      <Muted>{msg.platforms.noDeclaredVariables}</Muted>
    ),
  },
  { label: "Created", value: <DateText iso={p.created_at} withTime /> },
  {
    label: "Last Updated",
    value: p.updated_at ? <DateText iso={p.updated_at} withTime /> : <Muted>{msg.prompts.never}</Muted>,
  },
];

/** The prompts assigned to the platform: title (link), prompt status, assignment status, assigned date. */
const promptColumns = [
  linkColumn<PlatformPrompt>("prompt_title", "Prompt", (a) => ({ ...promptLink(a), text: a.prompt_title })),
  statusColumn<PlatformPrompt>("prompt", (a) => a.status),
  statusColumn<PlatformPrompt>("assignment", (a) => (a.is_active ? "active" : "inactive"), {
    id: "is_active",
    header: "Assignment",
  }),
  dateColumn<PlatformPrompt>("assigned_at", "Assigned", (a) => a.assigned_at),
];

/**
 * /platforms/{platform_id} (SPEC.md §2 links it; docs/decisions.md): the platform's information,
 * Edit, Archive or Activate, Delete (its assignments too, after a confirm that says how many), and
 * the prompts assigned to it with links, status and Unassign (after the spec's confirm, with Undo).
 */
export default function PlatformDetailPage() {
  const { platformId } = useParams({ from: "/platforms/$platformId" });
  const update = useUpdatePlatform(platformId);
  return (
    <RecordPage
      query={platformQuery(platformId)}
      kind={platformRecord}
      loadingLabel={msg.platforms.loading}
      remove={{
        mutation: useDeletePlatform(platformId),
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
      header={(p) => ({
        title: nameOf(p),
        badge: <StatusBadge kind="platform" status={p.status} />,
        subtitle: p.platform_description,
        actions: [
          historyAction("platform", platformId),
          editAction({ to: "/platforms/$platformId/edit", params: { platformId } }, { main: true }),
          archiveAction(p.status === "inactive", update, msg.platforms, activeOrInactive),
        ],
        error: update.error,
      })}
    >
      {(p) => (
        <div className="grid grid-cols-1 gap-6 xl:grid-cols-3">
          <InfoSection title="Platform Information" className="xl:col-span-1" narrow items={platformInfo(p)} />
          <Section title={`Prompts (${formatNumber(p.prompt_count)})`} className="xl:col-span-2">
            <PromptsList platformId={platformId} />
          </Section>
        </div>
      )}
    </RecordPage>
  );
}

/**
 * The prompts assigned to the platform, with Unassign after the spec's confirm: then "Platform …
 * unassigned successfully!" with Undo, or, under review (docs/prompt-review.md), that the
 * unassignment waits for another operator.
 */
function PromptsList({ platformId }: { platformId: string }) {
  const unassign = useUnassignLink<PlatformPrompt>(
    useUnassignPrompt(platformId),
    (a) => a.prompt_id,
    (a) => a.prompt_title,
  );
  return (
    <RelatedList
      query={platformPromptsQuery(platformId)}
      sort={{ sort: "assigned_at", order: "desc" }}
      label="Assigned prompts"
      search="Search prompts..."
      columns={promptColumns}
      rowKey={(a) => a.prompt_id}
      rowLink={promptLink}
      actions={unassign.button}
      empty={(q) => ({ title: msg.platforms.noPrompts, text: q ? undefined : msg.platforms.noPromptsText })}
      errorTitle={msg.prompts.loadError}
    >
      {unassign.dialog}
    </RelatedList>
  );
}
