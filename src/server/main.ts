/**
 * Entry point: config → database (+ lock) → migrations → demo data if empty → listen.
 * On SIGINT/SIGTERM it stops accepting connections, lets requests in flight finish, runs
 * CHECKPOINT and closes the database before exiting.
 */
import { serve } from "@hono/node-server";
import { createApp, defaultWebRoot } from "./app";
import { ConfigError, loadConfig } from "./config";
import { ensureDemoOperators, openConfiguredDatabase, prepareDatabase } from "./database";
import { LockedError } from "./lock";
import { NotAdoptedError } from "./db/catalog";
import { pruneSessions } from "./security";
import { createLogger } from "./logger";

async function main() {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const { handle, release } = await openConfiguredDatabase(config, (err) => logger.warn({ err }, "idle database connection lost"));
  let operators: Awaited<ReturnType<typeof ensureDemoOperators>> = [];
  let seeded = false;
  try {
    seeded = await prepareDatabase(handle, config);
    if (handle.kind === "pglite") operators = await ensureDemoOperators(handle, config);
  } catch (err) {
    await handle.close().catch(() => undefined);
    release();
    throw err;
  }
  const { app } = createApp({ db: handle.db, config, logger, webRoot: defaultWebRoot });
  // Expired sessions and stale sign-in counters are deleted at start and every hour.
  const prune = () => pruneSessions(handle.db).catch((err) => logger.warn({ err }, "pruning sessions failed"));
  await prune();
  setInterval(prune, 3_600_000).unref();
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    const url = config.publicUrl;
    const lines = [
      "",
      `  Pedal Console is running at ${url}  (listening on ${info.address}:${info.port})`,
      `  Database: ${handle.kind === "pglite" ? `embedded PGlite in ${config.dataDir}` : "PostgreSQL (DATABASE_URL)"}${seeded ? ", demo data loaded" : ""}`,
      ...(operators.length
        ? ["  Sign in with:", ...operators.map((o) => `    ${o.role.padEnd(7)} ${o.email}  password: ${o.password}`)]
        : handle.kind === "postgres"
          ? ["  Create an operator with: npm run operator:create -- --email you@example.com --password '...'"]
          : []),
      "",
    ];
    process.stdout.write(lines.join("\n") + "\n");
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "stopping");
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    try {
      await handle.checkpoint();
      await handle.close();
    } finally {
      release();
    }
    logger.info("stopped");
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof LockedError || err instanceof NotAdoptedError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`Pedal Console failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
