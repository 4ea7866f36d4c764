import { useState, type ReactNode } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { platformStatuses } from "../../domain/enums";
import { createPlatformSchema, type CreatePlatformInput, type PlatformFormValues } from "../../domain/platforms";
import { applyServerError, EnumOptions, FormActions, FormError, useUnsavedChanges } from "../components/forms";
import { Field } from "../components/inputs";
import { maxLengthOf } from "../../domain/text";

/**
 * The platform form (docs/decisions.md: the spec links /platforms/add without showing it): Name
 * (required, trimmed), Description (trimmed, empty saved null), Status (Active, Inactive, Draft;
 * default Active). For adding and editing.
 */
export function PlatformForm({ defaults, onSubmit, submitLabel, busyLabel, cancel }: {
  defaults?: Partial<CreatePlatformInput>;
  onSubmit: (values: PlatformFormValues) => Promise<void>;
  submitLabel: string;
  busyLabel: string;
  cancel: (allowLeave: () => void) => ReactNode;
}) {
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<CreatePlatformInput, unknown, PlatformFormValues>({
    resolver: zodResolver(createPlatformSchema),
    defaultValues: { platform_name: "", platform_description: "", status: "active", ...defaults },
  });
  const { errors, isSubmitting, isDirty } = form.formState;
  const guard = useUnsavedChanges(isDirty);

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

  return (
    <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
      <FormError message={serverError} />
      <Field label="Platform Name" htmlFor="platform_name" required error={errors.platform_name?.message}>
        <input id="platform_name" className={`input w-full ${errors.platform_name ? "input-error" : ""}`} autoFocus {...form.register("platform_name")} maxLength={maxLengthOf(createPlatformSchema.shape.platform_name)} />
      </Field>
      <Field label="Description" htmlFor="platform_description" error={errors.platform_description?.message}>
        <textarea id="platform_description" rows={4} className="textarea w-full" {...form.register("platform_description")} maxLength={maxLengthOf(createPlatformSchema.shape.platform_description)} />
      </Field>
      <Field label="Status" htmlFor="status" error={errors.status?.message}>
        <select id="status" className="select w-full" {...form.register("status")}>
          <EnumOptions values={platformStatuses} />
        </select>
      </Field>
      <FormActions cancel={cancel(guard.allowLeave)} submitLabel={submitLabel} busyLabel={busyLabel} busy={isSubmitting} />
      {guard.prompt}
    </form>
  );
}
