/**
 * Single sign-on through an OpenID Connect provider (docs/identity.md): better-auth's generic
 * OAuth plugin, authorization code flow with PKCE, `state` and `nonce`; the ID token is checked
 * against the provider's discovery document and JWKS (issuer, audience, expiry, signature, nonce).
 */
import { genericOAuth } from "better-auth/plugins";
import type { SsoConfig } from "../config";

/** The provider id of the console's one OpenID Connect provider (its callback is /api/auth/callback/sso). */
export const ssoProviderId = "sso";

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
