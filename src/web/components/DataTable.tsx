import { useEffect, useMemo, useRef, type KeyboardEvent, type ReactNode, type RefObject } from "react";
import {
  createColumnHelper,
  FlexRender,
  tableFeatures,
  useTable,
  type Cell,
  type ColumnDef,
  type Header,
  type HeaderGroup,
  type Row,
  type RowData,
} from "@tanstack/react-table";
import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import { limits, uiMsg } from "../../domain/messages/kit";

/** How a column lays out; declared once per column, used by every table and the phone layout. */
export type ColumnMeta = {
  /** Numbers: right-aligned with tabular figures. */
  align?: "right";
  /** The column that takes the spare width (its text truncates only when there is none left). */
  grow?: boolean;
  /** The row's title on phones, shown first, without a label. */
  primary?: boolean;
  /** Row actions: on phones they sit together on the card's last line. */
  actions?: boolean;
  /** The label on phones when the header is not plain text. */
  label?: string;
  /** The header stays on phones, in the row of sort buttons (a control: the page's select-all box). */
  phoneHeader?: boolean;
};

/** Core table features only: sorting and paging happen in the database. */
// The assertion is what types every column's `meta` (the rule, reading the generic call alone, sees none).
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
export const tableFeatureSet = tableFeatures({ columnMeta: {} as ColumnMeta });
export type Features = typeof tableFeatureSet;
// TanStack Table's own type for one array holding accessor columns of different value types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Column<T extends RowData> = ColumnDef<Features, T, any>;
/** Column helper for rows of type T. */
export const columnsFor = <T extends RowData>() => createColumnHelper<Features, T>();

/**
 * The last column of a table whose rows have actions (Unassign, a row's menu): no visible header
 * (its name for screen readers), the actions at the right end; on phones they sit together on the
 * card's last line (`meta.actions`).
 */
export function actionsColumn<T extends RowData>(cell: (row: T) => ReactNode): Column<T> {
  return columnsFor<T>().display({
    id: "actions",
    meta: { actions: true, label: uiMsg.actions },
    header: () => <span className="sr-only">{uiMsg.actions}</span>,
    cell: ({ row }) => <div className="flex justify-end gap-1">{cell(row.original)}</div>,
  });
}

export type SortState = { sort: string; order: "asc" | "desc" };

type Props<T extends object> = {
  /** Accessible name of the table. */
  label: string;
  columns: Column<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string;
  /** Column ids the server can sort by; their headers become sort buttons. */
  sortable?: readonly string[];
  sort?: SortState;
  onSort?: (next: SortState) => void;
  onRowClick?: (row: T) => void;
  /** Space on a focused row toggles its selection (lists with bulk actions). */
  onRowToggle?: (row: T) => void;
  loading?: boolean;
  /** Shown in place of rows when there are none. */
  empty?: ReactNode;
};

const rowSelector = "tbody > tr[data-row]";

/** Moves focus between focusable rows: arrows, Home and End. */
function moveFocus(event: KeyboardEvent<HTMLTableRowElement>) {
  const rows = [...(event.currentTarget.closest("table")?.querySelectorAll<HTMLTableRowElement>(rowSelector) ?? [])];
  const at = rows.indexOf(event.currentTarget);
  const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: rows.length - 1 }[event.key as "ArrowDown"];
  if (to === undefined || !rows[to]) return false;
  rows[to].focus();
  return true;
}

/**
 * A clickable row is the Tab stop; the links and selection boxes inside it stay clickable but
 * leave the Tab order (Space on the focused row toggles its selection).
 */
function useRowsAsTabStops(body: RefObject<HTMLTableSectionElement | null>, clickable: boolean) {
  useEffect(() => {
    if (!clickable) return;
    body.current
      ?.querySelectorAll<HTMLElement>("tr[data-row] a[href], tr[data-row] input[type=checkbox]")
      .forEach((a) => (a.tabIndex = -1));
  });
}

/**
 * What phones show of the columns: each one's label (its `meta.label`, else its plain-text header)
 * and the primary column, the card's title: the declared one, else the first after the selection box.
 */
function phoneColumns<T extends object>(headers: Header<Features, T>[]) {
  const labels = new Map<string, string>();
  for (const header of headers) {
    const def = header.column.columnDef;
    labels.set(header.column.id, def.meta?.label ?? (typeof def.header === "string" ? def.header : ""));
  }
  const primaryId = (
    headers.find((h) => h.column.columnDef.meta?.primary) ?? headers.find((h) => h.column.id !== "select")
  )?.column.id;
  return { labels, primaryId };
}

/** The sorting of a table's headers: which columns sort, the current order, and its change. */
type Sorting = { sortable: readonly string[]; sort?: SortState; onSort?: (next: SortState) => void };

/** A column's header: a sort button (toggling ascending and descending) when the server sorts by it. */
function HeaderCell<T extends object>({ header, sortable, sort, onSort }: { header: Header<Features, T> } & Sorting) {
  const id = header.column.id;
  const meta = header.column.columnDef.meta;
  const canSort = sortable.includes(id) && onSort;
  const active = sort?.sort === id;
  const ariaSort = active ? (sort.order === "asc" ? "ascending" : "descending") : undefined;
  const content = header.isPlaceholder ? null : <FlexRender header={header} />;
  const align = meta?.align === "right" ? "text-right" : "";
  return (
    <th
      role="columnheader"
      scope="col"
      aria-sort={ariaSort}
      className={`whitespace-nowrap px-2 py-3 font-semibold sm:first:pl-4 sm:last:pr-4 ${align} ${meta?.grow ? "sm:w-full" : ""} max-sm:block max-sm:border-0 max-sm:px-0 max-sm:py-1.5 ${canSort || meta?.phoneHeader ? "" : "max-sm:sr-only"}`}
    >
      {canSort ? (
        <button
          type="button"
          className={`inline-flex items-center gap-1 rounded uppercase hover:text-base-content ${meta?.align === "right" ? "flex-row-reverse" : ""}`}
          onClick={() => onSort({ sort: id, order: active && sort.order === "asc" ? "desc" : "asc" })}
        >
          {content}
          {active ? (
            sort.order === "asc" ? (
              <ArrowUp className="h-3.5 w-3.5" aria-hidden />
            ) : (
              <ArrowDown className="h-3.5 w-3.5" aria-hidden />
            )
          ) : (
            <ArrowUpDown className="h-3.5 w-3.5 opacity-60" aria-hidden />
          )}
        </button>
      ) : (
        content
      )}
    </th>
  );
}

/** The table's head; on phones only its sort buttons (and `meta.phoneHeader` headers) show, in one row. */
function TableHead<T extends object>({
  headerGroups,
  ...sorting
}: { headerGroups: HeaderGroup<Features, T>[] } & Sorting) {
  return (
    <thead
      role="rowgroup"
      className={sorting.onSort && sorting.sortable.length > 0 ? "max-sm:block" : "max-sm:sr-only"}
    >
      {headerGroups.map((group) => (
        <tr
          key={group.id}
          role="row"
          className="bg-base-200/60 text-xs uppercase tracking-wide text-base-content/80 max-sm:flex max-sm:flex-wrap max-sm:gap-x-3 max-sm:rounded-t-box max-sm:px-4 max-sm:py-1"
        >
          {group.headers.map((header) => (
            <HeaderCell key={header.id} header={header} {...sorting} />
          ))}
        </tr>
      ))}
    </thead>
  );
}

/** Placeholder rows while the first page loads. */
function SkeletonRows({ columnCount }: { columnCount: number }) {
  return Array.from({ length: limits.skeletonRows }, (_, i) => (
    <tr key={i} role="row" aria-hidden data-testid="skeleton-row" className="max-sm:block max-sm:px-4 max-sm:py-3">
      {Array.from({ length: columnCount }, (_, j) => (
        <td key={j} role="cell" className="py-3.5 max-sm:block max-sm:px-0 max-sm:py-1">
          <div className="skeleton h-4 w-full max-w-32" />
        </td>
      ))}
    </tr>
  ));
}

/**
 * A cell's layout on phones. It reads "Label   value": the label is generated content, so it is
 * not part of the cell's text on wider screens. Long text (the column that grows) reads as a
 * paragraph under its label instead, left-aligned: right-aligned lines of a comment are hard to read.
 */
function phoneCellClass(meta: ColumnMeta | undefined, primary: boolean, labelled: boolean): string {
  const label = labelled
    ? "max-sm:before:shrink-0 max-sm:before:text-left max-sm:before:text-xs max-sm:before:font-medium max-sm:before:text-base-content/70 max-sm:before:content-[attr(data-label)]"
    : "";
  return primary
    ? "max-sm:order-first max-sm:pb-1 max-sm:text-base"
    : meta?.actions
      ? "max-sm:order-last max-sm:pt-2 max-sm:[&>div]:justify-start max-sm:[&>div]:text-left"
      : meta?.grow
        ? `max-sm:flex max-sm:flex-col max-sm:items-stretch max-sm:gap-0.5 max-sm:text-left ${label}`
        : `max-sm:flex max-sm:items-center max-sm:justify-between max-sm:gap-4 max-sm:text-right ${label}`;
}

/** One cell of a row; `label` is its column's name on phones (none for the primary column and the actions). */
function BodyCell<T extends object>({
  cell,
  primary,
  label,
}: {
  cell: Cell<Features, T>;
  primary: boolean;
  label: string | undefined;
}) {
  const meta = cell.column.columnDef.meta;
  const labelled = Boolean(label) && !primary && !meta?.actions;
  return (
    <td
      role="cell"
      data-label={labelled ? label : undefined}
      className={`px-2 py-3 align-middle sm:first:pl-4 sm:last:pr-4 ${meta?.align === "right" ? "text-right tabular-nums" : ""} ${meta?.grow ? "sm:w-full sm:max-w-0 sm:min-w-56" : ""} max-sm:block max-sm:min-w-0 max-sm:border-0 max-sm:px-0 max-sm:py-0.5 ${phoneCellClass(meta, primary, labelled)}`}
    >
      <FlexRender cell={cell} />
    </td>
  );
}

/**
 * One record's row: a click opens it, and when it opens or toggles it is a Tab stop with Enter
 * (open), Space (toggle its selection), arrows, Home and End (move between rows).
 */
function DataRow<T extends object>({
  row,
  phone,
  loading,
  onRowClick,
  onRowToggle,
}: {
  row: Row<Features, T>;
  phone: ReturnType<typeof phoneColumns<T>>;
} & Pick<Props<T>, "loading" | "onRowClick" | "onRowToggle">) {
  return (
    <tr
      role="row"
      data-row
      className={`${onRowClick ? "cursor-pointer hover:bg-base-200/60 focus-visible:bg-base-200/60" : ""} ${loading ? "opacity-60" : ""} max-sm:flex max-sm:flex-col max-sm:gap-1 max-sm:border-t max-sm:border-base-300 max-sm:px-4 max-sm:py-3`}
      onClick={
        onRowClick
          ? (e) => {
              // Links and buttons inside the row keep their own behaviour.
              if ((e.target as HTMLElement).closest("a,button,input,select,label,[role=menu]")) return;
              onRowClick(row.original);
            }
          : undefined
      }
      onKeyDown={
        onRowClick || onRowToggle
          ? (e) => {
              if (e.target !== e.currentTarget) return;
              if (e.key === "Enter" && onRowClick) onRowClick(row.original);
              else if (e.key === " " && onRowToggle) {
                e.preventDefault();
                onRowToggle(row.original);
              } else if (moveFocus(e)) e.preventDefault();
            }
          : undefined
      }
      tabIndex={onRowClick || onRowToggle ? 0 : undefined}
    >
      {row.getAllCells().map((cell) => (
        <BodyCell
          key={cell.id}
          cell={cell}
          primary={cell.column.id === phone.primaryId}
          label={phone.labels.get(cell.column.id)}
        />
      ))}
    </tr>
  );
}

/**
 * A table of one page of server-sorted rows: sort buttons in headers (toggling ascending and
 * descending, SPEC.md §9), skeleton rows while loading, an empty state.
 *
 * Keyboard: when rows open a record, each row is one Tab stop (links inside leave the Tab order),
 * arrow keys, Home and End move between rows, and Enter opens; with `onRowToggle` (a list with bulk
 * actions) Space toggles the focused row's selection. Column `meta` sets numbers
 * right-aligned with tabular figures and which column takes the spare width. Under 640 px each row
 * becomes a stacked card ("Label: value" lines) with its actions on one line, so the page never
 * scrolls sideways.
 */
export function DataTable<T extends object>({
  label,
  columns,
  rows,
  rowKey,
  sortable = [],
  sort,
  onSort,
  onRowClick,
  onRowToggle,
  loading,
  empty,
}: Props<T>) {
  const data = useMemo(() => rows ?? [], [rows]);
  const table = useTable({ features: tableFeatureSet, columns, data, getRowId: (row: T) => rowKey(row) });
  const headerGroups = table.getHeaderGroups();
  const columnCount = columns.length;
  const body = useRef<HTMLTableSectionElement>(null);
  useRowsAsTabStops(body, Boolean(onRowClick));
  const phone = phoneColumns(headerGroups[0]?.headers ?? []);

  return (
    <div className="rounded-box border border-base-300 bg-base-100 sm:overflow-x-auto">
      <table role="table" className="table table-sm max-sm:block" aria-label={label} aria-busy={loading || undefined}>
        <TableHead headerGroups={headerGroups} sortable={sortable} sort={sort} onSort={onSort} />
        <tbody role="rowgroup" ref={body} className="max-sm:block">
          {loading && !rows ? (
            <SkeletonRows columnCount={columnCount} />
          ) : data.length === 0 ? (
            <tr role="row" className="max-sm:block">
              <td role="cell" colSpan={columnCount} className="py-12 text-center max-sm:block">
                {empty}
              </td>
            </tr>
          ) : (
            table
              .getRowModel()
              .rows.map((row) => (
                <DataRow
                  key={row.id}
                  row={row}
                  phone={phone}
                  loading={loading}
                  onRowClick={onRowClick}
                  onRowToggle={onRowToggle}
                />
              ))
          )}
        </tbody>
      </table>
    </div>
  );
}
