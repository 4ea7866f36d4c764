import { z } from "zod";
import { id, listPage, noSummary, timestamp } from "./common";
import { operatorRoles } from "./enums";
import { apiTokensMsg, deliveryMsg } from "./messages/tokens";
import { requiredName } from "./text";

/** Every token starts with this, so that secret scanners and people recognise one. */
export const apiTokenPrefix = "pedal_";
/** A token: the prefix and 32 random bytes in base64url (43 characters). */
export const apiTokenPattern = /^pedal_[A-Za-z0-9_-]{43}$/;
/** How many of a token's first characters are kept and shown in lists (the prefix and 6 more). */
export const apiTokenShownLength = 12;
/** Days a token lives when its creator does not say. */
export const defaultApiTokenDays = 90;
/** The longest a token may live, in days. */
export const maxApiTokenDays = 365;

/** One token as lists show it: never the token itself, only its first characters. */
export const apiTokenSchema = z.object({
  token_id: id,
  name: z.string(),
  /** The token's first characters (`pedal_` and 6 more). */
  prefix: z.string(),
  role: z.enum(operatorRoles),
  created_at: timestamp,
  expires_at: timestamp,
  /** Updated at most once a minute. */
  last_used_at: timestamp.nullable(),
  /**
   * When the token was revoked (null: it was not): a revoked token is refused, and listed, marked,
   * for DELETED_RETENTION_DAYS (30 by default) before it is purged.
   */
  revoked_at: timestamp.nullable(),
  /**
   * A delivery token's platform: the token reads that platform's prompts and nothing else
   * (docs/prompt-review.md, "Read API for platforms"); null for an ordinary token.
   */
  platform_id: id.nullable(),
  platform_name: z.string().nullable(),
});
export type ApiTokenRow = z.infer<typeof apiTokenSchema>;

/** A token in the admin's list of every operator's tokens: with its operator. */
export const operatorApiTokenSchema = apiTokenSchema.extend({
  operator_id: z.string(),
  operator_email: z.string(),
});
export type OperatorApiTokenRow = z.infer<typeof operatorApiTokenSchema>;
export const operatorApiTokenPageSchema = listPage(operatorApiTokenSchema, noSummary);

/** The signed-in operator's own tokens, newest first. */
export const apiTokenListSchema = z.object({ items: z.array(apiTokenSchema) });

/** Create a token: a name, a role no higher than the creator's (checked by the server), an expiry in days. */
export const createApiTokenSchema = z.strictObject({
  name: requiredName({ required: apiTokensMsg.nameRequired, field: "Name" }, 100),
  role: z.enum(operatorRoles, { error: "Role must be admin, editor or viewer" }),
  expires_in_days: z
    .number({ error: apiTokensMsg.expiryRange })
    .int(apiTokensMsg.expiryRange)
    .min(1, apiTokensMsg.expiryRange)
    .max(maxApiTokenDays, apiTokensMsg.expiryRange)
    .default(defaultApiTokenDays),
  /** A delivery token: only GET /api/delivery/platforms/{platform_id}/prompts (the platform must exist). */
  platform_id: z
    .guid({ error: deliveryMsg.platformNotFound })
    .nullish()
    .transform((v) => v ?? null),
});
export type CreateApiTokenInput = z.input<typeof createApiTokenSchema>;
export type CreateApiTokenValues = z.output<typeof createApiTokenSchema>;

/** The answer of a creation: the listed token and, this once, the token itself. */
export const createdApiTokenSchema = apiTokenSchema.extend({
  /** The whole token: shown once, never stored (only its SHA-256 is). */
  token: z.string(),
});
export type CreatedApiToken = z.infer<typeof createdApiTokenSchema>;
