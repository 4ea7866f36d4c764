import type { ComponentProps, ReactNode } from "react";
import type { RowData } from "@tanstack/react-table";
import { fallbacksMsg, uiMsg } from "../../domain/messages/kit";
import { promptsMsg } from "../../domain/messages/prompts";
import { StatusBadge, type BadgeKind } from "./badges";
import { columnsFor, type Column, type ColumnMeta } from "./DataTable";
import { RecordLink } from "./RecordLink";
import { DateText, Muted, Num } from "./text";

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

/** The keys of T whose values are numbers. */
type NumberKey<T> = { [K in keyof T]: T[K] extends number ? K : never }[keyof T] & string;

/** A right-aligned count ("Users", "Prompts") read from the row's own `key`, which is also what the server sorts by. */
export function countColumn<T extends RowData>(key: NumberKey<T>, header: string): Column<T> {
  return column(key, header, (row) => <Num value={row[key] as number} />, { align: "right" });
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
  { id = "status", header = uiMsg.status }: { id?: string; header?: string } = {},
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

/** "Created": the row's `created_at` date. */
export function createdColumn<T extends { created_at: string }>(): Column<T> {
  return dateColumn<T>("created_at", "Created", (row) => row.created_at);
}

/** "Updated": the row's `updated_at` date, or "Never" for a record not edited since it was created. */
export function updatedColumn<T extends { updated_at: string | null }>(): Column<T> {
  return column<T>("updated_at", "Updated", (row) =>
    row.updated_at ? <DateText iso={row.updated_at} /> : <Muted>{promptsMsg.never}</Muted>,
  );
}

/** The row's customer, opening its page ("Unknown customer" when it is gone); `className` sizes the link. */
export function customerColumn<T extends { customer_id: string; customer_name: string | null }>(
  className: string,
): Column<T> {
  return column<T>("customer_name", "Customer", (row) => (
    <RecordLink
      to="/customers/$customerId"
      params={{ customerId: row.customer_id }}
      text={row.customer_name ?? fallbacksMsg.unknownCustomer}
      className={className}
    />
  ));
}
