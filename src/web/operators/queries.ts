import { keepPreviousData, queryOptions, useMutation } from "@tanstack/react-query";
import { okSchema } from "../../domain/common";
import { operatorPageSchema, operatorSchema, revokedSchema, type CreateOperatorInput } from "../../domain/operators";
import type { OperatorRole } from "../../domain/enums";
import { api } from "../api/client";
import type { ListParams } from "../../domain/common";
import { queryRoots } from "../lib/query-client";

/** Query keys of operators. */
export const operatorKeys = {
  all: queryRoots.operators,
  list: (params: Record<string, unknown>) => [...operatorKeys.all, "list", params] as const,
};

export const operatorListQuery = (params: ListParams & Record<string, string | number | undefined>) =>
  queryOptions({
    queryKey: operatorKeys.list(params),
    queryFn: ({ signal }) => api("/operators", operatorPageSchema, { query: params, signal }),
    placeholderData: keepPreviousData,
  });

/** Every operator change shows in the operators list. */
const meta = { invalidates: [queryRoots.operators] };

export function useCreateOperator() {
  return useMutation({ mutationFn: (input: CreateOperatorInput) => api("/operators", operatorSchema, { method: "POST", body: input }), meta });
}

export function useUpdateOperator() {
  return useMutation({
    mutationFn: ({ id, ...patch }: { id: string; role?: OperatorRole; banned?: boolean; name?: string }) =>
      api(`/operators/${id}`, operatorSchema, { method: "PATCH", body: patch }),
    meta,
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: ({ id, password }: { id: string; password: string }) => api(`/operators/${id}/reset-password`, revokedSchema, { method: "POST", body: { password } }),
    meta,
  });
}

export function useRevokeSessions() {
  return useMutation({ mutationFn: (id: string) => api(`/operators/${id}/revoke-sessions`, revokedSchema, { method: "POST" }), meta });
}

export function useUnlockOperator() {
  return useMutation({ mutationFn: (id: string) => api(`/operators/${id}/unlock`, okSchema, { method: "POST" }), meta });
}
