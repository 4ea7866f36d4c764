import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Globe } from "lucide-react";
import { msg } from "../../domain/messages";
import { errorMessage } from "../api/client";
import { Tag } from "../components/badges";
import { titleCase } from "../components/format";
import { Truncate } from "../components/text";
import { EmptyState, SearchInput } from "../components/inputs";
import { formatCount } from "../components/ListPagination";
import { Modal, notify } from "../components/overlays";
import { Spinner } from "../components/ui";
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

  const onAssign = (skillId: string) => {
    setBusyId(skillId);
    assign.mutate(skillId, {
      onSuccess: () => notify(msg.teams.skillAssigned),
      onSettled: () => setBusyId(null),
    });
  };

  return (
    <Modal open={open} title={msg.teams.assignSkillTitle} onClose={onClose} size="lg">
      {assign.error ? <div role="alert" className="alert alert-error alert-soft mb-3 text-sm">{errorMessage(assign.error)}</div> : null}
      <div className="mb-3">
        <SearchInput value={q} onChange={setQ} placeholder={msg.teams.searchSkills} />
      </div>
      {skills.isPending ? (
        <Spinner />
      ) : skills.error ? (
        <div role="alert" className="alert alert-error alert-soft text-sm">{errorMessage(skills.error)}</div>
      ) : skills.data.items.length === 0 ? (
        <div className="py-8">
          <EmptyState title={q ? "No skills match your search." : "No skills available to assign."} />
        </div>
      ) : (
        <ul className="divide-y divide-base-300" aria-label="Assignable skills">
          {skills.data.items.map((skill) => (
            <li key={skill.skill_id} className="flex items-center gap-3 py-3">
              <div className="min-w-0 flex-1">
                <div className="flex min-w-0 items-center gap-2">
                  <Truncate text={skill.skill_name} className="font-medium" />
                  <Tag>{titleCase(skill.type)}</Tag>
                  {skill.is_global ? <Tag tone="info"><Globe className="h-3 w-3" aria-hidden />Global</Tag> : null}
                </div>
                {skill.skill_description ? <p className="mt-0.5 line-clamp-2 text-sm text-base-content/70" title={skill.skill_description}>{skill.skill_description}</p> : null}
              </div>
              <button
                type="button"
                className="btn btn-primary btn-sm"
                onClick={() => onAssign(skill.skill_id)}
                disabled={busyId !== null}
                aria-label={`Assign ${skill.skill_name}`}
              >
                {busyId === skill.skill_id ? msg.teams.assigning : "Assign"}
              </button>
            </li>
          ))}
        </ul>
      )}
      {skills.data && skills.data.total > skills.data.items.length ? (
        <p className="mt-2 text-xs text-base-content/70">Showing {skills.data.items.length} of {formatCount(skills.data.total, skills.data.total_exact)}; search to narrow the list.</p>
      ) : null}
    </Modal>
  );
}
