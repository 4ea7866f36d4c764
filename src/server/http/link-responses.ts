import type { z } from "@hono/zod-openapi";
import { jsonResponse } from "./route";

/**
 * The answers of an idempotent link (a membership, an assignment), both in `schema`: 201 with
 * `created` when the link was made, 200 with `existing` when it was already there (or reactivated).
 */
export function createdOrExistingResponses<T extends z.ZodType>(schema: T, existing: string, created: string) {
  return { 200: jsonResponse(schema, existing), 201: jsonResponse(schema, created) };
}
