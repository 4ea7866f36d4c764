import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import {
  fixedImportRowSchema,
  importLimits,
  importRowSchema,
  importSchema,
  type ImportField,
  type ImportRow,
} from "../../domain/imports";
import { listPage, noSummary } from "../../domain/common";
import { ApiError, api } from "../api/client";
import { queryRoots } from "../lib/query-client";
import type { ApiParams, ServerPage } from "../lib/server-list";

/**
 * The import's requests (docs/onboarding.md "Import"): create, send the file's bytes in parts,
 * read, preview, page its rows, fix one, apply. The file's bytes travel as they are (base64), never
 * decoded in the browser: the server finds their encoding (UTF-8 with or without BOM, Windows-1252).
 */

const partAnswerSchema = z.object({ bytes: z.number().int() });

/** A page of the import's rows (the list engine's page: src/domain/common.ts `listPage`). */
const rowsPageSchema = listPage(importRowSchema, noSummary);

/** A mapping as the screen holds it: each field's column, or null (not imported). */
export type Mapping = Partial<Record<ImportField, number | null>>;

/** POST /api/imports: a new import of one customer (`customerId`), or of a file naming each row's customer. */
export const createImport = (fileName: string, customerId: string | null) =>
  api("/imports", importSchema, { method: "POST", body: { file_name: fileName, customer_id: customerId } });

/** Bytes as base64, a slice at a time (a spread of 512 KiB at once would pass the engine's argument limit). */
function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}

/**
 * Sends `file`'s bytes in order as parts of at most `importLimits.partBytes`, reporting the share
 * sent (0–100) after each; stops between parts once `signal` is aborted.
 */
export async function sendParts(
  importId: string,
  file: Blob,
  onProgress: (percent: number) => void,
  signal: AbortSignal,
) {
  const { partBytes } = importLimits;
  for (let index = 0, at = 0; at < file.size; index++, at += partBytes) {
    signal.throwIfAborted();
    const bytes = new Uint8Array(await file.slice(at, at + partBytes).arrayBuffer());
    await api(`/imports/${importId}/parts`, partAnswerSchema, {
      method: "POST",
      body: { index, data: toBase64(bytes) },
      signal,
    });
    onProgress(Math.floor((Math.min(file.size, at + partBytes) / file.size) * 100));
  }
}

/** POST /api/imports/{id}/parse: the file read, its header and first rows, and the mapping suggested. */
export const parseImport = (importId: string) =>
  api(`/imports/${importId}/parse`, importSchema, { method: "POST", body: {} });

/** POST /api/imports/{id}/mapping: every row checked with `mapping`; the counts of each outcome. */
export const previewImport = (importId: string, mapping: Mapping, createTeams: boolean) =>
  api(`/imports/${importId}/mapping`, importSchema, {
    method: "POST",
    body: { mapping, create_teams: createTeams },
  });

/** PATCH /api/imports/{id}/rows `{ seq, cells }`: a row's cells fixed; the row checked again and the import's counts. */
export const fixImportRow = (importId: string, seq: number, cells: string[]) =>
  api(`/imports/${importId}/rows`, fixedImportRowSchema, { method: "PATCH", body: { seq, cells } });

/** The query keys of an import's rows, under the users' root (the rows become users). */
export const importKeys = {
  rows: (importId: string) => [...queryRoots.users, "import", importId, "rows"] as const,
};

/**
 * GET /api/imports/{id}/rows as a server list's query: the list's page size and position, its
 * search and its outcome filter (the rows keep the file's order: no sort is sent).
 */
export const importRowsQuery =
  (importId: string) =>
  ({ sort: _sort, order: _order, ...params }: ApiParams) =>
    queryOptions({
      queryKey: [...importKeys.rows(importId), params],
      queryFn: ({ signal }): Promise<ServerPage<ImportRow>> =>
        api(`/imports/${importId}/rows`, rowsPageSchema, { query: params, signal }),
      placeholderData: keepPreviousData,
    });

/** The server's message of each field it refused (`error.fields`), none for another error. */
export const fieldErrors = (err: unknown): Record<string, string> =>
  err instanceof ApiError && err.fields ? err.fields : {};
