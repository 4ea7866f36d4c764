import { z } from "zod";
import { id, page, timestamp } from "./common";
import { userRoles, userStatuses } from "./enums";

/** A row of `users_data` with its customer's name and its roles (SPEC.md §3). */
export const userListItemSchema = z.object({
  user_id: id,
  customer_id: id,
  customer_name: z.string().nullable(),
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  job_title: z.string().nullable(),
  status: z.enum(userStatuses),
  last_login: timestamp.nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  /** Ordered admin, manager, member. */
  roles: z.array(z.enum(userRoles)),
});
export type UserListItem = z.infer<typeof userListItemSchema>;

/** /users cards: Total, Active, Inactive, Recent Logins (24h), over the filtered set. */
export const userSummarySchema = z.object({
  total: z.number().int(),
  active: z.number().int(),
  inactive: z.number().int(),
  recent_logins: z.number().int(),
});
export const userPageSchema = page(userListItemSchema, userSummarySchema);
export type UserPage = z.infer<typeof userPageSchema>;
export const userSortKeys = ["name", "email", "customer_name", "job_title", "status", "last_login", "created_at"] as const;
