import { and, eq } from "drizzle-orm";
import { msg } from "../../domain/messages";
import type { Tx } from "../audit";
import type { Written } from "../db/records";
import { assignmentAudit } from "./audit";
import { skills, teams, teams_skills } from "../db/schema";
import { HttpError, notFound } from "../http/errors";

/**
 * The skill `skillId` (its status), share-locked until the transaction ends so that it cannot be
 * archived or deleted meanwhile; undefined when there is no such skill, which each caller refuses
 * with its own answer (404, or 422 on the field that named it).
 */
export async function sharedSkill(tx: Tx, skillId: string) {
  const [skill] = await tx
    .select({ status: skills.status })
    .from(skills)
    .where(eq(skills.skill_id, skillId))
    .for("share");
  return skill;
}

/**
 * The one rule of assigning a skill to a team (SPEC.md §4), for every path that does it: the team
 * page's Assign Skill, the skill page's Assign to Team and its bulk assign. The skill must exist
 * and be active, the team must exist and be active. An unassigned (inactive) record is reactivated
 * with a new assigned_at; an active one is left as it is (one record per team and skill).
 *
 * Locks the skill (shared: it cannot be archived or deleted meanwhile) and then the team (for
 * update: this team's assignments are written one at a time), in that order on every path, so two
 * paths cannot deadlock. Look, then write: an adopted database may lack the (team_id, skill_id)
 * key, so no ON CONFLICT.
 * @returns whether a record was created and whether anything changed, with the audit rows.
 * @throws HttpError 404 (msg.skills.notFound, msg.teams.notFound) or 422 (msg.skills.notActive
 * on skill_id, msg.skills.teamNotActive on team_id).
 */
export async function assignSkillToTeam(
  tx: Tx,
  teamId: string,
  skillId: string,
): Promise<Written<{ created: boolean; changed: boolean }>> {
  const skill = await sharedSkill(tx, skillId);
  if (!skill) throw notFound(msg.skills.notFound);
  const [team] = await tx.select().from(teams).where(eq(teams.team_id, teamId)).for("update");
  if (!team) throw notFound(msg.teams.notFound);
  if (skill.status !== "active")
    throw new HttpError(422, "validation_failed", msg.skills.notActive, { skill_id: msg.skills.notActive });
  if (team.status !== "active")
    throw new HttpError(422, "validation_failed", msg.skills.teamNotActive, { team_id: msg.skills.teamNotActive });
  const pair = and(eq(teams_skills.team_id, teamId), eq(teams_skills.skill_id, skillId));
  const existing = await tx.select({ status: teams_skills.status }).from(teams_skills).where(pair);
  if (existing.some((r) => r.status === "active")) return { result: { created: false, changed: false }, audit: [] };
  const now = new Date();
  if (existing.length === 0) {
    await tx.insert(teams_skills).values({
      team_id: teamId,
      skill_id: skillId,
      customer_id: team.customer_id,
      status: "active",
      assigned_at: now,
    });
  } else {
    await tx.update(teams_skills).set({ status: "active", assigned_at: now }).where(pair);
  }
  const created = existing.length === 0;
  return {
    result: { created, changed: true },
    audit: assignmentAudit(
      created ? "assign_skill" : "reassign_skill",
      { team_id: teamId, skill_id: skillId },
      undefined,
      { team_name: team.team_name, status: "active" },
    ),
  };
}
