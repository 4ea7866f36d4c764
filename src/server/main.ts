/**
 * Entry point: config → database (+ lock) → migrations → demo data if a trial → listen.
 * On SIGINT/SIGTERM it stops taking new connections, lets every request already received finish
 * (at most SHUTDOWN_WAIT_SECONDS), then runs CHECKPOINT, closes the database and exits 0.
 * A start-up failure prints one line saying what is wrong and exits non-zero (startup-error.ts).
 */
import type { Server } from "node:http";
import { serve } from "@hono/node-server";
import { createApp, defaultWebRoot } from "./app";
import { bulkSettings, handOverBulkRuns, keepBulkRuns } from "./bulk/engine";
import { CredentialCache } from "./credential-cache";
import { bulkDeclaration } from "./bulk/routes";
import { warmAnalytics } from "./analytics/queries";
import { loadConfig, loadEnvFile, type Config } from "./config";
import { ensureDemoOperators, isTrial, openConfiguredDatabase, prepareDatabase } from "./database";
import { pruneSessions } from "./security";
import { schedulePurge } from "./deleted";
import { sql } from "drizzle-orm";
import { startBanner } from "./banner";
import { queryRows } from "./db/client";
import { createLogger, logDestination } from "./logger";
import { serveMaintenance } from "./maintenance";
import { describeStartupError } from "./startup-error";

/** What the failure message may name: filled in as start-up gets that far. */
const where: { dataDir?: string; databaseUrl?: string; port?: number; host?: string } = {};

async function main() {
  loadEnvFile();
  const config = loadConfig();
  Object.assign(where, {
    dataDir: config.databaseUrl ? undefined : config.dataDir,
    databaseUrl: config.databaseUrl,
    port: config.port,
    host: config.host,
  });
  const logger = createLogger(config.logLevel, logDestination(process.stdout.isTTY));
  const { handle, release } = await openConfiguredDatabase(config, (err) =>
    logger.warn({ err }, "database connection lost"),
  );
  let operators: Awaited<ReturnType<typeof ensureDemoOperators>> = [];
  let seeded = false;
  try {
    seeded = await prepareDatabase(handle, config);
    if (isTrial(handle, config)) operators = await ensureDemoOperators(handle, config);
  } catch (err) {
    await handle.close().catch(() => undefined);
    release();
    throw err;
  }
  // Bulk actions (and imports) a stopped server left running resume where they stopped: at once on
  // the embedded database (no other copy can hold it), else once the stopped copy's lease runs out.
  bulkSettings.leaseSeconds = config.bulkLeaseSeconds;
  const bulkRuns = keepBulkRuns(handle.db, bulkDeclaration, {
    takeOver: handle.kind === "pglite",
    onError: (err) => logger.warn({ err }, "resuming bulk actions failed"),
  });
  await bulkRuns.first;
  const draining = { on: false };
  // The command line reaches this console through the embedded database's lock (operator:unlock).
  if (handle.kind === "pglite") serveMaintenance(config.dataDir, config.authSecret, handle.db);
  // Sessions and tokens kept for a few seconds, dropped on every change (credential-cache.ts).
  const credentials = new CredentialCache(handle.db, logger, config.credentialCacheSeconds * 1000);
  await credentials.start();
  const { app, analytics, listSummaries } = createApp({
    db: handle.db,
    config,
    logger,
    webRoot: defaultWebRoot,
    isDraining: () => draining.on,
    credentials,
  });
  // The costly analytics figures are computed in the background, ready for the first visit.
  void warmAnalytics(handle.db, analytics);
  // Expired sessions and stale sign-in counters are deleted at start and every hour.
  const prune = () => pruneSessions(handle.db).catch((err) => logger.warn({ err }, "pruning sessions failed"));
  await prune();
  setInterval(() => void prune(), 3_600_000).unref();
  // Deleted records' snapshots older than DELETED_RETENTION_DAYS are purged at start and every hour.
  await schedulePurge(handle.db, { retentionDays: config.deletedRetentionDays, logger }).first;
  // Whether the banner says how to create an operator: only when the database has none.
  const trial = isTrial(handle, config);
  const operatorsExist =
    trial || operators.length > 0
      ? true
      : await queryRows<{ any: boolean }>(handle.db, sql`select exists (select 1 from operator) as any`).then(
          ([row]) => Boolean(row?.any),
          () => false,
        );
  const server = serve(
    {
      // While stopping, every answer asks the client to close its connection, so none is left idle.
      fetch: async (req, env) => {
        const res = await app.fetch(req, env);
        if (draining.on) {
          try {
            res.headers.set("connection", "close");
          } catch {
            // immutable headers: Node closes the connection once the server is closed anyway
          }
        }
        return res;
      },
      port: config.port,
      hostname: config.host,
      // Slow clients (a trickled body, headers that never end) are cut at these bounds, checked every
      // second rather than Node's default of every 30 s.
      serverOptions: {
        headersTimeout: config.timeouts.headersSeconds * 1000,
        requestTimeout: config.timeouts.requestSeconds * 1000,
        connectionsCheckingInterval: 1000,
        // Node's 5 s default closes an idle connection just as a client may be reusing it: the
        // client's request then fails with ECONNRESET. Longer than the 60 s idle time of common
        // proxies and load balancers, so that they close first, never the console under them.
        keepAliveTimeout: config.timeouts.keepAliveSeconds * 1000,
      },
    },
    (info) => {
      const lines = startBanner({
        config,
        address: `${info.address}:${info.port}`,
        database: `${handle.kind === "pglite" ? `embedded PGlite in ${config.dataDir}` : "PostgreSQL (DATABASE_URL)"}${seeded ? ", demo data loaded" : ""}`,
        operators,
        trial,
        operatorsExist,
      });
      process.stderr.write(lines.join("\n") + "\n");
    },
  ) as Server;
  // A port in use (or an address the machine lacks) fails the start with one line, database closed.
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  }).catch(async (err) => {
    await handle.close().catch(() => undefined);
    release();
    throw err;
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "stopping");
    // Nothing may keep the process past the wait plus a checkpoint.
    setTimeout(() => process.exit(1), (config.shutdownWaitSeconds + 20) * 1000).unref();
    await drain(server, draining, config);
    // Bulk runs under way end their batch in flight and are left to the next copy to resume.
    bulkRuns.stop();
    await handOverBulkRuns(handle.db).catch(() => undefined);
    await credentials.close();
    // A big list's summary being counted again in the background (at most 3 statements) ends first.
    await listSummaries.settled();
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

/**
 * Stops the HTTP server without dropping a request already sent. Connections the kernel has
 * accepted but Node has not yet picked up (the listen backlog) would be reset by closing the
 * listener at once, so it stays open, answering with `Connection: close`, until no new connection
 * has come for a moment; then it closes, idle connections end, and the requests in flight finish.
 * Whatever is still open after SHUTDOWN_WAIT_SECONDS is cut.
 */
async function drain(server: Server, draining: { on: boolean }, config: Pick<Config, "shutdownWaitSeconds">) {
  draining.on = true;
  const deadline = Date.now() + config.shutdownWaitSeconds * 1000;
  let lastConnection = Date.now();
  const seen = () => (lastConnection = Date.now());
  server.on("connection", seen);
  const quietMs = 250;
  // setImmediate after the timer: the loop's poll phase (where pending connections are accepted)
  // runs in between, so a busy loop cannot make a backlog look quiet.
  const tick = () => new Promise<void>((resolve) => setTimeout(() => setImmediate(resolve), 50));
  while (Date.now() - lastConnection < quietMs && Date.now() < deadline) await tick();
  server.off("connection", seen);
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const cut = setTimeout(() => server.closeAllConnections(), Math.max(0, deadline - Date.now()));
  await closed;
  clearTimeout(cut);
}

main().catch((err) => {
  const { line, exitCode } = describeStartupError(err, where);
  process.stderr.write(`${line}\n`);
  process.exit(exitCode);
});
