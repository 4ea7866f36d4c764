import { Link, useNavigate } from "@tanstack/react-router";
import { CircleCheck, CircleSlash, FilePen, MessageSquareText, Plus } from "lucide-react";
import { promptStatuses } from "../../domain/enums";
import { limits, msg } from "../../domain/messages";
import { promptSortKeys, type PromptListItem, type PromptPage } from "../../domain/prompts";
import { errorMessage } from "../api/client";
import { ActionBar } from "../components/actions";
import { StatusBadge } from "../components/badges";
import { columnsFor, DataTable } from "../components/DataTable";
import { ExportCsvButton } from "../components/ExportCsvButton";
import { titleCase } from "../components/format";
import { EmptyState, FilterSelect, SearchInput, Toolbar } from "../components/inputs";
import { formatCount, ListPagination } from "../components/ListPagination";
import { DateText, Muted } from "../components/text";
import { ErrorState, PageHeader, StatCard, StatCardSkeleton, StatGrid } from "../components/ui";
import { useServerList } from "../lib/server-list";
import { SummaryNote } from "../lib/SummaryNote";
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
  const { data, failed, query } = list;
  const { status } = list.state.filters;
  const exact = data?.summary_exact ?? true;
  const narrowed = Boolean(status || list.state.q);

  return (
    <>
      <PageHeader
        title={msg.prompts.title}
        subtitle={msg.prompts.subtitle}
        actions={<ActionBar actions={[{ label: msg.prompts.addPrompt, icon: Plus, tone: "primary", need: "editor", primary: true, to: "/prompts/add" }]} />}
      />
      <StatGrid>
        {data ? (
          <>
            <StatCard label="Total" value={formatCount(data.summary.total, exact)} icon={<MessageSquareText className="h-6 w-6" />} />
            <StatCard label="Active" value={formatCount(data.summary.active, exact)} icon={<CircleCheck className="h-6 w-6" />} />
            <StatCard label="Inactive" value={formatCount(data.summary.inactive, exact)} icon={<CircleSlash className="h-6 w-6" />} />
            <StatCard label="Draft" value={formatCount(data.summary.draft, exact)} icon={<FilePen className="h-6 w-6" />} />
          </>
        ) : (
          Array.from({ length: limits.skeletonCards }, (_, i) => <StatCardSkeleton key={i} />)
        )}
      </StatGrid>
      <SummaryNote page={data} />

      <section className="mt-6" aria-label="Prompt list">
        <Toolbar actions={<ExportCsvButton path="/prompts" query={list.params} total={data?.total} />}>
          <SearchInput value={list.state.q} onChange={list.setQuery} placeholder={msg.prompts.searchPlaceholder} />
          <FilterSelect label="Status" value={status ?? ""} onChange={(v) => list.setFilter({ status: v || undefined })}>
            <option value="">{msg.prompts.allStatuses}</option>
            {promptStatuses.map((s) => <option key={s} value={s}>{titleCase(s)}</option>)}
          </FilterSelect>
        </Toolbar>
        {failed ? (
          <div className="mb-3">
            <ErrorState title={msg.prompts.loadError} message={errorMessage(query.error)} onRetry={() => void query.refetch()} />
          </div>
        ) : (
          <>
            <DataTable
              label={msg.prompts.title}
              columns={columns}
              rows={data?.items}
              rowKey={(p) => p.prompt_id}
              sortable={promptSortKeys}
              sort={{ sort: list.state.sort, order: list.state.order }}
              onSort={list.setSort}
              loading={query.isPending || query.isFetching}
              onRowClick={(p) => void navigate({ to: "/prompts/$promptId", params: { promptId: p.prompt_id } })}
              empty={<EmptyState title={msg.prompts.empty} text={narrowed ? msg.prompts.emptyFiltered : undefined} />}
            />
            <ListPagination list={list} />
          </>
        )}
      </section>
    </>
  );
}
