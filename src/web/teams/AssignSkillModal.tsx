import { teamsMsg } from "../../domain/messages/teams";
import { Tag } from "../components/badges";
import { titleCase } from "../components/format";
import { notify } from "../components/overlays";
import { PickModal, PickRow, type ModalState } from "../components/PickModal";
import { ScopeTag } from "../skills/public";
import { assignableSkillsQuery, useAssignSkill } from "./queries";

/**
 * SPEC.md §2 "/teams/{teamId}" modal "Assign Skill to Team": active skills not already assigned,
 * searchable, each with Assign ("Assigning..." while busy) and a Global tag on global skills.
 */
export function AssignSkillModal({ teamId, ...modal }: ModalState & { teamId: string }) {
  return (
    <PickModal
      {...modal}
      title={teamsMsg.assignSkillTitle}
      search={teamsMsg.searchSkills}
      query={(q) => assignableSkillsQuery(teamId, q)}
      mutation={useAssignSkill(teamId)}
      empty={(q) => (q ? "No skills match your search." : "No skills available to assign.")}
      label="Assignable skills"
      row={(skill) => (
        <PickRow
          name={skill.skill_name}
          tags={
            <>
              <Tag>{titleCase(skill.type)}</Tag>
              {skill.is_global ? <ScopeTag global /> : null}
            </>
          }
          detail={skill.skill_description}
        />
      )}
      pick={{
        id: (skill) => skill.skill_id,
        label: "Assign",
        busyLabel: teamsMsg.assigning,
        spinner: false,
        name: (skill) => `Assign ${skill.skill_name}`,
        done: () => notify(teamsMsg.skillAssigned),
      }}
    />
  );
}
