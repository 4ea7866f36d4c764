/**
 * The operator session of a request in one statement, for the request every API call makes.
 *
 * better-auth's `getSession` reads a session with two statements (the session, then its operator),
 * checks the cookie's signature with an asynchronous Web Crypto call, and runs its endpoint
 * machinery on every call: two of a users page's three statements. Reading it here cut the
 * server's CPU time per users page by a third at 50 connections (docs/performance.md, "Sessions
 * in one statement"). This reads the common case itself and hands every other case to
 * better-auth, unchanged:
 *
 * - read here: a session cookie whose HMAC-SHA256 signature (better-auth's cookie format,
 *   `token.base64(hmac(secret, token))`) is valid, with no other session cookie better-auth acts
 *   on (`dont_remember`, `session_data`), naming a session that exists, has not expired and is not
 *   yet due for its sliding refresh (older than `updateAge`);
 * - left to better-auth: no cookie, a bad signature, an unknown or expired session (it clears the
 *   cookie and deletes the row), a session due for refresh (it extends it and sets the cookie).
 *
 * The answer is the one `getSession` gives for the same session (an API test compares the two),
 * so nothing downstream (roles, the absolute lifetime, deactivated operators, audit) changes.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { parseCookies } from "better-call";
import { eq, sql } from "drizzle-orm";
import type { Auth, SessionData } from "./auth";
import type { CredentialCache } from "./credential-cache";
import { preparedPerDatabase, type Database } from "./db/client";
import { operator, operator_session } from "./db/schema";

/** What the direct read needs of better-auth's configuration, read once per auth instance. */
type SessionCookies = {
  secret: string;
  token: string;
  dontRemember: string;
  data: string;
  /** Seconds. */
  expiresIn: number;
  /** Seconds. */
  updateAge: number;
};

const cookiesOf = new WeakMap<Auth, SessionCookies>();

async function sessionCookies(auth: Auth): Promise<SessionCookies> {
  const known = cookiesOf.get(auth);
  if (known) return known;
  const ctx = await auth.$context;
  const found: SessionCookies = {
    secret: ctx.secret,
    token: ctx.authCookies.sessionToken.name,
    dontRemember: ctx.authCookies.dontRememberToken.name,
    data: ctx.authCookies.sessionData.name,
    expiresIn: ctx.sessionConfig.expiresIn,
    updateAge: ctx.sessionConfig.updateAge,
  };
  cookiesOf.set(auth, found);
  return found;
}

/** The operator fields better-auth answers with a session, in its order (also the API tokens' operator). */
export const sessionUserFields = {
  name: operator.name,
  email: operator.email,
  emailVerified: operator.emailVerified,
  image: operator.image,
  createdAt: operator.createdAt,
  updatedAt: operator.updatedAt,
  twoFactorEnabled: operator.twoFactorEnabled,
  role: operator.role,
  banned: operator.banned,
  id: operator.id,
};

/** The session and operator fields better-auth answers, in its order (its schema's; not the admin plugin's ban details). */
const sessionFields = {
  session: {
    expiresAt: operator_session.expiresAt,
    token: operator_session.token,
    createdAt: operator_session.createdAt,
    updatedAt: operator_session.updatedAt,
    ipAddress: operator_session.ipAddress,
    userAgent: operator_session.userAgent,
    userId: operator_session.userId,
    id: operator_session.id,
  },
  user: sessionUserFields,
};

function prepare(db: Database) {
  return db
    .select(sessionFields)
    .from(operator_session)
    .innerJoin(operator, eq(operator.id, operator_session.userId))
    .where(eq(operator_session.token, sql.placeholder("token")))
    .limit(1)
    .prepare("pedal_session_read");
}

const statementOf = preparedPerDatabase(prepare);

/** Cookie values whose signature was checked, by secret: their token. Only valid ones are kept. */
const verifiedValues = new Map<string, Map<string, string>>();
const verifiedLimit = 10_000;

/**
 * The token of a session cookie value `token.signature` when its signature is `secret`'s, else
 * undefined. Compared in constant time. A value found valid is remembered (up to 10,000, then
 * the memory starts again), so that a client's next requests with the same cookie skip the HMAC:
 * on a polling route that was 1.5 % of the server's time. A forged value is never kept.
 */
function verifiedToken(value: string, secret: string): string | undefined {
  let known = verifiedValues.get(secret);
  const remembered = known?.get(value);
  if (remembered !== undefined) return remembered;
  const dot = value.lastIndexOf(".");
  if (dot < 1) return undefined;
  const token = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1));
  const expected = Buffer.from(createHmac("sha256", secret).update(token).digest("base64"));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  if (!known) verifiedValues.set(secret, (known = new Map<string, string>()));
  if (known.size >= verifiedLimit) known.clear();
  known.set(value, token);
  return token;
}

/**
 * The request's session in one statement when it is the common case above, else undefined (the
 * caller then asks better-auth's `getSession`). `cookieHeader` is the request's Cookie header.
 * Times are the system clock's, as better-auth's are.
 * @throws the database's error when the statement fails (the caller answers 503).
 */
export async function readSessionDirect(
  db: Database,
  auth: Auth,
  cookieHeader: string | undefined,
  cache?: CredentialCache,
): Promise<SessionData | undefined> {
  if (!cookieHeader) return undefined;
  const names = await sessionCookies(auth);
  const cookies = parseCookies(cookieHeader);
  for (const name of cookies.keys()) {
    if (name === names.dontRemember || name.startsWith(names.data)) return undefined;
  }
  const value = cookies.get(names.token);
  const token = value ? verifiedToken(value, names.secret) : undefined;
  if (!token) return undefined;
  const read = async () => (await statementOf(db).execute({ token }))[0];
  const row = cache ? ((await cache.sessions.get(token, read)) as Awaited<ReturnType<typeof read>>) : await read();
  if (!row) return undefined;
  const now = Date.now();
  const expiresAt = row.session.expiresAt.getTime();
  if (expiresAt <= now || expiresAt - names.expiresIn * 1000 + names.updateAge * 1000 <= now) return undefined;
  return row;
}
