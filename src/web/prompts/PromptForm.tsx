import { useState, type ReactNode } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { promptStatuses } from "../../domain/enums";
import { msg } from "../../domain/messages";
import { createPromptSchema, type CreatePromptInput, type PromptFormValues } from "../../domain/prompts";
import { skillOptionsSchema } from "../../domain/skills";
import { api, errorMessage } from "../api/client";
import { applyServerError, EnumOptions, FormActions, FormError, useUnsavedChanges } from "../components/forms";
import { Field } from "../components/inputs";
import { queryRoots } from "../lib/query-client";
import { SkillPicker } from "../skills/public";
import { maxLengthOf } from "../../domain/text";

/** Whether any active skill exists (the picker itself asks the server as the user types). */
const anyActiveSkillQuery = {
  queryKey: [...queryRoots.skills, "options", "any-active"],
  queryFn: ({ signal }: { signal: AbortSignal }) => api("/skills/options", skillOptionsSchema, { query: { active: "true", limit: 1 }, signal }),
};

/**
 * The prompt form (SPEC.md §2 "/prompts/add" and "/prompts/{promptId}/edit", §5): Prompt Title *
 * (trimmed), Skill * (a type-ahead picker over active skills), Prompt Content (8 rows, trimmed,
 * empty saved null), Status (Active, Inactive, Draft; default Active). The skills' states:
 * "Loading skills...", "Error loading skills: {message}", "No active skills found. Please create a
 * skill first."; submit is disabled while saving, while skills load, or with no active skills.
 */
export function PromptForm({ defaults, onSubmit, submitLabel, busyLabel, cancel }: {
  defaults?: Partial<CreatePromptInput>;
  onSubmit: (values: PromptFormValues) => Promise<void>;
  submitLabel: string;
  busyLabel: string;
  cancel: (allowLeave: () => void) => ReactNode;
}) {
  const skills = useQuery(anyActiveSkillQuery);
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<CreatePromptInput, unknown, PromptFormValues>({
    resolver: zodResolver(createPromptSchema),
    defaultValues: { prompt_title: "", skill_id: "", prompt_value: "", status: "active", ...defaults },
  });
  const { errors, isSubmitting, isDirty } = form.formState;
  const guard = useUnsavedChanges(isDirty);
  const noSkills = skills.isSuccess && skills.data.items.length === 0;

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

  const skillState = skills.isPending
    ? { tone: "alert-info", text: msg.prompts.loadingSkills }
    : skills.isError
      ? { tone: "alert-error", text: msg.prompts.skillsLoadError(errorMessage(skills.error)) }
      : noSkills
        ? { tone: "alert-warning", text: msg.prompts.noActiveSkills }
        : null;

  return (
    <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
      <FormError message={serverError} />
      {skillState ? (
        <div role={skills.isPending ? "status" : "alert"} className={`alert alert-soft text-sm ${skillState.tone}`}>
          {skillState.text}
        </div>
      ) : null}
      <Field label="Prompt Title" htmlFor="prompt_title" required error={errors.prompt_title?.message}>
        <input id="prompt_title" className={`input w-full ${errors.prompt_title ? "input-error" : ""}`} autoFocus {...form.register("prompt_title")} maxLength={maxLengthOf(createPromptSchema.shape.prompt_title)} />
      </Field>
      <Field label="Skill" htmlFor="skill_id" required error={errors.skill_id?.message}>
        <SkillPicker
          id="skill_id"
          activeOnly
          field
          value={form.watch("skill_id") || undefined}
          onChange={(id) => form.setValue("skill_id", id ?? "", { shouldDirty: true, shouldValidate: form.formState.isSubmitted })}
          invalid={!!errors.skill_id}
          disabled={!skills.isSuccess || noSkills}
        />
      </Field>
      <Field label="Prompt Content" htmlFor="prompt_value" error={errors.prompt_value?.message}>
        <textarea id="prompt_value" rows={8} className="textarea w-full font-mono text-sm" {...form.register("prompt_value")} maxLength={maxLengthOf(createPromptSchema.shape.prompt_value)} />
      </Field>
      <Field label="Status" htmlFor="status" error={errors.status?.message}>
        <select id="status" className="select w-full" {...form.register("status")}>
          <EnumOptions values={promptStatuses} />
        </select>
      </Field>
      <FormActions cancel={cancel(guard.allowLeave)} submitLabel={submitLabel} busyLabel={busyLabel} busy={isSubmitting} disabled={!skills.isSuccess || noSkills} />
      {guard.prompt}
    </form>
  );
}
