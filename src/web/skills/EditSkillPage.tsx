import { useEffect, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "@tanstack/react-router";
import { msg, timings } from "../../domain/messages";
import { BackLink, DetailScaffold, FormSkeleton } from "../components/detail";
import { FormCard, FormPage } from "../components/forms";
import { notify } from "../components/overlays";
import { ErrorState, useDocumentTitle } from "../components/ui";
import { skillQuery, useUpdateSkill } from "./queries";
import { SkillForm } from "./SkillForm";
import { known, skillStatuses, skillTypes } from "../../domain/enums";

/**
 * SPEC.md §2 "/skills/{skillId}/edit": the skill form prefilled; "Skill updated successfully!",
 * then back to the skill after 1.5 s (§9); "Skill ID is missing" without an id (§5); "Skill not
 * found" for an unknown one.
 */
export default function EditSkillPage() {
  const { skillId } = useParams({ from: "/skills/$skillId/edit" });
  if (!skillId.trim()) return <ErrorState title={msg.skills.idMissing} />;
  return <EditSkill skillId={skillId} />;
}

function EditSkill({ skillId }: { skillId: string }) {
  const navigate = useNavigate();
  const query = useQuery(skillQuery(skillId));
  const update = useUpdateSkill(skillId);
  const [saved, setSaved] = useState(false);
  useDocumentTitle(query.data ? msg.skills.editTitle : undefined, query.data?.skill_name, msg.nav.skills);

  useEffect(() => {
    if (!saved) return;
    const timer = setTimeout(() => void navigate({ to: "/skills/$skillId", params: { skillId } }), timings.afterSkillChangeMs);
    return () => clearTimeout(timer);
  }, [saved, skillId, navigate]);

  return (
    <FormPage back={<BackLink to="/skills/$skillId" params={{ skillId }} label={msg.skills.backToSkill} />}>
      <DetailScaffold
        query={query}
        skeleton={<FormSkeleton fields={4} />}
        section={msg.nav.skills}
        errorTitle={msg.skills.loadOneError}
        notFound={{ title: msg.skills.notFound }}
        back={{ to: "/skills", label: msg.skills.backToList }}
      >
        {(skill) => (
          <FormCard title={msg.skills.editTitle} subtitle={<span className="block truncate" title={skill.skill_name}>{msg.skills.editSubtitle}</span>}>
            <SkillForm
              locked={saved}
              defaults={{
                skill_name: skill.skill_name,
                skill_description: skill.skill_description ?? "",
                type: known(skillTypes, skill.type),
                status: known(skillStatuses, skill.status),
                is_global: skill.is_global,
              }}
              submitLabel={msg.skills.save}
              busyLabel={msg.skills.saving}
              cancel={(allowLeave) => (
                <Link to="/skills/$skillId" params={{ skillId }} activeOptions={{ exact: true }} activeProps={{ "aria-current": undefined }} className="btn btn-ghost" onClick={allowLeave}>{msg.ui.cancel}</Link>
              )}
              onSubmit={async (values) => {
                await update.mutateAsync(values);
                notify(msg.skills.updated);
                setSaved(true);
              }}
            />
          </FormCard>
        )}
      </DetailScaffold>
    </FormPage>
  );
}
