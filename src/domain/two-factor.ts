/**
 * Two-factor sign-in (docs/identity.md): the shapes of what the screens send and what the API
 * answers, used by the server's routes and the web app alike.
 */
import { z } from "zod";
import { twoFactorMsg } from "./messages/account";

/** Who REQUIRE_MFA covers: nobody, admins, or every operator. */
export type MfaPolicy = "none" | "admin" | "all";

/** Whether REQUIRE_MFA `policy` covers an operator of `role`. */
export function mfaRequiredFor(policy: MfaPolicy, role: string | null | undefined): boolean {
  return policy === "all" || (policy === "admin" && role === "admin");
}

/** A six-digit code from an authenticator app; spaces (as apps show "123 456") are dropped. */
export const totpCode = z
  .string()
  .max(20, twoFactorMsg.codeFormat)
  .transform((v) => v.replace(/\s/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, twoFactorMsg.codeFormat));

/** A recovery code as shown (`abcde-12345`), the dash optional; kept with its dash. */
export const recoveryCode = z
  .string()
  .max(30, twoFactorMsg.recoveryFormat)
  .transform((v) => v.replace(/\s/g, ""))
  .pipe(z.string().regex(/^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$/, twoFactorMsg.recoveryFormat))
  .transform((v) => (v.includes("-") ? v : `${v.slice(0, 5)}-${v.slice(5)}`));

/** POST /api/auth/two-factor/enable */
export const enableTwoFactorSchema = z.object({ password: z.string().min(1).max(200) });
/** POST /api/auth/two-factor/verify-totp */
export const verifyTotpSchema = z.object({ code: totpCode });
/** POST /api/auth/two-factor/verify-backup-code */
export const verifyRecoverySchema = z.object({ code: recoveryCode });
/** POST /api/auth/two-factor/disable: the password and a current code, six digits or a recovery code. */
export const disableTwoFactorSchema = z.object({
  password: z.string().min(1).max(200),
  code: z.union([totpCode, recoveryCode], { error: twoFactorMsg.codeFormat }),
});

/** The answer of enable: the authenticator app's URI (with the secret) and the ten recovery codes, shown once. */
export const enableTwoFactorAnswerSchema = z.object({ totpURI: z.string(), backupCodes: z.array(z.string()) });

/** GET /api/account/two-factor: the signed-in operator's two-factor state and what REQUIRE_MFA asks of them. */
export const twoFactorStatusSchema = z.object({
  /** An authenticator app is set up and confirmed. */
  enabled: z.boolean(),
  /** REQUIRE_MFA covers this operator. */
  required: z.boolean(),
  /** Required and not yet set up: every other route answers 403 `mfa_setup_required`. */
  setupRequired: z.boolean(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;
