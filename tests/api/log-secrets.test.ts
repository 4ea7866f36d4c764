/**
 * No secret reaches the log (docs/identity.md): a console logging at `trace` goes through every
 * identity flow (password sign-in right and wrong, two-factor setup, codes, recovery codes,
 * replays, API tokens in the header and refused in the query string, single sign-on against a
 * real provider, accepted and refused), and then its whole log is scanned for each password,
 * session token, TOTP secret and code, recovery code, API token, client secret and authorization
 * code the run handled.
 */
import { generateSync } from "otplib";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOperator } from "../../src/server/auth";
import { defaultIdentity } from "../../src/server/config";
import { cookiesOf, publicUrl, startConsole, testPassword, type TestConsole } from "../support/app";
import { targets } from "../support/databases";
import { startOidcProvider, type TestProvider } from "../support/oidc-provider";

const callbackUrl = `${publicUrl}/api/auth/callback/sso`;

/** Every cookie value of a Cookie header, and its token part (before the signature). */
const cookieSecrets = (cookie: string) =>
  cookie
    .split("; ")
    .filter(Boolean)
    .flatMap((pair) => {
      const value = decodeURIComponent(pair.slice(pair.indexOf("=") + 1));
      return [value, value.split(".")[0]];
    })
    .filter((v) => v.length >= 16);

describe.each(targets.slice(0, 1))("the log of a full identity run on %s", (target) => {
  let provider: TestProvider;
  let app: TestConsole;
  const lines: string[] = [];
  const secrets = new Set<string>();

  beforeAll(async () => {
    provider = await startOidcProvider({ redirectUris: [callbackUrl] });
    app = await startConsole(target, {
      logger: pino({ level: "trace" }, { write: (line: string) => void lines.push(line) }),
      security: { trustProxy: 1 },
      identity: {
        ...defaultIdentity,
        sso: {
          issuer: provider.issuer,
          clientId: provider.clientId,
          clientSecret: provider.clientSecret,
          buttonLabel: "Sign in with Okta",
          allowedDomains: [],
          roleMap: new Map(),
          defaultRole: "viewer",
          createOperators: false,
          only: false,
          breakGlass: [],
        },
      },
    });
    secrets.add(testPassword).add(provider.clientSecret);
  });
  let closed = false;
  afterAll(async () => {
    if (!closed) await app?.close();
    await provider?.close();
  });

  const post = (path: string, json: unknown, cookie = "") =>
    app.request(path, {
      method: "POST",
      json,
      headers: { ...(cookie ? { cookie } : {}), "x-forwarded-for": "10.77.0.1" },
    });

  it("holds no password, session token, TOTP secret or code, recovery code, API token or OAuth secret", async () => {
    const email = "logged@test.example";
    await createOperator(app.handle.db, { email, password: testPassword, role: "admin" });

    // Passwords, wrong and right.
    const wrong = "a-wrong-password-typed-in";
    secrets.add(wrong);
    expect((await post("/api/auth/sign-in/email", { email, password: wrong })).status).toBe(401);
    const first = await post("/api/auth/sign-in/email", { email, password: testPassword });
    expect(first.status).toBe(200);
    let cookie = cookiesOf(first);
    for (const s of cookieSecrets(cookie)) secrets.add(s);

    // Two-factor: setup, a wrong code, the right one, a replay, a recovery code twice.
    const enabled = await post("/api/auth/two-factor/enable", { password: testPassword }, cookie);
    expect(enabled.status).toBe(200);
    const { totpURI, backupCodes } = (await enabled.json()) as { totpURI: string; backupCodes: string[] };
    const secret = new URL(totpURI).searchParams.get("secret")!;
    secrets.add(secret).add(totpURI);
    for (const code of backupCodes) secrets.add(code);
    const setupCode = generateSync({ secret, epoch: Math.floor(Date.now() / 1000) - 30 });
    const confirmed = await post("/api/auth/two-factor/verify-totp", { code: setupCode }, cookie);
    expect(confirmed.status).toBe(200);
    cookie = cookiesOf(confirmed, cookie);
    for (const s of cookieSecrets(cookie)) secrets.add(s);

    const challenge = cookiesOf(await post("/api/auth/sign-in/email", { email, password: testPassword }));
    for (const s of cookieSecrets(challenge)) secrets.add(s);
    const code = generateSync({ secret });
    secrets.add(code);
    const wrongCode = code === "000000" ? "111111" : "000000";
    expect((await post("/api/auth/two-factor/verify-totp", { code: wrongCode }, challenge)).status).toBe(401);
    const second = await post("/api/auth/two-factor/verify-totp", { code }, challenge);
    expect(second.status).toBe(200);
    for (const s of cookieSecrets(cookiesOf(second))) secrets.add(s);
    const replayChallenge = cookiesOf(await post("/api/auth/sign-in/email", { email, password: testPassword }));
    expect((await post("/api/auth/two-factor/verify-totp", { code }, replayChallenge)).status).not.toBe(200);
    for (let i = 0; i < 2; i++) {
      const recovery = cookiesOf(await post("/api/auth/sign-in/email", { email, password: testPassword }));
      const answer = await post("/api/auth/two-factor/verify-backup-code", { code: backupCodes[0] }, recovery);
      expect(answer.status).toBe(i === 0 ? 200 : 401);
    }

    // An API token: made, used, refused in the query string, and a wrong one.
    const created = await app.request("/api/account/tokens", {
      method: "POST",
      json: { name: "Logged script", role: "viewer" },
      headers: { cookie },
    });
    expect(created.status).toBe(201);
    const { token } = (await created.json()) as { token: string };
    secrets.add(token);
    expect((await app.request("/api/customers", { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await app.request(`/api/customers?access_token=${token}`)).status).toBe(400);
    const forged = `${token.slice(0, -4)}AAAA`;
    secrets.add(forged);
    expect((await app.request("/api/customers", { headers: { authorization: `Bearer ${forged}` } })).status).toBe(401);

    // Single sign-on: an operator who exists, and a person who does not.
    for (const login of [email, "stranger@test.example"]) {
      const start = await app.request("/api/auth/sign-in/social", {
        method: "POST",
        json: { provider: "sso", callbackURL: "/" },
      });
      expect(start.status).toBe(200);
      const { url } = (await start.json()) as { url: string };
      const authorize = new URL(url);
      secrets.add(authorize.searchParams.get("state")!).add(authorize.searchParams.get("nonce")!);
      const back = await provider.signIn(url, login);
      secrets.add(back.searchParams.get("code")!);
      for (const s of cookieSecrets(cookiesOf(start))) secrets.add(s);
      const callback = await app.request(back.pathname + back.search, { headers: { cookie: cookiesOf(start) } });
      expect(callback.status).toBe(302);
      for (const s of cookieSecrets(cookiesOf(callback))) secrets.add(s);
    }

    await app.close(); // every background task has logged what it would
    closed = true;
    const log = lines.join("");
    // The run was logged: every request, with its path.
    expect(log).toContain("/api/auth/two-factor/verify-totp");
    expect(log).toContain("/api/auth/callback/sso");
    expect(secrets.size).toBeGreaterThan(30);
    for (const value of secrets)
      expect(log.includes(value), `a secret of ${value.length} characters is in the log`).toBe(false);
  });
});
