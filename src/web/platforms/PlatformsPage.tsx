import { CircleCheck, CircleSlash, FilePen, MonitorSmartphone } from "lucide-react";
import { platformStatuses } from "../../domain/enums";
import { msg } from "../../domain/messages";
import { platformSortKeys, type PlatformListItem, type PlatformPage } from "../../domain/platforms";
import { StatusBadge } from "../components/badges";
import { columnsFor } from "../components/DataTable";
import { EmptyState } from "../components/inputs";
import { ListFilter, ListScreen } from "../components/ListScreen";
import { DateText, Muted, Num } from "../components/text";
import { RecordLink } from "../components/RecordLink";
import { useServerList } from "../lib/server-list";
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
        <RecordLink
          to="/platforms/$platformId"
          params={{ platformId: row.original.platform_id }}
          text={name}
          detail={row.original.platform_description}
        />
      );
    },
  }),
  col.accessor("status", {
    id: "status",
    header: "Status",
    cell: (c) => <StatusBadge kind="platform" status={c.getValue()} />,
  }),
  col.accessor("prompt_count", {
    id: "prompt_count",
    header: "Prompts",
    meta: { align: "right" },
    cell: (c) => <Num value={c.getValue()} />,
  }),
  col.accessor("created_at", { id: "created_at", header: "Created", cell: (c) => <DateText iso={c.getValue()} /> }),
  col.accessor("updated_at", {
    id: "updated_at",
    header: "Updated",
    cell: (c) => (c.getValue() ? <DateText iso={c.getValue()} /> : <Muted>{msg.prompts.never}</Muted>),
  }),
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

  return (
    <ListScreen
      list={list}
      title={msg.platforms.title}
      subtitle={msg.platforms.subtitle}
      add={{ label: msg.platforms.addPlatform, to: "/platforms/add" }}
      cards={[
        { label: "Total", icon: MonitorSmartphone, value: (s) => s.total },
        { label: "Active", icon: CircleCheck, value: (s) => s.active },
        { label: "Inactive", icon: CircleSlash, value: (s) => s.inactive },
        { label: "Draft", icon: FilePen, value: (s) => s.draft },
      ]}
      section={{ label: "Platform list" }}
      search={msg.platforms.searchPlaceholder}
      filters={
        <ListFilter
          list={list}
          name="status"
          label="Status"
          all={msg.platforms.allStatuses}
          options={platformStatuses}
        />
      }
      exportPath="/platforms"
      bulk={{
        entity: "platforms",
        actions: [{ action: "activate" }, { action: "deactivate" }],
        rowLabel: (p) => p.platform_name,
      }}
      table={{
        label: msg.platforms.title,
        columns,
        rowKey: (p) => p.platform_id,
        sortable: platformSortKeys,
        rowLink: (p) => ({ to: "/platforms/$platformId", params: { platformId: p.platform_id } }),
        empty: (
          <EmptyState title={msg.platforms.empty} text={list.narrowed ? msg.platforms.emptyFiltered : undefined} />
        ),
      }}
      errorTitle={msg.platforms.loadError}
    />
  );
}
