import { msg, timings } from "../../domain/messages";
import { createSkillSchema } from "../../domain/skills";
import { EntityForm } from "../components/EntityForm";
import { FormScreen } from "../components/FormScreen";
import { notify } from "../components/overlays";
import { useCreateSkill } from "./queries";
import { skillDefaults, skillFields } from "./SkillForm";

/** SPEC.md §2 "/skills/add": the skill form; "Skill created successfully!", then /skills after 1.5 s (§9). */
export default function AddSkillPage() {
  const create = useCreateSkill();
  return (
    <FormScreen
      section={msg.nav.skills}
      title={msg.skills.addTitle}
      subtitle={msg.skills.addSubtitle}
      back={{ to: "/skills", label: msg.skills.backToList }}
    >
      {({ cancel, finish, locked }) => (
        <EntityForm
          schema={createSkillSchema}
          fields={skillFields}
          defaults={skillDefaults}
          locked={locked}
          submitLabel={msg.skills.create}
          busyLabel={msg.skills.creating}
          cancel={cancel}
          onSubmit={async (values) => {
            await create.mutateAsync(values);
            notify(msg.skills.created);
            await finish({ to: "/skills" }, timings.afterSkillChangeMs);
          }}
        />
      )}
    </FormScreen>
  );
}
