import { roleAtLeast, type OperatorRole } from "../../domain/enums";
import { useAuth } from "./AuthProvider";

/** `roleAtLeast` for the signed-in operator: screens hide what the operator may not do. */
export function useCan(need: OperatorRole): boolean {
  return roleAtLeast(useAuth().operator?.role, need);
}
