import type { Target } from "../lib/target";

/** Where an audited record opens: its screen, by audit entity (records without a screen: none). */
export const auditEntityLink: Record<string, (id: string) => Target> = {
  customer: (id) => ({ to: "/customers/$customerId", params: { customerId: id } }),
  team: (id) => ({ to: "/teams/$teamId", params: { teamId: id } }),
  user: (id) => ({ to: "/users/$userId", params: { userId: id } }),
  prompt: (id) => ({ to: "/prompts/$promptId", params: { promptId: id } }),
  platform: (id) => ({ to: "/platforms/$platformId", params: { platformId: id } }),
  prompt_change: (id) => ({ to: "/reviews/$changeId", params: { changeId: id } }),
};
