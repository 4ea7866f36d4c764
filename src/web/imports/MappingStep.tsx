import { useState } from "react";
import { importMsg } from "../../domain/import-messages";
import { importFields, type Import, type ImportField } from "../../domain/imports";
import { errorMessage } from "../api/client";
import { Card } from "../components/ui";
import { fieldErrors, previewImport, type Mapping } from "./api";
import { FieldNote, StepError, StepHeading } from "./parts";

/** A column's name in the choices: its header, or "Column N" when the header cell is empty. */
export const columnName = (imp: Import, index: number) => imp.columns[index]?.trim() || importMsg.columnName(index + 1);

/** The delimiter as the facts name it ("semicolons"), the character itself when unnamed. */
const delimiterName = (d: string | null) => (d ? (importMsg.delimiters[d] ?? d) : "");

/**
 * The columns step: the file's facts (rows, encoding, separator), then one choice of column per
 * field (the customer's only when the import names no customer), each preset from the mapping
 * the server suggested (or previewed last) and showing the chosen column's value in the first
 * row; "Create the teams that do not exist yet"; Back and Preview.
 */
export function MappingStep({
  imp,
  focus,
  onBack,
  onPreviewed,
}: {
  imp: Import;
  focus: boolean;
  onBack: () => void;
  onPreviewed: (imp: Import) => void;
}) {
  const shown = importFields.filter((f) => f !== "customer" || imp.customer_id === null);
  const [mapping, setMapping] = useState<Mapping>(() =>
    Object.fromEntries(shown.map((f) => [f, imp.mapping[f] ?? null])),
  );
  const [createTeams, setCreateTeams] = useState(imp.create_teams);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});

  const preview = async () => {
    setBusy(true);
    setError(null);
    setFields({});
    try {
      onPreviewed(await previewImport(imp.import_id, mapping, createTeams));
    } catch (err) {
      setError(errorMessage(err));
      setFields(fieldErrors(err));
      setBusy(false);
    }
  };
  /** The server's message about a field, named as the body's path or as the field. */
  const fieldError = (f: ImportField) => fields[f] ?? fields[`mapping.${f}`];

  return (
    <Card as="section" aria-labelledby="import-mapping-heading" bodyClassName="gap-5 p-5">
      <div className="flex flex-col gap-1">
        <StepHeading id="import-mapping-heading" focus={focus}>
          {importMsg.stepMapping}
        </StepHeading>
        <p className="text-sm text-base-content/80" data-testid="import-facts">
          {importMsg.fileFacts(imp.row_count, imp.encoding ?? "", delimiterName(imp.delimiter))}
        </p>
      </div>
      <p className="max-w-prose text-sm text-base-content/70">{importMsg.mappingHint}</p>
      <div className="grid gap-x-6 gap-y-3 sm:grid-cols-2 xl:grid-cols-3">
        {shown.map((f) => (
          <FieldChoice
            key={f}
            imp={imp}
            field={f}
            value={mapping[f] ?? null}
            error={fieldError(f)}
            disabled={busy}
            onChange={(column) => setMapping((m) => ({ ...m, [f]: column }))}
          />
        ))}
      </div>
      <label className="flex w-fit cursor-pointer items-center gap-2 text-sm">
        <input
          type="checkbox"
          className="checkbox checkbox-sm"
          checked={createTeams}
          disabled={busy}
          onChange={(e) => setCreateTeams(e.target.checked)}
        />
        {importMsg.createTeams}
      </label>
      <StepError message={error} />
      <div className="flex flex-wrap items-center justify-end gap-2">
        {busy ? (
          <span className="mr-auto text-sm text-base-content/70" role="status">
            {importMsg.previewing}
          </span>
        ) : null}
        <button type="button" className="btn btn-ghost" onClick={onBack} disabled={busy}>
          {importMsg.back}
        </button>
        <button type="button" className="btn btn-primary" onClick={() => void preview()} disabled={busy}>
          {busy ? <span className="loading loading-spinner loading-sm" aria-hidden /> : null}
          {importMsg.preview}
        </button>
      </div>
    </Card>
  );
}

/** One field's column: "Not imported" or one of the file's columns, with its value in the first row under it. */
function FieldChoice({
  imp,
  field,
  value,
  error,
  disabled,
  onChange,
}: {
  imp: Import;
  field: ImportField;
  value: number | null;
  error: string | undefined;
  disabled: boolean;
  onChange: (column: number | null) => void;
}) {
  const id = `import-map-${field}`;
  const sample = value === null ? undefined : imp.sample[0]?.[value];
  const hint =
    value === null
      ? undefined
      : sample?.trim()
        ? importMsg.sampleValue(sample.replace(/\s+/g, " "))
        : importMsg.sampleEmpty;
  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {importMsg.fields[field]}
      </label>
      <select
        id={id}
        className={`select select-sm w-full ${error ? "select-error" : ""}`}
        value={value ?? ""}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value === "" ? null : Number(e.target.value))}
        aria-describedby={`${id}-note`}
        aria-invalid={error ? true : undefined}
      >
        <option value="">{importMsg.notImported}</option>
        {imp.columns.map((_, i) => (
          <option key={i} value={i}>
            {columnName(imp, i)}
          </option>
        ))}
      </select>
      <FieldNote id={`${id}-note`} error={error} hint={hint} />
    </div>
  );
}
