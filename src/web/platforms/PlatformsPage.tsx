import { FilePen, MonitorSmartphone } from "lucide-react";
import { platformStatuses } from "../../domain/enums";
import { msg } from "../../domain/messages";
import { platformSortKeys, type PlatformListItem, type PlatformPage } from "../../domain/platforms";
import { countColumn, createdColumn, linkColumn, statusColumn, updatedColumn } from "../components/columns";
import { EmptyState } from "../components/inputs";
import { ListFilter, listCards, ListScreen } from "../components/ListScreen";
import { useServerList } from "../lib/server-list";
import { platformListQuery } from "./queries";

const columns = [
  linkColumn<PlatformListItem>("platform_name", "Platform", (p) => ({
    to: "/platforms/$platformId",
    params: { platformId: p.platform_id },
    text: p.platform_name.trim() || msg.fallbacks.unnamedPlatform,
    detail: p.platform_description,
  })),
  statusColumn<PlatformListItem>("platform", (p) => p.status),
  countColumn<PlatformListItem>("prompt_count", "Prompts"),
  createdColumn<PlatformListItem>(),
  updatedColumn<PlatformListItem>(),
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
        listCards.total(MonitorSmartphone),
        listCards.active,
        listCards.inactive,
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
