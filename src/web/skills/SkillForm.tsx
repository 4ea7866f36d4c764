import { useState, type ReactNode } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { skillStatuses, skillTypes } from "../../domain/enums";
import { msg } from "../../domain/messages";
import { createSkillSchema, type CreateSkillInput, type SkillFormValues } from "../../domain/skills";
import { applyServerError, EnumOptions, FormActions, FormError, useUnsavedChanges } from "../components/forms";
import { Field } from "../components/inputs";
import { maxLengthOf } from "../../domain/text";

/**
 * The skill form (SPEC.md §2 "/skills/add" and "/skills/{skillId}/edit", §5): Skill Name (required,
 * trimmed), Description (trimmed, empty saved null), Type (default manual), Status (default
 * active), Global "(Available across all customers)". `locked` keeps it read-only once saved
 * (while the page waits to redirect).
 */
export function SkillForm({ defaults, onSubmit, submitLabel, busyLabel, cancel, locked }: {
  defaults?: Partial<CreateSkillInput>;
  onSubmit: (values: SkillFormValues) => Promise<void>;
  submitLabel: string;
  busyLabel: string;
  cancel: (allowLeave: () => void) => ReactNode;
  locked?: boolean;
}) {
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<CreateSkillInput, unknown, SkillFormValues>({
    resolver: zodResolver(createSkillSchema),
    defaultValues: { skill_name: "", skill_description: "", type: "manual", status: "active", is_global: false, ...defaults },
  });
  const { errors, isSubmitting, isDirty } = form.formState;
  const guard = useUnsavedChanges(isDirty && !locked);

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
      <Field label="Skill Name" htmlFor="skill_name" required error={errors.skill_name?.message}>
        <input id="skill_name" className={`input w-full ${errors.skill_name ? "input-error" : ""}`} autoFocus {...form.register("skill_name")} maxLength={maxLengthOf(createSkillSchema.shape.skill_name)} />
      </Field>
      <Field label="Description" htmlFor="skill_description" error={errors.skill_description?.message}>
        <textarea id="skill_description" rows={4} className="textarea w-full" {...form.register("skill_description")} maxLength={maxLengthOf(createSkillSchema.shape.skill_description)} />
      </Field>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Field label="Type" htmlFor="type" error={errors.type?.message}>
          <select id="type" className="select w-full" {...form.register("type")}>
            <EnumOptions values={skillTypes} />
          </select>
        </Field>
        <Field label="Status" htmlFor="status" error={errors.status?.message}>
          <select id="status" className="select w-full" {...form.register("status")}>
            <EnumOptions values={skillStatuses} />
          </select>
        </Field>
      </div>
      <label className="flex cursor-pointer items-center gap-3 text-sm" htmlFor="is_global">
        <input id="is_global" type="checkbox" className="checkbox checkbox-sm" {...form.register("is_global")} />
        <span>
          <span className="font-medium">Global</span> <span className="text-base-content/70">{msg.skills.globalHint}</span>
        </span>
      </label>
      <FormActions cancel={cancel(guard.allowLeave)} submitLabel={submitLabel} busyLabel={busyLabel} busy={isSubmitting} disabled={locked} />
      {guard.prompt}
    </form>
  );
}
