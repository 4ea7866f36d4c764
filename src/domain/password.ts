import { z } from "zod";

/**
 * The one password policy of the console: every password an operator gets (admin-set, changed by
 * the operator, created on the command line) is 10 to 128 characters. The server, the forms and
 * the command-line scripts all validate with `passwordSchema`.
 */
export const passwordPolicy = { minLength: 10, maxLength: 128 } as const;

export const passwordMessages = {
  tooShort: `Password must have at least ${passwordPolicy.minLength} characters`,
  tooLong: `Password must have at most ${passwordPolicy.maxLength} characters`,
  required: "Enter your current password",
  wrongCurrent: "The current password is not right",
  changeTitle: "Change password",
  current: "Current password",
  new: "New password",
  confirm: "Repeat the new password",
  mismatch: "The two new passwords differ",
  hint: `${passwordPolicy.minLength} to ${passwordPolicy.maxLength} characters. Your other sessions end.`,
  changed: "Password changed. Your other sessions have ended.",
  submit: "Change password",
  submitting: "Changing...",
} as const;

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
  currentPassword: z.string({ error: passwordMessages.required }).min(1, passwordMessages.required).max(passwordPolicy.maxLength, passwordMessages.tooLong),
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
