import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { okSchema } from "../../domain/common";
import { operatorPageSchema, operatorSchema, revokedSchema, type CreateOperatorInput } from "../../domain/operators";
import type { OperatorRole } from "../../domain/enums";
import { api } from "../api/client";
import type { ListParams } from "../../domain/common";

/** Query keys of operators. */
export const operatorKeys = {
  all: ["operators"] as const,
  list: (params: Record<string, unknown>) => [...operatorKeys.all, "list", params] as const,
};

export const operatorListQuery = (params: ListParams & Record<string, string | number | undefined>) =>
  queryOptions({
    queryKey: operatorKeys.list(params),
    queryFn: ({ signal }) => api("/operators", operatorPageSchema, { query: params, signal }),
    placeholderData: keepPreviousData,
  });

function useInvalidate() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: operatorKeys.all });
}

export function useCreateOperator() {
  const onSuccess = useInvalidate();
  return useMutation({ mutationFn: (input: CreateOperatorInput) => api("/operators", operatorSchema, { method: "POST", body: input }), onSuccess });
}

export function useUpdateOperator() {
  const onSuccess = useInvalidate();
  return useMutation({
    mutationFn: ({ id, ...patch }: { id: string; role?: OperatorRole; banned?: boolean; name?: string }) =>
      api(`/operators/${id}`, operatorSchema, { method: "PATCH", body: patch }),
    onSuccess,
  });
}

export function useResetPassword() {
  const onSuccess = useInvalidate();
  return useMutation({
    mutationFn: ({ id, password }: { id: string; password: string }) => api(`/operators/${id}/reset-password`, revokedSchema, { method: "POST", body: { password } }),
    onSuccess,
  });
}

export function useRevokeSessions() {
  const onSuccess = useInvalidate();
  return useMutation({ mutationFn: (id: string) => api(`/operators/${id}/revoke-sessions`, revokedSchema, { method: "POST" }), onSuccess });
}

export function useUnlockOperator() {
  const onSuccess = useInvalidate();
  return useMutation({ mutationFn: (id: string) => api(`/operators/${id}/unlock`, okSchema, { method: "POST" }), onSuccess });
}
