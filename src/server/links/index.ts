/**
 * Links between two entities' records, which belong to neither feature alone: team memberships,
 * skill assignments to teams, prompts' platforms. Features import them from here, never from each other.
 */
export { assignmentAudit, membershipAudit, platformAssignmentAudit } from "./audit";
export { assignSkillToTeam, sharedSkill } from "./skill-assignments";
export { addMember, removeMember } from "./memberships";
export { removeMembers, unassignPlatforms, unassignSkills } from "./removals";
