/**
 * Single sign-on through an OpenID Connect provider (docs/identity.md): better-auth's generic
 * OAuth plugin, authorization code flow with PKCE, `state` and `nonce`; the ID token is checked
 * against the provider's discovery document and JWKS (issuer, audience, expiry, signature, nonce).
 *
 * What the plugin does not decide is added through better-auth's own options: `validateUserInfo`
 * (verified e-mail, allowed domains, deactivated operators), a user creation hook (the role of an
 * operator created at first sign-in) and account linking (an existing operator is found by their
 * verified e-mail). The flow's routes are in sso-flow.ts.
 */
import { decodeJwt } from "jose";
import { quietStore } from "../async-context";
import { eq } from "drizzle-orm";
import { genericOAuth } from "better-auth/plugins";
import type { BetterAuthOptions, BetterAuthPlugin } from "better-auth";
import { roleAtLeast, type OperatorRole } from "../../domain/enums";
import type { SignInOptions, SsoRefusal } from "../../domain/sso";
import type { IdentityConfig, SsoConfig } from "../config";
import type { Database } from "../db/client";
import { operator } from "../db/schema";

/** The provider id of the console's one OpenID Connect provider (its callback is /api/auth/callback/sso). */
export const ssoProviderId = "sso";

/** What one callback request learnt on its way through better-auth (see ssoCallbackHandler). */
export type SsoAttempt = {
  email?: string;
  operatorId?: string;
  refusal?: SsoRefusal;
  /** The role the next created operator gets (set by the gate on `create-user`). */
  createRole?: OperatorRole;
  /** Which check an ID token better-auth refused most likely failed (ssoDiagnosis), for the audit row. */
  idTokenProblem?: IdTokenProblem;
  created?: { id: string; email: string; name: string; role: OperatorRole };
};

/** One store per callback request (sso-flow.ts): better-auth's hooks run inside the handler's async context. */
export const attempts = quietStore<SsoAttempt>();

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

/** Which check of a refused ID token failed, as far as its unverified claims tell. */
export type IdTokenProblem =
  "malformed" | "wrong_issuer" | "wrong_audience" | "expired" | "nonce_mismatch" | "signature_or_userinfo";

/** The ID token's claims, unverified (jose's `decodeJwt`); null when it is not a JWT. */
function unverifiedClaims(token: string): Record<string, unknown> | null {
  try {
    return decodeJwt(token);
  } catch {
    return null;
  }
}

/**
 * Why better-auth most likely refused `token`, read from its claims without verifying them: the
 * first of issuer, audience, expiry (30 seconds of skew, as the library allows) and nonce that does
 * not match; else its signature (or a userinfo answer for another subject). For the audit row only:
 * the decision was the library's.
 */
export function idTokenProblem(
  token: string,
  expected: { issuer?: string; clientId: string; nonce?: string; now: number },
): IdTokenProblem {
  const claims = unverifiedClaims(token);
  if (!claims) return "malformed";
  if (expected.issuer && claims.iss !== expected.issuer) return "wrong_issuer";
  const audience = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audience.includes(expected.clientId)) return "wrong_audience";
  if (typeof claims.exp !== "number" || claims.exp * 1000 < expected.now - 30_000) return "expired";
  if (expected.nonce && claims.nonce !== expected.nonce) return "nonce_mismatch";
  return "signature_or_userinfo";
}

/**
 * A better-auth plugin, registered after the generic OAuth plugin, that notes why an ID token was
 * refused: better-auth answers every failed check alike (`unable_to_get_user_info`), so the `sso`
 * provider's user info step is wrapped to record, when it refuses, `idTokenProblem` of the token
 * in the request's attempt. It decides nothing. (A provider whose discovery failed at start and
 * was found later is not wrapped; its refusals then carry no detail.)
 */
export function ssoDiagnosis(sso: SsoConfig): BetterAuthPlugin {
  return {
    id: "sso-diagnosis",
    init: (ctx) => {
      const provider = ctx.socialProviders.find((p) => p.id === ssoProviderId);
      if (!provider) return;
      const getUserInfo = provider.getUserInfo.bind(provider);
      provider.getUserInfo = async (tokens) => {
        const info = await getUserInfo(tokens);
        const attempt = attempts.getStore();
        if (!info && attempt && tokens.idToken) {
          attempt.idTokenProblem = idTokenProblem(tokens.idToken, {
            issuer: provider.issuer,
            clientId: sso.clientId,
            nonce: (tokens as { expectedIdTokenNonce?: string }).expectedIdTokenNonce,
            now: Date.now(),
          });
        }
        return info;
      };
    },
  };
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
    const role = typeof group === "string" ? sso.roleMap.get(group) : undefined;
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
          // better-auth awaits these hooks; they need no await of their own.
          before: (user: Record<string, unknown>) => {
            const attempt = attempts.getStore();
            return Promise.resolve(attempt?.createRole ? { data: { ...user, role: attempt.createRole } } : undefined);
          },
          after: (user: { id: string; email: string; name: string; role?: string | null }) => {
            const attempt = attempts.getStore();
            if (attempt?.createRole) {
              attempt.created = { id: user.id, email: user.email, name: user.name, role: attempt.createRole };
              attempt.operatorId = user.id;
              attempt.email = user.email;
            }
            return Promise.resolve();
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
