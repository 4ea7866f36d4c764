/**
 * The rows of an import as a list (GET /api/imports/{importId}/rows): in the file's order, by
 * outcome, searched by email or reason. Also the selection of the import's run (every row of the
 * import: the run checks each again and skips those in error or unchanged, with the reason).
 */
import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { noSummary } from "../../domain/common";
import { importOutcomes, importRowSchema } from "../../domain/imports";
import { idFilter, defineList } from "../http/lists";

export const importRowList = defineList({
  name: "import_rows",
  item: importRowSchema,
  summarySchema: noSummary,
  from: sql`import_rows ir`,
  select: sql`ir.import_row_id, ir.seq, ir.cells, ir.email, ir.outcome, ir.reason`,
  id: { expr: sql`ir.import_row_id`, type: "uuid" },
  sorts: { seq: [{ expr: sql`ir.seq`, type: "int", unique: true }] },
  defaultSort: "seq",
  defaultOrder: "asc",
  filters: {
    import_id: idFilter(sql`ir.import_id`),
    outcome: {
      schema: z.enum(importOutcomes).optional(),
      where: (v: string) => sql`ir.outcome = ${v}`,
      description: "Only rows with this outcome",
    },
  },
  search: (m) => sql`(ir.email ilike ${m.pattern} or ir.reason ilike ${m.pattern})`,
  csv: [
    { header: "Row", value: (r) => r.seq },
    { header: "Email", value: (r) => r.email },
    { header: "Outcome", value: (r) => r.outcome },
    { header: "Reason", value: (r) => r.reason },
  ],
});
