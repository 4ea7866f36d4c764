/**
 * CSV files the screens make themselves (a bulk report, an analytics figure), written as the
 * server's exports are: csv-stringify with RFC 4180 quoting, CRLF line ends, and a cell a
 * spreadsheet would run as a formula (`= + - @`, tab, carriage return first) prefixed with `'`
 * (`escape_formulas`). The library loads on the first download, not with the screen.
 */
import { asText } from "../../domain/text";

/** Saves `rows` (the header row first) as the CSV file `name`. */
export async function downloadCsv(name: string, rows: unknown[][]): Promise<void> {
  const { stringify } = await import("csv-stringify/browser/esm/sync");
  const text = stringify(
    rows.map((row) => row.map((v) => (v === null || v === undefined ? "" : asText(v)))),
    { escape_formulas: true, record_delimiter: "windows" },
  );
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  // Revoked once the browser has taken the file.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
