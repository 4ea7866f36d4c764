import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  availableTeamsSchema,
  joinedTeamSchema,
  userDetailSchema,
  userListItemSchema,
  userMembershipsSchema,
  userPageSchema,
  type AvailableTeam,
  createUserSchema,
  updateUserSchema,
} from "../../domain/users";
import { api } from "../api/client";
import { entityQueries } from "../lib/entity-queries";
import { queryRoots } from "../lib/query-client";

const users = entityQueries(queryRoots.users, "/users", {
  list: userPageSchema,
  detail: userDetailSchema,
  row: userListItemSchema,
  create: createUserSchema,
  update: updateUserSchema,
});
/** Query keys of users (everything about one user under its `detail` key), GET /api/users and /api/users/{id}. */
export const { keys: userKeys, listQuery: userListQuery, detailQuery: userQuery } = users;

/** The user page's Team Memberships table. */
export const userMembershipsQuery = users.nested("teams", userMembershipsSchema);

/** The Add to Team modal's candidates (the user's customer's teams they are not in). */
export const availableTeamsQuery = users.candidates("available", availableTeamsSchema, "available-teams");

/** Everything a user or membership change can show up in. */
const userChanges = { invalidates: [queryRoots.users, queryRoots.teams, queryRoots.customers, queryRoots.dashboard] };

/** POST /api/users (SPEC.md §5 "Add user"). */
export const useCreateUser = users.creates(userChanges);

/** Edit: PATCH /api/users/{id} with the version read (If-Match); 409 `stale` or `domain_mismatch` to decide on. */
export const useUpdateUser = users.updates(userChanges);

/**
 * Add to Team. On success the team leaves the modal's list at once (SPEC.md §4: the added team
 * moves from available to member list locally), then the user's queries refetch.
 */
export function useJoinTeam(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (teamId: string) =>
      api(`/users/${userId}/teams`, joinedTeamSchema, { method: "POST", body: { team_id: teamId } }),
    onSuccess: (_data, teamId) => {
      queryClient.setQueriesData<{ items: AvailableTeam[]; total: number }>(
        { queryKey: userKeys.nested(userId, "available") },
        (old) =>
          old ? { items: old.items.filter((t) => t.team_id !== teamId), total: Math.max(0, old.total - 1) } : old,
      );
    },
    meta: userChanges,
  });
}

/** Leave Team: DELETE /api/users/{userId}/teams/{teamId}. */
export const useLeaveTeam = users.unlinks("teams", userChanges);
