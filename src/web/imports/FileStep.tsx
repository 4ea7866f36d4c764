import { useEffect, useRef, useState, type DragEvent } from "react";
import { FileUp } from "lucide-react";
import { importMsg } from "../../domain/import-messages";
import type { Import } from "../../domain/imports";
import { errorMessage } from "../api/client";
import { Card } from "../components/ui";
import { CustomerPicker } from "../customers/public";
import { createImport, fieldErrors, parseImport, sendParts } from "./api";
import { FieldNote, StepError, StepHeading } from "./parts";

/**
 * What the file step holds (kept by the page, so that Back finds it): one customer (`customerId`)
 * or "each row names its customer", and the file chosen or the rows pasted (the last one given).
 */
export type FileDraft = { mode: "one" | "column"; customerId: string | undefined; file: File | null; text: string };

/** The name a pasted text is sent under. */
const pastedName = "pasted.csv";

/**
 * The file step: the customer, the file (chosen, or dropped on its zone) or the rows pasted, and
 * "Read the file": the import is created, the bytes are sent in parts with a progress bar, and
 * the server reads them (`onRead` gets the import with its columns and suggested mapping).
 */
export function FileStep({
  draft,
  onDraft,
  focus,
  onRead,
}: {
  draft: FileDraft;
  onDraft: (d: FileDraft) => void;
  focus: boolean;
  onRead: (imp: Import) => void;
}) {
  const { percent, error, fields, read } = useFileUpload(draft, onRead);
  const busy = percent !== null;
  const customerError = fields.customer_id ?? fields.customer;
  return (
    <Card as="section" aria-labelledby="import-file-heading" bodyClassName="gap-5 p-5">
      <StepHeading id="import-file-heading" focus={focus}>
        {importMsg.stepFile}
      </StepHeading>
      <fieldset className="flex flex-col gap-2" disabled={busy}>
        <legend className="mb-2 text-sm font-medium">{importMsg.customer}</legend>
        <label className="flex w-fit cursor-pointer items-center gap-2 text-sm">
          <input
            type="radio"
            className="radio radio-sm"
            name="import-customer-mode"
            checked={draft.mode === "one"}
            onChange={() => onDraft({ ...draft, mode: "one" })}
          />
          {importMsg.oneCustomer}
        </label>
        <div className="flex flex-col gap-1.5 pl-7 sm:max-w-md">
          <CustomerPicker
            id="import-customer"
            label={importMsg.customer}
            field
            activeOnly
            value={draft.customerId}
            onChange={(id) => onDraft({ ...draft, mode: "one", customerId: id })}
            disabled={busy || draft.mode !== "one"}
            invalid={Boolean(customerError)}
            aria-describedby="import-customer-note"
          />
          <FieldNote id="import-customer-note" error={customerError} />
        </div>
        <label className="flex w-fit cursor-pointer items-center gap-2 text-sm">
          <input
            type="radio"
            className="radio radio-sm"
            name="import-customer-mode"
            checked={draft.mode === "column"}
            onChange={() => onDraft({ ...draft, mode: "column" })}
          />
          {importMsg.customerFromFile}
        </label>
      </fieldset>
      <FileSource draft={draft} onDraft={onDraft} busy={busy} error={fields.file ?? fields.file_name} />
      <div className="flex flex-col gap-3">
        <StepError message={error} />
        <div className="flex flex-wrap items-center gap-4">
          <button type="button" className="btn btn-primary" onClick={() => void read()} disabled={busy}>
            {busy ? <span className="loading loading-spinner loading-sm" aria-hidden /> : null}
            {importMsg.upload}
          </button>
          <div className={`flex items-center gap-3 ${busy ? "" : "invisible"}`}>
            <progress
              className="progress progress-primary w-40"
              value={percent ?? 0}
              max={100}
              aria-label={importMsg.upload}
            />
            <span className="text-sm tabular-nums" role="status">
              {busy ? importMsg.uploading(percent) : ""}
            </span>
          </div>
        </div>
      </div>
    </Card>
  );
}

/**
 * The file's source: a file input inside a zone a file may be dropped on (the input stays the
 * keyboard's way), and the rows pasted instead. Whichever is given last is the one read.
 */
function FileSource({
  draft,
  onDraft,
  busy,
  error,
}: {
  draft: FileDraft;
  onDraft: (d: FileDraft) => void;
  busy: boolean;
  error: string | undefined;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  // The input shows the draft's file (none once rows are pasted or the import starts over).
  useEffect(() => {
    if (!draft.file && input.current) input.current.value = "";
  }, [draft.file]);
  const choose = (file: File | null) => onDraft({ ...draft, file, text: file ? "" : draft.text });
  const drop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setDragging(false);
    if (busy) return;
    const file = e.dataTransfer.files[0];
    if (!file) return;
    // The input names the dropped file as it would a chosen one.
    if (input.current) input.current.files = e.dataTransfer.files;
    choose(file);
  };
  const chosen = draft.file ? importMsg.chosenFile(draft.file.name, draft.file.size) : "";
  return (
    <>
      <div
        className={`flex flex-col items-center gap-2 rounded-box border-2 border-dashed p-6 text-center transition-colors ${dragging ? "border-primary bg-primary/5" : "border-base-300"}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
        data-testid="import-drop-zone"
      >
        <FileUp className="h-8 w-8 text-base-content/60" aria-hidden />
        <label htmlFor="import-file" className="text-sm font-medium">
          {importMsg.chooseFile}
        </label>
        <input
          id="import-file"
          ref={input}
          type="file"
          accept=".csv,text/csv,.txt"
          className={`file-input file-input-sm w-full max-w-sm ${error ? "file-input-error" : ""}`}
          disabled={busy}
          onChange={(e) => choose(e.target.files?.[0] ?? null)}
          aria-describedby="import-file-note"
          aria-invalid={error ? true : undefined}
        />
        <p className="text-xs text-base-content/70">{importMsg.dropHint}</p>
        <div className="w-full max-w-sm">
          <FieldNote id="import-file-note" error={error} hint={chosen} />
        </div>
      </div>
      <div className="flex flex-col gap-1.5">
        <label htmlFor="import-paste" className="text-sm font-medium">
          {importMsg.pasteLabel}
        </label>
        <textarea
          id="import-paste"
          className="textarea h-32 w-full font-mono text-xs"
          value={draft.text}
          disabled={busy}
          spellCheck={false}
          onChange={(e) => onDraft({ ...draft, text: e.target.value, file: e.target.value ? null : draft.file })}
          aria-describedby="import-paste-hint"
        />
        <p id="import-paste-hint" className="text-xs text-base-content/70">
          {importMsg.pasteHint}
        </p>
      </div>
    </>
  );
}

/**
 * "Read the file": checks that a customer (or "each row names its customer") and a file or rows
 * are given, then creates the import, sends the bytes as they are (a pasted text as UTF-8) with
 * the share sent in `percent`, and has the server read them. A refusal shows its message, and
 * each field's next to it (`fields`).
 */
function useFileUpload(draft: FileDraft, onRead: (imp: Import) => void) {
  const [percent, setPercent] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const abort = useRef<AbortController | null>(null);
  // Leaving the page stops sending.
  useEffect(() => () => abort.current?.abort(), []);

  const read = async () => {
    const source = draft.file ?? (draft.text.trim() ? new Blob([draft.text], { type: "text/csv" }) : null);
    const missing: Record<string, string> = {};
    if (draft.mode === "one" && !draft.customerId) missing.customer_id = importMsg.customerRequired;
    if (!source) missing.file = importMsg.fileRequired;
    setFields(missing);
    setError(null);
    if (!source || Object.keys(missing).length > 0) return;
    const controller = new AbortController();
    abort.current = controller;
    setPercent(0);
    try {
      const imp = await createImport(
        draft.file?.name ?? pastedName,
        draft.mode === "one" ? (draft.customerId ?? null) : null,
      );
      await sendParts(imp.import_id, source, setPercent, controller.signal);
      onRead(await parseImport(imp.import_id));
    } catch (err) {
      if (controller.signal.aborted) return;
      setError(errorMessage(err));
      setFields(fieldErrors(err));
      setPercent(null);
    }
  };
  return { percent, error, fields, read };
}
