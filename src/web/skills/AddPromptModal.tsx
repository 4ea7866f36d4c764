import { useEffect } from "react";
import { promptStatuses } from "../../domain/enums";
import { skillsMsg } from "../../domain/messages/skills";
import { createSkillPromptSchema, type CreateSkillPromptInput } from "../../domain/prompts";
import { FormFields, useEntityForm, type FieldSpec } from "../components/EntityForm";
import { FormError } from "../components/forms";
import { ModalButtons } from "../components/ModalButtons";
import { Modal } from "../components/overlays";
import { useAddPrompt } from "./queries";

const fields: FieldSpec<CreateSkillPromptInput>[] = [
  { kind: "text", name: "prompt_title", label: "Prompt Title", required: true },
  { kind: "textarea", name: "prompt_value", label: "Prompt Content", rows: 8, mono: true },
  { kind: "select", name: "status", label: "Status", options: promptStatuses },
];
const defaults: CreateSkillPromptInput = { prompt_title: "", prompt_value: "", status: "active" };

/**
 * The skill page's Add Prompt modal (SPEC.md §2, §5): Prompt Title (required, trimmed), Prompt
 * Content (8 rows, trimmed, empty saved null), Status (default active). Saved on the server by
 * `POST /api/skills/{skillId}/prompts`; the page then shows "Prompt added successfully!".
 */
export function AddPromptModal({
  skillId,
  open,
  onClose,
  onAdded,
}: {
  skillId: string;
  open: boolean;
  onClose: () => void;
  onAdded: () => void;
}) {
  const add = useAddPrompt(skillId);
  const { form, serverError, setServerError, submit } = useEntityForm(
    createSkillPromptSchema,
    defaults,
    async (values) => {
      await add.mutateAsync(values);
      onAdded();
    },
    { guard: false },
  );
  const busy = form.formState.isSubmitting;
  useEffect(() => {
    if (open) {
      form.reset();
      setServerError(null);
    }
  }, [open, form, setServerError]);

  return (
    <Modal
      open={open}
      title={skillsMsg.addPromptTitle}
      onClose={onClose}
      size="lg"
      footer={
        <ModalButtons
          onCancel={onClose}
          cancelDisabled={busy}
          label={skillsMsg.addPrompt}
          busy={busy}
          form="add-prompt-form"
        />
      }
    >
      <form id="add-prompt-form" className="flex flex-col gap-4" onSubmit={submit} noValidate>
        <FormError message={serverError} />
        <FormFields fields={fields} form={form} schema={createSkillPromptSchema} autoFocus={false} />
      </form>
    </Modal>
  );
}
