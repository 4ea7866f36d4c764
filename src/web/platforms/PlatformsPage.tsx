import { Link, useNavigate } from "@tanstack/react-router";
import { CircleCheck, CircleSlash, FilePen, MonitorSmartphone, Plus } from "lucide-react";
import { platformStatuses } from "../../domain/enums";
import { limits, msg } from "../../domain/messages";
import { platformSortKeys, type PlatformListItem, type PlatformPage } from "../../domain/platforms";
import { errorMessage } from "../api/client";
import { ActionBar } from "../components/actions";
import { StatusBadge } from "../components/badges";
import { columnsFor, DataTable } from "../components/DataTable";
import { ExportCsvButton } from "../components/ExportCsvButton";
import { titleCase } from "../components/format";
import { EmptyState, FilterSelect, SearchInput, Toolbar } from "../components/inputs";
import { formatCount, ListPagination } from "../components/ListPagination";
import { DateText, Muted, Num } from "../components/text";
import { ErrorState, PageHeader, StatCard, StatCardSkeleton, StatGrid } from "../components/ui";
import { useServerList } from "../lib/server-list";
import { SummaryNote } from "../lib/SummaryNote";
import { platformListQuery } from "./queries";

const col = columnsFor<PlatformListItem>();
const columns = [
  col.accessor("platform_name", {
    id: "platform_name",
    header: "Platform",
    meta: { grow: true, primary: true },
    cell: ({ row }) => {
      const name = row.original.platform_name.trim() || msg.fallbacks.unnamedPlatform;
      return (
        <div className="min-w-0">
          <Link to="/platforms/$platformId" params={{ platformId: row.original.platform_id }} className="block min-w-0 truncate font-medium hover:text-primary hover:underline" title={name}>
            {name}
          </Link>
          {row.original.platform_description ? <span className="block min-w-0 truncate text-xs text-base-content/70" title={row.original.platform_description}>{row.original.platform_description}</span> : null}
        </div>
      );
    },
  }),
  col.accessor("status", { id: "status", header: "Status", cell: (c) => <StatusBadge kind="platform" status={c.getValue()} /> }),
  col.accessor("prompt_count", { id: "prompt_count", header: "Prompts", meta: { align: "right" }, cell: (c) => <Num value={c.getValue()} /> }),
  col.accessor("created_at", { id: "created_at", header: "Created", cell: (c) => <DateText iso={c.getValue()} /> }),
  col.accessor("updated_at", { id: "updated_at", header: "Updated", cell: (c) => (c.getValue() ? <DateText iso={c.getValue()} /> : <Muted>{msg.prompts.never}</Muted>) }),
];

/**
 * SPEC.md §2 "/platforms": cards Total, Active, Inactive, Draft (over all platforms); status
 * filter; search; rows open /platforms/{platform_id}; Add Platform; "Error loading platforms" with Retry.
 */
export default function PlatformsPage() {
  const list = useServerList<PlatformListItem, PlatformPage["summary"]>({
    mode: "url",
    defaults: { sort: "created_at", order: "desc" },
    filters: { status: "status" },
    query: platformListQuery,
  });
  const navigate = useNavigate();
  const { data, failed, query } = list;
  const { status } = list.state.filters;
  const exact = data?.summary_exact ?? true;
  const narrowed = Boolean(status || list.state.q);

  return (
    <>
      <PageHeader
        title={msg.platforms.title}
        subtitle={msg.platforms.subtitle}
        actions={<ActionBar actions={[{ label: msg.platforms.addPlatform, icon: Plus, tone: "primary", need: "editor", primary: true, to: "/platforms/add" }]} />}
      />
      <StatGrid>
        {data ? (
          <>
            <StatCard label="Total" value={formatCount(data.summary.total, exact)} icon={<MonitorSmartphone className="h-6 w-6" />} />
            <StatCard label="Active" value={formatCount(data.summary.active, exact)} icon={<CircleCheck className="h-6 w-6" />} />
            <StatCard label="Inactive" value={formatCount(data.summary.inactive, exact)} icon={<CircleSlash className="h-6 w-6" />} />
            <StatCard label="Draft" value={formatCount(data.summary.draft, exact)} icon={<FilePen className="h-6 w-6" />} />
          </>
        ) : (
          Array.from({ length: limits.skeletonCards }, (_, i) => <StatCardSkeleton key={i} />)
        )}
      </StatGrid>
      <SummaryNote page={data} />

      <section className="mt-6" aria-label="Platform list">
        <Toolbar actions={<ExportCsvButton path="/platforms" query={list.params} total={data?.total} />}>
          <SearchInput value={list.state.q} onChange={list.setQuery} placeholder={msg.platforms.searchPlaceholder} />
          <FilterSelect label="Status" value={status ?? ""} onChange={(v) => list.setFilter({ status: v || undefined })}>
            <option value="">{msg.platforms.allStatuses}</option>
            {platformStatuses.map((s) => <option key={s} value={s}>{titleCase(s)}</option>)}
          </FilterSelect>
        </Toolbar>
        {failed ? (
          <div className="mb-3">
            <ErrorState title={msg.platforms.loadError} message={errorMessage(query.error)} onRetry={() => void query.refetch()} />
          </div>
        ) : (
          <>
            <DataTable
              label={msg.platforms.title}
              columns={columns}
              rows={data?.items}
              rowKey={(p) => p.platform_id}
              sortable={platformSortKeys}
              sort={{ sort: list.state.sort, order: list.state.order }}
              onSort={list.setSort}
              loading={query.isPending || query.isFetching}
              onRowClick={(p) => void navigate({ to: "/platforms/$platformId", params: { platformId: p.platform_id } })}
              empty={<EmptyState title={msg.platforms.empty} text={narrowed ? msg.platforms.emptyFiltered : undefined} />}
            />
            <ListPagination list={list} />
          </>
        )}
      </section>
    </>
  );
}
