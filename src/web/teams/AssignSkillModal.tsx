import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Globe } from "lucide-react";
import { msg } from "../../domain/messages";
import { Tag } from "../components/badges";
import { titleCase } from "../components/format";
import { notify } from "../components/overlays";
import { PickModal } from "../components/PickModal";
import { Truncate } from "../components/text";
import { assignableSkillsQuery, useAssignSkill } from "./queries";

/**
 * SPEC.md §2 "/teams/{teamId}" modal "Assign Skill to Team": active skills not already assigned,
 * searchable, each with Assign ("Assigning..." while busy) and a Global tag on global skills.
 */
export function AssignSkillModal({ teamId, open, onClose }: { teamId: string; open: boolean; onClose: () => void }) {
  const [q, setQ] = useState("");
  const assign = useAssignSkill(teamId);
  const [busyId, setBusyId] = useState<string | null>(null);
  const skills = useQuery({ ...assignableSkillsQuery(teamId, q), enabled: open });

  return (
    <PickModal
      open={open}
      title={msg.teams.assignSkillTitle}
      onClose={onClose}
      error={assign.error}
      search={msg.teams.searchSkills}
      q={q}
      onSearch={setQ}
      query={skills}
      empty={(q) => (q ? "No skills match your search." : "No skills available to assign.")}
      label="Assignable skills"
      rowKey={(skill) => skill.skill_id}
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
      action={{
        content: (_skill, busy) => (busy ? msg.teams.assigning : "Assign"),
        label: (skill) => `Assign ${skill.skill_name}`,
        run: (skill) => {
          setBusyId(skill.skill_id);
          assign.mutate(skill.skill_id, {
            onSuccess: () => notify(msg.teams.skillAssigned),
            onSettled: () => setBusyId(null),
          });
        },
      }}
      busyId={busyId}
    />
  );
}
