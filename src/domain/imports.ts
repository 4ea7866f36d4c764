/**
 * CSV import of users, their roles and teams (docs/onboarding.md "Import"): the API's shapes,
 * shared by the server and the import screen. A file is sent in parts (`importLimits.partBytes`
 * each), read on the server (encoding and separator found there), mapped to fields, previewed row
 * by row, fixed in place, and applied as a bulk run (its progress, report and undo at /api/bulk).
 */
import { z } from "zod";
import { id, timestamp } from "./common";
import { importMsg } from "./import-messages";
import { requiredName } from "./text";

/** The fields a column may be mapped to; `customer` only when the import names no customer. */
export const importFields = [
  "email",
  "first_name",
  "last_name",
  "job_title",
  "status",
  "roles",
  "teams",
  "customer",
] as const;
export type ImportField = (typeof importFields)[number];

/** The steps of an import: `uploading` (parts arriving), `mapping` (read), `previewed`, `applied`. */
export const importStatuses = ["uploading", "mapping", "previewed", "applied"] as const;
/** A row's outcome in the preview. */
export const importOutcomes = ["create", "update", "unchanged", "error"] as const;
export type ImportOutcome = (typeof importOutcomes)[number];

/**
 * The bounds of an import: the file's bytes and rows (refused beyond, before any row is read into
 * the database), a part's bytes (under the API's 1 MB body once in base64), the cells per row.
 */
export const importLimits = {
  maxBytes: 20 * 1024 * 1024,
  maxRows: 100_000,
  partBytes: 512 * 1024,
  maxColumns: 50,
  maxCell: 1_000,
} as const;

/**
 * The header names each field is recognised by, lower-cased with everything but letters and
 * digits taken out ("E-mail", "Given name" and "EMAIL_ADDRESS" all match).
 */
export const importSynonyms: Record<ImportField, string[]> = {
  email: ["email", "emailaddress", "mail", "workemail", "username", "login", "userprincipalname"],
  first_name: ["firstname", "givenname", "forename", "first", "prenom"],
  last_name: ["lastname", "surname", "familyname", "last", "nom"],
  job_title: ["jobtitle", "title", "position", "job"],
  status: ["status", "state", "userstatus"],
  roles: ["roles", "role", "userroles", "permissions"],
  teams: ["teams", "team", "groups", "group", "teamnames"],
  customer: ["customer", "customername", "company", "organization", "organisation", "account"],
};

/** A header as `importSynonyms` compares it. */
export const headerKey = (header: string) => header.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");

const column = z
  .number()
  .int()
  .min(0)
  .max(importLimits.maxColumns - 1);

/** Which column (0-based) each field takes; a field left out (or null) is not imported. */
export const importMappingSchema = z
  .strictObject({
    email: column.nullable().optional(),
    first_name: column.nullable().optional(),
    last_name: column.nullable().optional(),
    job_title: column.nullable().optional(),
    status: column.nullable().optional(),
    roles: column.nullable().optional(),
    teams: column.nullable().optional(),
    customer: column.nullable().optional(),
  })
  .refine((m) => m.email !== undefined && m.email !== null, { message: importMsg.emailColumnRequired, path: ["email"] })
  .refine(
    (m) => {
      const used = Object.values(m).filter((v) => v !== undefined && v !== null);
      return new Set(used).size === used.length;
    },
    { message: importMsg.columnTwice, path: ["email"] },
  );
export type ImportMapping = z.infer<typeof importMappingSchema>;

/** POST /api/imports: a new import, of one customer (`customer_id`) or of a file naming each row's customer. */
export const createImportSchema = z.strictObject({
  file_name: requiredName({ required: importMsg.fileNameRequired, field: "File name" }, 200),
  customer_id: id.nullable().optional(),
});

/** POST /api/imports/{importId}/parts: the file's bytes in order, `index` from 0, base64. */
export const importPartSchema = z.strictObject({
  index: z
    .number()
    .int()
    .min(0)
    .max(Math.ceil(importLimits.maxBytes / importLimits.partBytes)),
  data: z
    .string()
    .min(1, importMsg.partData)
    .max(Math.ceil(importLimits.partBytes / 3) * 4, importMsg.partData)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, importMsg.partData),
});

/** POST /api/imports/{importId}/mapping: the mapping, and whether missing teams are created on apply. */
export const importPreviewSchema = z.strictObject({
  mapping: importMappingSchema,
  create_teams: z.boolean().default(false),
});

/** How many rows have each outcome. */
export const importCountsSchema = z.object({
  create: z.number().int(),
  update: z.number().int(),
  unchanged: z.number().int(),
  error: z.number().int(),
});
export type ImportCounts = z.infer<typeof importCountsSchema>;

/** An import as GET /api/imports/{importId} and each step answer it. */
export const importSchema = z.object({
  import_id: id,
  customer_id: id.nullable(),
  customer_name: z.string().nullable(),
  file_name: z.string(),
  status: z.enum(importStatuses),
  bytes: z.number().int(),
  row_count: z.number().int(),
  encoding: z.string().nullable(),
  delimiter: z.string().nullable(),
  /** The header row's cells. */
  columns: z.array(z.string()),
  /** The first rows after the header, as read. */
  sample: z.array(z.array(z.string())),
  /** The mapping previewed, or (before a preview) the one suggested from the header. */
  mapping: z.record(z.string(), z.number().int().nullable()),
  create_teams: z.boolean(),
  counts: importCountsSchema.nullable(),
  /** The bulk run that applied it (GET /api/bulk/{bulk_id}: progress, report, undo). */
  bulk_id: id.nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type Import = z.infer<typeof importSchema>;

/** One row of the file with its outcome (GET /api/imports/{importId}/rows). */
export const importRowSchema = z.object({
  import_row_id: id,
  /** The row's line in the file's rows, from 1 (the header is not counted). */
  seq: z.number().int(),
  cells: z.array(z.string()),
  email: z.string().nullable(),
  outcome: z.enum(importOutcomes).nullable(),
  reason: z.string().nullable(),
});
export type ImportRow = z.infer<typeof importRowSchema>;

/** PATCH /api/imports/{importId}/rows: the row (`seq`, from 1) and its cells, fixed. */
export const fixImportRowSchema = z.strictObject({
  seq: z.number().int().min(1).max(importLimits.maxRows),
  cells: z.array(z.string().max(importLimits.maxCell)).min(1).max(importLimits.maxColumns),
});

/** The answer to a fix: the row as now previewed, and the import's counts. */
export const fixedImportRowSchema = z.object({ row: importRowSchema, counts: importCountsSchema });
