import { Link } from "@tanstack/react-router";
import { Globe } from "lucide-react";
import { msg } from "../../domain/messages";
import { Tag } from "../components/badges";

/** A skill's name linking to /skills/{skill_id}, cut with an ellipsis when long; its description under it when given. */
export function SkillLink({ skillId, name, description }: { skillId: string; name: string; description?: string | null }) {
  const label = name.trim() || msg.fallbacks.unnamedSkill;
  return (
    <div className="min-w-0">
      <Link to="/skills/$skillId" params={{ skillId }} className="block min-w-0 truncate font-medium hover:text-primary hover:underline" title={label}>
        {label}
      </Link>
      {description ? <span className="block min-w-0 truncate text-xs text-base-content/70" title={description}>{description}</span> : null}
    </div>
  );
}

/** Scope of a skill: "Global" (available across all customers) or "Local". */
export function ScopeTag({ global }: { global: boolean }) {
  return global ? (
    <Tag tone="info"><Globe className="h-3 w-3" aria-hidden />{msg.skills.global}</Tag>
  ) : (
    <Tag>{msg.skills.local}</Tag>
  );
}
