/**
 * Single sign-on through an OpenID Connect provider (docs/identity.md): better-auth's generic
 * OAuth plugin, authorization code flow with PKCE, `state` and `nonce`; the ID token is checked
 * against the provider's discovery document and JWKS (issuer, audience, expiry, signature, nonce).
 *
 * What the plugin does not decide is added through better-auth's own options: `validateUserInfo`
 * (verified e-mail, allowed domains, deactivated operators), a user creation hook (the role of an
 * operator created at first sign-in) and account linking (an existing operator is found by their
 * verified e-mail). The callback is wrapped (ssoCallbackHandler) to write the audit rows and to send
 * every refusal back to the login screen with one of our reason codes.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { genericOAuth } from "better-auth/plugins";
import type { BetterAuthOptions } from "better-auth";
import { roleAtLeast, type OperatorRole } from "../../domain/enums";
import { msg } from "../../domain/messages";
import { ssoRefusals, type SignInOptions, type SsoRefusal } from "../../domain/sso";
import type { Auth } from "../auth";
import { writeAudit } from "../audit";
import type { IdentityConfig, SsoConfig } from "../config";
import type { Database } from "../db/client";
import { operator, operator_session } from "../db/schema";
import { errorResponse } from "../http/errors";
import type { AppEnv } from "../http/env";

/** The provider id of the console's one OpenID Connect provider (its callback is /api/auth/callback/sso). */
export const ssoProviderId = "sso";

/** What one callback request learnt on its way through better-auth (see ssoCallbackHandler). */
type SsoAttempt = {
  email?: string;
  operatorId?: string;
  refusal?: SsoRefusal;
  /** The role the next created operator gets (set by the gate on `create-user`). */
  createRole?: OperatorRole;
  created?: { id: string; email: string; name: string; role: OperatorRole };
};

// One store per callback request: better-auth's hooks run inside the handler's async context.
const attempts = new AsyncLocalStorage<SsoAttempt>();

/** The generic OAuth plugin for `sso`. */
export function ssoPlugin(sso: SsoConfig) {
  return genericOAuth({
    config: [
      {
        providerId: ssoProviderId,
        discoveryUrl: `${sso.issuer}/.well-known/openid-configuration`,
        clientId: sso.clientId,
        clientSecret: sso.clientSecret,
        scopes: ["openid", "email", "profile"],
        pkce: true,
        requireIdTokenVerification: true,
        disableImplicitSignUp: !sso.createOperators,
      },
    ],
  });
}

/** The e-mail's domain, lower case ("" without one). */
function domainOf(email: string): string {
  const at = email.lastIndexOf("@");
  return at < 0 ? "" : email.slice(at + 1).toLowerCase();
}

/** Whether the provider says the e-mail is verified (`email_verified` true, or "true" as some send it). */
function verified(value: unknown): boolean {
  return value === true || value === "true";
}

/**
 * The role SSO_ROLE_CLAIM and SSO_ROLE_MAP give a person: the highest role any of their groups maps
 * to, or undefined when none does (the claim may be one string or a list).
 */
export function mappedRole(sso: SsoConfig, claims: Record<string, unknown> | undefined): OperatorRole | undefined {
  if (!sso.roleClaim || !claims) return undefined;
  const value = claims[sso.roleClaim];
  const groups = Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
  let best: OperatorRole | undefined;
  for (const group of groups) {
    const role = typeof group === "string" ? sso.roleMap[group] : undefined;
    if (role && (!best || !roleAtLeast(best, role))) best = role;
  }
  return best;
}

type ValidateUserInfo = NonNullable<NonNullable<BetterAuthOptions["user"]>["validateUserInfo"]>;

/**
 * better-auth's `user.validateUserInfo` gate for the `sso` provider, run on first sign-in (linking
 * an existing operator, or creating one) and on every later sign-in with the provider's fresh
 * claims: the e-mail must be verified by the provider, of an allowed domain, and its operator not
 * deactivated. A refusal is `{ error }` with one of our reason codes, which better-auth puts in the
 * callback's redirect (`?error=`). Other sign-in methods pass untouched.
 */
export function ssoGate(sso: SsoConfig, db: Database): ValidateUserInfo {
  return async ({ user, source }) => {
    if (source.oauth?.providerId !== ssoProviderId) return;
    const attempt = attempts.getStore() ?? {};
    const email = typeof user.email === "string" ? user.email.toLowerCase() : "";
    const refuse = (refusal: SsoRefusal) => {
      attempt.refusal = refusal;
      return { error: refusal };
    };
    if (source.action !== "create-user" && typeof user.id === "string") {
      const [found] = await db
        .select({ id: operator.id, email: operator.email, banned: operator.banned })
        .from(operator)
        .where(eq(operator.id, user.id));
      if (found) {
        attempt.operatorId = found.id;
        attempt.email = found.email;
      }
      if (found?.banned) return refuse("operator_deactivated");
    }
    attempt.email ??= email || undefined;
    if (!verified(source.oauth.profile?.email_verified) || user.emailVerified !== true)
      return refuse("email_not_verified");
    if (sso.allowedDomains.length > 0 && !sso.allowedDomains.includes(domainOf(email)))
      return refuse("domain_not_allowed");
    if (source.action === "create-user") attempt.createRole = mappedRole(sso, source.oauth.profile) ?? sso.defaultRole;
  };
}

/**
 * The better-auth options single sign-on adds (createAuth merges them): the gate above, an
 * existing operator linked by their verified e-mail on first sign-in (the provider is trusted for
 * linking because the gate demands `email_verified`), and the role of a created operator.
 */
export function ssoAuthOptions(sso: SsoConfig, db: Database) {
  return {
    validateUserInfo: ssoGate(sso, db),
    accountLinking: { enabled: true, trustedProviders: [ssoProviderId] },
    databaseHooks: {
      user: {
        create: {
          before: async (user: Record<string, unknown>) => {
            const attempt = attempts.getStore();
            if (!attempt?.createRole) return;
            return { data: { ...user, role: attempt.createRole } };
          },
          after: async (user: { id: string; email: string; name: string; role?: string | null }) => {
            const attempt = attempts.getStore();
            if (!attempt?.createRole) return;
            attempt.created = { id: user.id, email: user.email, name: user.name, role: attempt.createRole };
            attempt.operatorId = user.id;
            attempt.email = user.email;
          },
        },
      },
    },
  } satisfies {
    validateUserInfo: ValidateUserInfo;
    accountLinking: NonNullable<NonNullable<BetterAuthOptions["account"]>["accountLinking"]>;
    databaseHooks: BetterAuthOptions["databaseHooks"];
  };
}

/**
 * Our reason for better-auth's callback error code (the `error` of its redirect). `id_token_invalid`
 * covers every check better-auth makes on the ID token (signature from the provider's JWKS, issuer,
 * audience, expiry, nonce): the library answers them all with one code.
 */
function refusalOf(code: string, attempt: SsoAttempt): SsoRefusal {
  if (attempt.refusal) return attempt.refusal;
  if ((ssoRefusals as readonly string[]).includes(code)) return code as SsoRefusal;
  switch (code) {
    case "unable_to_get_user_info": // the ID token failed verification (or the userinfo did not match it)
    case "issuer_mismatch":
    case "nonce_binding_missing":
      return "id_token_invalid";
    case "signup_disabled":
      return "unknown_operator";
    case "email_not_found":
      return "email_missing";
    case "access_denied":
      return "provider_denied";
    case "state_not_found":
    case "state_mismatch":
    case "invalid_state":
    case "please_restart_the_process":
      return "attempt_expired";
    default:
      return "failed";
  }
}

/** The console's path to return to after single sign-on: a same-origin path, else "/". */
export function returnPath(value: unknown): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return "/";
  return value.length > 2000 ? "/" : value;
}

/**
 * POST /api/auth/sign-in/social `{ provider: "sso", callbackURL? }` (JSON only): starts single
 * sign-on. Answers better-auth's `{ url, redirect: true }`, the provider's authorization URL (code
 * flow with PKCE, `state` and `nonce`, kept in a signed cookie set here). `callbackURL` is the
 * console path to open afterwards (a same-origin path, else "/"). Every other field the library
 * would take (a client-supplied `idToken`, `requestSignUp`, scopes, other providers) is dropped:
 * sign-in goes through the code flow only, and creating operators is the configuration's decision.
 * 404 when single sign-on is not configured, 400 for another provider.
 */
export function ssoStartHandler(auth: Auth) {
  return async (c: Context<AppEnv>) => {
    const body = (await c.req.raw
      .clone()
      .json()
      .catch(() => undefined)) as Record<string, unknown> | undefined;
    if (!body || typeof body !== "object" || Array.isArray(body))
      return errorResponse(c, 400, "bad_request", msg.api.badJson);
    if (body.provider !== ssoProviderId) return errorResponse(c, 400, "bad_request", msg.sso.unknownProvider);
    const back = returnPath(body.callbackURL);
    const headers = new Headers(c.req.raw.headers);
    headers.delete("content-length");
    const forwarded = new Request(c.req.raw.url, {
      method: "POST",
      headers,
      body: JSON.stringify({
        provider: ssoProviderId,
        callbackURL: back,
        errorCallbackURL: back,
        disableRedirect: true,
      }),
    });
    return auth.handler(forwarded);
  };
}

/**
 * GET /api/auth/callback/sso: where the provider sends the browser back (`?code&state`, or
 * `?error`). better-auth checks the state cookie, exchanges the code with the PKCE verifier,
 * verifies the ID token and the gate above, then sets the session cookie. This wrapper writes the
 * audit row (`sign_in` with `{ method: "sso" }`, a `create` row for an operator created now, or
 * `sign_in_refused` with `{ method: "sso", reason }`) and sends a refusal to the login screen as
 * `?sso_error=<reason>` on the path the sign-in started from. Always a redirect (302), never an
 * error page; no token, code or ID token is written anywhere.
 */
export function ssoCallbackHandler(auth: Auth, publicUrl: string) {
  return async (c: Context<AppEnv>) => {
    const db = c.var.db;
    const attempt: SsoAttempt = {};
    const previous = await auth.api.getSession({ headers: c.req.raw.headers }).catch(() => null);
    let response: Response;
    try {
      response = await attempts.run(attempt, () => auth.handler(c.req.raw));
    } catch (err) {
      c.var.logger.error({ requestId: c.var.requestId, err }, "single sign-on callback failed");
      response = new Response(null, { status: 302, headers: { location: `${publicUrl}/?error=failed` } });
    }
    const location = response.headers.get("location");
    const target = location ? new URL(location, publicUrl) : undefined;
    const code = response.status >= 300 && response.status < 400 ? target?.searchParams.get("error") : "failed";
    const actor = attempt.operatorId && attempt.email ? { id: attempt.operatorId, email: attempt.email } : undefined;

    if (!code && target) {
      const session = await sessionOf(db, response);
      if (!session) return refused(c, response, attempt, "failed", target, publicUrl);
      if (attempt.created) {
        const { id, ...after } = attempt.created;
        await writeAudit(db, c, [
          { action: "create", entity: "operator", entity_id: id, after: { ...after, method: "sso" }, operator: actor },
        ]);
      }
      await writeAudit(db, c, [
        {
          action: "sign_in",
          entity: "operator",
          entity_id: session.userId,
          after: { method: "sso" },
          operator: { id: session.userId, email: session.email },
        },
      ]);
      // As with password sign-in, the browser's previous session ends when a new one starts.
      if (previous && previous.session.token !== session.token)
        await db.delete(operator_session).where(eq(operator_session.token, previous.session.token));
      return response;
    }
    return refused(c, response, attempt, refusalOf(code ?? "failed", attempt), target, publicUrl);
  };
}

/** The session the callback's answer set (its cookie), with its operator's e-mail. */
async function sessionOf(db: Database, response: Response) {
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => /^(__Secure-)?pedal\.session_token=/.test(c));
  if (!cookie) return undefined;
  // The cookie holds `<token>.<signature>`, URL-encoded.
  const token = decodeURIComponent(cookie.slice(cookie.indexOf("=") + 1)).split(".")[0];
  const [row] = await db
    .select({ token: operator_session.token, userId: operator_session.userId, email: operator.email })
    .from(operator_session)
    .innerJoin(operator, eq(operator.id, operator_session.userId))
    .where(eq(operator_session.token, token));
  return row;
}

/** Audits a refused attempt and redirects to the login screen with its reason. */
async function refused(
  c: Context<AppEnv>,
  response: Response,
  attempt: SsoAttempt,
  reason: SsoRefusal,
  target: URL | undefined,
  publicUrl: string,
) {
  const db = c.var.db;
  // A session the library set before a later check failed must not survive the refusal.
  const session = await sessionOf(db, response);
  if (session) await db.delete(operator_session).where(eq(operator_session.token, session.token));
  const actor = attempt.operatorId && attempt.email ? { id: attempt.operatorId, email: attempt.email } : undefined;
  await writeAudit(db, c, [
    {
      action: "sign_in_refused",
      entity: "operator",
      entity_id: attempt.operatorId ?? null,
      // The e-mail the provider gave, when the attempt got that far (it names the person tried).
      after: { method: "sso", reason, ...(actor ? {} : { email: attempt.email ?? "(unknown)" }) },
      operator: actor,
    },
  ]);
  c.var.logger.info({ requestId: c.var.requestId, reason }, "single sign-on refused");
  // Back on the console's own origin, on the page the attempt started from (the library's default
  // error page, /api/auth/error, is not one of ours).
  const back =
    target && target.origin === new URL(publicUrl).origin && !target.pathname.startsWith("/api/") ? target : undefined;
  const destination = new URL(back ? back.pathname : "/", publicUrl);
  if (back)
    for (const [k, v] of back.searchParams)
      if (k !== "error" && k !== "error_description") destination.searchParams.append(k, v);
  destination.searchParams.set("sso_error", reason);
  const headers = new Headers();
  for (const cookie of response.headers.getSetCookie()) headers.append("set-cookie", cookie);
  headers.set("location", destination.pathname + destination.search);
  headers.set("cache-control", "no-store");
  return new Response(null, { status: 302, headers });
}

/** What the login screen offers, from the configuration. */
export function signInOptions(identity: IdentityConfig | undefined): SignInOptions {
  const sso = identity?.sso;
  return {
    password: !sso?.only,
    sso: sso ? { id: ssoProviderId, label: sso.buttonLabel } : null,
  };
}

/**
 * Whether SSO_ONLY refuses a password sign-in for `email`: true when password sign-in is off and
 * the e-mail is not one of SSO_BREAK_GLASS.
 */
export function passwordSignInOff(identity: IdentityConfig | undefined, email: string): boolean {
  const sso = identity?.sso;
  if (!sso?.only) return false;
  return !sso.breakGlass.includes(email.trim().toLowerCase());
}
