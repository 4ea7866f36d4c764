import { linkOptions, useParams } from "@tanstack/react-router";
import { MonitorSmartphone, ShieldCheck } from "lucide-react";
import { z } from "zod";
import { known, platformStatuses } from "../../domain/enums";
import { navMsg } from "../../domain/messages/common";
import { fallbacksMsg } from "../../domain/messages/kit";
import { platformsMsg } from "../../domain/messages/platforms";
import { promptsMsg } from "../../domain/messages/prompts";
import { usersMsg } from "../../domain/messages/users";
import {
  platformRecords,
  platformSortKeys,
  type Platform,
  type PlatformListItem,
  type PlatformPrompt,
} from "../../domain/platforms";
import { Tag } from "../components/badges";
import { countColumn, dateColumn, linkColumn, statusColumn } from "../components/columns";
import { RelatedList } from "../components/EmbeddedList";
import { formatNumber } from "../components/format";
import { FilterSelect } from "../components/inputs";
import { recordScreens, type RecordScreenSet } from "../components/record-screens";
import { Muted } from "../components/text";
import { useUnassignLink } from "../prompts/public";
import { platformChanges, platformPromptsQuery, platforms, useDeletePlatform, useUnassignPrompt } from "./queries";

/** Names as the Provided variables field holds them: separated by commas, spaces or lines, `{{braces}}` allowed. */
const variableNames = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((n) => n.replace(/^\{\{|\}\}$/g, "").trim())
    .filter(Boolean);

/**
 * The form's schema: the API's, with Provided variables as text turned into the list the API takes
 * (checked by the API's own rules, the first problem shown on the field; empty: none declared).
 */
const platformFormSchema = platformRecords.create.extend({
  provided_variables: z
    .string()
    .max(10_000)
    .transform((text, ctx) => {
      const parsed = platformRecords.create.shape.provided_variables.safeParse(variableNames(text));
      if (parsed.success) return parsed.data;
      ctx.addIssue({
        code: "custom",
        message: parsed.error.issues[0]?.message ?? platformsMsg.providedVariablesInvalid,
      });
      return z.NEVER;
    }),
});

/** "Reviewed" beside a platform whose prompts' changes need review. */
function ReviewedTag() {
  return (
    <span className="shrink-0" title={platformsMsg.reviewedTitle} data-testid="platform-reviewed">
      <Tag tone="info">
        <ShieldCheck className="h-3 w-3" aria-hidden />
        {platformsMsg.reviewed}
      </Tag>
    </span>
  );
}

/** The platform's declared variables, as its page lists them. */
function Variables({ names }: { names: string[] | null }) {
  if (!names?.length) return <Muted>{platformsMsg.noDeclaredVariables}</Muted>;
  return (
    <ul className="flex flex-wrap gap-1" data-testid="platform-variables">
      {names.map((v) => (
        <li key={v}>
          <code className="inline-block max-w-full break-all rounded bg-base-200 px-1.5 py-0.5 text-xs">{`{{${v}}}`}</code>
        </li>
      ))}
    </ul>
  );
}

const promptLink = (a: PlatformPrompt) => linkOptions({ to: "/prompts/$promptId", params: { promptId: a.prompt_id } });

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
      empty={(q) => ({ title: platformsMsg.noPrompts, text: q ? undefined : platformsMsg.noPromptsText })}
      errorTitle={promptsMsg.loadError}
    >
      {unassign.dialog}
    </RelatedList>
  );
}

const nameOf = (p: Pick<Platform, "platform_name">) => p.platform_name.trim() || fallbacksMsg.unnamedPlatform;

/**
 * The platform screens (SPEC.md §2 links them; docs/decisions.md). /platforms: cards Total,
 * Active, Inactive, Draft; status filter and the Review filter (docs/prompt-review.md), reviewed
 * platforms tagged beside their name. /platforms/{platform_id}: its information, Edit, Archive or
 * Activate, Delete (its assignments too, after a confirm that says how many), and the prompts
 * assigned to it with Unassign. The form: Name (required, trimmed), Description (trimmed, empty
 * saved null), Status (default Active), Changes need review, Provided variables (comma-separated
 * names; empty declares none).
 */
const screens: RecordScreenSet = recordScreens({
  kind: "platform",
  texts: platformsMsg,
  section: navMsg.platforms,
  paths: { list: { to: "/platforms" }, api: "/platforms", add: { to: "/platforms/add" } },
  ref: {
    key: (p) => p.platform_id,
    name: nameOf,
    link: (platformId) => ({ to: "/platforms/$platformId", params: { platformId } }),
    edit: (platformId) => ({ to: "/platforms/$platformId/edit", params: { platformId } }),
    useId: () => useParams({ strict: false }).platformId ?? "",
  },
  queries: platforms,
  changes: platformChanges,
  statuses: platformStatuses,
  archive: { live: "active", archived: "inactive" },
  list: {
    icon: MonitorSmartphone,
    name: {
      id: "platform_name",
      header: "Platform",
      detail: (p) => p.platform_description,
      after: (p) => (p.needs_review ? <ReviewedTag /> : null),
    },
    columns: [
      statusColumn<PlatformListItem>("platform", (p) => p.status),
      countColumn<PlatformListItem>("prompt_count", "Prompts"),
    ],
    sortable: platformSortKeys,
    filters: { needs_review: "needs_review" },
    more: (list) => (
      <FilterSelect
        label={platformsMsg.needsReviewFilter}
        value={list.state.filters.needs_review ?? ""}
        // As a boolean, so the URL reads `needs_review=true` (the status filter's way).
        // Cast: `setFilter` takes text, and the text "true" would be written quoted (`%22true%22`).
        onChange={(v) => list.setFilter({ needs_review: (v ? v === "true" : undefined) as never })}
      >
        <option value="">{platformsMsg.anyReview}</option>
        <option value="true">{platformsMsg.reviewed}</option>
        <option value="false">{platformsMsg.notReviewed}</option>
      </FilterSelect>
    ),
    bulk: [{ action: "activate" }, { action: "deactivate" }],
  },
  form: {
    schema: platformFormSchema,
    fields: [
      { kind: "text", name: "platform_name", label: "Platform Name", required: true },
      { kind: "textarea", name: "platform_description", label: "Description" },
      { kind: "select", name: "status", label: "Status", options: platformStatuses },
      { kind: "checkbox", name: "needs_review", label: platformsMsg.needsReview, hint: platformsMsg.needsReviewHint },
      {
        kind: "textarea",
        name: "provided_variables",
        label: platformsMsg.providedVariables,
        hint: platformsMsg.providedVariablesHint,
        placeholder: "customer_name, locale",
        rows: 2,
        mono: true,
      },
    ],
    values: (platform: Platform) => ({
      platform_name: platform.platform_name,
      platform_description: platform.platform_description ?? "",
      status: known(platformStatuses, platform.status),
      needs_review: platform.needs_review,
      provided_variables: platform.provided_variables?.join(", ") ?? "",
    }),
  },
  detail: {
    subtitle: (p) => p.platform_description,
    info: (p) => [
      { label: "Description", value: p.platform_description ?? <Muted>{usersMsg.notProvided}</Muted> },
      { label: "Prompts", value: formatNumber(p.prompt_count) },
      {
        label: platformsMsg.needsReview,
        value: (
          <span data-testid="platform-needs-review">
            {p.needs_review ? platformsMsg.needsReviewYes : platformsMsg.needsReviewNo}
          </span>
        ),
      },
      { label: platformsMsg.providedVariables, value: <Variables names={p.provided_variables} /> },
    ],
    related: {
      title: (p) => `Prompts (${formatNumber(p.prompt_count)})`,
      content: (p) => <PromptsList platformId={p.platform_id} />,
    },
    remove: {
      useDelete: useDeletePlatform,
      title: "Delete Platform",
      message: (p) => (
        <p className="break-words">
          {p.prompt_count > 0
            ? platformsMsg.deleteConfirmCascade(nameOf(p), p.prompt_count)
            : platformsMsg.deleteConfirm(nameOf(p))}
        </p>
      ),
      // The confirm names the assignments, so the delete removes them (a newer one than shown is refused: 409).
      variables: (p) => p.prompt_count > 0,
      done: { message: platformsMsg.deleted, to: () => ({ to: "/platforms" }) },
    },
  },
});
export const { ListPage, DetailPage, AddPage, EditPage } = screens;
