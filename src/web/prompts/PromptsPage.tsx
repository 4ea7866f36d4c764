import { MessageSquareText } from "lucide-react";
import { promptStatuses } from "../../domain/enums";
import { bulkMsg } from "../../domain/messages/bulk";
import { attentionMsg } from "../../domain/messages/dashboard";
import { fallbacksMsg } from "../../domain/messages/kit";
import { promptsMsg } from "../../domain/messages/prompts";
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
      text={p.skill_name ?? fallbacksMsg.unknownSkill}
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
      {...screenTexts(promptsMsg)}
      add={{ label: promptsMsg.addPrompt, link: { to: "/prompts/add" } }}
      cards={statusSetCards(MessageSquareText, promptStatuses)}
      section={{ label: "Prompt list" }}
      search={promptsMsg.searchPlaceholder}
      filters={
        <>
          <StatusFilter list={list} all={promptsMsg.allStatuses} options={promptStatuses} />
          <NoneFilter
            list={list}
            name="platforms"
            label={attentionMsg.platformsFilter}
            all={attentionMsg.anyPlatforms}
            none={attentionMsg.noPlatform}
          />
        </>
      }
      exportPath="/prompts"
      bulk={{
        entity: "prompts",
        actions: [
          { action: "activate" },
          { action: "archive" },
          { action: "assign_platform", param: activeRecordParam("platforms", "platform_id", bulkMsg.choosePlatform) },
        ],
      }}
      record={{
        key: (p) => p.prompt_id,
        label: (p) => p.prompt_title,
        link: (p) => ({ to: "/prompts/$promptId", params: { promptId: p.prompt_id } }),
      }}
      table={{
        label: promptsMsg.title,
        columns,
        sortable: promptSortKeys,
        empty: <ListEmpty list={list} texts={promptsMsg} />,
      }}
    />
  );
}
