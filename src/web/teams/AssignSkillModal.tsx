import { Globe } from "lucide-react";
import { msg } from "../../domain/messages";
import { Tag } from "../components/badges";
import { titleCase } from "../components/format";
import { notify } from "../components/overlays";
import { PickModal, type ModalState } from "../components/PickModal";
import { Truncate } from "../components/text";
import { assignableSkillsQuery, useAssignSkill } from "./queries";

/**
 * SPEC.md §2 "/teams/{teamId}" modal "Assign Skill to Team": active skills not already assigned,
 * searchable, each with Assign ("Assigning..." while busy) and a Global tag on global skills.
 */
export function AssignSkillModal({ teamId, ...modal }: ModalState & { teamId: string }) {
  return (
    <PickModal
      {...modal}
      title={msg.teams.assignSkillTitle}
      search={msg.teams.searchSkills}
      query={(q) => assignableSkillsQuery(teamId, q)}
      mutation={useAssignSkill(teamId)}
      empty={(q) => (q ? "No skills match your search." : "No skills available to assign.")}
      label="Assignable skills"
      row={(skill) => (
        <>
          <div className="flex min-w-0 items-center gap-2">
            <Truncate text={skill.skill_name} className="font-medium" />
            <Tag>{titleCase(skill.type)}</Tag>
            {skill.is_global ? (
              <Tag tone="info">
                <Globe className="h-3 w-3" aria-hidden />
                Global
              </Tag>
            ) : null}
          </div>
          {skill.skill_description ? (
            <p className="mt-0.5 line-clamp-2 text-sm text-base-content/70" title={skill.skill_description}>
              {skill.skill_description}
            </p>
          ) : null}
        </>
      )}
      pick={{
        id: (skill) => skill.skill_id,
        label: "Assign",
        busyLabel: msg.teams.assigning,
        spinner: false,
        name: (skill) => `Assign ${skill.skill_name}`,
        done: () => notify(msg.teams.skillAssigned),
      }}
    />
  );
}
