import { Link, useNavigate } from "@tanstack/react-router";
import { CircleCheck, CircleSlash, FilePen, MessageSquareText } from "lucide-react";
import { promptStatuses } from "../../domain/enums";
import { msg } from "../../domain/messages";
import { promptSortKeys, type PromptListItem, type PromptPage } from "../../domain/prompts";
import { StatusBadge } from "../components/badges";
import { columnsFor } from "../components/DataTable";
import { titleCase } from "../components/format";
import { EmptyState, FilterSelect } from "../components/inputs";
import { ListScreen } from "../components/ListScreen";
import { DateText, Muted } from "../components/text";
import { useServerList } from "../lib/server-list";
import { PlatformNames, PromptLink } from "./PromptCells";
import { promptListQuery } from "./queries";

const col = columnsFor<PromptListItem>();
const columns = [
  col.accessor("prompt_title", {
    id: "prompt_title",
    header: "Prompt",
    meta: { grow: true, primary: true },
    cell: ({ row }) => <PromptLink promptId={row.original.prompt_id} title={row.original.prompt_title} excerpt={row.original.prompt_excerpt} />,
  }),
  col.accessor("skill_name", {
    id: "skill",
    header: "Skill",
    cell: ({ row }) => {
      const name = row.original.skill_name ?? msg.fallbacks.unknownSkill;
      return (
        <Link to="/skills/$skillId" params={{ skillId: row.original.skill_id }} className="block max-w-48 truncate hover:text-primary hover:underline" title={name} onClick={(e) => e.stopPropagation()}>
          {name}
        </Link>
      );
    },
  }),
  col.accessor("platform_names", { id: "platforms", header: "Platforms", cell: (c) => <PlatformNames names={c.getValue()} /> }),
  col.accessor("status", { id: "status", header: "Status", cell: (c) => <StatusBadge kind="prompt" status={c.getValue()} /> }),
  col.accessor("created_at", { id: "created_at", header: "Created", cell: (c) => <DateText iso={c.getValue()} /> }),
  col.accessor("updated_at", { id: "updated_at", header: "Updated", cell: (c) => (c.getValue() ? <DateText iso={c.getValue()} /> : <Muted>{msg.prompts.never}</Muted>) }),
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
  const navigate = useNavigate();
  const { status } = list.state.filters;
  const narrowed = Boolean(status || list.state.q);

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
        <FilterSelect label="Status" value={status ?? ""} onChange={(v) => list.setFilter({ status: v || undefined })}>
          <option value="">{msg.prompts.allStatuses}</option>
          {promptStatuses.map((s) => <option key={s} value={s}>{titleCase(s)}</option>)}
        </FilterSelect>
      }
      exportPath="/prompts"
      table={{
        label: msg.prompts.title,
        columns,
        rowKey: (p) => p.prompt_id,
        sortable: promptSortKeys,
        onRowClick: (p) => void navigate({ to: "/prompts/$promptId", params: { promptId: p.prompt_id } }),
        empty: <EmptyState title={msg.prompts.empty} text={narrowed ? msg.prompts.emptyFiltered : undefined} />,
      }}
      errorTitle={msg.prompts.loadError}
    />
  );
}
