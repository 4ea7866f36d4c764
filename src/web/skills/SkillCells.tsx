import { Globe } from "lucide-react";
import { fallbacksMsg } from "../../domain/messages/kit";
import { skillsMsg } from "../../domain/messages/skills";
import { Tag } from "../components/badges";
import { RecordLink } from "../components/RecordLink";

/** A skill's name linking to /skills/{skill_id}, cut with an ellipsis when long; its description under it when given. */
export function SkillLink({
  skillId,
  name,
  description,
}: {
  skillId: string;
  name: string;
  description?: string | null;
}) {
  return (
    <RecordLink
      to="/skills/$skillId"
      params={{ skillId }}
      text={name.trim() || fallbacksMsg.unnamedSkill}
      detail={description ?? null}
    />
  );
}

/** Scope of a skill: "Global" (available across all customers) or "Local". */
export function ScopeTag({ global }: { global: boolean }) {
  return global ? (
    <Tag tone="info">
      <Globe className="h-3 w-3" aria-hidden />
      {skillsMsg.global}
    </Tag>
  ) : (
    <Tag>{skillsMsg.local}</Tag>
  );
}
