import { FilePen, MessageSquareText } from "lucide-react";
import { promptStatuses } from "../../domain/enums";
import { msg } from "../../domain/messages";
import { promptSortKeys, type PromptListItem, type PromptPage } from "../../domain/prompts";
import { column, createdColumn, statusColumn, updatedColumn } from "../components/columns";
import { EmptyState } from "../components/inputs";
import { activeRecordParam } from "../components/bulk";
import { ListFilter, listCards, ListScreen } from "../components/ListScreen";
import { RecordLink } from "../components/RecordLink";
import { useServerList } from "../lib/server-list";
import { PlatformNames, PromptLink } from "./PromptCells";
import { promptListQuery } from "./queries";

const columns = [
  column<PromptListItem>(
    "prompt_title",
    "Prompt",
    (p) => <PromptLink promptId={p.prompt_id} title={p.prompt_title} excerpt={p.prompt_excerpt} />,
    { grow: true, primary: true },
  ),
  column<PromptListItem>("skill", "Skill", (p) => (
    <RecordLink
      to="/skills/$skillId"
      params={{ skillId: p.skill_id }}
      text={p.skill_name ?? msg.fallbacks.unknownSkill}
      className="block max-w-48 truncate"
      onClick={(e) => e.stopPropagation()}
    />
  )),
  column<PromptListItem>("platforms", "Platforms", (p) => <PlatformNames names={p.platform_names} />),
  statusColumn<PromptListItem>("prompt", (p) => p.status),
  createdColumn<PromptListItem>(),
  updatedColumn<PromptListItem>(),
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
    filters: { status: "status", platforms: "platforms" },
    query: promptListQuery,
  });

  return (
    <ListScreen
      list={list}
      title={msg.prompts.title}
      subtitle={msg.prompts.subtitle}
      add={{ label: msg.prompts.addPrompt, to: "/prompts/add" }}
      cards={[
        listCards.total(MessageSquareText),
        listCards.active,
        listCards.inactive,
        { label: "Draft", icon: FilePen, value: (s) => s.draft },
      ]}
      section={{ label: "Prompt list" }}
      search={msg.prompts.searchPlaceholder}
      filters={
        <>
          <ListFilter list={list} name="status" label="Status" all={msg.prompts.allStatuses} options={promptStatuses} />
          <ListFilter
            list={list}
            name="platforms"
            label={msg.attention.platformsFilter}
            all={msg.attention.anyPlatforms}
            options={["none"] as const}
            optionLabel={() => msg.attention.noPlatform}
          />
        </>
      }
      exportPath="/prompts"
      bulk={{
        entity: "prompts",
        actions: [
          { action: "activate" },
          { action: "archive" },
          { action: "assign_platform", param: activeRecordParam("platforms", "platform_id", msg.bulk.choosePlatform) },
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
