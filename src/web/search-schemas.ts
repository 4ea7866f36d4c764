import { z } from "zod";
import { customerSortKeys } from "../domain/customers";
import { teamSortKeys } from "../domain/teams";
import { userSortKeys } from "../domain/users";
import { listSearchSchema } from "./lib/list-search";

/** URL search parameters of each list screen (validated by the router; bad values are dropped). */
export const customersSearch = listSearchSchema(customerSortKeys, {});
export const teamsSearch = listSearchSchema(teamSortKeys, { customer: z.uuid().optional().catch(undefined) });
export const usersSearch = listSearchSchema(userSortKeys, { customer: z.uuid().optional().catch(undefined) });
