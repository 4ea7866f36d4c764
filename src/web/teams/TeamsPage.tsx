import { UsersRound } from "lucide-react";
import { bulkMsg } from "../../domain/messages/bulk";
import { navMsg } from "../../domain/messages/common";
import { attentionMsg } from "../../domain/messages/dashboard";
import { teamsMsg } from "../../domain/messages/teams";
import { teamStatuses } from "../../domain/enums";
import { teamSortKeys, type TeamListItem } from "../../domain/teams";
import { customerColumn } from "../components/columns";
import { activeRecordParam } from "../components/bulk";
import { NoneFilter, StatusFilter } from "../components/list-filters";
import { listCards, ListScreen } from "../components/ListScreen";
import { EmptyState } from "../components/inputs";
import { CustomerFilter } from "../customers/public";
import { useScreenList } from "../lib/screen-list";
import { teamListQuery } from "./queries";
import { teamColumns } from "./TeamTable";

const columns = [
  teamColumns.name,
  customerColumn<TeamListItem>("block max-w-64 truncate"),
  teamColumns.users,
  teamColumns.skills,
  teamColumns.status,
  teamColumns.created,
];

/** SPEC.md §2 "/teams": cards on the filtered set, customer filter, search, sortable table, Export CSV. */
export default function TeamsPage() {
  const list = useScreenList(teamListQuery, {
    customer: "customer_id",
    status: "status",
    skills: "skills",
  });
  const customer = list.state.filters.customer;

  return (
    <ListScreen
      list={list}
      title={navMsg.teams}
      subtitle="Teams across all customers"
      cards={[listCards.total(UsersRound, "Total Teams"), listCards.active, listCards.inactive]}
      section={{ label: "Team list" }}
      search="Search teams..."
      filters={
        <>
          <CustomerFilter value={customer} onChange={(id) => list.setFilter({ customer: id })} />
          <StatusFilter list={list} all={attentionMsg.allStatuses} options={teamStatuses} />
          <NoneFilter
            list={list}
            name="skills"
            label={attentionMsg.skillsFilter}
            all={attentionMsg.anySkills}
            none={attentionMsg.noActiveSkill}
          />
        </>
      }
      exportPath="/teams"
      bulk={{
        entity: "teams",
        actions: [
          { action: "archive" },
          { action: "unarchive" },
          { action: "assign_skill", param: activeRecordParam("skills", "skill_id", bulkMsg.chooseSkill) },
        ],
      }}
      record={{
        key: (t) => t.team_id,
        label: (t) => t.team_name,
        link: (t) => ({ to: "/teams/$teamId", params: { teamId: t.team_id } }),
      }}
      table={{
        label: navMsg.teams,
        columns,
        sortable: teamSortKeys,
        empty: (
          <EmptyState
            title="No teams found"
            text={list.state.q || customer ? "No teams match the search or filter." : undefined}
          />
        ),
      }}
      errorTitle={teamsMsg.loadError}
    />
  );
}
