import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight } from "lucide-react";
import { viewLimits } from "../../domain/limits";
import { listsMsg } from "../../domain/messages/kit";
import { columnsMsg } from "../../domain/messages/views";
import { formatNumber } from "./format";
import { maxOffset, type ServerList } from "../lib/server-list";

/** A count as the lists show it: exact, or "about 1.2M" for the planner's estimate. */
export function formatCount(n: number, exact = true): string {
  if (exact) return formatNumber(n);
  const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 }).format(n);
  return listsMsg.about(compact);
}

/**
 * The pager of a server list: "Showing 51–100 of 1,204" ("of about 1.2M" for an estimate), then
 * First / Previous / page numbers (only those whose offset the API allows) / Next / Last. Hidden
 * when everything fits on one page. Under 640 px the page numbers give way (the "Page 3 of 12"
 * line stays), so that the pager fits a phone's width. With `pageSizes` (list screens), a "Rows
 * per page" choice (`viewLimits.pageSizes`, `limit` in the URL) follows, also under a list that
 * fits on one page when a smaller size would split it.
 */
export function ListPagination({
  list,
  label = "Pagination",
  pageSizes = false,
}: {
  list: ServerList;
  label?: string;
  pageSizes?: boolean;
}) {
  const data = list.data;
  if (!data) return null;
  const { page, lastPage } = list.pages;
  const limit = list.limit;
  const sizes = pageSizes ? <PageSize list={list} /> : null;
  if (page === 1 && !data.next_cursor) {
    const row =
      data.total > 0 ? (
        <p className="text-sm text-base-content/60">{listsMsg.rows(formatNumber(data.total), data.total === 1)}</p>
      ) : null;
    if (!sizes || data.total <= Math.min(...viewLimits.pageSizes))
      return row ? <div className="mt-3">{row}</div> : null;
    return (
      <div className="mt-3 flex flex-wrap items-center justify-between gap-3 text-sm">
        {row ?? <span />}
        {sizes}
      </div>
    );
  }
  const from = (page - 1) * limit + 1;
  const to = (page - 1) * limit + data.items.length;
  const numbered = Array.from({ length: 5 }, (_, i) => page - 2 + i).filter(
    (p) => p >= 1 && p <= lastPage && (p - 1) * limit <= maxOffset,
  );
  const atStart = !data.prev_cursor && page === 1;
  const atEnd = !data.next_cursor;
  const pages = formatCount(lastPage, data.total_exact);
  return (
    <nav aria-label={label} className="mt-3 flex flex-wrap items-center justify-between gap-3 text-sm">
      <p className="text-base-content/70">
        {listsMsg.showing(formatNumber(from), formatNumber(to), formatCount(data.total, data.total_exact))}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-base-content/70">
          {data.total_exact
            ? listsMsg.pageOf(formatNumber(page), pages)
            : listsMsg.pageOfAbout(formatNumber(page), formatCount(lastPage))}
        </span>
        <div className="join">
          <EndButton label={listsMsg.first} icon={ChevronsLeft} disabled={atStart} onClick={list.pages.first} />
          <button type="button" className="btn btn-sm join-item" disabled={atStart} onClick={list.pages.previous}>
            <ChevronLeft className="h-4 w-4" aria-hidden /> {listsMsg.previous}
          </button>
          {numbered.map((p) => (
            <button
              key={p}
              type="button"
              className={`btn btn-sm join-item tabular-nums max-sm:hidden ${p === page ? "btn-active" : ""}`}
              aria-current={p === page ? "page" : undefined}
              aria-label={`Page ${p}`}
              onClick={() => p !== page && list.pages.go(p)}
            >
              {p}
            </button>
          ))}
          <button type="button" className="btn btn-sm join-item" disabled={atEnd} onClick={list.pages.next}>
            {listsMsg.next} <ChevronRight className="h-4 w-4" aria-hidden />
          </button>
          <EndButton label={listsMsg.last} icon={ChevronsRight} disabled={atEnd} onClick={list.pages.last} />
        </div>
        {sizes}
      </div>
    </nav>
  );
}

/** First or Last: an icon button named by its label. */
function EndButton({
  label,
  icon: Icon,
  disabled,
  onClick,
}: {
  label: string;
  icon: typeof ChevronsLeft;
  disabled: boolean;
  onClick: () => void;
}) {
  return (
    <button type="button" className="btn btn-sm join-item" disabled={disabled} onClick={onClick} aria-label={label}>
      <Icon className="h-4 w-4" aria-hidden />
    </button>
  );
}

/** "Rows per page": the page sizes the lists offer; a change goes back to page 1. */
function PageSize({ list }: { list: ServerList }) {
  return (
    <label className="flex items-center gap-2 text-sm">
      <span className="whitespace-nowrap text-base-content/70">{columnsMsg.pageSize}</span>
      <select
        className="select select-sm w-20"
        value={list.limit}
        onChange={(e) => list.setPageSize(Number(e.target.value))}
      >
        {viewLimits.pageSizes.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </label>
  );
}
