/**
 * The sign-in routes in the API's description (/api/openapi.json), so that a client generated from
 * it can sign in: better-auth serves them (app.ts limits it to these), so they are declared here
 * rather than through `apiRoute`. Their refusals are the console's error body or, where better-auth
 * itself answers, its `{ code, message }`. docs/identity.md.
 */
import { z, type OpenAPIHono } from "@hono/zod-openapi";
import { signInOptionsSchema } from "../../domain/sso";
import { errorBodySchema } from "../http/errors";
import { jsonBody, jsonResponse, operationIdOf } from "../http/route";

/**
 * A refusal of a sign-in route: the console's error body where the console answers (its limits,
 * the two-factor step, JSON and Origin checks), better-auth's `{ code, message }` where it does.
 */
const authErrorSchema = z
  .union([errorBodySchema, z.looseObject({ code: z.string().optional(), message: z.string() })])
  .openapi("AuthError", { description: "`{ error: { code, message } }`, or better-auth's `{ code, message }`" });

/** The signed-in operator as better-auth's answers carry it (more fields may come). */
const authUserSchema = z
  .looseObject({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    role: z.string().optional(),
    twoFactorEnabled: z.boolean().nullish(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("AuthUser");

const signInBodySchema = z.object({
  email: z.string().openapi({ example: "admin@pedal.example" }),
  password: z.string().openapi({ example: "correct-horse-battery" }),
  rememberMe: z.boolean().optional(),
});

const signInAnswerSchema = z.looseObject({
  redirect: z.boolean().optional(),
  user: authUserSchema.optional(),
  /** True when the operator has two-factor on: send the code to /api/auth/two-factor/verify-totp next. */
  twoFactorRedirect: z.boolean().optional(),
});

const sessionAnswerSchema = z
  .looseObject({
    session: z.looseObject({ id: z.string(), userId: z.string(), expiresAt: z.string() }),
    user: authUserSchema,
  })
  .nullable();

const codeBodySchema = z.object({
  code: z.string().openapi({ example: "123456" }),
  trustDevice: z.boolean().optional(),
});

const errors = {
  400: jsonResponse(authErrorSchema, "Not a body this route takes"),
  401: jsonResponse(authErrorSchema, "Wrong e-mail, password or code, or no sign-in under way"),
  429: jsonResponse(authErrorSchema, "Beyond the sign-in limits: try again after Retry-After seconds"),
  default: jsonResponse(authErrorSchema, "Refused"),
};
const body = <T extends z.ZodType>(schema: T) => ({ body: jsonBody(schema) });

/**
 * Declares the sign-in routes in `app`'s description: sign-in with e-mail and password, the
 * two-factor code step, get-session, sign-out, the sign-in options, and (with single sign-on
 * configured) its start. Security: none (they come before a session); the session cookie they set
 * is the `session` scheme of every other route.
 */
export function describeAuthRoutes(app: Pick<OpenAPIHono, "openAPIRegistry">, options: { sso: boolean }) {
  const tags = ["Sign-in"];
  const route = (
    method: "get" | "post",
    path: string,
    summary: string,
    description: string,
    rest: Record<string, unknown>,
  ) =>
    app.openAPIRegistry.registerPath({
      method,
      path,
      tags,
      summary,
      description,
      operationId: operationIdOf(method, path),
      security: [],
      ...rest,
    } as never);
  route(
    "post",
    "/api/auth/sign-in/email",
    "Sign in with e-mail and password",
    "Sets the session cookie. With two-factor on, answers `twoFactorRedirect: true` and a short-lived challenge cookie: send the code to /api/auth/two-factor/verify-totp. JSON only (415 otherwise); needs the console's Origin. 401 wrong e-mail or password, 429 with Retry-After beyond the sign-in limits.",
    { request: body(signInBodySchema), responses: { 200: jsonResponse(signInAnswerSchema, "Signed in"), ...errors } },
  );
  route(
    "post",
    "/api/auth/two-factor/verify-totp",
    "Complete a sign-in with a two-factor code",
    "The six-digit code of the authenticator app, after a sign-in that answered `twoFactorRedirect`. Sets the session cookie. 401 wrong or used code, 429 beyond the limits.",
    { request: body(codeBodySchema), responses: { 200: jsonResponse(signInAnswerSchema, "Signed in"), ...errors } },
  );
  route(
    "get",
    "/api/auth/get-session",
    "The current session",
    "The session and its operator, or null when signed out.",
    { responses: { 200: jsonResponse(sessionAnswerSchema, "The session, or null"), ...errors } },
  );
  route("post", "/api/auth/sign-out", "Sign out", "Ends the session and clears its cookie.", {
    request: body(z.object({})),
    responses: { 200: jsonResponse(z.looseObject({ success: z.boolean() }), "Signed out"), ...errors },
  });
  route(
    "get",
    "/api/auth/providers",
    "How operators can sign in",
    "Whether the password form signs anyone in, and the single sign-on button when configured.",
    { responses: { 200: jsonResponse(signInOptionsSchema, "The sign-in options"), ...errors } },
  );
  if (options.sso)
    route(
      "post",
      "/api/auth/sign-in/social",
      "Start single sign-on",
      '`{ provider: "sso", callbackURL? }`: answers the identity provider\'s authorization URL to open (`url`); the provider returns to /api/auth/callback/sso.',
      {
        request: body(z.object({ provider: z.literal("sso"), callbackURL: z.string().optional() })),
        responses: {
          200: jsonResponse(z.looseObject({ url: z.string(), redirect: z.boolean() }), "Open `url`"),
          ...errors,
        },
      },
    );
}
