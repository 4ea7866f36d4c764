/**
 * Directory sync (SCIM 2.0, RFC 7643/7644; docs/onboarding.md): a customer's identity provider
 * creates, updates and deactivates that customer's users and teams at `{PUBLIC_URL}/scim/v2` with
 * a bearer token bound to the customer. These are the console API's shapes for the tokens and the
 * directory's state; the SCIM resources themselves are SCIM's own (server/directory/scim.ts).
 */
import { directoryMsg } from "./directory-messages";
import { z } from "zod";
import { id, timestamp } from "./common";
import { requiredName } from "./text";

/** A directory token is `scim_` and 32 random bytes in base64url; lists show its first 12 characters. */
export const directoryTokenPrefix = "scim_";
export const directoryTokenPattern = /^scim_[A-Za-z0-9_-]{43}$/;
export const directoryTokenShownLength = 12;

/** POST /api/customers/{customerId}/directory-tokens. */
export const createDirectoryTokenSchema = z.strictObject({
  name: requiredName({ required: directoryMsg.nameRequired, field: directoryMsg.tokenName }, 100),
});

/** A directory token as lists show it (never the token itself). */
export const directoryTokenSchema = z.object({
  directory_token_id: id,
  customer_id: id,
  name: z.string(),
  prefix: z.string(),
  created_by_email: z.string().nullable(),
  created_at: timestamp,
  last_used_at: timestamp.nullable(),
  revoked_at: timestamp.nullable(),
});

/** The answer to creating one: the token, shown this once, and the SCIM base URL to give the identity provider. */
export const createdDirectoryTokenSchema = directoryTokenSchema.extend({
  token: z.string(),
  base_url: z.string(),
});

/** One refusal the directory met, with the request that caused it. */
export const directoryErrorSchema = z.object({
  method: z.string(),
  path: z.string(),
  status: z.number().int(),
  error: z.string().nullable(),
  created_at: timestamp,
});

/**
 * GET /api/customers/{customerId}/directory: whether sync is on (a live token), its base URL, its
 * tokens (revoked ones last), when it last called, what it changed today (UTC day) and its last 10 refusals.
 */
export const directoryStateSchema = z.object({
  enabled: z.boolean(),
  base_url: z.string(),
  tokens: z.array(directoryTokenSchema),
  last_request_at: timestamp.nullable(),
  today: z.object({
    created: z.number().int(),
    updated: z.number().int(),
    deactivated: z.number().int(),
  }),
  managed: z.object({ users: z.number().int(), teams: z.number().int() }),
  errors: z.array(directoryErrorSchema),
});
export type DirectoryState = z.infer<typeof directoryStateSchema>;
export type CreatedDirectoryToken = z.infer<typeof createdDirectoryTokenSchema>;
