import { useMemo, type ReactNode } from "react";
import { createColumnHelper, tableFeatures, useTable, type ColumnDef, type RowData } from "@tanstack/react-table";
import { ArrowDown, ArrowUp, ArrowUpDown, ChevronLeft, ChevronRight } from "lucide-react";
import { limits } from "../../domain/messages";
import { formatNumber } from "./format";

/** Core table features only: sorting and paging happen in the database. */
export const tableFeatureSet = tableFeatures({});
export type Features = typeof tableFeatureSet;
export type Column<T extends RowData> = ColumnDef<Features, T, any>;
/** Column helper for rows of type T. */
export const columnsFor = <T extends RowData>() => createColumnHelper<Features, T>();

export type SortState = { sort: string; order: "asc" | "desc" };

type Props<T extends Record<string, any>> = {
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
  loading?: boolean;
  /** Shown in place of rows when there are none. */
  empty?: ReactNode;
};

/**
 * A table of one page of server-sorted rows: sort buttons in headers (toggling ascending and
 * descending, SPEC.md §9), skeleton rows while loading, an empty state, and rows that open on click
 * or Enter. Cell alignment: numbers right, everything else left.
 */
export function DataTable<T extends Record<string, any>>({ label, columns, rows, rowKey, sortable = [], sort, onSort, onRowClick, loading, empty }: Props<T>) {
  const data = useMemo(() => rows ?? [], [rows]);
  const table = useTable({ features: tableFeatureSet, columns, data, getRowId: (row: T) => rowKey(row) });
  const headerGroups = table.getHeaderGroups();
  const columnCount = columns.length;

  return (
    <div className="overflow-x-auto rounded-box border border-base-300 bg-base-100">
      <table className="table table-sm" aria-label={label} aria-busy={loading || undefined}>
        <thead>
          {headerGroups.map((group) => (
            <tr key={group.id} className="bg-base-200/60 text-xs uppercase tracking-wide text-base-content/70">
              {group.headers.map((header) => {
                const id = header.column.id;
                const canSort = sortable.includes(id) && onSort;
                const active = sort?.sort === id;
                const ariaSort = active ? (sort.order === "asc" ? "ascending" : "descending") : undefined;
                const content = header.isPlaceholder ? null : <table.FlexRender header={header} />;
                return (
                  <th key={header.id} scope="col" aria-sort={ariaSort} className="whitespace-nowrap py-3 font-semibold">
                    {canSort ? (
                      <button
                        type="button"
                        className="inline-flex items-center gap-1 uppercase hover:text-base-content"
                        onClick={() => onSort({ sort: id, order: active && sort.order === "asc" ? "desc" : "asc" })}
                      >
                        {content}
                        {active ? (
                          sort.order === "asc" ? <ArrowUp className="h-3.5 w-3.5" aria-hidden /> : <ArrowDown className="h-3.5 w-3.5" aria-hidden />
                        ) : (
                          <ArrowUpDown className="h-3.5 w-3.5 opacity-40" aria-hidden />
                        )}
                      </button>
                    ) : (
                      content
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {loading && !rows ? (
            Array.from({ length: limits.skeletonRows }, (_, i) => (
              <tr key={i} aria-hidden data-testid="skeleton-row">
                {Array.from({ length: columnCount }, (_, j) => (
                  <td key={j} className="py-3.5">
                    <div className="skeleton h-4 w-full max-w-32" />
                  </td>
                ))}
              </tr>
            ))
          ) : data.length === 0 ? (
            <tr>
              <td colSpan={columnCount} className="py-12 text-center">{empty}</td>
            </tr>
          ) : (
            table.getRowModel().rows.map((row) => (
              <tr
                key={row.id}
                className={`${onRowClick ? "cursor-pointer hover:bg-base-200/60" : ""} ${loading ? "opacity-60" : ""}`}
                onClick={onRowClick ? (e) => {
                  // Links and buttons inside the row keep their own behaviour.
                  if ((e.target as HTMLElement).closest("a,button,input,select,label")) return;
                  onRowClick(row.original);
                } : undefined}
                onKeyDown={onRowClick ? (e) => {
                  if (e.key === "Enter" && e.target === e.currentTarget) onRowClick(row.original);
                } : undefined}
                tabIndex={onRowClick ? 0 : undefined}
              >
                {row.getAllCells().map((cell) => (
                  <td key={cell.id} className="py-3 align-middle">
                    <table.FlexRender cell={cell} />
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

/** "Showing 1–50 of 600" with Previous / Next; hidden when everything fits on one page. */
export function Pagination({ total, limit, offset, onPage }: { total: number; limit: number; offset: number; onPage: (offset: number) => void }) {
  if (total <= limit && offset === 0) {
    return total > 0 ? <p className="mt-3 text-sm text-base-content/60">{formatNumber(total)} {total === 1 ? "row" : "rows"}</p> : null;
  }
  const from = Math.min(total, offset + 1);
  const to = Math.min(total, offset + limit);
  const page = Math.floor(offset / limit) + 1;
  const pages = Math.max(1, Math.ceil(total / limit));
  return (
    <nav aria-label="Pagination" className="mt-3 flex flex-wrap items-center justify-between gap-3 text-sm">
      <p className="text-base-content/70">
        Showing {formatNumber(from)}–{formatNumber(to)} of {formatNumber(total)}
      </p>
      <div className="join">
        <button type="button" className="btn btn-sm join-item" disabled={offset === 0} onClick={() => onPage(Math.max(0, offset - limit))}>
          <ChevronLeft className="h-4 w-4" aria-hidden /> Previous
        </button>
        <span className="btn btn-sm join-item pointer-events-none" aria-current="page">
          Page {page} of {pages}
        </span>
        <button type="button" className="btn btn-sm join-item" disabled={offset + limit >= total} onClick={() => onPage(offset + limit)}>
          Next <ChevronRight className="h-4 w-4" aria-hidden />
        </button>
      </div>
    </nav>
  );
}
