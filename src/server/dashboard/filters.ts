/**
 * The list filters the dashboard's "Needs attention" links open (docs/dashboard.md): each is a
 * query parameter whose one value, `none`, narrows a list to the records lacking something.
 */
import { z } from "@hono/zod-openapi";
import type { SQL } from "drizzle-orm";
import type { FilterSpec } from "../http/lists";

/**
 * A filter taking the one value `none` (400 otherwise) and reading as `condition`, an
 * index-friendly semi or anti join written by the list that declares it.
 */
export function noneFilter(condition: SQL): FilterSpec<string> {
  return { schema: z.enum(["none"]).optional(), where: () => condition };
}
