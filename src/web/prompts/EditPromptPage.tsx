import { useQuery } from "@tanstack/react-query";
import { useParams } from "@tanstack/react-router";
import { known, promptStatuses } from "../../domain/enums";
import { msg } from "../../domain/messages";
import { createPromptSchema, type Prompt } from "../../domain/prompts";
import { EntityForm } from "../components/EntityForm";
import { FormScreen } from "../components/FormScreen";
import { promptFields, promptRecord, usePromptFormState } from "./PromptForm";
import { promptQuery, useUpdatePrompt } from "./queries";

/**
 * SPEC.md §2 "/prompts/{promptId}/edit": "Edit Prompt" / "Update prompt information and settings",
 * the prompt form prefilled; Cancel back to the prompt; "Update Prompt" ("Updating..."); an error in
 * a red banner; on success back to the prompt. "Prompt not found" for an unknown id (§5).
 */
/** The form's values for a prompt (also a stale save's current record on Reload). */
const promptValues = (prompt: Prompt) => ({
  prompt_title: prompt.prompt_title,
  prompt_value: prompt.prompt_value ?? "",
  skill_id: prompt.skill_id,
  status: known(promptStatuses, prompt.status),
});

export default function EditPromptPage() {
  const { promptId } = useParams({ from: "/prompts/$promptId/edit" });
  const query = useQuery(promptQuery(promptId));
  const update = useUpdatePrompt(promptId);
  const state = usePromptFormState();
  const back = { to: "/prompts/$promptId", params: { promptId } };
  return (
    <FormScreen
      section={msg.nav.prompts}
      title={msg.prompts.editTitle}
      subtitle={msg.prompts.editSubtitle}
      back={{ ...back, label: msg.prompts.backToPrompt }}
      load={{ query, name: (p) => p.prompt_title, kind: promptRecord }}
    >
      {({ record: prompt, cancel, finish }) => (
        <EntityForm
          schema={createPromptSchema}
          fields={promptFields}
          defaults={promptValues(prompt)}
          version={{ updatedAt: prompt.updated_at, reset: (current) => promptValues(current as never) }}
          {...state}
          submitLabel={msg.prompts.update}
          busyLabel={msg.prompts.updating}
          cancel={cancel}
          onSubmit={async (values, { ifMatch }) => {
            await update.mutateAsync({ ...values, ifMatch });
            await finish(back);
          }}
        />
      )}
    </FormScreen>
  );
}
