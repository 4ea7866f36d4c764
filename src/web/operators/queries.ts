import { keepPreviousData, queryOptions, useMutation } from "@tanstack/react-query";
import { okSchema } from "../../domain/common";
import { operatorPageSchema, operatorSchema, revokedSchema, type CreateOperatorInput } from "../../domain/operators";
import type { OperatorRole } from "../../domain/enums";
import { api } from "../api/client";
import { queryRoots } from "../lib/query-client";

/** Query keys of operators. */
export const operatorKeys = {
  all: queryRoots.operators,
  list: (q: string, offset: number) => [...operatorKeys.all, "list", q, offset] as const,
};

export const operatorListQuery = (q: string, offset: number, limit = 50) =>
  queryOptions({
    queryKey: operatorKeys.list(q, offset),
    queryFn: ({ signal }) => api("/operators", operatorPageSchema, { query: { q, offset, limit }, signal }),
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
