import { z } from "zod";

/** A uuid path or body id. */
export const id = z.uuid();
/** An ISO 8601 timestamp as it travels in JSON. */
export const timestamp = z.string();
export const sortOrders = ["asc", "desc"] as const;

/** One page of a list: `items`, `total` matching rows, and the list's summary counts. */
export function page<I extends z.ZodType, S extends z.ZodType>(item: I, summary: S) {
  return z.object({ items: z.array(item), total: z.number().int(), summary });
}

/** Answer of a mutation that changes nothing but a status or a link. */
export const okSchema = z.object({ ok: z.literal(true) });

/** What every list endpoint takes: search, sort column and direction, page size and offset (rows). */
export type ListParams = { q?: string; sort: string; order: "asc" | "desc"; limit: number; offset: number };
