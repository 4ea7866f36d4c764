import { okSchema } from "../../domain/common";
import { operatorPageSchema, operatorSchema, revokedSchema, type CreateOperatorInput } from "../../domain/operators";
import type { OperatorRole } from "../../domain/enums";
import { api } from "../api/client";
import { entityQueries, useApiMutation } from "../lib/entity-queries";
import { queryRoots } from "../lib/query-client";

const operators = entityQueries(queryRoots.operators, "/operators", { list: operatorPageSchema });
/** Query keys of operators, and GET /api/operators. */
export const { keys: operatorKeys, listQuery: operatorListQuery } = operators;

/** Every operator change shows in the operators list. */
const meta = { invalidates: [queryRoots.operators] };

/** POST /api/operators: a new operator with the password the admin hands over. */
export const useCreateOperator = () =>
  useApiMutation(
    (input: CreateOperatorInput) => api("/operators", operatorSchema, { method: "POST", body: input }),
    meta,
  );

/** PATCH /api/operators/{id}: role, deactivation, name. */
export const useUpdateOperator = () =>
  useApiMutation(
    ({ id, ...patch }: { id: string; role?: OperatorRole; banned?: boolean; name?: string }) =>
      api(`/operators/${id}`, operatorSchema, { method: "PATCH", body: patch }),
    meta,
  );

/** A new password for an operator (their sessions end). */
export const useResetPassword = () =>
  useApiMutation(
    ({ id, password }: { id: string; password: string }) =>
      api(`/operators/${id}/reset-password`, revokedSchema, { method: "POST", body: { password } }),
    meta,
  );

/** End all sessions of an operator. */
export const useRevokeSessions = () =>
  useApiMutation((id: string) => api(`/operators/${id}/revoke-sessions`, revokedSchema, { method: "POST" }), meta);

/** Lift a sign-in lockout. */
export const useUnlockOperator = () =>
  useApiMutation((id: string) => api(`/operators/${id}/unlock`, okSchema, { method: "POST" }), meta);

/** Remove an operator's second factor (their sessions end): POST /api/operators/{id}/reset-two-factor. */
export const useResetTwoFactor = () =>
  useApiMutation((id: string) => api(`/operators/${id}/reset-two-factor`, revokedSchema, { method: "POST" }), meta);
