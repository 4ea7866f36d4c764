/**
 * The customer page's directory sync queries, apart from queries.ts so that their schemas load
 * with the page's Directory sync section, not with every screen that picks a customer.
 */
import { queryOptions } from "@tanstack/react-query";
import { okSchema } from "../../domain/common";
import { createdDirectoryTokenSchema, directoryStateSchema } from "../../domain/directory";
import { api } from "../api/client";
import { useApiMutation } from "../lib/entity-queries";
import { customerKeys } from "./queries";

/** GET /api/customers/{id}/directory: the customer's directory sync (docs/onboarding.md). */
export const directoryQuery = (customerId: string) =>
  queryOptions({
    queryKey: [...customerKeys.all, "directory", customerId] as const,
    queryFn: ({ signal }) => api(`/customers/${customerId}/directory`, directoryStateSchema, { signal }),
  });

/** POST /api/customers/{id}/directory-tokens (admin): a new directory token, answered once with the token. */
export const useCreateDirectoryToken = (customerId: string) =>
  useApiMutation(
    (input: { name: string }) =>
      api(`/customers/${customerId}/directory-tokens`, createdDirectoryTokenSchema, { method: "POST", body: input }),
    { invalidates: [[...customerKeys.all, "directory", customerId]] },
  );

/** DELETE /api/customers/{id}/directory-tokens/{tokenId} (admin): the token is refused from now on. */
export const useRevokeDirectoryToken = (customerId: string) =>
  useApiMutation(
    (directoryTokenId: string) =>
      api(`/customers/${customerId}/directory-tokens/${directoryTokenId}`, okSchema, { method: "DELETE" }),
    { invalidates: [[...customerKeys.all, "directory", customerId]] },
  );
