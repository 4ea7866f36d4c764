/**
 * The import of users from a CSV file (docs/onboarding.md "Import"; editor). The steps, each a
 * route and each audited against the import (entity `import`):
 * 1. POST /api/imports: a new import, of one customer or naming each row's customer;
 * 2. POST /{importId}/parts: the file's bytes in order, base64, 512 KiB at most each, 20 MB in all;
 * 3. POST /{importId}/parse: the file read (encoding, separator, quoted fields), its header and a
 *    mapping suggested from it (the operator's last mapping of each header, else common names);
 * 4. POST /{importId}/mapping: the mapping applied and every row's outcome decided (create,
 *    update, unchanged, error with the reason), counted; GET /{importId}/rows pages them, PATCH
 *    /{importId}/rows fixes a row in place, GET /{importId}/errors.csv downloads those in error;
 * 5. POST /{importId}/apply: the run (a bulk action: progress, report, undo at /api/bulk/{bulkId}).
 */
import { z } from "@hono/zod-openapi";
import { stringify } from "csv-stringify/sync";
import { sql } from "drizzle-orm";
import { importMsg } from "../../domain/import-messages";
import {
  createImportSchema,
  fixedImportRowSchema,
  fixImportRowSchema,
  headerKey,
  importFields,
  importLimits,
  importPartSchema,
  importPreviewSchema,
  importSchema,
  importSynonyms,
  type Import,
  type ImportField,
  type ImportMapping,
} from "../../domain/imports";
import { msg } from "../../domain/messages";
import { mutate, type Tx } from "../audit";
import { startBulk } from "../bulk/engine";
import { queryRows, type Database } from "../db/client";
import type { AppEnv } from "../http/env";
import { errorBodySchema, HttpError, notFound } from "../http/errors";
import { toJson } from "../http/list";
import { csvCell, csvOptions, mountList } from "../http/list-routes";
import { idParams } from "../http/record-routes";
import { apiRoute, createRouter, invalidResponse, jsonBody, jsonResponse, notFoundResponse } from "../http/route";
import type { Context } from "hono";
import { importRun } from "./bulk";
import { importRowList } from "./queries";
import { readRecords } from "./read";
import { countsOf, evaluateRows, mapRows } from "./rows";

export const importsBase = "/api/imports";
export const importsRouter = createRouter();
const tags = ["Import"];
const params = idParams("importId", importMsg.notFound);
const notFound404 = notFoundResponse(importMsg.notFound);
const conflict = { 409: jsonResponse(errorBodySchema, `${importMsg.wrongStep}; ${importMsg.alreadyApplied}`) };
const tooLarge = { 413: jsonResponse(errorBodySchema, importMsg.tooLarge(20)) };
/** Rows of the file shown with its header. */
const sampleRows = 5;

/** An import as the API answers it (its first rows as `sample`). @throws HttpError 404. */
async function readImport(db: Database | Tx, importId: string): Promise<Import> {
  const [row] = await queryRows<Import & { sample: string[][] | null }>(
    db,
    sql`select i.import_id, i.customer_id, c.customer_name, i.file_name, i.status, i.bytes, i.row_count, i.encoding,
      i.delimiter, i.columns, coalesce(i.mapping, '{}'::jsonb) as mapping, i.create_teams, i.counts, i.bulk_id,
      i.created_at, i.updated_at,
      (select jsonb_agg(r.cells order by r.seq) from (select cells, seq from import_rows
        where import_id = i.import_id order by seq limit ${sampleRows}) r) as sample
      from imports i left join customers c on c.customer_id = i.customer_id where i.import_id = ${importId}`,
  );
  if (!row) throw notFound(importMsg.notFound);
  return toJson({ ...row, sample: row.sample ?? [] });
}

/** The import locked for this step; refused (409) unless at one of `steps`. @throws HttpError 404, 409. */
async function lockImport(tx: Tx, importId: string, steps: Import["status"][]) {
  const [row] = await queryRows<{
    status: Import["status"];
    customer_id: string | null;
    parts: number;
    bytes: number;
    columns: string[];
    mapping: ImportMapping | null;
    create_teams: boolean;
    counts: Import["counts"];
  }>(
    tx,
    sql`select status, customer_id::text, parts, bytes, columns, mapping, create_teams, counts
      from imports where import_id = ${importId} for update`,
  );
  if (!row) throw notFound(importMsg.notFound);
  if (!steps.includes(row.status))
    throw new HttpError(409, "conflict", row.status === "applied" ? importMsg.alreadyApplied : importMsg.wrongStep);
  return row;
}

/** The audit row of a step: the import's fields before and after. */
const stepAudit = (importId: string, before: Record<string, unknown>, after: Record<string, unknown>) => ({
  action: "update" as const,
  entity: "import" as const,
  entity_id: importId,
  before,
  after,
});

/**
 * The mapping suggested for `columns`: each header the operator mapped before takes that field,
 * then each field takes the first free column whose header is one of its names (`importSynonyms`).
 */
async function suggestMapping(tx: Tx, operatorId: string | undefined, columns: string[], withCustomer: boolean) {
  const keys = columns.map(headerKey);
  const remembered = operatorId
    ? await queryRows<{ header: string; field: ImportField }>(
        tx,
        sql`select header, field from import_mappings where operator_id = ${operatorId}
          and header in (select jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb))`,
      )
    : [];
  const fields = importFields.filter((f) => withCustomer || f !== "customer");
  const mapping: Partial<Record<ImportField, number>> = {};
  const taken = new Set<number>();
  const take = (field: ImportField, column: number) => {
    if (mapping[field] !== undefined || taken.has(column) || !fields.includes(field)) return;
    mapping[field] = column;
    taken.add(column);
  };
  for (const r of remembered) keys.forEach((k, i) => k === r.header && take(r.field, i));
  for (const field of fields) keys.forEach((k, i) => importSynonyms[field].includes(k) && take(field, i));
  return mapping;
}

/** POST /api/imports `{ file_name, customer_id? }` → 201 the import (status `uploading`). 404 unknown customer. */
const create = apiRoute(importsBase, "editor", {
  method: "post",
  path: "/",
  tags,
  summary: "Start an import of users from a CSV file",
  description:
    "Without `customer_id`, each row names its customer (a column mapped to `customer`). Send the file with POST /api/imports/{importId}/parts, then read it with /parse.",
  request: { body: jsonBody(createImportSchema, { file_name: "people.csv" }) },
  responses: {
    201: jsonResponse(importSchema, "Created"),
    ...notFoundResponse(msg.customers.notFound),
    ...invalidResponse,
  },
});

/**
 * POST /api/imports/{importId}/parts `{ index, data }` → `{ bytes, parts }`: the next part of the
 * file (index 0, 1, … in order; base64 of at most 512 KiB). 413 past 20 MB in all; 409 once read.
 */
const part = apiRoute(importsBase, "editor", {
  method: "post",
  path: "/{importId}/parts",
  tags,
  summary: "Send a part of an import's file",
  request: {
    params,
    body: jsonBody(importPartSchema, { index: 0, data: Buffer.from("email\nana@example.com\n").toString("base64") }),
  },
  responses: {
    200: jsonResponse(z.object({ bytes: z.number().int(), parts: z.number().int() }), "Received"),
    ...notFound404,
    ...conflict,
    ...tooLarge,
    ...invalidResponse,
  },
});

/**
 * POST /api/imports/{importId}/parse `{}` → the import, read: `columns` (its header), `sample`,
 * `row_count`, `encoding`, `delimiter` and a suggested `mapping`. 413 past 100,000 rows; 422 empty
 * or not CSV (nothing kept: send the parts again to a new import); 409 once read.
 */
const parseRoute = apiRoute(importsBase, "editor", {
  method: "post",
  path: "/{importId}/parse",
  tags,
  summary: "Read an import's file",
  request: { params, body: jsonBody(z.strictObject({})) },
  responses: {
    200: jsonResponse(importSchema, "Read"),
    ...notFound404,
    ...conflict,
    ...tooLarge,
    ...invalidResponse,
  },
});

/**
 * POST /api/imports/{importId}/mapping `{ mapping, create_teams }` → the import with `counts`:
 * every row's outcome decided (GET /rows lists them). Again after a change of mapping. 422 a
 * column the file does not have, or no customer (neither the import's nor a column); 409 once applied.
 */
const preview = apiRoute(importsBase, "editor", {
  method: "post",
  path: "/{importId}/mapping",
  tags,
  summary: "Map an import's columns and preview every row's outcome",
  request: { params, body: jsonBody(importPreviewSchema, { mapping: { email: 0 }, create_teams: false }) },
  responses: { 200: jsonResponse(importSchema, "Previewed"), ...notFound404, ...conflict, ...invalidResponse },
});

/**
 * PATCH /api/imports/{importId}/rows `{ seq, cells }` → `{ row, counts }`: a row fixed in place and
 * checked again (with the rows sharing its old or new email). 404 no such row; 409 not previewed.
 */
const fix = apiRoute(importsBase, "editor", {
  method: "patch",
  path: "/{importId}/rows",
  tags,
  summary: "Fix a row of an import",
  request: {
    params,
    body: jsonBody(fixImportRowSchema, { seq: 1, cells: ["ana@example.com"] }),
  },
  responses: { 200: jsonResponse(fixedImportRowSchema, "Fixed"), ...notFound404, ...conflict, ...invalidResponse },
});

/** GET /api/imports/{importId}/errors.csv → the rows in error: the file's columns and a Reason column. */
const errorsCsv = apiRoute(importsBase, "editor", {
  method: "get",
  path: "/{importId}/errors.csv",
  tags,
  summary: "The rows of an import in error, as CSV",
  request: { params },
  responses: { 200: { description: "CSV", content: { "text/csv": { schema: z.string() } } }, ...notFound404 },
});

/**
 * POST /api/imports/{importId}/apply `{}` → 202 `{ bulk_id }`: creates the missing teams (when the
 * preview said so), then runs the import as a bulk action (follow GET /api/bulk/{bulkId}; undo with
 * POST /api/bulk/{bulkId}/undo). 422 nothing would change; 409 not previewed, or applied already.
 */
const apply = apiRoute(importsBase, "editor", {
  method: "post",
  path: "/{importId}/apply",
  tags,
  summary: "Apply an import",
  request: { params, body: jsonBody(z.strictObject({})) },
  responses: {
    202: jsonResponse(z.object({ bulk_id: z.guid() }), "Started"),
    ...notFound404,
    ...conflict,
    ...invalidResponse,
  },
});

/** GET /api/imports/{importId} → the import. */
const read = apiRoute(importsBase, "editor", {
  method: "get",
  path: "/{importId}",
  tags,
  summary: "An import",
  request: { params },
  responses: { 200: jsonResponse(importSchema, "The import"), ...notFound404 },
});

const operatorOf = (c: Context<AppEnv>) => c.get("session")?.user.id;

importsRouter
  .openapi(create, async (c) => {
    const body = c.req.valid("json");
    const importId = await mutate(c, async (tx) => {
      if (body.customer_id) {
        const [found] = await queryRows(tx, sql`select 1 from customers where customer_id = ${body.customer_id}`);
        if (!found) throw notFound(msg.customers.notFound);
      }
      const [row] = await queryRows<{ import_id: string }>(
        tx,
        sql`insert into imports (file_name, customer_id, operator_id)
          values (${body.file_name}, ${body.customer_id ?? null}, ${operatorOf(c) ?? null}) returning import_id::text`,
      );
      return {
        result: row.import_id,
        audit: [
          {
            action: "create",
            entity: "import",
            entity_id: row.import_id,
            after: { file_name: body.file_name, customer_id: body.customer_id ?? null },
          },
        ],
      };
    });
    return c.json(await readImport(c.get("db"), importId), 201);
  })
  .openapi(part, async (c) => {
    const { importId } = c.req.valid("param");
    const { index, data } = c.req.valid("json");
    const bytes = Buffer.from(data, "base64");
    if (bytes.length === 0 || bytes.length > importLimits.partBytes)
      throw new HttpError(422, "validation_failed", importMsg.partData, { data: importMsg.partData });
    const result = await mutate(c, async (tx) => {
      const imp = await lockImport(tx, importId, ["uploading"]);
      if (index !== imp.parts)
        throw new HttpError(422, "validation_failed", importMsg.partOrder(imp.parts), {
          index: importMsg.partOrder(imp.parts),
        });
      const total = imp.bytes + bytes.length;
      if (total > importLimits.maxBytes)
        throw new HttpError(413, "payload_too_large", importMsg.tooLarge(importLimits.maxBytes / 1024 / 1024));
      await tx.execute(sql`insert into import_parts (import_id, index, data) values (${importId}, ${index}, ${data})`);
      await tx.execute(
        sql`update imports set bytes = ${total}, parts = ${index + 1}, updated_at = now() where import_id = ${importId}`,
      );
      return {
        result: { bytes: total, parts: index + 1 },
        audit: [stepAudit(importId, { bytes: imp.bytes, parts: imp.parts }, { bytes: total, parts: index + 1 })],
      };
    });
    return c.json(result, 200);
  })
  .openapi(parseRoute, async (c) => {
    const { importId } = c.req.valid("param");
    await mutate(c, async (tx) => {
      const imp = await lockImport(tx, importId, ["uploading"]);
      let columns: string[] | undefined;
      let seq = 0;
      const { encoding, delimiter } = await readRecords(tx, importId, async (records) => {
        const rows = columns ? records : records.slice(1);
        columns ??= records[0];
        if (seq + rows.length > importLimits.maxRows)
          throw new HttpError(413, "payload_too_large", importMsg.tooManyRows(importLimits.maxRows));
        if (rows.length === 0) return;
        const values = JSON.stringify(rows.map((cells, k) => ({ seq: seq + k + 1, cells })));
        await tx.execute(sql`insert into import_rows (import_id, seq, cells)
          select ${importId}, v.seq, v.cells from jsonb_to_recordset(${values}::jsonb) as v(seq int, cells jsonb)`);
        seq += rows.length;
      });
      if (!columns || seq === 0) throw new HttpError(422, "validation_failed", importMsg.empty);
      const mapping = await suggestMapping(tx, operatorOf(c), columns, imp.customer_id === null);
      await tx.execute(sql`delete from import_parts where import_id = ${importId}`);
      await tx.execute(sql`update imports set status = 'mapping', columns = ${JSON.stringify(columns)}::jsonb,
          row_count = ${seq}, encoding = ${encoding}, delimiter = ${delimiter}, mapping = ${JSON.stringify(mapping)}::jsonb,
          updated_at = now() where import_id = ${importId}`);
      return {
        result: null,
        audit: [
          stepAudit(
            importId,
            { status: "uploading" },
            { status: "mapping", row_count: seq, encoding, delimiter, columns },
          ),
        ],
      };
    });
    return c.json(await readImport(c.get("db"), importId), 200);
  })
  .openapi(preview, async (c) => {
    const { importId } = c.req.valid("param");
    const { mapping: asked, create_teams } = c.req.valid("json");
    await mutate(c, async (tx) => {
      const imp = await lockImport(tx, importId, ["mapping", "previewed"]);
      const mapping: ImportMapping = imp.customer_id ? { ...asked, customer: null } : asked;
      for (const [field, column] of Object.entries(mapping))
        if (typeof column === "number" && column >= imp.columns.length)
          throw new HttpError(422, "validation_failed", importMsg.columnUnknown, {
            [`mapping.${field}`]: importMsg.columnUnknown,
          });
      if (!imp.customer_id && (mapping.customer === undefined || mapping.customer === null))
        throw new HttpError(422, "validation_failed", importMsg.customerRequired, {
          "mapping.customer": importMsg.customerRequired,
        });
      await mapRows(tx, { import_id: importId, customer_id: imp.customer_id }, mapping);
      await evaluateRows(tx, importId, create_teams);
      const counts = await countsOf(tx, importId);
      await tx.execute(sql`update imports set status = 'previewed', mapping = ${JSON.stringify(mapping)}::jsonb,
          create_teams = ${create_teams}, counts = ${JSON.stringify(counts)}::jsonb, updated_at = now()
        where import_id = ${importId}`);
      // Remembered per operator and header: the next file with these headers is mapped the same.
      const operatorId = operatorOf(c);
      const remembered = Object.entries(mapping)
        .filter(([, column]) => typeof column === "number")
        .map(([field, column]) => ({ header: headerKey(imp.columns[column as number]), field }))
        .filter((m) => m.header !== "");
      if (operatorId && remembered.length)
        await tx.execute(sql`insert into import_mappings (operator_id, header, field)
          select distinct on (m.header) ${operatorId}, m.header, m.field from jsonb_to_recordset(${JSON.stringify(remembered)}::jsonb) as m(header text, field text)
          on conflict (operator_id, header) do update set field = excluded.field, updated_at = now()`);
      return {
        result: null,
        audit: [
          stepAudit(
            importId,
            { status: imp.status, mapping: imp.mapping, create_teams: imp.create_teams, counts: imp.counts },
            { status: "previewed", mapping, create_teams, counts },
          ),
        ],
      };
    });
    return c.json(await readImport(c.get("db"), importId), 200);
  })
  .openapi(fix, async (c) => {
    const { importId } = c.req.valid("param");
    const { seq, cells } = c.req.valid("json");
    const result = await mutate(c, async (tx) => {
      const imp = await lockImport(tx, importId, ["previewed"]);
      const [row] = await queryRows<{ cells: string[]; email: string | null }>(
        tx,
        sql`select cells, email from import_rows where import_id = ${importId} and seq = ${seq}`,
      );
      if (!row) throw notFound(importMsg.rowNotFound);
      if (cells.length > Math.max(imp.columns.length, row.cells.length))
        throw new HttpError(422, "validation_failed", importMsg.cellsCount, { cells: importMsg.cellsCount });
      await tx.execute(
        sql`update import_rows set cells = ${JSON.stringify(cells)}::jsonb where import_id = ${importId} and seq = ${seq}`,
      );
      await mapRows(tx, { import_id: importId, customer_id: imp.customer_id }, imp.mapping ?? {}, [seq]);
      const [now] = await queryRows<{ email: string | null }>(
        tx,
        sql`select email from import_rows where import_id = ${importId} and seq = ${seq}`,
      );
      const emails = [row.email, now.email].filter((e): e is string => e !== null);
      await evaluateRows(tx, importId, imp.create_teams, emails.length ? emails : undefined);
      const counts = await countsOf(tx, importId);
      await tx.execute(
        sql`update imports set counts = ${JSON.stringify(counts)}::jsonb, updated_at = now() where import_id = ${importId}`,
      );
      const [fixed] = await queryRows<z.infer<typeof fixedImportRowSchema>["row"]>(
        tx,
        sql`select import_row_id, seq, cells, email, outcome, reason from import_rows where import_id = ${importId} and seq = ${seq}`,
      );
      return {
        result: { row: fixed, counts },
        audit: [stepAudit(importId, { seq, cells: row.cells }, { seq, cells, counts })],
      };
    });
    return c.json(result, 200);
  })
  .openapi(errorsCsv, async (c) => {
    const { importId } = c.req.valid("param");
    const imp = await readImport(c.get("db"), importId);
    const db = c.get("db");
    const encoder = new TextEncoder();
    // Streamed in keyset batches on (import_id, outcome, seq): memory stays one batch.
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(encoder.encode(stringify([[...imp.columns, importMsg.reasonHeader]], csvOptions)));
        let after = 0;
        for (;;) {
          const rows = await queryRows<{ seq: number; cells: string[]; reason: string | null }>(
            db,
            sql`select seq, cells, reason from import_rows where import_id = ${importId} and outcome = 'error'
              and seq > ${after} order by seq limit 2000`,
          );
          if (rows.length === 0) break;
          const width = imp.columns.length;
          controller.enqueue(
            encoder.encode(
              stringify(
                rows.map((r) => [...Array.from({ length: width }, (_, i) => r.cells[i] ?? ""), r.reason].map(csvCell)),
                csvOptions,
              ),
            ),
          );
          after = rows[rows.length - 1].seq;
        }
        controller.close();
      },
    });
    const base = imp.file_name.replace(/\.[a-z0-9]+$/i, "").replace(/[^\w.-]+/g, "-") || "import";
    return new Response(stream, {
      status: 200,
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${base}-errors.csv"`,
      },
    });
  })
  .openapi(apply, async (c) => {
    const { importId } = c.req.valid("param");
    const createTeams = await mutate(c, async (tx) => {
      const imp = await lockImport(tx, importId, ["previewed"]);
      if (!imp.counts || imp.counts.create + imp.counts.update === 0)
        throw new HttpError(422, "validation_failed", importMsg.nothingToApply);
      const teams = imp.create_teams
        ? await queryRows<{ team_id: string; row: Record<string, unknown> }>(
            tx,
            sql`with names as (select distinct on (ir.resolved_customer_id, lower(n)) ir.resolved_customer_id as customer_id, n as team_name
                from import_rows ir cross join unnest(ir.teams) n
                where ir.import_id = ${importId} and ir.outcome in ('create', 'update')
                  and not exists (select 1 from teams t where t.customer_id = ir.resolved_customer_id
                    and lower(t.team_name) = lower(n) and t.status = 'active')
                order by ir.resolved_customer_id, lower(n), ir.seq)
              insert into teams (customer_id, team_name) select customer_id, team_name from names
              returning team_id::text as team_id, to_jsonb(teams) as row`,
          )
        : [];
      await tx.execute(sql`update imports set status = 'applied', created_teams = created_teams || ${`{${teams.map((t) => t.team_id).join(",")}}`}::uuid[],
          updated_at = now() where import_id = ${importId}`);
      return {
        result: imp.create_teams,
        audit: [
          stepAudit(
            importId,
            { status: "previewed" },
            { status: "applied", created_teams: teams.map((t) => t.team_id) },
          ),
          ...teams.map((t) => ({
            action: "create" as const,
            entity: "team" as const,
            entity_id: t.team_id,
            after: toJson(t.row),
          })),
        ],
      };
    });
    let bulkId: string;
    try {
      bulkId = await startBulk(
        c,
        importRun,
        { import_id: importId, create_teams: createTeams },
        { filter: { import_id: importId } },
      );
    } catch (err) {
      // Not started (the operator's runs are busy...): the import can be applied again.
      await c.get("db").execute(sql`update imports set status = 'previewed' where import_id = ${importId}`);
      throw err;
    }
    await c.get("db").execute(sql`update imports set bulk_id = ${bulkId} where import_id = ${importId}`);
    return c.json({ bulk_id: bulkId }, 202);
  })
  .openapi(read, async (c) => c.json(await readImport(c.get("db"), c.req.valid("param").importId), 200));

/** GET /api/imports/{importId}/rows (and its CSV export): the rows with their outcome, in the file's order. */
mountList(importsRouter, {
  base: importsBase,
  path: "/{importId}/rows",
  access: "editor",
  tags,
  summary: "The rows of an import",
  description:
    "The file's rows in order with their outcome and reason; `outcome` filters, `q` searches email and reason.",
  list: importRowList,
  params,
  scope: {
    where: (p: { importId: string }) => sql`ir.import_id = ${p.importId}`,
    exists: (p: { importId: string }) => sql`exists (select 1 from imports where import_id = ${p.importId})`,
    notFound: importMsg.notFound,
  },
});
