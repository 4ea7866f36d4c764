import { z } from "zod";
import { customerSortKeys } from "../domain/customers";
import { teamSortKeys } from "../domain/teams";
import { userSortKeys } from "../domain/users";
import { listSearchSchema } from "./lib/server-list";

/** URL search parameters of each list screen (validated by the router; bad values are dropped). */
export const customersSearch = listSearchSchema(customerSortKeys, {});
export const teamsSearch = listSearchSchema(teamSortKeys, { customer: z.guid().optional().catch(undefined) });
export const usersSearch = listSearchSchema(userSortKeys, {
  customer: z.guid().optional().catch(undefined),
  /** `true`: users who have signed in at least once (the dashboard's Active Users card). */
  signed_in: z.literal(true).optional().catch(undefined),
});

/** Audit log filters (admins). */
export const auditSearch = z.object({
  operator: z.string().max(100).optional().catch(undefined),
  entity: z.string().max(50).optional().catch(undefined),
  entity_id: z.string().max(100).optional().catch(undefined),
  action: z.string().max(50).optional().catch(undefined),
  from: z.iso.date().optional().catch(undefined),
  to: z.iso.date().optional().catch(undefined),
  page: z.coerce.number().int().min(1).optional().catch(undefined),
  cursor: z.string().max(2000).optional().catch(undefined),
});
