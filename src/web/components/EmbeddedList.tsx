import { Fragment, type ReactNode } from "react";
import type { QueryKey } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { listsMsg } from "../../domain/messages/kit";
import { errorMessage } from "../api/client";
import { useServerList, type ApiParams } from "../lib/server-list";
import { useRowRemoval, type RowRemoval } from "./ConfirmAction";
import { actionsColumn, DataTable, type Column } from "./DataTable";
import { EmptyState, SearchInput } from "./inputs";
import { ListPagination } from "./ListPagination";
import type { ServerListOf } from "./ListScreen";
import type { Target } from "./RecordPage";
import { ErrorState } from "./ui";

type Props<I extends object> = {
  /** The table's list (`useServerList` in "local" mode: its state stays in the page, not the URL). */
  list: ServerListOf<I, unknown>;
  /** Accessible name of the table; its search box and pager are named after it ("Search team memberships", "Team Memberships pages"). */
  label: string;
  /** The search box's placeholder ("Search teams..."); none: no search box. */
  search?: string;
  /** The table's columns; or `items` instead of a table. */
  columns?: Column<I>[];
  /** The rows as something else than a table (a list of cards), with a skeleton while loading. */
  items?: (rows: I[]) => ReactNode;
  rowKey?: (row: I) => string;
  /** Column ids the server sorts by. */
  sortable?: readonly string[];
  /** The record a row opens (on click, or Enter on the focused row). */
  rowLink?: (row: I) => Target;
  /** Each row's actions, in a last column; none: no such column (a role that may not use them). */
  actions?: (row: I) => ReactNode;
  /** The empty state for the current search text ("" when none): "none yet" or "none match". */
  empty: (q: string) => { title: string; text?: string };
  /** The error's title; the server's message and Retry follow. */
  errorTitle: string;
  /** Between the search box and the table (the error of a row action). */
  aboveTable?: ReactNode;
  /** After the table (its dialogs). */
  children?: ReactNode;
};

/**
 * A list inside a detail page (a customer's users and teams, a team's members, a user's teams, a
 * skill's assignments, prompts and comments, a prompt's platforms and versions, a platform's
 * prompts; SPEC.md §2): the search box, the table (sorted and paged by the server through the same
 * `useServerList` state the list screens use, §9), the pager, and the empty and error states
 * (the server's message with Retry in place of the table, §8).
 *
 * A declaration is its list, columns, texts and row actions; `rowLink` makes rows open their record.
 */
export function EmbeddedList<I extends object>(props: Props<I>) {
  const { list, label, search, columns = [], items, sortable, rowLink, actions, empty } = props;
  const navigate = useNavigate();
  const { data, failed, query } = list;
  const q = list.state.q;
  const emptyState = empty(q);
  const pager = <ListPagination list={list} label={listsMsg.pagerOf(label)} />;

  let body: ReactNode;
  if (failed) {
    body = (
      <ErrorState title={props.errorTitle} message={errorMessage(query.error)} onRetry={() => void query.refetch()} />
    );
  } else if (items) {
    body = !data ? (
      <div className="flex flex-col gap-2" aria-hidden>
        {[0, 1, 2].map((i) => (
          <div key={i} className="skeleton h-12" />
        ))}
      </div>
    ) : data.items.length === 0 ? (
      <div className="py-6">
        <EmptyState {...emptyState} />
      </div>
    ) : (
      <>
        {items(data.items)}
        {pager}
      </>
    );
  } else {
    body = (
      <>
        <DataTable
          label={label}
          columns={actions ? [...columns, actionsColumn(actions)] : columns}
          rows={data?.items}
          rowKey={props.rowKey ?? (() => "")}
          {...(sortable
            ? { sortable, sort: { sort: list.state.sort, order: list.state.order }, onSort: list.setSort }
            : {})}
          loading={query.isPending || query.isFetching}
          onRowClick={rowLink ? (row) => void navigate(rowLink(row)) : undefined}
          empty={<EmptyState {...emptyState} />}
        />
        {pager}
      </>
    );
  }

  // With a search box the three stay together in one block; without one the table and its pager
  // sit directly in the section's column, spaced by it.
  const Block = search !== undefined || props.aboveTable ? "div" : Fragment;
  return (
    <Block>
      {search !== undefined ? (
        <div className="mb-3">
          <SearchInput value={q} onChange={list.setQuery} placeholder={search} label={listsMsg.searchOf(label)} />
        </div>
      ) : null}
      {props.aboveTable}
      {body}
      {props.children}
    </Block>
  );
}

/**
 * A related list declared as data: the records of one query (`query`, in `sort` order, `limit` a
 * page), shown as an `EmbeddedList` with its state in the page, and with `remove` each row's
 * remove action (Unassign, Leave Team) with its confirm and Undo.
 */
export function RelatedList<I extends object, V = string>({
  query,
  sort,
  limit,
  remove,
  ...props
}: Omit<Props<I>, "list"> & {
  query: (params: ApiParams) => { queryKey: QueryKey; queryFn?: unknown };
  sort: { sort: string; order: "asc" | "desc" };
  limit?: number;
  remove?: RowRemoval<I, V>;
}) {
  const list = useServerList<I>({ mode: "local", defaults: sort, limit, query });
  return remove ? <RemovableList list={list} remove={remove} {...props} /> : <EmbeddedList list={list} {...props} />;
}

/** An `EmbeddedList` whose rows end with their remove action (`useRowRemoval`). */
function RemovableList<I extends object, V>({ remove, children, ...props }: Props<I> & { remove: RowRemoval<I, V> }) {
  const { actions, dialog } = useRowRemoval(remove);
  return (
    <EmbeddedList {...props} actions={actions}>
      {children}
      {dialog}
    </EmbeddedList>
  );
}
