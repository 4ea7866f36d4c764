/**
 * The audit rows of a change to a link between two records (a membership, a skill assignment, a
 * prompt's platform): one row against each record, so that both records' histories show it.
 */
import type { AuditEntry } from "../audit";

/**
 * A team membership added or removed: one entry against the team and one against the user, so
 * the change shows in both records' history (the link row names both).
 */
export function membershipAudit(
  action: "add_member" | "remove_member",
  m: { team_id: string; user_id: string; customer_id: string },
): AuditEntry[] {
  const side = action === "add_member" ? "after" : "before";
  return [
    { action, entity: "team", entity_id: m.team_id, [side]: { user_id: m.user_id, customer_id: m.customer_id } },
    { action, entity: "user", entity_id: m.user_id, [side]: { team_id: m.team_id, customer_id: m.customer_id } },
  ];
}

/**
 * The audit rows of a skill assignment change (a teams_skills row): one against the team and one
 * against the skill, so that both records' histories show it. `before`/`after` hold the row's
 * changed fields (status) and names for the reader.
 */
export function assignmentAudit(
  action: "assign_skill" | "reassign_skill" | "unassign_skill",
  a: { team_id: string; skill_id: string },
  before?: Record<string, unknown>,
  after?: Record<string, unknown>,
): AuditEntry[] {
  return [
    { action, entity: "team", entity_id: a.team_id, before, after: { skill_id: a.skill_id, ...after } },
    { action, entity: "skill", entity_id: a.skill_id, before, after: { team_id: a.team_id, ...after } },
  ];
}

/**
 * The audit rows of a prompt's platform assignment change (a platform_prompts row): one against the
 * prompt and one against the platform, so that both records' histories show it.
 */
export function platformAssignmentAudit(
  action: "assign_platform" | "unassign_platform",
  a: { prompt_id: string; platform_id: string },
  fields: Record<string, unknown>,
): AuditEntry[] {
  const side = action === "assign_platform" ? "after" : "before";
  return [
    { action, entity: "prompt", entity_id: a.prompt_id, [side]: { platform_id: a.platform_id, ...fields } },
    { action, entity: "platform", entity_id: a.platform_id, [side]: { prompt_id: a.prompt_id, ...fields } },
  ];
}
