/**
 * Reading an import's file (docs/onboarding.md "Import"): its parts are taken from the database one
 * at a time, so the server holds one part and one batch of rows whatever the file's size. The
 * encoding is found first (a UTF-8 byte order mark; else text that is valid UTF-8 throughout; else
 * Windows-1252, what Excel writes), then the separator from the header (commas, semicolons or
 * tabs), then csv-parse reads the records (quoted fields with line breaks, blank lines skipped).
 */
import { Readable } from "node:stream";
import { parse } from "csv-parse";
import { sql } from "drizzle-orm";
import { importLimits } from "../../domain/imports";
import { importMsg } from "../../domain/import-messages";
import type { Tx } from "../audit";
import { queryRows, type Database } from "../db/client";
import { HttpError } from "../http/errors";

/** The encodings an import tells apart, as the screen names them. */
export type ImportEncoding = "UTF-8" | "UTF-8 with BOM" | "Windows-1252";

/** The parts of an import's file in order, one read at a time. */
async function* partsOf(db: Database | Tx, importId: string): AsyncGenerator<Uint8Array> {
  for (let index = 0; ; index++) {
    const [part] = await queryRows<{ data: string }>(
      db,
      sql`select data from import_parts where import_id = ${importId} and index = ${index}`,
    );
    if (!part) return;
    yield Buffer.from(part.data, "base64");
  }
}

/** The file's encoding, from a first pass over its parts (a streamed, strict UTF-8 decode). */
export async function encodingOf(db: Database | Tx, importId: string): Promise<ImportEncoding> {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  let first = true;
  let bom = false;
  try {
    for await (const part of partsOf(db, importId)) {
      if (first) bom = part[0] === 0xef && part[1] === 0xbb && part[2] === 0xbf;
      first = false;
      decoder.decode(part, { stream: true });
    }
    decoder.decode();
  } catch {
    return "Windows-1252";
  }
  return bom ? "UTF-8 with BOM" : "UTF-8";
}

/** The separator of a header line: the most frequent of comma, semicolon and tab outside quotes. */
export function delimiterOf(text: string): string {
  const counts: Record<string, number> = { ",": 0, ";": 0, "\t": 0 };
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === "\n" || ch === "\r")) break;
    else if (!quoted && ch in counts) counts[ch]++;
  }
  const [best, n] = Object.entries(counts).sort((a, b) => b[1] - a[1])[0];
  return n > 0 ? best : ",";
}

/**
 * Reads the file of `importId` and passes its records (arrays of cells) to `take` in batches of
 * at most `batch`; the first record is the header. @returns the encoding and separator found.
 * @throws HttpError 422 when csv-parse cannot read it (an unclosed quote...).
 */
export async function readRecords(
  db: Database | Tx,
  importId: string,
  take: (records: string[][]) => Promise<void>,
  batch = 1_000,
): Promise<{ encoding: ImportEncoding; delimiter: string }> {
  const encoding = await encodingOf(db, importId);
  const decoder = new TextDecoder(encoding === "Windows-1252" ? "windows-1252" : "utf-8");
  const texts = async function* () {
    for await (const part of partsOf(db, importId)) yield decoder.decode(part, { stream: true });
    yield decoder.decode();
  };
  // The separator is read from the first text before the parser starts.
  const source = texts();
  const head = await source.next();
  const firstText = head.done ? "" : head.value;
  const delimiter = delimiterOf(firstText.replace(/^\uFEFF/, ""));
  const parser = Readable.from(
    (async function* () {
      yield firstText;
      for await (const text of source) yield text;
    })(),
  ).pipe(
    parse({
      delimiter,
      bom: true,
      trim: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      max_record_size: 256 * 1024,
    }),
  );
  let records: string[][] = [];
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      records.push(record.slice(0, importLimits.maxColumns));
      if (records.length >= batch) {
        await take(records);
        records = [];
      }
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    const detail = err instanceof Error ? err.message.split("\n")[0].slice(0, 200) : String(err);
    throw new HttpError(422, "validation_failed", importMsg.notCsv(detail));
  }
  if (records.length) await take(records);
  return { encoding, delimiter };
}
