/** What the login screen offers (GET /api/auth/providers, docs/identity.md "Single sign-on"). */
import { z } from "zod";

/** Why a single sign-on attempt was refused: the login screen's `sso_error` parameter and the audit row's `reason`. */
export const ssoRefusals = [
  "id_token_invalid",
  "email_not_verified",
  "email_missing",
  "domain_not_allowed",
  "unknown_operator",
  "operator_deactivated",
  "provider_denied",
  "attempt_expired",
  "failed",
] as const;
export type SsoRefusal = (typeof ssoRefusals)[number];

/** The answer of GET /api/auth/providers. */
export const signInOptionsSchema = z.object({
  /** Whether the e-mail and password form signs anyone in (false under SSO_ONLY, break-glass operators aside). */
  password: z.boolean(),
  /** The single sign-on button, or null when single sign-on is not configured. */
  sso: z.object({ id: z.literal("sso"), label: z.string() }).nullable(),
});
export type SignInOptions = z.infer<typeof signInOptionsSchema>;
