import { z } from "zod";
import { maxEmailLength } from "./text";
import { textMsg } from "./messages/api";

export { passwordMessages, passwordPolicy } from "./password-messages";
import { passwordMessages, passwordPolicy } from "./password-messages";

/** A new password: 10–128 characters. */
export const passwordSchema = z
  .string({ error: passwordMessages.tooShort })
  .min(passwordPolicy.minLength, passwordMessages.tooShort)
  .max(passwordPolicy.maxLength, passwordMessages.tooLong);

/**
 * POST /api/auth/change-password body: the current password (checked, throttled like sign-in) and
 * the new one. `revokeOtherSessions` ends the operator's other sessions.
 */
export const changePasswordSchema = z.strictObject({
  currentPassword: z
    .string({ error: passwordMessages.required })
    .min(1, passwordMessages.required)
    .max(passwordPolicy.maxLength, passwordMessages.tooLong),
  newPassword: passwordSchema,
  revokeOtherSessions: z.boolean().optional(),
});
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

/** The Change password dialog: the request's fields plus the new password typed twice. */
export const changePasswordFormSchema = z
  .strictObject({
    currentPassword: changePasswordSchema.shape.currentPassword,
    newPassword: passwordSchema,
    confirm: z.string(),
  })
  .refine((v) => v.newPassword === v.confirm, { path: ["confirm"], message: passwordMessages.mismatch });
export type ChangePasswordFormInput = z.input<typeof changePasswordFormSchema>;

/**
 * What POST /api/auth/sign-in/email reads before anything else: an email of at most
 * `maxEmailLength` characters and a password of at most the policy's length (no account can have
 * longer ones), so that no unbounded input reaches the throttle, the database or the log. Other
 * checks (an email's shape, a wrong password) are the auth library's, answered as before.
 */
export const signInBoundsSchema = z.object({
  email: z.string().trim().max(maxEmailLength, textMsg.emailTooLong(maxEmailLength)).optional(),
  password: z.string().max(passwordPolicy.maxLength, passwordMessages.tooLong).optional(),
});
