import { useState } from "react";
import { Download } from "lucide-react";
import { listsMsg } from "../../domain/messages/kit";
import { apiUrl } from "../api/client";
import { formatNumber } from "./format";

type Query = Record<string, string | number | boolean | undefined | null>;

/**
 * "Export CSV" of a list: every row matching the list's current filters and search (not just the
 * page), streamed from `{path}/export.csv`, with the rows received shown as they arrive and an
 * option for a UTF-8 byte order mark (spreadsheet programs). Saves the file when done.
 */
export function ExportCsvButton({ path, query, total }: { path: string; query: Query; total?: number }) {
  const [bom, setBom] = useState(false);
  const [rows, setRows] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const run = async () => {
    setError(null);
    setRows(0);
    try {
      const { limit: _limit, cursor: _cursor, offset: _offset, at: _at, ...filters } = query;
      const res = await fetch(apiUrl(`${path}/export.csv`, { ...filters, bom: bom ? "1" : undefined }), {
        credentials: "same-origin",
      });
      if (!res.ok || !res.body) throw new Error(listsMsg.exportFailed);
      const reader = res.body.getReader();
      const chunks: Uint8Array[] = [];
      let lines = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        for (const byte of value) if (byte === 10) lines++;
        setRows(Math.max(0, lines - 1));
      }
      const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "export.csv";
      const url = URL.createObjectURL(new Blob(chunks as BlobPart[], { type: "text/csv" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = name;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
      setRows(null);
    } catch {
      setRows(null);
      setError(listsMsg.exportFailed);
    }
  };

  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <label className="flex items-center gap-1.5 text-base-content/70">
        <input
          type="checkbox"
          className="checkbox checkbox-sm"
          checked={bom}
          onChange={(e) => setBom(e.target.checked)}
        />
        {listsMsg.exportBom}
      </label>
      <button type="button" className="btn btn-sm" onClick={() => void run()} disabled={rows !== null}>
        {rows !== null ? (
          <span className="loading loading-spinner loading-xs" aria-hidden />
        ) : (
          <Download className="h-4 w-4" aria-hidden />
        )}
        {listsMsg.exportCsv}
      </button>
      <span role="status" aria-live="polite" className="text-base-content/70 empty:hidden">
        {rows !== null ? listsMsg.exporting(formatNumber(rows), total !== undefined ? formatNumber(total) : "?") : null}
      </span>
      {error ? (
        <span role="alert" className="text-error">
          {error}
        </span>
      ) : null}
    </div>
  );
}
