import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "@tanstack/react-router";
import { msg } from "../../domain/messages";
import { BackLink, DetailScaffold, FormSkeleton } from "../components/detail";
import { FormCard, FormPage } from "../components/forms";
import { useDocumentTitle } from "../components/ui";
import { PromptForm } from "./PromptForm";
import { promptQuery, useUpdatePrompt } from "./queries";
import { known, promptStatuses } from "../../domain/enums";

/**
 * SPEC.md §2 "/prompts/{promptId}/edit": "Edit Prompt" / "Update prompt information and settings",
 * the prompt form prefilled; Cancel back to the prompt; "Update Prompt" ("Updating..."); an error in
 * a red banner; on success back to the prompt. "Prompt not found" for an unknown id (§5).
 */
export default function EditPromptPage() {
  const { promptId } = useParams({ from: "/prompts/$promptId/edit" });
  const navigate = useNavigate();
  const query = useQuery(promptQuery(promptId));
  const update = useUpdatePrompt(promptId);
  useDocumentTitle(query.data ? msg.prompts.editTitle : undefined, query.data?.prompt_title, msg.nav.prompts);

  return (
    <FormPage back={<BackLink to="/prompts/$promptId" params={{ promptId }} label={msg.prompts.backToPrompt} />}>
      <DetailScaffold
        query={query}
        skeleton={<FormSkeleton fields={4} />}
        section={msg.nav.prompts}
        errorTitle={msg.prompts.loadOneError}
        notFound={{ title: msg.prompts.notFound, message: msg.prompts.notFoundText }}
        back={{ to: "/prompts", label: msg.prompts.backToPrompts }}
      >
        {(prompt) => (
          <FormCard title={msg.prompts.editTitle} subtitle={msg.prompts.editSubtitle}>
            <PromptForm
              defaults={{ prompt_title: prompt.prompt_title, prompt_value: prompt.prompt_value ?? "", skill_id: prompt.skill_id, status: known(promptStatuses, prompt.status) }}
              submitLabel={msg.prompts.update}
              busyLabel={msg.prompts.updating}
              cancel={(allowLeave) => (
                <Link to="/prompts/$promptId" params={{ promptId }} activeOptions={{ exact: true }} activeProps={{ "aria-current": undefined }} className="btn btn-ghost" onClick={allowLeave}>{msg.ui.cancel}</Link>
              )}
              onSubmit={async (values) => {
                await update.mutateAsync(values);
                await navigate({ to: "/prompts/$promptId", params: { promptId } });
              }}
            />
          </FormCard>
        )}
      </DetailScaffold>
    </FormPage>
  );
}
