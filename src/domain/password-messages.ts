// The policy and its texts without zod: the shell (loaded before any screen) names them.
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
