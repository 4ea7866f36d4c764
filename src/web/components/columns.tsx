import type { ComponentProps, ReactNode } from "react";
import type { RowData } from "@tanstack/react-table";
import { msg } from "../../domain/messages";
import { StatusBadge, type BadgeKind } from "./badges";
import { columnsFor, type Column, type ColumnMeta } from "./DataTable";
import { RecordLink } from "./RecordLink";
import { DateText } from "./text";

/**
 * Column declarations for `DataTable` and `EmbeddedList`, one line each: the column's id (what the
 * server sorts by), its header and what a row shows in it.
 */
export function column<T extends RowData>(
  id: string,
  header: string,
  cell: (row: T) => ReactNode,
  meta?: ColumnMeta,
): Column<T> {
  return columnsFor<T>().display({ id, header, meta, cell: ({ row }) => cell(row.original) });
}

/** A record's name opening its page (`RecordLink`); the row's title on phones unless `meta` says otherwise. */
export function linkColumn<T extends RowData>(
  id: string,
  header: string,
  link: (row: T) => ComponentProps<typeof RecordLink>,
  meta: ColumnMeta = { grow: true, primary: true },
): Column<T> {
  return column(id, header, (row) => <RecordLink {...link(row)} />, meta);
}

/** A status badge in the spec's colour for `kind`; "Status" sorted as `status` unless given. */
export function statusColumn<T extends RowData>(
  kind: BadgeKind,
  status: (row: T) => string,
  { id = "status", header = msg.ui.status }: { id?: string; header?: string } = {},
): Column<T> {
  return column(id, header, (row) => <StatusBadge kind={kind} status={status(row)} />);
}

/** A date ("Assigned", "Created"), with the time too when `withTime`. */
export function dateColumn<T extends RowData>(
  id: string,
  header: string,
  iso: (row: T) => string | null,
  withTime = false,
): Column<T> {
  return column(id, header, (row) => <DateText iso={iso(row)} withTime={withTime} />);
}
