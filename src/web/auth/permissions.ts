import type { OperatorRole } from "../../domain/enums";
import { useAuth } from "./AuthProvider";

const rank: Record<OperatorRole, number> = { viewer: 1, editor: 2, admin: 3 };

/** Whether `role` may do what needs `need` (viewer < editor < admin); the server enforces the same. */
export function can(role: string | undefined, need: OperatorRole): boolean {
  return role !== undefined && role in rank && rank[role as OperatorRole] >= rank[need];
}

/** `can` for the signed-in operator: screens hide what the operator may not do. */
export function useCan(need: OperatorRole): boolean {
  return can(useAuth().operator?.role, need);
}
