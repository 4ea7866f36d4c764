import type { Target } from "./target";

/**
 * Where a record opens, by its entity's name as the audit log and Recently deleted write it: its
 * screen (records without a screen: none). The audit log's Record column, the dashboard's
 * activity and the restore notice link through it.
 */
export const recordPage: Record<string, (id: string) => Target> = {
  customer: (id) => ({ to: "/customers/$customerId", params: { customerId: id } }),
  team: (id) => ({ to: "/teams/$teamId", params: { teamId: id } }),
  skill: (id) => ({ to: "/skills/$skillId", params: { skillId: id } }),
  user: (id) => ({ to: "/users/$userId", params: { userId: id } }),
  prompt: (id) => ({ to: "/prompts/$promptId", params: { promptId: id } }),
  platform: (id) => ({ to: "/platforms/$platformId", params: { platformId: id } }),
  prompt_change: (id) => ({ to: "/reviews/$changeId", params: { changeId: id } }),
  // A link (a membership, an assignment, a prompt's platform) opens the record its id starts with:
  // `{team_id}:{user_id}` → the team.
  team_member: (id) => recordPage.team(id.split(":")[0]),
  skill_assignment: (id) => recordPage.team(id.split(":")[0]),
  prompt_platform: (id) => recordPage.prompt(id.split(":")[0]),
};
