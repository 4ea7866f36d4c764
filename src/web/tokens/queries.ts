import { queryOptions } from "@tanstack/react-query";
import {
  apiTokenListSchema,
  createdApiTokenSchema,
  operatorApiTokenPageSchema,
  type CreateApiTokenInput,
} from "../../domain/api-tokens";
import { okSchema } from "../../domain/common";
import { api } from "../api/client";
import { entityQueries, useApiMutation } from "../lib/entity-queries";
import { queryRoots } from "../lib/query-client";

const all = entityQueries(queryRoots.tokens, "/api-tokens", { list: operatorApiTokenPageSchema });
/** Query keys of API tokens, and GET /api/api-tokens (admins: every operator's tokens, paged). */
export const { keys: tokenKeys, listQuery: allTokensQuery } = all;

/** GET /api/account/tokens: the signed-in operator's own tokens, newest first. */
export const myTokensQuery = () =>
  queryOptions({
    queryKey: [...queryRoots.tokens, "mine"] as const,
    queryFn: ({ signal }) => api("/account/tokens", apiTokenListSchema, { signal }),
  });

/** Every token change shows in both lists. */
const meta = { invalidates: [queryRoots.tokens] };

/** POST /api/account/tokens: a new token, answered with the token itself (shown once). */
export const useCreateToken = () =>
  useApiMutation(
    (input: CreateApiTokenInput) => api("/account/tokens", createdApiTokenSchema, { method: "POST", body: input }),
    meta,
  );

/** DELETE /api/account/tokens/{id}: revokes one of the operator's own tokens. */
export const useRevokeMyToken = () =>
  useApiMutation((id: string) => api(`/account/tokens/${id}`, okSchema, { method: "DELETE" }), meta);

/** DELETE /api/api-tokens/{id} (admins): revokes any operator's token. */
export const useRevokeAnyToken = () =>
  useApiMutation((id: string) => api(`/api-tokens/${id}`, okSchema, { method: "DELETE" }), meta);
