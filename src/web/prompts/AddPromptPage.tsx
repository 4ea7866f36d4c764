import { msg } from "../../domain/messages";
import { createPromptSchema } from "../../domain/prompts";
import { EntityForm } from "../components/EntityForm";
import { FormScreen } from "../components/FormScreen";
import { notify } from "../components/overlays";
import { promptDefaults, promptFields, usePromptFormState } from "./PromptForm";
import { useCreatePrompt } from "./queries";

/** SPEC.md §2 "/prompts/add": the prompt form; on success opens /prompts, with "Prompt created" and a link to the new prompt. */
export default function AddPromptPage() {
  const create = useCreatePrompt();
  const state = usePromptFormState();
  return (
    <FormScreen
      section={msg.nav.prompts}
      title={msg.prompts.addTitle}
      subtitle={msg.prompts.addSubtitle}
      back={{ to: "/prompts", label: msg.prompts.backToPrompts }}
    >
      {({ cancel, finish }) => (
        <EntityForm
          schema={createPromptSchema}
          fields={promptFields}
          defaults={promptDefaults}
          {...state}
          submitLabel={msg.prompts.create}
          busyLabel={msg.prompts.creating}
          cancel={cancel}
          onSubmit={async (values) => {
            const prompt = await create.mutateAsync(values);
            notify(msg.prompts.created, {
              link: { label: prompt.prompt_title, to: "/prompts/$promptId", params: { promptId: prompt.prompt_id } },
            });
            await finish({ to: "/prompts" });
          }}
        />
      )}
    </FormScreen>
  );
}
