import { useMemo, useState, type ReactNode } from "react";
import { CircleCheck, CircleSlash, Plus, type LucideIcon } from "lucide-react";
import type { OperatorRole } from "../../domain/enums";
import { limits, listsMsg } from "../../domain/messages/kit";
import { ApiError, errorMessage } from "../api/client";
import { useNavigate } from "@tanstack/react-router";
import type { ServerList, useServerList } from "../lib/server-list";
import { SummaryNote } from "../lib/SummaryNote";
import { ActionBar, RoleGate, type Action } from "./actions";
import { useCan } from "../auth/permissions";
import { BulkBar, BulkDialog, selectColumn, useRowSelection, type BulkActionSpec, type BulkSpec } from "./bulk";
import { DataTable, type Column } from "./DataTable";
import { ExportCsvButton } from "./ExportCsvButton";
import { titleCase } from "./case";
import { FilterSelect, SearchInput, Toolbar } from "./inputs";
import { formatCount, ListPagination } from "./ListPagination";
import type { RecordRef } from "./record-ref";
import type { Target } from "../lib/target";
import { ErrorState, NotAllowed, PageHeader, StatCard, StatCardSkeleton, StatGrid } from "./ui";
import { ColumnsMenu } from "./views/ColumnsMenu";
import { savedViewListOf, useListViews } from "./views/useListViews";
import { columnInfo } from "./views/view-state";
import { ViewNotes, ViewsMenu } from "./views/ViewsMenu";

/**
 * The columns a list shows: the chosen ones in the chosen order, then the fixed ones (row actions)
 * where the page declared them.
 */
function arrangeColumns<I extends object>(columns: Column<I>[], visible: string[]): Column<I>[] {
  const byId = new Map(columns.map((c) => [columnInfo(c).id, c]));
  const chosen = visible.map((id) => byId.get(id)).filter((c): c is Column<I> => Boolean(c));
  const fixed = columns.filter((c) => columnInfo(c).fixed);
  return [...chosen, ...fixed];
}

/** The result of `useServerList` for rows `I` and summary `S`. */
export type ServerListOf<I, S> = ReturnType<typeof useServerList<I, S>>;

/** One summary card: its label, its icon and the count it shows from the page's summary. */
export type ListCard<S> = { label: string; icon: LucideIcon; value: (summary: NonNullable<S>) => number };

/** The cards most lists open with: the summary's `total` (with the list's own icon), `active` and `inactive`. */
export const listCards = {
  total: (icon: LucideIcon, label = "Total"): ListCard<{ total: number }> => ({ label, icon, value: (s) => s.total }),
  active: { label: "Active", icon: CircleCheck, value: (s) => s.active } satisfies ListCard<{ active: number }>,
  inactive: { label: "Inactive", icon: CircleSlash, value: (s) => s.inactive } satisfies ListCard<{ inactive: number }>,
};

type Props<I extends object, S> = {
  /** The screen's list (`useServerList`): state, query, data, failed. */
  list: ServerListOf<I, S>;
  /** The page header's title (also the document title) and subtitle. */
  title: string;
  subtitle?: ReactNode;
  /** The header's primary "Add …" button (editors and up), opening `to`. */
  add?: { label: string; link: Target };
  /** Other header actions, in place of `add`. */
  actions?: ReactNode;
  /** Between the header and the cards (a success banner, an action's error). */
  banner?: ReactNode;
  /**
   * Summary cards; none: no card grid and no summary note. Their summary type is the list's (not
   * inferred from them: a shared card such as `listCards.active` reads only part of it).
   */
  cards?: ListCard<NoInfer<S>>[];
  /**
   * The list's region: a `<section>` named by `label`, or by a visible `<h2>` (`heading`, whose
   * element gets `headingId`). Neither: the toolbar and table follow the header directly.
   */
  section?: { label: string } | { heading: ReactNode; headingId: string };
  /** The search box's placeholder; none: no search box. */
  search?: string;
  /** Filter controls in the toolbar, after the search box. */
  filters?: ReactNode;
  /** The API path of the Export CSV button (the list's own parameters are passed). */
  exportPath: string;
  /** Between the toolbar and the table, also on error (a filter row, a bulk selection bar). */
  aboveTable?: ReactNode;
  /** Right above the table, only when the table is shown (a loading line). */
  tableIntro?: ReactNode;
  /** What a row is: its key, its name (its selection box's label) and the record it opens (on click, or Enter). */
  record: RecordRef<I>;
  table: {
    /** Accessible name of the table. */
    label: string;
    columns: Column<I>[];
    /** Column ids the server sorts by; none: no sort buttons. */
    sortable?: readonly string[];
    /** The empty state (the page decides between "none yet", "none match" and "failed"). */
    empty: ReactNode;
  };
  /** The error's title ("Error loading prompts"); the server's message and Retry follow. */
  errorTitle: string;
  /** On error, keep the (empty) table under the error instead of replacing it. */
  errorKeepsTable?: boolean;
  /** After the list (dialogs). */
  children?: ReactNode;
  /**
   * The list's bulk actions (docs/bulk-actions.md): for editors and admins, a selection column,
   * the bulk bar (its actions, Export selection) and the preview / progress / report dialog.
   */
  bulk?: BulkSpec;
};

/**
 * The scaffold of a list screen, so that every list looks and behaves alike:
 *
 *  1. `PageHeader` (title, subtitle, the "Add …" button or other actions), then `banner`;
 *  2. when there are `cards`: a `StatGrid` of `StatCard`s whose values are `formatCount(value,
 *     summary_exact)` ("about 1.2M" for estimates), one `StatCardSkeleton` per card (at most
 *     `limits.skeletonCards`) while loading, "Not available" when the load failed, then
 *     `SummaryNote` ("Counts as of …");
 *  3. the list's `<section>` (named by `section`): a `Toolbar` with the search box, `filters` and
 *     Export CSV, then `aboveTable`, then either an `ErrorState` (`errorTitle`, the server's
 *     message, Retry) in place of the table, or `tableIntro`, the `DataTable` (sorted through the
 *     list, loading skeleton rows while fetching, the page's empty state) and `ListPagination`.
 *     With `errorKeepsTable` the error sits above a table showing the empty state instead.
 *
 * A 403 answer (the operator's role may not read this list) replaces all of it with one
 * `NotAllowed` statement under the title.
 *
 * Search, filters, sort and page are the list's (`useServerList`: in the URL for screens). The
 * page keeps its own specifics: columns, texts (src/domain/messages.ts), filter controls, empty
 * states, dialogs.
 *
 * SPEC.md sections relying on it: §2 (the list screens: /customers, /teams, /users, /skills,
 * /prompts, /platforms, /comments; cards, search, filters, columns, Add, Export CSV, the empty,
 * loading and error states with Retry), §8 (failed loads: error with Retry, counts), §9 (sortable
 * headers, paging); also the audit and operators screens.
 */
export function ListScreen<I extends object, S>(props: Props<I, S>) {
  const { list, section } = props;
  const screen = useListScreen(props);
  if (screen.refused) {
    return (
      <>
        <PageHeader title={props.title} subtitle={props.subtitle} />
        <NotAllowed reason={errorMessage(list.query.error)} />
      </>
    );
  }
  const body = <ListBody props={props} screen={screen} />;
  return (
    <>
      <PageHeader
        title={props.title}
        subtitle={props.subtitle}
        actions={props.add ? <ActionBar actions={[addAction(props.add)]} /> : props.actions}
      />
      {props.banner}
      {props.cards ? <ListCards cards={props.cards} list={list} /> : null}
      {section ? (
        <section
          className="mt-6"
          {...("heading" in section ? { "aria-labelledby": section.headingId } : { "aria-label": section.label })}
        >
          {body}
        </section>
      ) : (
        body
      )}
      {props.children}
      {screen.canBulk && props.bulk ? (
        <BulkDialog
          spec={props.bulk}
          action={screen.bulkAction}
          selection={screen.sel.selection}
          filters={screen.filters}
          q={list.state.q || undefined}
          onClose={(finished) => {
            screen.setBulkAction(null);
            if (finished) screen.sel.clear();
          }}
        />
      ) : null}
    </>
  );
}

/** The header's "Add …" button: the page's main action, for editors and up. */
const addAction = (add: { label: string; link: Target }): Action => ({
  label: add.label,
  icon: Plus,
  tone: "primary",
  need: "editor",
  primary: true,
  link: add.link,
});

/**
 * What a list screen works out from its list before it draws: whether the server refused it, the
 * filters in force, the columns (the operator's choice and order, the selection column for bulk
 * actions), the row selection and the bulk action being run.
 */
function useListScreen<I extends object, S>(props: Props<I, S>) {
  const { list, table } = props;
  const { data, failed, query } = list;
  // A role the server refuses (a URL typed or shared, a role lowered meanwhile): one statement of
  // it, no toolbar and no Retry, which cannot help.
  const refused = failed && query.error instanceof ApiError && query.error.status === 403;
  const canBulk = useCan("editor") && Boolean(props.bulk);
  const {
    limit: _l,
    cursor: _c,
    offset: _o,
    at: _a,
    sort: _s,
    order: _r,
    q: _q,
    ...filters
  } = list.params as Record<string, unknown>;
  // The columns the operator may choose, in the spec's order; recomputed only when they change
  // (pages build their column declarations on every render).
  const choiceKey = JSON.stringify(
    table.columns
      .map((c) => columnInfo(c))
      .filter((c) => !c.fixed)
      .map((c) => [c.id, c.label]),
  );
  const choices = useMemo(
    () => (JSON.parse(choiceKey) as [string, string][]).map(([id, label]) => ({ id, label })),
    [choiceKey],
  );
  const views = useListViews(list, savedViewListOf(props.exportPath), choices);
  const shownColumns = views.enabled ? arrangeColumns(table.columns, views.visibleColumns) : table.columns;
  const sel = useRowSelection(data?.items, props.record.key, JSON.stringify([filters, list.state.q]));
  const [bulkAction, setBulkAction] = useState<BulkActionSpec | null>(null);
  const columns =
    canBulk && props.bulk ? [selectColumn(sel, props.record.label ?? props.record.key), ...shownColumns] : shownColumns;
  return { refused, canBulk, filters, choices, views, sel, bulkAction, setBulkAction, columns };
}

type ListScreenState<I extends object> = ReturnType<typeof useListScreen<I, unknown>>;

/**
 * The list's region: its heading, the toolbar (search, filters, views and columns, Export CSV),
 * the bulk bar, then the error with Retry or the table and its pager.
 */
function ListBody<I extends object, S>({ props, screen }: { props: Props<I, S>; screen: ListScreenState<I> }) {
  const { list, section } = props;
  const { data, failed, query } = list;
  const { views, choices, filters } = screen;
  return (
    <>
      {section && "heading" in section ? (
        <h2 id={section.headingId} className="mb-3 text-lg font-semibold">
          {section.heading}
        </h2>
      ) : null}
      <Toolbar actions={<ExportCsvButton path={props.exportPath} query={list.params} total={data?.total} />}>
        {props.search !== undefined ? (
          <SearchInput value={list.state.q} onChange={list.setQuery} placeholder={props.search} />
        ) : null}
        {props.filters}
        {views.enabled ? (
          <div className="flex min-w-0 flex-wrap items-center gap-2">
            <ViewsMenu views={views} />
            <ColumnsMenu
              columns={choices}
              visible={views.visibleColumns}
              onChange={views.setColumns}
              viewName={views.view?.name}
            />
          </div>
        ) : null}
      </Toolbar>
      {views.enabled ? <ViewNotes views={views} /> : null}
      {screen.canBulk && props.bulk ? (
        <BulkBar
          spec={props.bulk}
          sel={screen.sel}
          total={data?.total}
          pageCount={data?.items.length ?? 0}
          filters={{ ...filters, ...(list.state.q ? { q: list.state.q } : {}) }}
          exportPath={props.exportPath}
          onAction={screen.setBulkAction}
        />
      ) : null}
      {props.aboveTable}
      {failed ? (
        <div className="mb-3">
          <ErrorState
            title={props.errorTitle}
            message={errorMessage(query.error)}
            onRetry={() => void query.refetch()}
          />
        </div>
      ) : null}
      {failed && !props.errorKeepsTable ? null : <ListTable props={props} screen={screen} />}
    </>
  );
}

/** The list's table (sorted through the list, skeleton rows while loading) and its pager. */
function ListTable<I extends object, S>({ props, screen }: { props: Props<I, S>; screen: ListScreenState<I> }) {
  const { list, table } = props;
  const { data, failed, query } = list;
  const navigate = useNavigate();
  const rowLink = props.record.link;
  // Asking again while the server counts (`counting`) is no load the user waits for.
  const loading = !failed && (query.isPending || (query.isFetching && !data?.counting) || screen.views.columnsPending);
  const sorting = table.sortable
    ? { sortable: table.sortable, sort: { sort: list.state.sort, order: list.state.order }, onSort: list.setSort }
    : {};
  return (
    <>
      {props.tableIntro}
      <DataTable
        label={table.label}
        columns={screen.columns}
        rows={failed ? [] : data?.items}
        onRowToggle={screen.canBulk ? (row) => screen.sel.toggle(row) : undefined}
        rowKey={props.record.key}
        {...sorting}
        loading={loading}
        onRowClick={rowLink ? (row) => void navigate(rowLink(row)) : undefined}
        empty={table.empty}
      />
      <ListPagination list={list} pageSizes={screen.views.enabled} />
    </>
  );
}

/**
 * The summary cards: each count (`formatCount`, "about 1.2M" for an estimate), "Counting…" while
 * the server counts a search's matches, "Not available" when the load failed, skeletons while
 * loading; then the note of when they were counted.
 */
function ListCards<I, S>({ cards, list }: { cards: ListCard<S>[]; list: ServerListOf<I, S> }) {
  const { data, failed } = list;
  const exact = data?.summary_exact ?? true;
  const summary = data?.summary;
  // The server counts the search's matches: the cards say so until the page is asked for again.
  const counting = Boolean(data?.counting && !data.summary);
  const cardValue = (value: ListCard<S>["value"]) =>
    failed && !summary ? (
      <CardNote text={listsMsg.cardUnavailable} />
    ) : counting || !summary ? (
      <CardNote text={listsMsg.counting} />
    ) : exact ? (
      formatCount(value(summary))
    ) : (
      <span className="whitespace-nowrap text-xl">{formatCount(value(summary), false)}</span>
    );
  return (
    <>
      <StatGrid columns={cards.length}>
        {(failed && !summary) || counting || summary
          ? cards.map(({ label, icon: Icon, value }) => (
              <StatCard key={label} label={label} value={cardValue(value)} icon={<Icon className="h-6 w-6" />} />
            ))
          : Array.from({ length: Math.min(cards.length, limits.skeletonCards) }, (_, i) => (
              <StatCardSkeleton key={i} />
            ))}
      </StatGrid>
      <SummaryNote page={data} />
    </>
  );
}

/**
 * A list's filter over a fixed set of values ("Status": "All Statuses", Active, Inactive, Draft),
 * kept with the list's state (`name` in the URL for screens); choosing one goes back to page 1.
 */
export function ListFilter<V extends string>({
  list,
  name,
  label,
  all,
  options,
  optionLabel = titleCase,
}: {
  list: Pick<ServerList, "state" | "setFilter">;
  /** The filter's name in the list's state. */
  name: string;
  label: string;
  /** The entry that clears it ("All Statuses"). */
  all: string;
  /** The values, shown title-cased unless `optionLabel` names them. */
  options: readonly V[];
  optionLabel?: (option: V) => string;
}) {
  return (
    <FilterSelect
      label={label}
      value={list.state.filters[name] ?? ""}
      onChange={(v) => list.setFilter({ [name]: v || undefined })}
    >
      <option value="">{all}</option>
      {options.map((o) => (
        <option key={o} value={o}>
          {optionLabel(o)}
        </option>
      ))}
    </FilterSelect>
  );
}

/** A card's line in place of its number: counting, or not available. */
function CardNote({ text }: { text: string }) {
  return <span className="whitespace-nowrap text-base font-normal text-base-content/70">{text}</span>;
}

/** A screen for `need` and above only: any other role reaching its URL sees why, and nothing is loaded. */
export function gatedScreen(need: OperatorRole, title: string, Screen: () => ReactNode) {
  return function GatedScreen() {
    return (
      <RoleGate need={need} title={title}>
        <Screen />
      </RoleGate>
    );
  };
}
