import { MessageSquareText } from "lucide-react";
import { promptStatuses } from "../../domain/enums";
import { msg } from "../../domain/messages";
import { promptSortKeys, type PromptListItem } from "../../domain/prompts";
import { column, createdColumn, statusColumn, updatedColumn } from "../components/columns";
import { activeRecordParam } from "../components/bulk";
import { statusSetCards } from "../components/list-cards";
import { ListEmpty, screenTexts } from "../components/list-texts";
import { NoneFilter, StatusFilter } from "../components/list-filters";
import { ListScreen } from "../components/ListScreen";
import { RecordLink } from "../components/RecordLink";
import { useScreenList } from "../lib/screen-list";
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
  const list = useScreenList(promptListQuery, {
    status: "status",
    platforms: "platforms",
  });

  return (
    <ListScreen
      list={list}
      {...screenTexts(msg.prompts)}
      add={{ label: msg.prompts.addPrompt, link: { to: "/prompts/add" } }}
      cards={statusSetCards(MessageSquareText, promptStatuses)}
      section={{ label: "Prompt list" }}
      search={msg.prompts.searchPlaceholder}
      filters={
        <>
          <StatusFilter list={list} all={msg.prompts.allStatuses} options={promptStatuses} />
          <NoneFilter
            list={list}
            name="platforms"
            label={msg.attention.platformsFilter}
            all={msg.attention.anyPlatforms}
            none={msg.attention.noPlatform}
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
      }}
      record={{
        key: (p) => p.prompt_id,
        label: (p) => p.prompt_title,
        link: (p) => ({ to: "/prompts/$promptId", params: { promptId: p.prompt_id } }),
      }}
      table={{
        label: msg.prompts.title,
        columns,
        sortable: promptSortKeys,
        empty: <ListEmpty list={list} texts={msg.prompts} />,
      }}
    />
  );
}
