import type { ListParams } from "../../domain/common";
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { okSchema } from "../../domain/common";
import {
  availableTeamsSchema,
  joinedTeamSchema,
  userDetailSchema,
  userListItemSchema,
  userMembershipsSchema,
  userPageSchema,
  type AvailableTeam,
  type CreateUserInput,
} from "../../domain/users";
import { api } from "../api/client";
import { queryRoots } from "../lib/query-client";

export type UserListParams = ListParams & { customer_id?: string; team_id?: string; signed_in?: "true" };

export type MembershipParams = ListParams;

/** Query keys of users; everything about one user sits under its `detail` key. */
export const userKeys = {
  all: queryRoots.users,
  lists: () => [...userKeys.all, "list"] as const,
  list: (params: UserListParams) => [...userKeys.lists(), params] as const,
  detail: (id: string) => [...userKeys.all, "detail", id] as const,
  memberships: (id: string, params: MembershipParams) => [...userKeys.detail(id), "teams", params] as const,
  available: (id: string) => [...userKeys.detail(id), "available"] as const,
  availableSearch: (id: string, q: string) => [...userKeys.available(id), q] as const,
};

export const userListQuery = (params: UserListParams) =>
  queryOptions({
    queryKey: userKeys.list(params),
    queryFn: ({ signal }) => api("/users", userPageSchema, { query: params, signal }),
    placeholderData: keepPreviousData,
  });

export const userQuery = (id: string) =>
  queryOptions({
    queryKey: userKeys.detail(id),
    queryFn: ({ signal }) => api(`/users/${id}`, userDetailSchema, { signal }),
  });

export const userMembershipsQuery = (id: string, params: MembershipParams) =>
  queryOptions({
    queryKey: userKeys.memberships(id, params),
    queryFn: ({ signal }) => api(`/users/${id}/teams`, userMembershipsSchema, { query: params, signal }),
    placeholderData: keepPreviousData,
  });

export const availableTeamsQuery = (id: string, q: string) =>
  queryOptions({
    queryKey: userKeys.availableSearch(id, q),
    queryFn: ({ signal }) => api(`/users/${id}/available-teams`, availableTeamsSchema, { query: { q, limit: 20 }, signal }),
    placeholderData: keepPreviousData,
  });

/** Everything a user or membership change can show up in. */
const userChanges = [queryRoots.users, queryRoots.teams, queryRoots.customers, queryRoots.dashboard] as const;

/** POST /api/users (SPEC.md §5 "Add user"). */
export function useCreateUser() {
  return useMutation({
    mutationFn: (input: CreateUserInput) => api("/users", userListItemSchema, { method: "POST", body: input }),
    meta: { invalidates: userChanges },
  });
}

/**
 * Add to Team. On success the team leaves the modal's list at once (SPEC.md §4: the added team
 * moves from available to member list locally), then the user's queries refetch.
 */
export function useJoinTeam(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (teamId: string) => api(`/users/${userId}/teams`, joinedTeamSchema, { method: "POST", body: { team_id: teamId } }),
    onSuccess: (_data, teamId) => {
      queryClient.setQueriesData<{ items: AvailableTeam[]; total: number }>({ queryKey: userKeys.available(userId) }, (old) =>
        old ? { items: old.items.filter((t) => t.team_id !== teamId), total: Math.max(0, old.total - 1) } : old,
      );
    },
    meta: { invalidates: userChanges },
  });
}

/** Leave Team: DELETE /api/users/{userId}/teams/{teamId}. */
export function useLeaveTeam(userId: string) {
  return useMutation({
    mutationFn: (teamId: string) => api(`/users/${userId}/teams/${teamId}`, okSchema, { method: "DELETE" }),
    meta: { invalidates: userChanges },
  });
}
