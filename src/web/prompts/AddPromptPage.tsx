import { Link, useNavigate } from "@tanstack/react-router";
import { msg } from "../../domain/messages";
import { BackLink } from "../components/detail";
import { FormCard, FormPage } from "../components/forms";
import { notify } from "../components/overlays";
import { useDocumentTitle } from "../components/ui";
import { PromptForm } from "./PromptForm";
import { useCreatePrompt } from "./queries";

/** SPEC.md §2 "/prompts/add": the prompt form; on success opens /prompts, with "Prompt created" and a link to the new prompt. */
export default function AddPromptPage() {
  const navigate = useNavigate();
  const create = useCreatePrompt();
  useDocumentTitle(msg.prompts.addTitle, msg.nav.prompts);

  return (
    <FormPage back={<BackLink to="/prompts" label={msg.prompts.backToPrompts} />}>
      <FormCard title={msg.prompts.addTitle} subtitle={msg.prompts.addSubtitle}>
        <PromptForm
          submitLabel={msg.prompts.create}
          busyLabel={msg.prompts.creating}
          cancel={(allowLeave) => (
            <Link to="/prompts" activeOptions={{ exact: true }} activeProps={{ "aria-current": undefined }} className="btn btn-ghost" onClick={allowLeave}>{msg.ui.cancel}</Link>
          )}
          onSubmit={async (values) => {
            const prompt = await create.mutateAsync(values);
            notify(msg.prompts.created, { link: { label: prompt.prompt_title, to: "/prompts/$promptId", params: { promptId: prompt.prompt_id } } });
            await navigate({ to: "/prompts" });
          }}
        />
      </FormCard>
    </FormPage>
  );
}
