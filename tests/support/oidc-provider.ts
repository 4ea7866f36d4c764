/**
 * A real OpenID Connect provider for the single sign-on tests (the `oidc-provider` package, the
 * certified implementation), on a free port of 127.0.0.1 over http, with the console registered as
 * a confidential client (code flow, PKCE). Its own development login page signs anyone in by the
 * login typed (any password); the claims of each login come from `people`.
 *
 * In front of it stands a small HTTP proxy that passes every request through unchanged, except
 * that a test may rewrite the `id_token` of the token endpoint's answer (`onIdToken`): re-signed
 * with the provider's own key (which the test generated, so it knows it) with altered claims, or
 * replaced by an earlier one. That is how the tests produce a wrong audience, an expired token or a
 * replayed nonce from a real provider: the console's side is never faked.
 */
import { createPrivateKey, generateKeyPairSync, randomUUID, sign, type JsonWebKey } from "node:crypto";
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

/** The claims the provider gives a person (besides `sub`, which is their login). */
export type PersonClaims = {
  email?: string;
  email_verified?: boolean | string;
  name?: string;
  groups?: string[];
};

export type TestProvider = {
  /** The issuer URL (the proxy's address): SSO_ISSUER. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Claims by login; a login not listed gets `{ email: login, email_verified: true }`. */
  people: Map<string, PersonClaims>;
  /** Rewrites the next ID tokens the token endpoint hands out (null: pass them through). */
  onIdToken: ((token: string, claims: Record<string, unknown>) => string) | null;
  /** Every ID token the token endpoint handed out, as the provider issued it. */
  issued: string[];
  /** The claims re-signed with the provider's key (RS256, its `kid`). */
  resign(claims: Record<string, unknown>): string;
  /**
   * Plays the browser at the provider: opens `authorizeUrl` (the console's redirect to the
   * provider), signs in on the provider's login page as `login`, and returns the URL the provider
   * sends the browser back to (the console's callback with `code` and `state`, or `error`).
   */
  signIn(authorizeUrl: string, login: string): Promise<URL>;
  close(): Promise<void>;
};

function base64url(value: Buffer | string): string {
  return Buffer.from(value).toString("base64url");
}

function decodeClaims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as Record<string, unknown>;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

function readBody(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => resolve(Buffer.concat(chunks)));
    stream.on("error", reject);
  });
}

/**
 * Starts the provider with the console registered as client `clientId` whose redirect URIs are
 * `redirectUris` (the console's `${PUBLIC_URL}/api/auth/callback/sso`).
 */
export async function startOidcProvider(options: { redirectUris: string[] }): Promise<TestProvider> {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const kid = randomUUID();
  const jwk = { ...(privateKey.export({ format: "jwk" }) as JsonWebKey), kid, alg: "RS256", use: "sig" };
  const signingKey = createPrivateKey({ key: jwk as JsonWebKey, format: "jwk" });
  const clientId = "pedal-console";
  const clientSecret = `secret-${randomUUID()}`;
  const people = new Map<string, PersonClaims>();

  const proxy = createServer();
  const port = await listen(proxy);
  const issuer = `http://127.0.0.1:${port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    jwks: { keys: [jwk as never] },
    cookies: { keys: [randomUUID()] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "groups"] },
    // The claims of the scopes asked for go into the ID token itself (as Okta and Entra do), not
    // only into the userinfo answer.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true } },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => {
        const person = people.get(id) ?? { email: id, email_verified: true };
        return { sub: id, ...person } as never;
      },
    }),
    // The console is a first-party client: the person is not asked to consent to its scopes.
    loadExistingGrant: async (ctx) => {
      const existing = ctx.oidc.session?.grantIdFor(ctx.oidc.client!.clientId);
      if (existing) return ctx.oidc.provider.Grant.find(existing);
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client!.clientId,
        accountId: ctx.oidc.session!.accountId!,
      });
      grant.addOIDCScope("openid email profile");
      grant.addOIDCClaims(["email", "email_verified", "name", "groups"]);
      await grant.save();
      return grant;
    },
  });
  const errors: unknown[] = [];
  provider.on("server_error", (_ctx, err) => errors.push(err));
  const inner = createServer(provider.callback());
  const innerPort = await listen(inner);

  const state: TestProvider = {
    issuer,
    clientId,
    clientSecret,
    people,
    onIdToken: null,
    issued: [],
    resign(claims) {
      const header = base64url(JSON.stringify({ alg: "RS256", kid }));
      const payload = base64url(JSON.stringify(claims));
      const signature = sign("sha256", Buffer.from(`${header}.${payload}`), signingKey);
      return `${header}.${payload}.${base64url(signature)}`;
    },
    signIn: (authorizeUrl, login) => browse(authorizeUrl, login, options.redirectUris),
    close: async () => {
      await Promise.all([
        new Promise((resolve) => proxy.close(resolve)),
        new Promise((resolve) => inner.close(resolve)),
      ]);
      proxy.closeAllConnections();
      inner.closeAllConnections();
      if (errors.length > 0) throw new Error(`the provider failed: ${String(errors[0])}`);
    },
  };

  proxy.on("request", (req, res) => {
    void (async () => {
      const body = await readBody(req);
      const upstream = httpRequest({
        host: "127.0.0.1",
        port: innerPort,
        method: req.method,
        path: req.url,
        headers: req.headers,
      });
      upstream.end(body);
      const answer = await new Promise<IncomingMessage>((resolve, reject) => {
        upstream.on("response", resolve);
        upstream.on("error", reject);
      });
      let payload = await readBody(answer);
      const headers = { ...answer.headers };
      if (req.method === "POST" && req.url === "/token" && answer.statusCode === 200) {
        const tokens = JSON.parse(payload.toString("utf8")) as { id_token?: string };
        if (tokens.id_token) {
          state.issued.push(tokens.id_token);
          if (state.onIdToken) {
            tokens.id_token = state.onIdToken(tokens.id_token, decodeClaims(tokens.id_token));
            payload = Buffer.from(JSON.stringify(tokens));
            headers["content-length"] = String(payload.length);
          }
        }
      }
      res.writeHead(answer.statusCode ?? 502, headers);
      res.end(payload);
    })().catch((err: unknown) => {
      errors.push(err);
      res.writeHead(502).end();
    });
  });

  return state;
}

/**
 * The browser's part at the provider, with a cookie jar of its own: follows redirects, submits the
 * login form, and stops at the first redirect to one of `redirectUris`.
 */
async function browse(authorizeUrl: string, login: string, redirectUris: string[]): Promise<URL> {
  const jar = new Map<string, string>();
  const remember = (res: Response) => {
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      if (value === "" || /expires=Thu, 01 Jan 1970/i.test(cookie)) jar.delete(name);
      else jar.set(name, value);
    }
  };
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  let url = new URL(authorizeUrl);
  let init: RequestInit = {};
  for (let hop = 0; hop < 12; hop++) {
    const res = await fetch(url, { ...init, redirect: "manual", headers: { ...init.headers, cookie: cookieHeader() } });
    remember(res);
    init = {};
    const location = res.headers.get("location");
    if (res.status >= 300 && res.status < 400 && location) {
      await res.body?.cancel();
      const next = new URL(location, url);
      if (redirectUris.some((r) => next.href.startsWith(r))) return next;
      url = next;
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"[^>]*method="post"/i.exec(html)?.[1];
    if (res.status !== 200 || !action || !html.includes('name="login"'))
      throw new Error(`the provider answered ${res.status} without its login form:\n${html.slice(0, 500)}`);
    url = new URL(action.replaceAll("&amp;", "&"), url);
    init = {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ prompt: "login", login, password: "any password" }).toString(),
    };
  }
  throw new Error("the provider redirected too many times");
}
