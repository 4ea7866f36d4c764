import { FilterX, Globe, Sparkles } from "lucide-react";
import { skillStatuses, skillTypes } from "../../domain/enums";
import { bulkMsg } from "../../domain/messages/bulk";
import { attentionMsg } from "../../domain/messages/dashboard";
import { skillsMsg } from "../../domain/messages/skills";
import { skillScopes, skillSortKeys, type SkillListItem, type SkillPage } from "../../domain/skills";
import { Tag } from "../components/badges";
import { column, countColumn, createdColumn, statusColumn } from "../components/columns";
import { titleCase } from "../components/format";
import { activeRecordParam } from "../components/bulk";
import { statusCards } from "../components/list-cards";
import { ListEmpty, screenTexts } from "../components/list-texts";
import { FilterGroup, NoneFilter, StatusFilter } from "../components/list-filters";
import { ListFilter, ListScreen } from "../components/ListScreen";
import { useScreenList } from "../lib/screen-list";
import { skillListQuery } from "./queries";
import { ScopeTag, SkillLink } from "./SkillCells";

const columns = [
  column<SkillListItem>(
    "skill_name",
    "Skill",
    (s) => <SkillLink skillId={s.skill_id} name={s.skill_name} description={s.skill_description} />,
    { grow: true, primary: true },
  ),
  statusColumn<SkillListItem>("skill", (s) => s.status),
  column<SkillListItem>("type", "Type", (s) => <Tag>{titleCase(s.type)}</Tag>),
  column<SkillListItem>("is_global", "Scope", (s) => <ScopeTag global={s.is_global} />),
  countColumn<SkillListItem>("team_count", "Teams"),
  createdColumn<SkillListItem>(),
];

/**
 * SPEC.md §2 "/skills": cards Total, Active, Inactive, Global (over all skills); filters Type,
 * Scope and Status; search; sortable, paged table (Teams counts active assignments); Clear
 * Filters; Add Skill; Export CSV. Search, filters, sort and page live in the URL.
 */
export default function SkillsPage() {
  const list = useScreenList(skillListQuery, {
    type: "type",
    scope: "scope",
    status: "status",
    prompts: "prompts",
  });

  return (
    <ListScreen
      list={list}
      {...screenTexts(skillsMsg)}
      add={{ label: skillsMsg.addSkill, link: { to: "/skills/add" } }}
      cards={statusCards<SkillPage["summary"]>(Sparkles, { label: "Global", icon: Globe, value: (s) => s.global })}
      section={{ label: "Skill list" }}
      search="Search skills..."
      exportPath="/skills"
      bulk={{
        entity: "skills",
        actions: [
          { action: "archive" },
          { action: "unarchive" },
          {
            action: "assign_to_teams",
            param: activeRecordParam("teams", "team_ids", bulkMsg.chooseTeam, { many: true }),
          },
        ],
      }}
      aboveTable={
        <FilterGroup>
          <ListFilter list={list} name="type" label="Type" all={skillsMsg.allTypes} options={skillTypes} />
          <ListFilter list={list} name="scope" label="Scope" all={skillsMsg.allScopes} options={skillScopes} />
          <StatusFilter list={list} all={skillsMsg.allStatuses} options={skillStatuses} />
          <NoneFilter
            list={list}
            name="prompts"
            label={attentionMsg.promptsFilter}
            all={attentionMsg.anyPrompts}
            none={attentionMsg.noPrompt}
          />
          <button
            type="button"
            className="btn btn-sm btn-ghost self-start sm:self-auto"
            disabled={!list.narrowed}
            onClick={() =>
              list.setFilter({ type: undefined, scope: undefined, status: undefined, prompts: undefined, q: undefined })
            }
          >
            <FilterX className="h-4 w-4" aria-hidden /> {skillsMsg.clearFilters}
          </button>
        </FilterGroup>
      }
      record={{
        key: (s) => s.skill_id,
        label: (s) => s.skill_name,
        link: (s) => ({ to: "/skills/$skillId", params: { skillId: s.skill_id } }),
      }}
      table={{
        label: skillsMsg.title,
        columns,
        sortable: skillSortKeys,
        empty: <ListEmpty list={list} texts={skillsMsg} />,
      }}
    />
  );
}
