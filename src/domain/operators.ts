import { z } from "zod";
import { listPage, noSummary, timestamp } from "./common";
import { operatorRoles } from "./enums";
import { reauthMsg } from "./messages/account";
import { operatorsMsg } from "./messages/operators";
import { emailAddress, requiredName } from "./text";
import { passwordSchema } from "./password";

/** An operator (a member of staff who signs in), as the Operators screen lists them. */
export const operatorSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(operatorRoles),
  /** Deactivated operators cannot sign in; their sessions end. */
  banned: z.boolean(),
  created_at: timestamp,
  /** Set while the account is locked after failed sign-ins. */
  locked_until: timestamp.nullable(),
  active_sessions: z.number().int(),
  last_sign_in: timestamp.nullable(),
  /** An authenticator app is set up (docs/identity.md). */
  two_factor_enabled: z.boolean(),
});
export type OperatorRow = z.infer<typeof operatorSchema>;
export const operatorPageSchema = listPage(operatorSchema, noSummary);

const password = passwordSchema;

const operatorName = requiredName({ required: operatorsMsg.nameRequired, field: "Name" }, 100);

/** Create an operator (admin only). */
export const createOperatorSchema = z.strictObject({
  email: emailAddress(),
  name: operatorName,
  role: z.enum(operatorRoles, { error: "Role must be admin, editor or viewer" }),
  password,
});
export type CreateOperatorInput = z.input<typeof createOperatorSchema>;

/** Change an operator's role, name, or deactivate / reactivate them. */
export const updateOperatorSchema = z
  .strictObject({
    role: z.enum(operatorRoles, { error: "Role must be admin, editor or viewer" }).optional(),
    name: operatorName.optional(),
    banned: z.boolean().optional(),
  })
  .refine((v) => Object.keys(v).length > 0, "Nothing to change");

export const resetPasswordSchema = z.strictObject({ password });
export const revokedSchema = z.object({ revoked: z.number().int() });

/**
 * POST /api/account/reauthenticate: the signed-in operator's password (`current_password`), or a current six-digit code
 * of their authenticator app; exactly one.
 */
export const reauthenticateSchema = z
  .strictObject({
    current_password: z.string().min(1, reauthMsg.oneOf).max(1024).optional(),
    code: z
      .string()
      .max(6, reauthMsg.oneOf)
      .regex(/^\d{6}$/, reauthMsg.oneOf)
      .optional(),
  })
  .refine((b) => (b.current_password === undefined) !== (b.code === undefined), {
    message: reauthMsg.oneOf,
    path: ["current_password"],
  });
/** The answer: until when admin actions on credentials go through without asking again (ISO time). */
export const reauthenticatedSchema = z.object({ confirmed_until: z.string() });
