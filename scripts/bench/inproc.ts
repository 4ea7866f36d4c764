/**
 * The console's app in this process on the benchmark database, with a statement recorder: every
 * SQL statement the app sends through the driver while `capture` runs is kept with its parameters,
 * so the benchmark can EXPLAIN exactly what a request ran.
 */
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import pino from "pino";
import { createApp } from "../../src/server/app";
import { createOperator } from "../../src/server/auth";
import { CredentialCache } from "../../src/server/credential-cache";
import { defaultSecurity } from "../../src/server/config";
import { openPglite, openPostgres, applySessionSettings, type DatabaseHandle } from "../../src/server/db/client";

/** A statement as the driver was given it: its text, parameters, and the prepared name and row mode where set. */
export type Statement = { text: string; values: unknown[]; name?: string; rowMode?: "array" };

export type InProcess = {
  handle: DatabaseHandle;
  /** GET `path` as the signed-in bench operator (with `headers` besides): status, parsed body, bytes and headers. */
  get(
    path: string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; bytes: number; headers: Headers }>;
  /** Runs `work` and returns the statements the app sent meanwhile. */
  capture<T>(work: () => Promise<T>): Promise<{ result: T; statements: Statement[] }>;
  /** Runs raw SQL outside the recorder. */
  query<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  /** Runs `work` on one connection inside a transaction (rolled back at the end). */
  session<T>(
    work: (query: <R = Record<string, unknown>>(text: string, values?: unknown[]) => Promise<R[]>) => Promise<T>,
  ): Promise<T>;
  close(): Promise<void>;
};

const publicUrl = "http://127.0.0.1:9";
let recording: Statement[] | undefined;

// node-postgres: every pool query ends in Client.prototype.query; COPY streams (objects with a
// `submit`) and the recorder's own EXPLAINs are left out.
const clientQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
let patchedPg = false;
function recordPg() {
  if (patchedPg) return;
  patchedPg = true;
  (pg.Client.prototype as unknown as { query: unknown }).query = function (this: pg.Client, ...args: unknown[]) {
    const [config, values] = args as [unknown, unknown];
    if (recording && config && typeof (config as { submit?: unknown }).submit !== "function") {
      const text = typeof config === "string" ? config : (config as { text?: string }).text;
      const params =
        typeof config === "string"
          ? values
          : ((config as { values?: unknown[] }).values ?? (Array.isArray(values) ? values : undefined));
      const { name, rowMode } = typeof config === "string" ? {} : (config as { name?: string; rowMode?: "array" });
      if (text)
        recording.push({
          text,
          values: (params as unknown[]) ?? [],
          ...(name ? { name } : {}),
          ...(rowMode ? { rowMode } : {}),
        });
    }
    return clientQuery.apply(this, args);
  };
}

/** Ensures the admin operator the benchmark signs in as. */
export async function ensureBenchOperator(handle: DatabaseHandle, email: string, password: string): Promise<void> {
  try {
    await createOperator(handle.db, { email, password, role: "admin", name: "Benchmark" });
  } catch (err) {
    if (!/already exists/.test((err as Error).message)) throw err;
  }
}

/** Opens the database (PostgreSQL `url`, else PGlite `dataDir`) and the app on it, signed in. */
export async function openInProcess(
  where: { url?: string; dataDir?: string },
  operator: { email: string; password: string },
): Promise<InProcess> {
  let handle: DatabaseHandle;
  let raw: (text: string, values?: unknown[]) => Promise<unknown[]>;
  let session: InProcess["session"];
  if (where.url) {
    recordPg();
    handle = openPostgres(where.url, 10);
    // EXPLAIN runs the app's statements as the app's own connections plan them.
    // pg-pool awaits onConnect before it hands the client out.
    // eslint-disable-next-line @typescript-eslint/no-misused-promises
    const pool = new pg.Pool({ connectionString: where.url, max: 2, onConnect: applySessionSettings });
    raw = async (text, values) => {
      const saved = recording;
      recording = undefined;
      try {
        return (await pool.query(text, values as unknown[])).rows;
      } finally {
        recording = saved;
      }
    };
    session = async (work) => {
      const client = await pool.connect();
      try {
        await client.query("begin");
        return await work(async (text, values) => (await client.query(text, values as unknown[])).rows);
      } finally {
        await client.query("rollback").catch(() => undefined);
        client.release();
      }
    };
    const close = handle.close;
    handle = {
      ...handle,
      close: async () => {
        await close();
        await pool.end();
      },
    };
  } else {
    handle = await openPglite(where.dataDir);
    const lite = handle.pglite as PGlite;
    const query = lite.query.bind(lite);
    lite.query = ((text: string, values?: unknown[], options?: unknown) => {
      const rowMode =
        (options as { rowMode?: string } | undefined)?.rowMode === "array" ? { rowMode: "array" as const } : {};
      recording?.push({ text, values: values ?? [], ...rowMode });
      return (query as (...a: unknown[]) => ReturnType<PGlite["query"]>)(text, values, options);
    }) as PGlite["query"];
    raw = async (text, values) => (await query(text, values as unknown[])).rows as unknown[];
    session = async (work) => {
      let result: Awaited<ReturnType<typeof work>>;
      await lite.transaction(async (tx) => {
        result = await work(async (text, values) => (await tx.query(text, values as unknown[])).rows as never);
        await tx.rollback();
      });
      return result!;
    };
  }
  await handle.migrate();
  await ensureBenchOperator(handle, operator.email, operator.password);
  // As the server runs (src/server/main.ts): the sessions it keeps are not read again, so the
  // statements recorded for the machine's ceiling are those a warm request sends.
  const credentials = new CredentialCache(handle.db, pino({ level: "silent" }), 5_000);
  await credentials.start();
  const { app } = createApp({
    credentials,
    db: handle.db,
    config: {
      authSecret: "bench-secret-bench-secret-bench-secret-00",
      publicUrl,
      security: { ...defaultSecurity, signInMaxPerIp: 1000 },
    },
    logger: pino({ level: "silent" }),
  });
  const signIn = await app.request("/api/auth/sign-in/email", {
    method: "POST",
    headers: { "content-type": "application/json", origin: publicUrl },
    body: JSON.stringify(operator),
  });
  if (signIn.status !== 200) throw new Error(`in-process sign-in answered ${signIn.status}: ${await signIn.text()}`);
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return {
    handle,
    async get(path, headers = {}) {
      const res = await app.request(path, { headers: { ...headers, cookie, origin: publicUrl } });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON
      }
      return { status: res.status, body, bytes: Buffer.byteLength(text), headers: res.headers };
    },
    async capture(work) {
      const statements: Statement[] = [];
      recording = statements;
      try {
        const result = await work();
        return { result, statements };
      } finally {
        recording = undefined;
      }
    },
    query: (text, values) => raw(text, values) as never,
    session,
    close: async () => {
      await credentials.close();
      await handle.close();
    },
  };
}
