/**
 * The single sign-on routes (docs/identity.md): the start of the flow, the audited callback that
 * sends every refusal back to the login screen with one of our reason codes, and what the login
 * screen offers. better-auth does the protocol; these wrap it.
 */
import type { Context } from "hono";
import { eq } from "drizzle-orm";
import { msg } from "../../domain/messages";
import { ssoRefusals, type SsoRefusal } from "../../domain/sso";
import type { Auth } from "../auth";
import { writeAudit } from "../audit";
import type { IdentityConfig } from "../config";
import type { Database } from "../db/client";
import { operator, operator_session } from "../db/schema";
import { errorResponse } from "../http/errors";
import type { AppEnv } from "../http/env";
import { routeTable } from "../http/route";
import { withAsyncContext } from "../async-context";
import { attempts, signInOptions, ssoProviderId, type SsoAttempt } from "./sso";

// Declared once, at import, like every route (the authorization tests walk the table). The flow's
// own routes (sign-in/social, callback/sso) are better-auth's, public by design, like sign-in/email.
routeTable.push({ method: "GET", path: "/api/auth/providers", access: "public" });

/**
 * GET /api/auth/providers → 200 `{ password, sso: { id: "sso", label } | null }`: what the login
 * screen offers (src/domain/sso.ts). `password` is false under SSO_ONLY (the form stays for
 * break-glass operators); `sso` is null when single sign-on is not configured. No session needed.
 */
export function signInOptionsHandler(identity: IdentityConfig | undefined) {
  const options = signInOptions(identity);
  return (c: Context<AppEnv>) => c.json(options, 200);
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
 * flow with PKCE, `state` and `nonce`, kept in the database and bound to this browser by a signed
 * cookie set here). `callbackURL` is the
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
    const db = c.get("db");
    const attempt: SsoAttempt = {};
    const previous = await auth.api.getSession({ headers: c.req.raw.headers }).catch(() => null);
    let response: Response;
    try {
      response = await withAsyncContext(() => attempts.run(attempt, () => auth.handler(c.req.raw)));
    } catch (err) {
      c.get("logger").error({ requestId: c.get("requestId"), err }, "single sign-on callback failed");
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
  const db = c.get("db");
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
      after: {
        method: "sso",
        reason,
        ...(reason === "id_token_invalid" && attempt.idTokenProblem ? { detail: attempt.idTokenProblem } : {}),
        ...(actor ? {} : { email: attempt.email ?? "(unknown)" }),
      },
      operator: actor,
    },
  ]);
  c.get("logger").info({ requestId: c.get("requestId"), reason }, "single sign-on refused");
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
  // The library's other cookies (the spent state's expiry) pass; a session cookie does not.
  for (const cookie of response.headers.getSetCookie())
    if (!/^(__Secure-)?pedal\.session_(token|data)=./.test(cookie)) headers.append("set-cookie", cookie);
  headers.set("location", destination.pathname + destination.search);
  headers.set("cache-control", "no-store");
  return new Response(null, { status: 302, headers });
}
