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
import { defaultIdentity, loadConfig, type IdentityConfig, type SsoConfig } from "../../src/server/config";
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
    roleMap: new Map([
      ["console-admins", "admin"],
      ["console-editors", "editor"],
    ]),
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
  const sso = {
    roleClaim: "groups",
    roleMap: new Map([
      ["a", "admin"],
      ["e", "editor"],
      ["v", "viewer"],
    ]),
  } as unknown as SsoConfig;
  it("takes the highest role any group maps to, and none when no group maps", () => {
    expect(mappedRole(sso, { groups: ["v", "e"] })).toBe("editor");
    expect(mappedRole(sso, { groups: ["e", "a", "v"] })).toBe("admin");
    expect(mappedRole(sso, { groups: "v" })).toBe("viewer");
    expect(mappedRole(sso, { groups: ["other"] })).toBeUndefined();
    expect(mappedRole(sso, {})).toBeUndefined();
    expect(mappedRole({ ...sso, roleClaim: undefined }, { groups: ["a"] })).toBeUndefined();
  });

  it("treats groups named like an object's properties as groups: mapped when the map names them, else ignored", () => {
    const parsed = loadConfig({
      SSO_ISSUER: "https://id.example.com",
      SSO_CLIENT_ID: "console",
      SSO_CLIENT_SECRET: "s3cret",
      SSO_ROLE_CLAIM: "groups",
      SSO_ROLE_MAP: "constructor=viewer,admins=admin",
    }).identity.sso!;
    expect(mappedRole(parsed, { groups: ["constructor"] })).toBe("viewer");
    expect(mappedRole(parsed, { groups: ["toString", "admins"] })).toBe("admin");
    expect(mappedRole(parsed, { groups: ["__proto__", "admins", "hasOwnProperty"] })).toBe("admin");
    expect(mappedRole(parsed, { groups: ["__proto__", "toString", "valueOf"] })).toBeUndefined();
    expect(mappedRole(sso, { groups: ["constructor", "__proto__"] })).toBeUndefined();
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

  /** The `detail` of the latest `id_token_invalid` refusal (which check failed). */
  const lastDetail = async () =>
    (
      await app.rows<{ detail: string | null }>(
        sql`select changes->'after'->>'detail' as detail from audit_log
          where action = 'sign_in_refused' and changes->'after'->>'reason' = 'id_token_invalid'
          order by created_at desc limit 1`,
      )
    )[0]?.detail;

  it("signs an existing operator in through the provider and back to the page they started from", async () => {
    const id = await createOperator(app.handle.db, {
      email: "ada@corp.example",
      password: testPassword,
      role: "editor",
    });
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

  it("refuses an ID token for another audience, audited, with its message", async () => {
    await createOperator(app.handle.db, { email: "aud@corp.example", password: testPassword, role: "viewer" });
    provider.onIdToken = (_token, claims) => provider.resign({ ...claims, aud: "another-client" });
    try {
      const outcome = await ssoSignIn(app, provider, "aud@corp.example");
      expect(outcome.refusal).toBe("id_token_invalid");
      expect(outcome.cookie).toBe("");
      expect(new URL(outcome.location, publicUrl).pathname).toBe("/customers");
    } finally {
      provider.onIdToken = null;
    }
    expect(await refusedRows("id_token_invalid")).toBe(1);
    expect(await lastDetail()).toBe("wrong_audience");
    // The same token re-signed with its claims unchanged is accepted: the audience alone was refused.
    provider.onIdToken = (_token, claims) => provider.resign(claims);
    try {
      expect((await ssoSignIn(app, provider, "aud@corp.example")).refusal).toBeNull();
    } finally {
      provider.onIdToken = null;
    }
  });

  it("refuses an ID token from another issuer", async () => {
    await createOperator(app.handle.db, { email: "iss@corp.example", password: testPassword, role: "viewer" });
    provider.onIdToken = (_token, claims) => provider.resign({ ...claims, iss: "https://other-issuer.example" });
    try {
      const outcome = await ssoSignIn(app, provider, "iss@corp.example");
      expect(outcome.refusal).toBe("id_token_invalid");
      expect(outcome.cookie).toBe("");
    } finally {
      provider.onIdToken = null;
    }
    expect(await lastDetail()).toBe("wrong_issuer");
  });

  it("refuses an expired ID token", async () => {
    await createOperator(app.handle.db, { email: "late@corp.example", password: testPassword, role: "viewer" });
    const before = await refusedRows("id_token_invalid");
    provider.onIdToken = (_token, claims) => {
      const now = Math.floor(Date.now() / 1000);
      return provider.resign({ ...claims, iat: now - 7200, exp: now - 3600 });
    };
    try {
      const outcome = await ssoSignIn(app, provider, "late@corp.example");
      expect(outcome.refusal).toBe("id_token_invalid");
      expect(outcome.cookie).toBe("");
    } finally {
      provider.onIdToken = null;
    }
    expect(await refusedRows("id_token_invalid")).toBe(before + 1);
    expect(await lastDetail()).toBe("expired");
  });

  it("refuses a replayed ID token (the nonce of an earlier sign-in)", async () => {
    await createOperator(app.handle.db, { email: "replay@corp.example", password: testPassword, role: "admin" });
    expect((await ssoSignIn(app, provider, "replay@corp.example")).refusal).toBeNull();
    const earlier = provider.issued.at(-1)!;
    const before = await refusedRows("id_token_invalid");
    // The provider's own, validly signed and unexpired token of the earlier sign-in, handed to a new one.
    provider.onIdToken = () => earlier;
    try {
      const outcome = await ssoSignIn(app, provider, "replay@corp.example");
      expect(outcome.refusal).toBe("id_token_invalid");
      expect(outcome.cookie).toBe("");
    } finally {
      provider.onIdToken = null;
    }
    expect(await refusedRows("id_token_invalid")).toBe(before + 1);
    expect(await lastDetail()).toBe("nonce_mismatch");
  });

  it("refuses an ID token whose claims were changed without the provider's signature", async () => {
    await createOperator(app.handle.db, { email: "victim@corp.example", password: testPassword, role: "admin" });
    const before = await refusedRows("id_token_invalid");
    provider.onIdToken = (token, claims) => {
      const [header, , signature] = token.split(".");
      const forged = Buffer.from(JSON.stringify({ ...claims, email: "victim@corp.example" })).toString("base64url");
      return `${header}.${forged}.${signature}`;
    };
    try {
      const outcome = await ssoSignIn(app, provider, "mallory@corp.example");
      expect(outcome.refusal).toBe("id_token_invalid");
      expect(outcome.cookie).toBe("");
    } finally {
      provider.onIdToken = null;
    }
    expect(await refusedRows("id_token_invalid")).toBe(before + 1);
    expect(await lastDetail()).toBe("signature_or_userinfo");
  });

  it("refuses an e-mail the provider has not verified", async () => {
    await createOperator(app.handle.db, { email: "unverified@corp.example", password: testPassword, role: "viewer" });
    provider.people.set("unverified@corp.example", { email: "unverified@corp.example", email_verified: false });
    provider.people.set("unverified2@corp.example", { email: "unverified@corp.example", email_verified: "false" });
    for (const login of ["unverified@corp.example", "unverified2@corp.example"]) {
      const outcome = await ssoSignIn(app, provider, login);
      expect(outcome.refusal, login).toBe("email_not_verified");
      expect(outcome.cookie).toBe("");
    }
    expect(await refusedRows("email_not_verified")).toBe(2);
    // Not linked: once verified, the same person signs in.
    provider.people.set("unverified@corp.example", { email: "unverified@corp.example", email_verified: true });
    expect((await ssoSignIn(app, provider, "unverified@corp.example")).refusal).toBeNull();
  });

  it("refuses a person whose provider shares no e-mail", async () => {
    provider.people.set("no-mail", { name: "No Mail" });
    const outcome = await ssoSignIn(app, provider, "no-mail");
    expect(outcome.refusal).toBe("email_missing");
    expect(outcome.cookie).toBe("");
    expect(await refusedRows("email_missing")).toBe(1);
  });

  it("refuses an operator whose e-mail domain is not allowed", async () => {
    const id = await createOperator(app.handle.db, { email: "bob@other.example", password: testPassword });
    const outcome = await ssoSignIn(app, provider, "bob@other.example");
    expect(outcome.refusal).toBe("domain_not_allowed");
    expect(outcome.cookie).toBe("");
    expect(await refusedRows("domain_not_allowed")).toBe(1);
    const [row] = await app.rows<{ entity_id: string; operator_email: string }>(
      sql`select entity_id, operator_email from audit_log where action = 'sign_in_refused' and changes->'after'->>'reason' = 'domain_not_allowed'`,
    );
    expect(row).toEqual({ entity_id: id, operator_email: "bob@other.example" });
  });

  it("refuses a person with no operator, and creates none", async () => {
    const outcome = await ssoSignIn(app, provider, "stranger@corp.example");
    expect(outcome.refusal).toBe("unknown_operator");
    expect(outcome.cookie).toBe("");
    expect(await app.count(sql`select 1 from operator where email = 'stranger@corp.example'`)).toBe(0);
    expect(await refusedRows("unknown_operator")).toBe(1);
  });

  it("refuses a deactivated operator, on first sign-in and once linked", async () => {
    await createOperator(app.handle.db, { email: "gone@corp.example", password: testPassword });
    await createOperator(app.handle.db, { email: "left@corp.example", password: testPassword });
    expect((await ssoSignIn(app, provider, "left@corp.example")).refusal).toBeNull(); // linked
    await app.rows(sql`update operator set banned = true where email in ('gone@corp.example', 'left@corp.example')`);
    for (const login of ["gone@corp.example", "left@corp.example"]) {
      const outcome = await ssoSignIn(app, provider, login);
      expect(outcome.refusal, login).toBe("operator_deactivated");
      expect(outcome.cookie).toBe("");
    }
    expect(await refusedRows("operator_deactivated")).toBe(2);
  });

  it("refuses when the provider answers with an error, or the state does not match this browser", async () => {
    const start = await app.request("/api/auth/sign-in/social", { method: "POST", json: { provider: "sso" } });
    const state = new URL(((await start.json()) as { url: string }).url).searchParams.get("state")!;
    const denied = await app.request(`/api/auth/callback/sso?error=access_denied&state=${encodeURIComponent(state)}`, {
      headers: { cookie: cookiesOf(start) },
    });
    expect(denied.status).toBe(302);
    expect(denied.headers.get("location")).toBe("/?sso_error=provider_denied");
    expect(await refusedRows("provider_denied")).toBe(1);

    // A callback in a browser that did not start the attempt (no state cookie): refused, not a 500.
    const again = await app.request("/api/auth/sign-in/social", { method: "POST", json: { provider: "sso" } });
    const url = ((await again.json()) as { url: string }).url;
    const back = await provider.signIn(url, "ada@corp.example");
    const stray = await app.request(back.pathname + back.search);
    expect(stray.status).toBe(302);
    expect(stray.headers.get("location")).toBe("/?sso_error=attempt_expired");
    expect(stray.headers.getSetCookie().some((c) => /^pedal\.session_token=./.test(c))).toBe(false);
    expect(await refusedRows("attempt_expired")).toBe(1);

    // The same callback twice (a replayed code and state): the attempt was used up by the first.
    const once = await app.request("/api/auth/sign-in/social", { method: "POST", json: { provider: "sso" } });
    const callback = await provider.signIn(((await once.json()) as { url: string }).url, "ada@corp.example");
    const first = await app.request(callback.pathname + callback.search, { headers: { cookie: cookiesOf(once) } });
    expect(first.headers.get("location")).toBe("/");
    const replayed = await app.request(callback.pathname + callback.search, { headers: { cookie: cookiesOf(once) } });
    expect(replayed.headers.get("location")).toBe("/?sso_error=attempt_expired");
    expect(replayed.headers.getSetCookie().some((c) => /^pedal\.session_token=./.test(c))).toBe(false);
  });

  it("takes nothing from the start request but the provider and a same-origin path", async () => {
    const other = await app.request("/api/auth/sign-in/social", { method: "POST", json: { provider: "github" } });
    expect(other.status).toBe(400);
    // `requestSignUp` would let better-auth create the operator; `idToken` would skip the code flow.
    const start = await app.request("/api/auth/sign-in/social", {
      method: "POST",
      json: { provider: "sso", requestSignUp: true, idToken: { token: "x" }, callbackURL: "https://evil.example/" },
    });
    expect(start.status).toBe(200);
    const body = (await start.json()) as { url: string; redirect: boolean };
    expect(body.url.startsWith(provider.issuer)).toBe(true);
    expect(start.headers.getSetCookie().some((c) => /^pedal\.session_token=./.test(c))).toBe(false);
    const back = await provider.signIn(body.url, "newcomer@corp.example");
    const callback = await app.request(back.pathname + back.search, { headers: { cookie: cookiesOf(start) } });
    expect(callback.headers.get("location")).toBe("/?sso_error=unknown_operator");
    await createOperator(app.handle.db, { email: "wander@corp.example", password: testPassword });
    for (const from of ["https://evil.example/", "//evil.example/x", "/\\evil.example"])
      expect((await ssoSignIn(app, provider, "wander@corp.example", from)).location).toBe("/");
    expect(await app.request("/api/auth/sign-in/social", { method: "POST", body: "provider=sso" })).toHaveProperty(
      "status",
      415,
    );
  });

  it("writes no token, code or ID token into the audit log", async () => {
    const rows = await app.rows<{ changes: unknown }>(sql`select changes from audit_log`);
    const text = JSON.stringify(rows);
    for (const token of provider.issued) expect(text).not.toContain(token.split(".")[1]);
    expect(text).not.toMatch(/eyJ[\w-]{10,}/);
    expect(text).not.toMatch(/"code"/);
  });

  it("serves only the flow's two routes of better-auth's OAuth endpoints", async () => {
    const cookie = await app.cookie("admin");
    for (const [method, path] of [
      ["GET", "sign-in/social"],
      ["POST", "callback/sso"],
      ["GET", "callback/github"],
      ["POST", "link-social"],
      ["GET", "list-accounts"],
      ["POST", "unlink-account"],
      ["POST", "sign-in/oauth2"],
      ["GET", "error"],
    ]) {
      const res = await app.request(`/api/auth/${path}`, {
        method,
        headers: { cookie },
        ...(method === "POST" ? { json: {} } : {}),
      });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    // Starting needs the console's Origin, like every state-changing request.
    const foreign = await app.request("/api/auth/sign-in/social", {
      method: "POST",
      json: { provider: "sso" },
      headers: { origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
  });

  it("tells the login screen what it offers", async () => {
    const res = await app.request("/api/auth/providers");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ password: true, sso: { id: "sso", label: "Sign in with Okta" } });
  });

  it("lets an operator with two-factor sign-in on through single sign-on without a code", async () => {
    // better-auth's two-factor plugin acts on password sign-in only; the provider's sign-in (with
    // its own second factor) stands in for it. docs/identity.md.
    await createOperator(app.handle.db, { email: "totp@corp.example", password: testPassword });
    await app.rows(sql`update operator set two_factor_enabled = true where email = 'totp@corp.example'`);
    const outcome = await ssoSignIn(app, provider, "totp@corp.example");
    expect(outcome.refusal).toBeNull();
    expect(outcome.cookie).not.toBe("");
  });
});

describe.each(targets)("operators created at first sign-in, and SSO_ONLY, on %s", (target) => {
  let provider: TestProvider;
  let app: TestConsole;

  beforeAll(async () => {
    provider = await startOidcProvider({ redirectUris: [callbackUrl] });
    const identity: IdentityConfig = {
      ...defaultIdentity,
      sso: ssoConfig(provider, { createOperators: true, only: true, breakGlass: ["glass@corp.example"] }),
    };
    app = await startConsole(target, { identity });
  });
  afterAll(async () => {
    await app?.close();
    await provider?.close();
  });

  it("creates an operator from an allowed domain, with the role its groups map to", async () => {
    provider.people.set("eve@corp.example", {
      email: "Eve@Corp.example",
      email_verified: true,
      name: "Eve Example",
      groups: ["staff", "console-editors"],
    });
    const outcome = await ssoSignIn(app, provider, "eve@corp.example");
    expect(outcome.refusal).toBeNull();
    const [eve] = await app.rows<{ id: string; role: string; name: string; banned: boolean }>(
      sql`select id, role, name, banned from operator where email = 'eve@corp.example'`,
    );
    expect(eve).toMatchObject({ role: "editor", name: "Eve Example", banned: false });
    const rows = await app.rows<{ action: string; changes: { after: Record<string, unknown> } }>(
      sql`select action, changes from audit_log where entity_id = ${eve.id} order by created_at`,
    );
    expect(rows).toEqual([
      {
        action: "create",
        changes: { after: { email: "eve@corp.example", name: "Eve Example", role: "editor", method: "sso" } },
      },
      { action: "sign_in", changes: { after: { method: "sso" } } },
    ]);
  });

  it("creates a viewer (SSO_DEFAULT_ROLE) when no group maps, and an admin from the admins' group", async () => {
    provider.people.set("vic@corp.example", { email: "vic@corp.example", email_verified: true, groups: ["staff"] });
    provider.people.set("ann@corp.example", {
      email: "ann@corp.example",
      email_verified: true,
      groups: ["console-editors", "console-admins"],
    });
    expect((await ssoSignIn(app, provider, "vic@corp.example")).refusal).toBeNull();
    expect((await ssoSignIn(app, provider, "ann@corp.example")).refusal).toBeNull();
    const roles = await app.rows<{ email: string; role: string }>(
      sql`select email, role from operator where email in ('vic@corp.example', 'ann@corp.example') order by email`,
    );
    expect(roles).toEqual([
      { email: "ann@corp.example", role: "admin" },
      { email: "vic@corp.example", role: "viewer" },
    ]);
  });

  it("creates nobody from another domain, or with an unverified e-mail", async () => {
    provider.people.set("out@corp.example", { email: "out@elsewhere.example", email_verified: true });
    provider.people.set("unsure@corp.example", { email: "unsure@corp.example", email_verified: false });
    expect((await ssoSignIn(app, provider, "out@corp.example")).refusal).toBe("domain_not_allowed");
    expect((await ssoSignIn(app, provider, "unsure@corp.example")).refusal).toBe("email_not_verified");
    expect(
      await app.count(sql`select 1 from operator where email in ('out@elsewhere.example', 'unsure@corp.example')`),
    ).toBe(0);
  });

  it("refuses password sign-in except for break-glass operators, audited", async () => {
    await createOperator(app.handle.db, { email: "pat@corp.example", password: testPassword });
    await createOperator(app.handle.db, { email: "glass@corp.example", password: testPassword });
    const refused = await app.request("/api/auth/sign-in/email", {
      method: "POST",
      json: { email: "Pat@corp.example", password: testPassword },
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ code: "PASSWORD_SIGN_IN_OFF", message: msg.sso.passwordOff });
    expect(refused.headers.getSetCookie().some((c) => /^pedal\.session_token=./.test(c))).toBe(false);
    const [row] = await app.rows<{ operator_email: string; changes: { after: Record<string, unknown> } }>(
      sql`select operator_email, changes from audit_log where action = 'sign_in_refused' and changes->'after'->>'method' = 'password'`,
    );
    expect(row).toEqual({
      operator_email: "pat@corp.example",
      changes: { after: { email: "pat@corp.example", method: "password", reason: "sso_only" } },
    });
    const glass = await app.request("/api/auth/sign-in/email", {
      method: "POST",
      json: { email: "glass@corp.example", password: testPassword },
    });
    expect(glass.status).toBe(200);
    // Single sign-on still works for everyone.
    expect((await ssoSignIn(app, provider, "pat@corp.example")).refusal).toBeNull();
    const options = await app.request("/api/auth/providers");
    expect(await options.json()).toEqual({ password: false, sso: { id: "sso", label: "Sign in with Okta" } });
  });
});

describe.each(targets)("without single sign-on on %s", (target) => {
  let app: TestConsole;
  beforeAll(async () => {
    app = await startConsole(target);
  });
  afterAll(() => app.close());

  it("offers the password form only, and serves none of the single sign-on routes", async () => {
    const res = await app.request("/api/auth/providers");
    expect(await res.json()).toEqual({ password: true, sso: null });
    const start = await app.request("/api/auth/sign-in/social", { method: "POST", json: { provider: "sso" } });
    expect(start.status).toBe(404);
    expect((await app.request("/api/auth/callback/sso?code=x&state=y")).status).toBe(404);
    const signIn = await app.request("/api/auth/sign-in/email", {
      method: "POST",
      json: { email: "viewer@test.example", password: testPassword },
    });
    expect(signIn.status).toBe(401);
    await app.cookie("viewer");
  });
});
