import { useState } from "react";
import { importMsg } from "../../domain/import-messages";
import { importLimits, type Import, type ImportRow } from "../../domain/imports";
import { shellMsg } from "../../domain/messages/common";
import { errorMessage } from "../api/client";
import { Modal } from "../components/overlays";
import { fixImportRow } from "./api";
import { columnName } from "./MappingStep";
import { StepError } from "./parts";

type Fixed = Awaited<ReturnType<typeof fixImportRow>>;

/**
 * "Fix row N": the row's reason, then one text box per column of the file (named by its header)
 * holding the row's cells; Save sends them (PATCH), and the server checks the row again at once
 * (`onFixed` gets the row as now previewed and the import's counts). Enter saves.
 */
export function FixRowModal({
  imp,
  row,
  onClose,
  onFixed,
}: {
  imp: Import;
  row: ImportRow | null;
  onClose: () => void;
  onFixed: (fixed: Fixed) => void;
}) {
  return (
    <Modal
      open={row !== null}
      title={row ? importMsg.fixTitle(row.seq) : importMsg.fix}
      onClose={onClose}
      size="lg"
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            {shellMsg.ui.cancel}
          </button>
          <button type="submit" form="import-fix-form" className="btn btn-primary">
            {importMsg.save}
          </button>
        </>
      }
    >
      {row ? <FixForm key={row.import_row_id} imp={imp} row={row} onFixed={onFixed} /> : null}
    </Modal>
  );
}

/** The cells of one row as a form (the dialog's footer submits it). */
function FixForm({ imp, row, onFixed }: { imp: Import; row: ImportRow; onFixed: (fixed: Fixed) => void }) {
  const [cells, setCells] = useState(() => imp.columns.map((_, i) => row.cells[i] ?? ""));
  const [multiline] = useState(() => cells.map((v) => /[\r\n]/.test(v)));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const change = (at: number, value: string) => setCells((c) => c.map((v, j) => (j === at ? value : v)));
  const save = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      onFixed(await fixImportRow(imp.import_id, row.seq, cells));
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  };
  return (
    <form
      id="import-fix-form"
      className="flex flex-col gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
      aria-busy={busy || undefined}
    >
      {row.reason ? (
        <p className="text-sm font-medium text-error" data-testid="import-fix-reason">
          {row.reason}
        </p>
      ) : null}
      <div className="grid gap-x-4 gap-y-3 sm:grid-cols-2">
        {cells.map((value, i) => (
          <label key={i} className="flex min-w-0 flex-col gap-1.5">
            <span className="truncate text-sm font-medium" title={columnName(imp, i)}>
              {columnName(imp, i)}
            </span>
            {/* A text box would drop a cell's line breaks ("Head of⏎Sales"): such a cell gets a text area. */}
            {multiline[i] ? (
              <textarea
                className="textarea textarea-sm w-full"
                rows={2}
                value={value}
                maxLength={importLimits.maxCell}
                disabled={busy}
                onChange={(e) => change(i, e.target.value)}
              />
            ) : (
              <input
                type="text"
                className="input input-sm w-full"
                value={value}
                maxLength={importLimits.maxCell}
                disabled={busy}
                onChange={(e) => change(i, e.target.value)}
              />
            )}
          </label>
        ))}
      </div>
      <StepError message={error} />
      {busy ? (
        <p className="text-sm text-base-content/70" role="status">
          {importMsg.saving}
        </p>
      ) : null}
    </form>
  );
}
