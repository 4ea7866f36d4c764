import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { eq } from "drizzle-orm";
import { loadConfig, loadEnvFile, type Config } from "./config";
import { describeStartupError } from "./startup-error";
import { openPglite, openPostgres, type DatabaseHandle } from "./db/client";
import { isEmpty, loadDemoData } from "./db/demo-data";
import { operator } from "./db/schema";
import { createOperator } from "./auth";
import { LockedError, lockDataDir } from "./lock";
import { NotAdoptedError } from "./db/catalog";
import type { OperatorRole } from "../domain/enums";

/** Opens the configured database: PostgreSQL at DATABASE_URL, else PGlite under DATA_DIR (locked). */
export async function openConfiguredDatabase(
  config: Config,
  onConnectionError?: (err: Error) => void,
): Promise<{ handle: DatabaseHandle; release: () => void }> {
  if (config.databaseUrl)
    return { handle: openPostgres(config.databaseUrl, 10, onConnectionError), release: () => undefined };
  mkdirSync(config.dataDir, { recursive: true });
  const release = await lockDataDir(config.dataDir);
  try {
    return { handle: await openPglite(path.join(config.dataDir, "pglite"), config.pgliteSharedBuffersMb), release };
  } catch (err) {
    release();
    throw err;
  }
}

export type DemoOperator = { email: string; password: string; role: OperatorRole };

const demoOperators: Array<{ email: string; role: OperatorRole; name: string }> = [
  { email: "admin@pedal.example", role: "admin", name: "Demo Admin" },
  { email: "editor@pedal.example", role: "editor", name: "Demo Editor" },
  { email: "viewer@pedal.example", role: "viewer", name: "Demo Viewer" },
];

/**
 * Embedded database only: creates the demo operators (one per role) on first start, with random
 * passwords kept in `DATA_DIR/demo-operators.json` (or DEMO_OPERATOR_PASSWORD for all three).
 * @returns the operators' sign-in details, to print at every start.
 */
export async function ensureDemoOperators(handle: DatabaseHandle, config: Config): Promise<DemoOperator[]> {
  const file = path.join(config.dataDir, "demo-operators.json");
  let saved: DemoOperator[] = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as DemoOperator[]) : [];
  const result: DemoOperator[] = [];
  for (const demo of demoOperators) {
    const exists =
      (await handle.db.select({ id: operator.id }).from(operator).where(eq(operator.email, demo.email))).length > 0;
    let entry = saved.find((s) => s.email === demo.email);
    if (!exists) {
      entry = {
        email: demo.email,
        role: demo.role,
        password: config.demoOperatorPassword ?? randomBytes(12).toString("base64url"),
      };
      await createOperator(handle.db, { ...demo, password: entry.password });
      saved = [...saved.filter((s) => s.email !== demo.email), entry];
      writeFileSync(file, JSON.stringify(saved, null, 2) + "\n", { mode: 0o600 });
    }
    if (entry) result.push(entry);
  }
  return result;
}

/**
 * Whether this start is a trial: the embedded database without NODE_ENV=production, which gets
 * demo data and demo operators with printed passwords. A production start, on either database,
 * gets neither unless asked (SEED_DEMO=1 for the data; `npm run operator:create` for operators).
 */
export function isTrial(handle: DatabaseHandle, config: Pick<Config, "production">): boolean {
  return handle.kind === "pglite" && !config.production;
}

/**
 * Migrates, then loads demo data when allowed: into an empty embedded database on a trial start
 * (see isTrial); otherwise only with SEED_DEMO=1. Never into a database that holds customers.
 * @returns whether demo data was loaded.
 */
export async function prepareDatabase(handle: DatabaseHandle, config: Config): Promise<boolean> {
  await handle.migrate();
  const wantDemo = isTrial(handle, config) || config.seedDemo;
  if (wantDemo && (await isEmpty(handle.db))) {
    await loadDemoData(handle.db, { seed: config.demoSeed });
    return true;
  }
  return false;
}

/**
 * For command-line scripts: opens and migrates the configured database, runs `work`, then
 * checkpoints, closes and unlocks it whatever happens. Resolves to `work`'s exit code, or 2 after
 * printing one line saying what to do when the environment is invalid (ConfigError), when a running
 * console holds the embedded database (LockedError; `whenLocked` may then reach that console
 * instead and give the exit code), or when the database is another application's, to be adopted
 * first (NotAdoptedError).
 */
export async function withDatabase(
  work: (handle: DatabaseHandle, config: Config) => Promise<number>,
  whenLocked?: (config: Config) => Promise<number | undefined>,
): Promise<number> {
  let config: Config;
  let opened: Awaited<ReturnType<typeof openConfiguredDatabase>>;
  try {
    loadEnvFile();
    config = loadConfig();
    opened = await openConfiguredDatabase(config);
  } catch (err) {
    if (err instanceof LockedError) {
      const code = whenLocked ? await whenLocked(loadConfig()) : undefined;
      if (code !== undefined) return code;
      console.error(
        `${err.message.replace(/\. Stop it first.*$/, "")}. Stop that console (Ctrl+C, or SIGTERM to its pid), run this command again, then start the console.`,
      );
      return 2;
    }
    const { line, exitCode } = describeStartupError(err, {});
    console.error(line);
    return exitCode;
  }
  const { handle, release } = opened;
  try {
    try {
      await handle.migrate();
    } catch (err) {
      if (!(err instanceof NotAdoptedError)) throw err;
      console.error(err.message);
      return 2;
    }
    return await work(handle, config);
  } finally {
    await handle.checkpoint();
    await handle.close();
    release();
  }
}
