import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { userPageSchema } from "../../domain/users";
import { api } from "../api/client";

export type UserListParams = {
  q?: string;
  sort: string;
  order: "asc" | "desc";
  limit: number;
  offset: number;
  customer_id?: string;
  team_id?: string;
};

/** Query keys of users. */
export const userKeys = {
  all: ["users"] as const,
  lists: () => [...userKeys.all, "list"] as const,
  list: (params: UserListParams) => [...userKeys.lists(), params] as const,
  detail: (id: string) => [...userKeys.all, "detail", id] as const,
};

export const userListQuery = (params: UserListParams) =>
  queryOptions({
    queryKey: userKeys.list(params),
    queryFn: ({ signal }) => api("/users", userPageSchema, { query: params, signal }),
    placeholderData: keepPreviousData,
  });
