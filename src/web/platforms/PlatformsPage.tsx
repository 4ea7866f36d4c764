import { MonitorSmartphone, ShieldCheck } from "lucide-react";
import { platformStatuses } from "../../domain/enums";
import { msg } from "../../domain/messages";
import { platformSortKeys, type PlatformListItem } from "../../domain/platforms";
import { Tag } from "../components/badges";
import { column, countColumn, createdColumn, statusColumn, updatedColumn } from "../components/columns";
import { RecordLink } from "../components/RecordLink";
import { FilterSelect } from "../components/inputs";
import { statusSetCards } from "../components/list-cards";
import { ListEmpty, screenTexts } from "../components/list-texts";
import { FilterGroup, StatusFilter } from "../components/list-filters";
import { ListScreen } from "../components/ListScreen";
import { useScreenList } from "../lib/screen-list";
import { platformListQuery } from "./queries";

/** "Reviewed" beside a platform whose prompts' changes need review. */
function ReviewedTag() {
  return (
    <span className="shrink-0" title={msg.platforms.reviewedTitle} data-testid="platform-reviewed">
      <Tag tone="info">
        <ShieldCheck className="h-3 w-3" aria-hidden />
        {msg.platforms.reviewed}
      </Tag>
    </span>
  );
}

const columns = [
  column<PlatformListItem>(
    "platform_name",
    "Platform",
    (p) => (
      <div className="flex min-w-0 items-start gap-2">
        <RecordLink
          to="/platforms/$platformId"
          params={{ platformId: p.platform_id }}
          text={p.platform_name.trim() || msg.fallbacks.unnamedPlatform}
          detail={p.platform_description}
        />
        {p.needs_review ? <ReviewedTag /> : null}
      </div>
    ),
    { grow: true, primary: true },
  ),
  statusColumn<PlatformListItem>("platform", (p) => p.status),
  countColumn<PlatformListItem>("prompt_count", "Prompts"),
  createdColumn<PlatformListItem>(),
  updatedColumn<PlatformListItem>(),
];

/**
 * SPEC.md §2 "/platforms": cards Total, Active, Inactive, Draft (over all platforms); status
 * filter; the Review filter (docs/prompt-review.md), reviewed platforms tagged beside their name; search; rows open /platforms/{platform_id}; Add Platform; "Error loading platforms" with Retry.
 */
export default function PlatformsPage() {
  const list = useScreenList(platformListQuery, {
    status: "status",
    needs_review: "needs_review",
  });

  return (
    <ListScreen
      list={list}
      {...screenTexts(msg.platforms)}
      add={{ label: msg.platforms.add, link: { to: "/platforms/add" } }}
      cards={statusSetCards(MonitorSmartphone, platformStatuses)}
      section={{ label: "Platform list" }}
      search={msg.platforms.searchPlaceholder}
      aboveTable={
        <FilterGroup>
          <StatusFilter list={list} all={msg.platforms.allStatuses} options={platformStatuses} />
          <FilterSelect
            label={msg.platforms.needsReviewFilter}
            value={list.state.filters.needs_review ?? ""}
            // As a boolean, so the URL reads `needs_review=true` (the status filter's way).
            // Cast: `setFilter` takes text, and the text "true" would be written quoted (`%22true%22`).
            onChange={(v) => list.setFilter({ needs_review: (v ? v === "true" : undefined) as never })}
          >
            <option value="">{msg.platforms.anyReview}</option>
            <option value="true">{msg.platforms.reviewed}</option>
            <option value="false">{msg.platforms.notReviewed}</option>
          </FilterSelect>
        </FilterGroup>
      }
      exportPath="/platforms"
      bulk={{
        entity: "platforms",
        actions: [{ action: "activate" }, { action: "deactivate" }],
      }}
      record={{
        key: (p) => p.platform_id,
        label: (p) => p.platform_name,
        link: (p) => ({ to: "/platforms/$platformId", params: { platformId: p.platform_id } }),
      }}
      table={{
        label: msg.platforms.title,
        columns,
        sortable: platformSortKeys,
        empty: <ListEmpty list={list} texts={msg.platforms} />,
      }}
    />
  );
}
