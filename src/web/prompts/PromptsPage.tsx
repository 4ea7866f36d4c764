import { CircleCheck, CircleSlash, FilePen, MessageSquareText } from "lucide-react";
import { promptStatuses } from "../../domain/enums";
import { msg } from "../../domain/messages";
import { promptSortKeys, type PromptListItem, type PromptPage } from "../../domain/prompts";
import { StatusBadge } from "../components/badges";
import { columnsFor } from "../components/DataTable";
import { EmptyState } from "../components/inputs";
import { ListFilter, ListScreen } from "../components/ListScreen";
import { DateText, Muted } from "../components/text";
import { RecordLink } from "../components/RecordLink";
import { useServerList } from "../lib/server-list";
import { PlatformNames, PromptLink } from "./PromptCells";
import { promptListQuery } from "./queries";

const col = columnsFor<PromptListItem>();
const columns = [
  col.accessor("prompt_title", {
    id: "prompt_title",
    header: "Prompt",
    meta: { grow: true, primary: true },
    cell: ({ row }) => (
      <PromptLink
        promptId={row.original.prompt_id}
        title={row.original.prompt_title}
        excerpt={row.original.prompt_excerpt}
      />
    ),
  }),
  col.accessor("skill_name", {
    id: "skill",
    header: "Skill",
    cell: ({ row }) => (
      <RecordLink
        to="/skills/$skillId"
        params={{ skillId: row.original.skill_id }}
        text={row.original.skill_name ?? msg.fallbacks.unknownSkill}
        className="block max-w-48 truncate"
        onClick={(e) => e.stopPropagation()}
      />
    ),
  }),
  col.accessor("platform_names", {
    id: "platforms",
    header: "Platforms",
    cell: (c) => <PlatformNames names={c.getValue()} />,
  }),
  col.accessor("status", {
    id: "status",
    header: "Status",
    cell: (c) => <StatusBadge kind="prompt" status={c.getValue()} />,
  }),
  col.accessor("created_at", { id: "created_at", header: "Created", cell: (c) => <DateText iso={c.getValue()} /> }),
  col.accessor("updated_at", {
    id: "updated_at",
    header: "Updated",
    cell: (c) => (c.getValue() ? <DateText iso={c.getValue()} /> : <Muted>{msg.prompts.never}</Muted>),
  }),
];

/**
 * SPEC.md §2 "/prompts": cards Total, Active, Inactive, Draft (over all prompts); status filter;
 * search (title, content, skill name); columns Prompt (title and excerpt), Skill, Platforms
 * ("No platforms"), Status, Created, Updated; Add Prompt; "Error loading prompts" with Retry.
 */
export default function PromptsPage() {
  const list = useServerList<PromptListItem, PromptPage["summary"]>({
    mode: "url",
    defaults: { sort: "created_at", order: "desc" },
    filters: { status: "status" },
    query: promptListQuery,
  });

  return (
    <ListScreen
      list={list}
      title={msg.prompts.title}
      subtitle={msg.prompts.subtitle}
      add={{ label: msg.prompts.addPrompt, to: "/prompts/add" }}
      cards={[
        { label: "Total", icon: MessageSquareText, value: (s) => s.total },
        { label: "Active", icon: CircleCheck, value: (s) => s.active },
        { label: "Inactive", icon: CircleSlash, value: (s) => s.inactive },
        { label: "Draft", icon: FilePen, value: (s) => s.draft },
      ]}
      section={{ label: "Prompt list" }}
      search={msg.prompts.searchPlaceholder}
      filters={
        <ListFilter list={list} name="status" label="Status" all={msg.prompts.allStatuses} options={promptStatuses} />
      }
      exportPath="/prompts"
      bulk={{
        entity: "prompts",
        actions: [
          { action: "activate" },
          { action: "archive" },
          {
            action: "assign_platform",
            param: {
              name: "platform_id",
              label: msg.bulk.choosePlatform,
              kind: "record",
              path: "/platforms",
              id: "platform_id",
              text: "platform_name",
              filter: { status: "active" },
            },
          },
        ],
        rowLabel: (p) => p.prompt_title,
      }}
      table={{
        label: msg.prompts.title,
        columns,
        rowKey: (p) => p.prompt_id,
        sortable: promptSortKeys,
        rowLink: (p) => ({ to: "/prompts/$promptId", params: { promptId: p.prompt_id } }),
        empty: <EmptyState title={msg.prompts.empty} text={list.narrowed ? msg.prompts.emptyFiltered : undefined} />,
      }}
      errorTitle={msg.prompts.loadError}
    />
  );
}
