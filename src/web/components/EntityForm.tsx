import { useRef, useState, type FormEvent, type ReactNode } from "react";
import {
  useForm,
  useWatch,
  type DefaultValues,
  type FieldValues,
  type Path,
  type PathValue,
  type UseFormReturn,
} from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { maxLengthOf, numberBoundsOf } from "../../domain/text";
import { ApiError } from "../api/client";
import { ConflictPanel, type BothChanged, type ChangeSince } from "./ConflictPanel";
import { applyServerError, EnumOptions, FormActions, FormError, useUnsavedChanges } from "./forms";
import { titleCase } from "./format";
import { Field } from "./inputs";
import { ConfirmDialog } from "./overlays";

/** What a picker field's control gets: the chosen id and how to change it, and its field's state. */
export type PickerControl = {
  id: string;
  value: string | undefined;
  onChange: (id: string | undefined) => void;
  invalid: boolean;
  disabled: boolean;
};

/**
 * One field of an entity form, declared once. Its `maxLength` is read from the form's schema (the
 * server's own limit) and its message comes from the schema too; the label, hint and options are
 * the entity's. `row` lays fields side by side on wider screens.
 */
export type FieldSpec<T extends FieldValues> =
  | {
      kind: "text";
      name: Path<T>;
      label: string;
      required?: boolean;
      hint?: ReactNode;
      type?: "text" | "email";
      placeholder?: string;
      autoComplete?: string;
      autoFocus?: boolean;
      mono?: boolean;
    }
  | {
      kind: "textarea";
      name: Path<T>;
      label: string;
      rows?: number;
      mono?: boolean;
      placeholder?: string;
      hint?: ReactNode;
      /**
       * What the value as typed means, under the field, kept current as the operator types (a
       * prompt's undeclared `{{variables}}`).
       */
      note?: (value: string) => ReactNode;
    }
  /** A number: its bounds (and step 1 for an integer) from the schema; an empty box is no value. */
  | { kind: "number"; name: Path<T>; label: string; required?: boolean; hint?: ReactNode; placeholder?: string }
  /** A calendar date (`YYYY-MM-DD`, as the schema's `z.iso.date()` reads it); an empty box is null. */
  | { kind: "date"; name: Path<T>; label: string; required?: boolean; hint?: ReactNode }
  | { kind: "select"; name: Path<T>; label: string; options: readonly string[]; hint?: ReactNode }
  | { kind: "checkbox"; name: Path<T>; label: string; hint?: ReactNode }
  /** Any of `options` (an array of the chosen ones, in the options' order). */
  | { kind: "checkboxes"; name: Path<T>; label: string; options: readonly string[]; hint?: ReactNode }
  | {
      kind: "picker";
      name: Path<T>;
      label: string;
      required?: boolean;
      hint?: ReactNode;
      /** No choice is null (an optional link) rather than an empty text (a required one not chosen yet). */
      none?: null;
      picker: (control: PickerControl) => ReactNode;
    }
  | { kind: "row"; fields: FieldSpec<T>[] };

/** A field's `note` of its value as it is now, announced politely as it changes. */
function LiveNote<T extends FieldValues, O>({
  form,
  name,
  note,
}: {
  form: UseFormReturn<T, unknown, O>;
  name: Path<T>;
  note: (value: string) => ReactNode;
}) {
  const value: unknown = useWatch({ control: form.control, name });
  return (
    <div aria-live="polite" className="mt-1">
      {note(typeof value === "string" ? value : "")}
    </div>
  );
}

/** A notice above the fields: what the form is waiting for or missing (no skills yet, say). */
export type FormNotice = { tone: "info" | "warning" | "error"; text: string };

type Schema<T extends FieldValues, O> = z.ZodType<O, T> & { shape: Record<string, z.ZodType> };

/** The names of the fields the operator changed from the values the form opened with. */
function changedNames(dirty: object): ReadonlySet<string> {
  return new Set(Object.entries(dirty).flatMap(([name, value]) => (value ? [name] : [])));
}

/**
 * The state every entity form shares (react-hook-form with the domain's zod schema): server field
 * errors put on their fields and other errors in the red box, the unsaved-changes guard (in-app
 * navigation, history and reload), the pending state. `submit` calls `onSubmit` with the parsed
 * values; a thrown ApiError shows on the form and the guard comes back.
 */
export function useEntityForm<T extends FieldValues, O>(
  schema: Schema<T, O>,
  defaults: DefaultValues<T>,
  onSubmit: (values: O, changed: ReadonlySet<string>) => Promise<void>,
  /** `locked`: saved, nothing left to lose; `guard: false`: a dialog's form, closed on purpose. */
  options: { locked?: boolean; guard?: boolean } = {},
) {
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<T, unknown, O>({ resolver: zodResolver(schema), defaultValues: defaults });
  const guard = useUnsavedChanges(form.formState.isDirty && !options.locked && options.guard !== false);
  // Read while rendering, so react-hook-form keeps track of which fields changed.
  void form.formState.dirtyFields;
  const submit = form.handleSubmit(async (values) => {
    setServerError(null);
    guard.allowLeave();
    try {
      await onSubmit(values, changedNames(form.formState.dirtyFields));
    } catch (err) {
      guard.blockLeave();
      setServerError(applyServerError(err, form.setError));
    }
  });
  return { form, serverError, setServerError, submit, guard };
}

/**
 * What a save is sent with: the version the form was read at (If-Match), the warnings the
 * operator confirmed, and on an edit the fields the operator changed (it sends only those, so that
 * a colleague's change to another field is kept: docs/editing.md).
 */
export type SaveOptions = { ifMatch?: string; confirmed: string[]; changed?: ReadonlySet<string> };

/** What a save asks first (`confirmSave`): the confirm dialog's title, message and button. */
export type SaveConfirm = { title: string; message: ReactNode; confirmLabel: string };

/**
 * An edit form's version (docs/editing.md): the record's `updated_at` it was read at, sent as
 * If-Match, and how to turn the record a stale answer carries into the form's values (Reload).
 */
export type FormVersion<T extends FieldValues> = {
  /** Null for a record without one (an adopted table): not checked. */
  updatedAt: string | null;
  reset: (current: Record<string, unknown>) => DefaultValues<T>;
  /** After Reload: refresh what else shows the record. */
  onReload?: () => void;
};

type Conflict = {
  code: string;
  error: ApiError;
  current?: Record<string, unknown>;
  changes?: ChangeSince[];
  /** The fields the refused save changed. */
  changed?: ReadonlySet<string>;
};

/** The fields a stale save changed that a colleague changed too, with their value now and the form's. */
function bothChanged(conflict: Conflict, mine: Record<string, unknown>): BothChanged[] {
  const theirs = new Set((conflict.changes ?? []).flatMap((c) => c.fields));
  return [...(conflict.changed ?? [])]
    .filter((f) => theirs.has(f))
    .map((field) => ({ field, theirs: conflict.current?.[field], mine: mine[field] }));
}

/** A 409 the operator must decide on (`stale`, or a code of `warnings`), read from a save's error; else null. */
function conflictOf(
  err: unknown,
  warnings: Record<string, unknown> | undefined,
  changed: ReadonlySet<string> | undefined,
): Conflict | null {
  if (!(err instanceof ApiError) || err.status !== 409 || (err.code !== "stale" && !warnings?.[err.code])) return null;
  const detail = (err.body as { error?: { current?: Record<string, unknown>; changes?: ChangeSince[] } })?.error;
  return { code: err.code, error: err, current: detail?.current, changes: detail?.changes, changed };
}

/** A field whose value is a set of choices (roles): merged, not weighed as one value. */
const isSet = (v: unknown): v is unknown[] => Array.isArray(v);

/**
 * How a stale save can go again at once, at the record's current version, when the changes made
 * since name their fields: as it is when none is a field this save changes; when the only such
 * fields are sets (roles), with each merged three ways against the values the form was read with
 * (`base`): theirs, without what this save removed, with what it added. Else undefined: the
 * operator decides.
 */
function goAgain<O>(
  { code, current, changes, changed }: Conflict,
  values: O,
  base: Record<string, unknown>,
): { ifMatch: string; values: O } | undefined {
  if (code !== "stale" || !changes?.length || !changed || typeof current?.updated_at !== "string") return undefined;
  if (!changes.every((c) => c.fields.length > 0)) return undefined;
  const theirs = new Set(changes.flatMap((c) => c.fields));
  const merged: Record<string, unknown> = { ...(values as Record<string, unknown>) };
  for (const field of changed) {
    if (!theirs.has(field)) continue;
    const [was, mine, now]: unknown[] = [base[field], merged[field], current[field]];
    if (!isSet(was) || !isSet(mine) || !isSet(now)) return undefined;
    const kept = now.filter((x) => mine.includes(x) || !was.includes(x));
    merged[field] = [...kept, ...mine.filter((x) => !now.includes(x) && !was.includes(x))];
  }
  return { ifMatch: current.updated_at, values: merged as O };
}

/**
 * A refused save with one field both changed taken as the colleague's (Keep theirs): its value
 * theirs, and the field out of the save, so Save anyway sends only the others and theirs stays.
 */
function withoutField<O>(
  saved: { values: O; changed?: ReadonlySet<string> },
  field: string,
  value: unknown,
): { values: O; changed: ReadonlySet<string> } {
  const changed = new Set(saved.changed);
  changed.delete(field);
  return { values: { ...(saved.values as object), [field]: value } as O, changed };
}

/** The labels of a form's fields by name, for naming the fields someone else changed. */
function labelsOf<T extends FieldValues>(fields: FieldSpec<T>[]): Record<string, string> {
  return Object.fromEntries(
    fields.flatMap((f) => (f.kind === "row" ? Object.entries(labelsOf(f.fields)) : [[f.name, f.label]])),
  );
}

/**
 * The choices of a stale save's panel that take the colleague's values: Keep theirs (one field
 * both changed: shown as theirs and left out of the save, `withoutField`) and Reload (every field
 * as it is now, at the current version).
 */
function useStaleChoices<T extends FieldValues, O>({
  conflict,
  setConflict,
  version,
  form,
  last,
  setIfMatch,
}: {
  conflict: Conflict | null;
  setConflict: (c: Conflict | null) => void;
  version?: FormVersion<T>;
  form: UseFormReturn<T, unknown, O>;
  last: { current: { values: O; changed?: ReadonlySet<string> } | null };
  setIfMatch: (at: string | undefined) => void;
}) {
  const keepTheirs = (field: string) => {
    if (!conflict?.current || !version || !last.current) return;
    const value = (version.reset(conflict.current) as Record<string, unknown>)[field];
    form.setValue(field as Path<T>, value as PathValue<T, Path<T>>, { shouldDirty: true });
    last.current = withoutField(last.current, field, value);
    setConflict({ ...conflict, changed: last.current.changed });
  };
  const reload = () => {
    if (!conflict?.current || !version) return;
    form.reset(version.reset(conflict.current));
    setIfMatch(conflict.current.updated_at as string);
    setConflict(null);
    version.onReload?.();
  };
  return { keepTheirs, reload };
}

/**
 * An entity form's save with its 409s to decide on (`EntityForm`): the version it was read at (sent
 * as If-Match), the warnings confirmed so far, the conflict shown, and Save anyway and Reload.
 */
function useVersionedForm<T extends FieldValues, O>({
  schema,
  defaults,
  onSubmit,
  version,
  warnings,
  locked,
}: {
  schema: Schema<T, O>;
  defaults: DefaultValues<T>;
  onSubmit: (values: O, options: SaveOptions) => Promise<void>;
  version?: FormVersion<T>;
  warnings?: Record<string, (error: ApiError) => ReactNode>;
  locked: boolean;
}) {
  const [ifMatch, setIfMatch] = useState(version?.updatedAt ?? undefined);
  const [confirmed, setConfirmed] = useState<string[]>([]);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [resending, setResending] = useState(false);
  const last = useRef<{ values: O; changed?: ReadonlySet<string> } | null>(null);
  const blockLeave = useRef(() => {});

  /**
   * Saves; a 409 to decide on becomes the panel (the form stays guarded), anything else is thrown
   * to the form; a stale save `goAgain` can resolve goes again at once, nothing asked.
   */
  const save = async (values: O, options: SaveOptions, retried = false): Promise<void> => {
    last.current = { values, changed: options.changed };
    setConflict(null);
    try {
      await onSubmit(values, options);
    } catch (err) {
      const found = conflictOf(err, warnings, options.changed);
      if (!found) throw err;
      const again = retried ? undefined : goAgain(found, values, defaults as Record<string, unknown>);
      if (again) {
        setIfMatch(again.ifMatch);
        return save(again.values, { ...options, ifMatch: again.ifMatch }, true);
      }
      setConflict(found);
      blockLeave.current();
    }
  };
  const { form, serverError, setServerError, submit, guard } = useEntityForm(
    schema,
    defaults,
    (values, changed) => save(values, { ifMatch, confirmed, changed: version ? changed : undefined }),
    { locked },
  );
  blockLeave.current = guard.blockLeave;

  const resend = async (options: Omit<SaveOptions, "changed">) => {
    if (!last.current) return;
    setResending(true);
    setServerError(null);
    guard.allowLeave();
    try {
      await save(last.current.values, { ...options, changed: last.current.changed }, true);
    } catch (err) {
      guard.blockLeave();
      setServerError(applyServerError(err, form.setError));
    } finally {
      setResending(false);
    }
  };
  // Stale: again at the current version; a warning: again with its code confirmed.
  const saveAnyway = () => {
    if (!conflict) return;
    const stale = conflict.code === "stale";
    const at = stale ? (conflict.current?.updated_at as string | undefined) : ifMatch;
    const next = stale ? confirmed : [...confirmed, conflict.code];
    setIfMatch(at);
    setConfirmed(next);
    void resend({ ifMatch: at, confirmed: next });
  };
  const { keepTheirs, reload } = useStaleChoices({ conflict, setConflict, version, form, last, setIfMatch });
  return { form, serverError, submit, guard, conflict, resending, saveAnyway, reload, keepTheirs };
}

/**
 * A form's submit that asks first (`confirmSave`, from the fields changed) once the values are
 * valid: Save anyway goes on with the save, Cancel closes the dialog with the form as it was (the
 * leave guard untouched). Without `confirmSave`, or with nothing to ask, it is `submit` itself.
 */
function useSaveConfirm<T extends FieldValues, O>(
  form: UseFormReturn<T, unknown, O>,
  submit: (e?: FormEvent<HTMLFormElement>) => Promise<void>,
  confirmSave: ((changed: ReadonlySet<string>) => SaveConfirm | null) | undefined,
) {
  const [asking, setAsking] = useState<SaveConfirm | null>(null);
  const submitOrAsk = async (e: FormEvent<HTMLFormElement>) => {
    if (!confirmSave) return submit(e);
    e.preventDefault();
    const ask = confirmSave(changedNames(form.formState.dirtyFields));
    if (ask && (await form.trigger())) setAsking(ask);
    else await submit();
  };
  const dialog = confirmSave ? (
    <ConfirmDialog
      open={asking !== null}
      title={asking?.title ?? ""}
      message={asking?.message}
      confirmLabel={asking?.confirmLabel ?? ""}
      tone="primary"
      onCancel={() => setAsking(null)}
      onConfirm={() => {
        setAsking(null);
        void submit();
      }}
    />
  ) : null;
  return { submit: submitOrAsk, dialog };
}

/**
 * An entity's add or edit form from its field declarations: the fields in order, the red box for
 * the server's message, `notice` above the fields, Cancel (`cancel`, asking first when changed) and
 * the submit button (`busyLabel` while saving, disabled while `disabled` or `locked`).
 *
 * A 409 the operator must decide on shows a panel instead of the red box: `stale` (with `version`)
 * "This record changed since you opened it" with who changed what since, Reload (the current values,
 * losing mine) and Save anyway (again, with the current version); a code of `warnings` (a domain
 * another customer lists...) its text and Save anyway (again, with the code in `confirmed`).
 *
 * `confirmSave` asks before a save, once the values are valid, from the fields changed (a field the
 * customer's directory overwrites): Cancel closes the dialog with the form as it was.
 */
export function EntityForm<T extends FieldValues, O>({
  schema,
  defaults,
  fields,
  onSubmit,
  submitLabel,
  busyLabel,
  cancel,
  locked = false,
  disabled = false,
  notice,
  submitHint,
  version,
  warnings,
  confirmSave,
}: {
  schema: Schema<T, O>;
  defaults: DefaultValues<T>;
  fields: FieldSpec<T>[];
  /** Saves; a thrown ApiError is shown on the form. */
  onSubmit: (values: O, options: SaveOptions) => Promise<void>;
  version?: FormVersion<T>;
  /** 409 codes the operator may confirm, with what to show of each. */
  warnings?: Record<string, (error: ApiError) => ReactNode>;
  submitLabel: string;
  busyLabel: string;
  /** The Cancel link; with unsaved changes the leave guard asks first, as for any other way out. */
  cancel: ReactNode;
  /** Saved: read-only while the page waits to go on. */
  locked?: boolean;
  disabled?: boolean;
  notice?: FormNotice | null;
  /** A line under the submit button saying what the save will do ("Changes wait for review"). */
  submitHint?: ReactNode;
  /** What a save of these changed fields asks first, or null to save at once. */
  confirmSave?: (changed: ReadonlySet<string>) => SaveConfirm | null;
}) {
  const versioned = useVersionedForm({ schema, defaults, onSubmit, version, warnings, locked });
  const { form, serverError, submit, guard, conflict, resending, saveAnyway, reload, keepTheirs } = versioned;
  const confirm = useSaveConfirm(form, submit, confirmSave);

  // The leave guard's and the confirm's dialogs have forms of their own: outside this one (no nested forms).
  return (
    <>
      <form className="flex flex-col gap-4" onSubmit={confirm.submit} noValidate>
        <FormError message={serverError} />
        {conflict ? (
          <ConflictPanel
            stale={conflict.code === "stale"}
            message={conflict.error.message}
            changes={conflict.changes}
            both={bothChanged(conflict, form.getValues())}
            labels={labelsOf(fields)}
            busy={resending}
            onSaveAnyway={saveAnyway}
            onReload={conflict.code === "stale" && version && conflict.current ? reload : undefined}
            onKeepTheirs={conflict.code === "stale" && version && conflict.current ? keepTheirs : undefined}
          >
            {conflict.code === "stale" ? null : warnings?.[conflict.code]?.(conflict.error)}
          </ConflictPanel>
        ) : null}
        {notice ? (
          <div
            role={notice.tone === "info" ? "status" : "alert"}
            className={`alert alert-soft text-sm alert-${notice.tone}`}
          >
            {notice.text}
          </div>
        ) : null}
        <FormFields fields={fields} form={form} schema={schema} disabled={disabled} />
        <FormActions
          cancel={cancel}
          submitLabel={submitLabel}
          busyLabel={busyLabel}
          busy={form.formState.isSubmitting || resending}
          disabled={disabled || locked}
          hint={submitHint}
        />
      </form>
      {guard.prompt}
      {confirm.dialog}
    </>
  );
}

/**
 * The fields of a form declared with `FieldSpec`s, for a form laid out by its owner (a dialog with
 * its own buttons); `EntityForm` uses it too. The first field takes the focus unless `autoFocus` is off.
 */
export function FormFields<T extends FieldValues, O>({
  fields,
  form,
  schema,
  disabled = false,
  autoFocus = true,
}: {
  fields: FieldSpec<T>[];
  form: UseFormReturn<T, unknown, O>;
  schema: Schema<T, O>;
  disabled?: boolean;
  autoFocus?: boolean;
}) {
  return <FieldList fields={fields} form={form} schema={schema} disabled={disabled} first={autoFocus} />;
}

function FieldList<T extends FieldValues, O>({
  fields,
  form,
  schema,
  disabled,
  first = false,
}: {
  fields: FieldSpec<T>[];
  form: UseFormReturn<T, unknown, O>;
  schema: Schema<T, O>;
  disabled: boolean;
  first?: boolean;
}) {
  return (
    <>
      {fields.map((spec, i) =>
        spec.kind === "row" ? (
          <div key={i} className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <FieldList fields={spec.fields} form={form} schema={schema} disabled={disabled} />
          </div>
        ) : (
          <FormField
            key={spec.name}
            spec={spec}
            form={form}
            schema={schema}
            disabled={disabled}
            autoFocus={first && i === 0}
          />
        ),
      )}
    </>
  );
}

/** What a kind of field is drawn from: its spec, the form and its schema, and its error. */
type FieldProps<T extends FieldValues, O, K extends FieldSpec<T>["kind"]> = {
  spec: Extract<FieldSpec<T>, { kind: K }>;
  form: UseFormReturn<T, unknown, O>;
  schema: Schema<T, O>;
  /** The form cannot be used yet (its picker has nothing to offer): the picker is disabled too. */
  disabled: boolean;
  autoFocus: boolean;
  error?: string;
};

function FormField<T extends FieldValues, O>({
  spec,
  form,
  schema,
  disabled,
  autoFocus,
}: {
  spec: Exclude<FieldSpec<T>, { kind: "row" }>;
  form: UseFormReturn<T, unknown, O>;
  schema: Schema<T, O>;
  /** The form cannot be used yet (its picker has nothing to offer): the picker is disabled too. */
  disabled: boolean;
  autoFocus: boolean;
}) {
  const error = form.formState.errors[spec.name]?.message as string | undefined;
  const maxLength = maxLengthOf(schema.shape[spec.name]);
  const id = spec.name;
  const shared = { form, schema, disabled, autoFocus, error };
  switch (spec.kind) {
    case "text":
      return (
        <Field label={spec.label} htmlFor={id} required={spec.required} hint={spec.hint} error={error}>
          <input
            id={id}
            type={spec.type ?? "text"}
            className={`input w-full ${spec.mono ? "font-mono" : ""} ${error ? "input-error" : ""}`}
            placeholder={spec.placeholder}
            autoComplete={spec.autoComplete}
            autoFocus={spec.autoFocus ?? autoFocus}
            maxLength={maxLength}
            {...form.register(spec.name)}
          />
        </Field>
      );
    case "number":
      return <NumberField spec={spec} {...shared} />;
    case "date":
      return <DateField spec={spec} {...shared} />;
    case "textarea":
      return (
        <Field label={spec.label} htmlFor={id} hint={spec.hint} error={error}>
          <textarea
            id={id}
            rows={spec.rows ?? 4}
            className={`textarea w-full ${spec.mono ? "font-mono text-sm" : ""}`}
            placeholder={spec.placeholder}
            maxLength={maxLength}
            {...form.register(spec.name)}
          />
          {spec.note ? <LiveNote form={form} name={spec.name} note={spec.note} /> : null}
        </Field>
      );
    case "select":
      return (
        <Field label={spec.label} htmlFor={id} hint={spec.hint} error={error}>
          <select id={id} className="select w-full" {...form.register(spec.name)}>
            <EnumOptions values={spec.options} />
          </select>
        </Field>
      );
    case "checkboxes":
      return <CheckboxesField spec={spec} {...shared} />;
    case "picker":
      return <PickerField spec={spec} {...shared} />;
    case "checkbox":
      return (
        <label className="flex cursor-pointer items-center gap-3 text-sm" htmlFor={id}>
          <input id={id} type="checkbox" className="checkbox checkbox-sm" {...form.register(spec.name)} />
          <span>
            <span className="font-medium">{spec.label}</span>{" "}
            {spec.hint ? <span className="text-base-content/70">{spec.hint}</span> : null}
          </span>
        </label>
      );
  }
}

/** A set of checkboxes over a fixed list of values (a field holding several of them). */
function CheckboxesField<T extends FieldValues, O>({ spec, form, disabled, error }: FieldProps<T, O, "checkboxes">) {
  return (
    <fieldset>
      <legend className="mb-1 text-sm font-medium">{spec.label}</legend>
      <div className="flex flex-wrap gap-4">
        {spec.options.map((option) => (
          <label key={option} className="flex cursor-pointer items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="checkbox checkbox-sm"
              value={option}
              disabled={disabled}
              {...form.register(spec.name)}
            />
            {titleCase(option)}
          </label>
        ))}
      </div>
      {spec.hint ? <p className="mt-1 text-xs text-base-content/70">{spec.hint}</p> : null}
      {error ? <p className="mt-1 text-xs text-error">{error}</p> : null}
    </fieldset>
  );
}

/** A field whose value is another record's id, chosen with the picker the spec supplies. */
function PickerField<T extends FieldValues, O>({ spec, form, disabled, error }: FieldProps<T, O, "picker">) {
  const id = spec.name;
  return (
    <Field label={spec.label} htmlFor={id} required={spec.required} hint={spec.hint} error={error}>
      {spec.picker({
        id,
        value: form.watch(spec.name) || undefined,
        onChange: (value) =>
          form.setValue(spec.name, (value ?? (spec.none === null ? null : "")) as PathValue<T, Path<T>>, {
            shouldDirty: true,
            shouldValidate: form.formState.isSubmitted,
          }),
        invalid: Boolean(error),
        disabled,
      })}
    </Field>
  );
}

/** A calendar date: the browser's date box, its value `YYYY-MM-DD`; an empty box is null. */
function DateField<T extends FieldValues, O>({ spec, form, autoFocus, error }: FieldProps<T, O, "date">) {
  return (
    <Field label={spec.label} htmlFor={spec.name} required={spec.required} hint={spec.hint} error={error}>
      <input
        id={spec.name}
        type="date"
        className={`input w-full ${error ? "input-error" : ""}`}
        autoFocus={autoFocus}
        {...form.register(spec.name, { setValueAs: (v: unknown) => (v === "" || v == null ? null : v) })}
      />
    </Field>
  );
}

/** A number within the schema's bounds and step; an empty box is no value (not 0). */
function NumberField<T extends FieldValues, O>({ spec, form, schema, autoFocus, error }: FieldProps<T, O, "number">) {
  const id = spec.name;
  return (
    <Field label={spec.label} htmlFor={id} required={spec.required} hint={spec.hint} error={error}>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        className={`input w-full ${error ? "input-error" : ""}`}
        placeholder={spec.placeholder}
        autoFocus={autoFocus}
        {...numberBoundsOf(schema.shape[spec.name])}
        {...form.register(spec.name, {
          setValueAs: (v: unknown) => (v === "" || v == null ? undefined : Number(v)),
        })}
      />
    </Field>
  );
}
