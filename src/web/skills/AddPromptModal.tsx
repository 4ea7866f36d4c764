import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { promptStatuses } from "../../domain/enums";
import { msg } from "../../domain/messages";
import { createSkillPromptSchema, type CreateSkillPromptInput } from "../../domain/prompts";
import { applyServerError, EnumOptions, FormError } from "../components/forms";
import { Field } from "../components/inputs";
import { Modal } from "../components/overlays";
import { useAddPrompt } from "./queries";
import { maxLengthOf } from "../../domain/text";

type Values = z.output<typeof createSkillPromptSchema>;

/**
 * The skill page's Add Prompt modal (SPEC.md §2, §5): Prompt Title (required, trimmed), Prompt
 * Content (8 rows, trimmed, empty saved null), Status (default active). Saved on the server by
 * `POST /api/skills/{skillId}/prompts`; the page then shows "Prompt added successfully!".
 */
export function AddPromptModal({ skillId, open, onClose, onAdded }: { skillId: string; open: boolean; onClose: () => void; onAdded: () => void }) {
  const add = useAddPrompt(skillId);
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<CreateSkillPromptInput, unknown, Values>({
    resolver: zodResolver(createSkillPromptSchema),
    defaultValues: { prompt_title: "", prompt_value: "", status: "active" },
  });
  const { errors, isSubmitting } = form.formState;
  useEffect(() => {
    if (open) {
      form.reset();
      setServerError(null);
    }
  }, [open, form]);

  const submit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      await add.mutateAsync(values);
      onAdded();
    } catch (err) {
      setServerError(applyServerError(err, form.setError));
    }
  });

  return (
    <Modal
      open={open}
      title={msg.skills.addPromptTitle}
      onClose={onClose}
      size="lg"
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose} disabled={isSubmitting}>{msg.ui.cancel}</button>
          <button type="submit" form="add-prompt-form" className="btn btn-primary" disabled={isSubmitting}>
            {isSubmitting ? <span className="loading loading-spinner loading-sm" aria-hidden /> : null}
            {msg.skills.addPrompt}
          </button>
        </>
      }
    >
      <form id="add-prompt-form" className="flex flex-col gap-4" onSubmit={submit} noValidate>
        <FormError message={serverError} />
        <Field label="Prompt Title" htmlFor="prompt_title" required error={errors.prompt_title?.message}>
          <input id="prompt_title" className={`input w-full ${errors.prompt_title ? "input-error" : ""}`} {...form.register("prompt_title")} maxLength={maxLengthOf(createSkillPromptSchema.shape.prompt_title)} />
        </Field>
        <Field label="Prompt Content" htmlFor="prompt_value" error={errors.prompt_value?.message}>
          <textarea id="prompt_value" rows={8} className="textarea w-full font-mono text-sm" {...form.register("prompt_value")} maxLength={maxLengthOf(createSkillPromptSchema.shape.prompt_value)} />
        </Field>
        <Field label="Status" htmlFor="prompt_status" error={errors.status?.message}>
          <select id="prompt_status" className="select w-full" {...form.register("status")}>
            <EnumOptions values={promptStatuses} />
          </select>
        </Field>
      </form>
    </Modal>
  );
}
