import { useEffect, useEffectEvent, useRef, useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { Command } from "cmdk";
import { useDebounce } from "use-debounce";
import {
  ArrowRight,
  Bookmark,
  Building2,
  Clock,
  MessageSquareText,
  MonitorSmartphone,
  Sparkles,
  User,
  UsersRound,
  type LucideIcon,
} from "lucide-react";
import { appMsg } from "../../domain/messages/common";
import { searchMsg } from "../../domain/messages/search";
import { searchHref, searchKindInfo, searchResultSchema, type SearchHit, type SearchKind } from "../../domain/search";
import { api, errorMessage } from "../api/client";
import { StatusBadge, type BadgeKind } from "../components/badges";
import { queryRoots } from "../lib/query-client";
import { savedViewListPaths, savedViewPageSchema, type SavedView } from "../../domain/views";
import { viewListLabels } from "./view-lists";

const icons: Record<SearchKind, LucideIcon> = {
  customers: Building2,
  users: User,
  teams: UsersRound,
  skills: Sparkles,
  prompts: MessageSquareText,
  platforms: MonitorSmartphone,
};

/** The badge colours of each kind's records (SPEC.md §4), as the lists show them. */
const badgeKinds: Record<SearchKind, BadgeKind> = {
  customers: "customer",
  users: "user",
  teams: "team",
  skills: "skill",
  prompts: "prompt",
  platforms: "platform",
};

type Recent = SearchHit & { kind: SearchKind };
/** The saved views the palette shows at most. */
const maxViews = 8;
const recentKey = "pedal.search.recent";
const maxRecent = 8;

/** Records opened from the palette, newest first (kept in this browser). */
function readRecent(): Recent[] {
  try {
    const parsed = JSON.parse(localStorage.getItem(recentKey) ?? "[]") as unknown;
    return Array.isArray(parsed)
      ? (parsed as Recent[])
          .filter((r) => r && typeof r.id === "string" && r.kind in searchKindInfo)
          .slice(0, maxRecent)
      : [];
  } catch {
    return [];
  }
}

function remember(record: Recent) {
  const next = [record, ...readRecent().filter((r) => !(r.id === record.id && r.kind === record.kind))].slice(
    0,
    maxRecent,
  );
  localStorage.setItem(recentKey, JSON.stringify(next));
}

/**
 * The global search palette (SPEC.md §2 "Shell" search box, made real): a modal dialog with the
 * search field and results grouped by kind (at most 5 each, "See all" opens that list filtered),
 * recent records when the field is empty. Keyboard: arrows move, Enter opens, Escape closes.
 * Built on cmdk (the list's keyboard model and ARIA) inside the native <dialog>.
 */
export default function CommandPalette({
  open,
  value,
  onValueChange,
  onClose,
  onReady,
}: {
  open: boolean;
  value: string;
  onValueChange: (value: string) => void;
  onClose: () => void;
  /** Called once the search field has focus: from then on keystrokes go to it. */
  onReady?: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const ready = useEffectEvent(() => onReady?.());
  const navigate = useNavigate();
  // The text typed, 200 ms after typing stops.
  const [q] = useDebounce(value.trim(), 200);
  const [recent, setRecent] = useState<Recent[]>(readRecent);
  // Saved views of every list whose name matches (the first ones by name while the field is empty).
  const views = useQuery({
    queryKey: [...queryRoots.views, "palette", q],
    queryFn: ({ signal }) =>
      api("/views", savedViewPageSchema, { query: { q: q || undefined, limit: maxViews }, signal }),
    enabled: open,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
  const results = useQuery({
    queryKey: [...queryRoots.search, q],
    queryFn: ({ signal }) => api("/search", searchResultSchema, { query: { q }, signal }),
    enabled: open && q.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setRecent(readRecent());
      dialog.showModal();
      const field = input.current;
      if (field) {
        field.focus();
        // After the characters typed while the palette opened: the caret goes on after them.
        field.setSelectionRange(field.value.length, field.value.length);
        ready();
      }
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  const go = (to: string, search?: Record<string, string>) => {
    onClose();
    // The paths are built at run time (a record's page, a saved view's list): the router's typed `to` cannot check them.
    void navigate({ to, search } as never);
  };
  const openView = (view: SavedView) => go(savedViewListPaths[view.list], { view: view.view_id });
  const openRecord = (kind: SearchKind, hit: SearchHit) => {
    remember({ ...hit, kind });
    go(searchHref(kind, hit.id));
  };

  const showing = value.trim().length > 0;
  const groups = showing && results.data?.q === q ? results.data.groups.filter((g) => g.items.length > 0) : [];
  const viewItems = views.data?.items ?? [];
  const nothing = showing && results.data?.q === q && groups.length === 0 && viewItems.length === 0;

  return (
    <dialog
      ref={ref}
      className="modal items-start pt-[8vh]"
      // Escape closes through the state at once, so that a Ctrl+K pressed right after it opens the
      // palette again; the native close event comes a task later, and is stale if it has reopened.
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClose={() => {
        if (!ref.current?.open) onClose();
      }}
      aria-label={searchMsg.dialog}
      data-testid="command-palette"
    >
      <div className="modal-box w-[calc(100%-1.5rem)] max-w-2xl p-0">
        <Command label={searchMsg.dialog} shouldFilter={false} loop className="flex max-h-[70vh] flex-col">
          <div className="border-b border-base-300 px-3 py-2">
            <Command.Input
              ref={input}
              value={value}
              onValueChange={onValueChange}
              placeholder={appMsg.searchPlaceholder}
              aria-label={appMsg.searchPlaceholder}
              maxLength={200}
              className="input input-ghost w-full border-0 text-base focus:outline-none"
            />
          </div>
          <Command.List className="min-h-0 flex-1 overflow-y-auto p-2" aria-label={searchMsg.dialog}>
            {results.isFetching && showing ? (
              <Command.Loading>
                <span className="block px-3 py-2 text-sm text-base-content/70">{searchMsg.searching}</span>
              </Command.Loading>
            ) : null}
            {results.error && showing ? (
              <div role="alert" className="px-3 py-2 text-sm text-error">
                {searchMsg.failed}: {errorMessage(results.error)}
              </div>
            ) : null}
            {nothing ? (
              <p className="px-3 py-6 text-center text-sm text-base-content/70" role="status">
                {searchMsg.noResults(q)}
              </p>
            ) : null}
            {!showing ? (
              recent.length > 0 ? (
                <Command.Group heading={searchMsg.recent} className="palette-group">
                  {recent.map((r) => (
                    <PaletteItem
                      key={`${r.kind}:${r.id}`}
                      value={`recent:${r.kind}:${r.id}`}
                      icon={Clock}
                      hit={r}
                      kind={r.kind}
                      onSelect={() => openRecord(r.kind, r)}
                    />
                  ))}
                </Command.Group>
              ) : (
                <p className="px-3 py-6 text-center text-sm text-base-content/70">{searchMsg.noRecent}</p>
              )
            ) : null}
            {viewItems.length > 0 ? (
              <Command.Group heading={searchMsg.savedViews} className="palette-group">
                {viewItems.map((v) => (
                  <PaletteItem
                    key={v.view_id}
                    value={`view:${v.view_id}`}
                    icon={Bookmark}
                    hit={{
                      id: v.view_id,
                      title: v.name,
                      subtitle: searchMsg.viewSubtitle(viewListLabels[v.list], v.shared, v.mine ? null : v.owner_email),
                      status: null,
                    }}
                    kindLabel={searchMsg.savedViews}
                    onSelect={() => openView(v)}
                  />
                ))}
              </Command.Group>
            ) : null}
            {views.error ? (
              <div role="alert" className="px-3 py-2 text-sm text-error">
                {searchMsg.viewsFailed}: {errorMessage(views.error)}
              </div>
            ) : null}
            {groups.map((g) => (
              <Command.Group key={g.kind} heading={searchKindInfo[g.kind].heading} className="palette-group">
                {g.items.map((hit) => (
                  <PaletteItem
                    key={hit.id}
                    value={`${g.kind}:${hit.id}`}
                    icon={icons[g.kind]}
                    hit={hit}
                    kind={g.kind}
                    onSelect={() => openRecord(g.kind, hit)}
                  />
                ))}
                <Command.Item
                  value={`all:${g.kind}`}
                  onSelect={() => go(searchKindInfo[g.kind].list, { q })}
                  className="flex cursor-pointer items-center gap-2 rounded-md px-3 py-1.5 text-sm text-primary data-[selected=true]:bg-base-200"
                >
                  <ArrowRight className="h-4 w-4" aria-hidden />
                  {searchMsg.seeAll(searchKindInfo[g.kind].heading)}
                </Command.Item>
              </Command.Group>
            ))}
          </Command.List>
          <div className="hidden border-t border-base-300 px-4 py-2 text-xs text-base-content/70 sm:block" aria-hidden>
            {searchMsg.hint}
          </div>
        </Command>
      </div>
      <form method="dialog" className="modal-backdrop">
        <button type="submit" aria-label="Close" tabIndex={-1}>
          close
        </button>
      </form>
    </dialog>
  );
}

function PaletteItem({
  value,
  icon: Icon,
  hit,
  kind,
  kindLabel = kind ? searchKindInfo[kind].heading : "",
  onSelect,
}: {
  value: string;
  icon: LucideIcon;
  hit: SearchHit;
  /** The kind of record (its badge colours); none for a saved view. */
  kind?: SearchKind;
  /** Read after the item's name by screen readers. */
  kindLabel?: string;
  onSelect: () => void;
}) {
  return (
    <Command.Item
      value={value}
      onSelect={onSelect}
      className="flex cursor-pointer items-center gap-3 rounded-md px-3 py-2 data-[selected=true]:bg-base-200"
    >
      <Icon className="h-4 w-4 shrink-0 text-base-content/70" aria-hidden />
      <span className="min-w-0 flex-1">
        <span className="block truncate text-sm font-medium">{hit.title}</span>
        {hit.subtitle ? <span className="block truncate text-xs text-base-content/70">{hit.subtitle}</span> : null}
      </span>
      <span className="sr-only">{kindLabel}</span>
      {hit.status && kind ? (
        <span className="shrink-0">
          <StatusBadge kind={badgeKinds[kind]} status={hit.status} />
        </span>
      ) : null}
    </Command.Item>
  );
}
