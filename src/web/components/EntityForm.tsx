import { useState, type ReactNode } from "react";
import {
  useForm,
  type DefaultValues,
  type FieldValues,
  type Path,
  type PathValue,
  type UseFormReturn,
} from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { maxLengthOf } from "../../domain/text";
import { applyServerError, EnumOptions, FormActions, FormError, useUnsavedChanges } from "./forms";
import { Field } from "./inputs";

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
    }
  | { kind: "select"; name: Path<T>; label: string; options: readonly string[]; hint?: ReactNode }
  | { kind: "checkbox"; name: Path<T>; label: string; hint?: ReactNode }
  | {
      kind: "picker";
      name: Path<T>;
      label: string;
      required?: boolean;
      hint?: ReactNode;
      picker: (control: PickerControl) => ReactNode;
    }
  | { kind: "row"; fields: FieldSpec<T>[] };

/** A notice above the fields: what the form is waiting for or missing (no skills yet, say). */
export type FormNotice = { tone: "info" | "warning" | "error"; text: string };

type Schema<T extends FieldValues, O> = z.ZodType<O, T> & { shape: Record<string, z.ZodType> };

/**
 * The state every entity form shares (react-hook-form with the domain's zod schema): server field
 * errors put on their fields and other errors in the red box, the unsaved-changes guard (in-app
 * navigation, history and reload), the pending state. `submit` calls `onSubmit` with the parsed
 * values; a thrown ApiError shows on the form and the guard comes back.
 */
export function useEntityForm<T extends FieldValues, O>(
  schema: Schema<T, O>,
  defaults: DefaultValues<T>,
  onSubmit: (values: O) => Promise<void>,
  /** `locked`: saved, nothing left to lose; `guard: false`: a dialog's form, closed on purpose. */
  options: { locked?: boolean; guard?: boolean } = {},
) {
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<T, unknown, O>({ resolver: zodResolver(schema as never) as never, defaultValues: defaults });
  const guard = useUnsavedChanges(form.formState.isDirty && !options.locked && options.guard !== false);
  const submit = form.handleSubmit(async (values) => {
    setServerError(null);
    guard.allowLeave();
    try {
      await onSubmit(values);
    } catch (err) {
      guard.blockLeave();
      setServerError(applyServerError(err, form.setError));
    }
  });
  return { form, serverError, setServerError, submit, guard };
}

/**
 * An entity's add or edit form from its field declarations: the fields in order, the red box for
 * the server's message, `notice` above the fields, Cancel (`cancel`, leaving without asking) and
 * the submit button (`busyLabel` while saving, disabled while `disabled` or `locked`).
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
}: {
  schema: Schema<T, O>;
  defaults: DefaultValues<T>;
  fields: FieldSpec<T>[];
  /** Saves; a thrown ApiError is shown on the form. */
  onSubmit: (values: O) => Promise<void>;
  submitLabel: string;
  busyLabel: string;
  /** The Cancel link; it leaves without asking. */
  cancel: (allowLeave: () => void) => ReactNode;
  /** Saved: read-only while the page waits to go on. */
  locked?: boolean;
  disabled?: boolean;
  notice?: FormNotice | null;
}) {
  const { form, serverError, submit, guard } = useEntityForm(schema, defaults, onSubmit, { locked });
  return (
    <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
      <FormError message={serverError} />
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
        cancel={cancel(guard.allowLeave)}
        submitLabel={submitLabel}
        busyLabel={busyLabel}
        busy={form.formState.isSubmitting}
        disabled={disabled || locked}
      />
      {guard.prompt}
    </form>
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
    case "picker":
      return (
        <Field label={spec.label} htmlFor={id} required={spec.required} hint={spec.hint} error={error}>
          {spec.picker({
            id,
            value: (form.watch(spec.name) as string | undefined) || undefined,
            onChange: (value) =>
              form.setValue(spec.name, (value ?? "") as PathValue<T, Path<T>>, {
                shouldDirty: true,
                shouldValidate: form.formState.isSubmitted,
              }),
            invalid: Boolean(error),
            disabled,
          })}
        </Field>
      );
  }
}
