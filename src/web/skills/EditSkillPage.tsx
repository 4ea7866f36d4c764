import { useQuery } from "@tanstack/react-query";
import { useParams } from "@tanstack/react-router";
import { known, skillStatuses, skillTypes } from "../../domain/enums";
import { msg, timings } from "../../domain/messages";
import { createSkillSchema, type Skill } from "../../domain/skills";
import { EntityForm } from "../components/EntityForm";
import { FormScreen } from "../components/FormScreen";
import { notify } from "../components/overlays";
import { ErrorState } from "../components/ui";
import { skillQuery, useUpdateSkill } from "./queries";
import { skillFields, skillRecord } from "./SkillForm";

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

/** The form's values for a skill (also a stale save's current record on Reload). */
const skillValues = (skill: Skill) => ({
  skill_name: skill.skill_name,
  skill_description: skill.skill_description ?? "",
  type: known(skillTypes, skill.type),
  status: known(skillStatuses, skill.status),
  is_global: skill.is_global,
});

function EditSkill({ skillId }: { skillId: string }) {
  const query = useQuery(skillQuery(skillId));
  const update = useUpdateSkill(skillId);
  const back = { to: "/skills/$skillId", params: { skillId } };
  return (
    <FormScreen
      section={msg.nav.skills}
      title={msg.skills.editTitle}
      subtitle={msg.skills.editSubtitle}
      back={{ ...back, label: msg.skills.backToSkill }}
      load={{ query, name: (s) => s.skill_name, kind: skillRecord }}
    >
      {({ record: skill, cancel, finish, locked }) => (
        <EntityForm
          schema={createSkillSchema}
          fields={skillFields}
          defaults={skillValues(skill)}
          version={{ updatedAt: skill.updated_at, reset: (current) => skillValues(current as never) }}
          locked={locked}
          submitLabel={msg.skills.save}
          busyLabel={msg.skills.saving}
          cancel={cancel}
          onSubmit={async (values, { ifMatch }) => {
            await update.mutateAsync({ ...values, ifMatch });
            notify(msg.skills.updated);
            await finish(back, timings.afterSkillChangeMs);
          }}
        />
      )}
    </FormScreen>
  );
}
