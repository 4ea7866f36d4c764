/**
 * The machine's ceiling for a request: the statements one real request sent (recorded in process),
 * replayed by a bare `node:http` server (scripts/bench/ceiling-server.ts) in a child process run
 * with the console's Node flags (scripts/serve.sh), and loaded with the same autocannon runs as the
 * console. The report puts its requests per second beside the console's, so a throughput target
 * can be read against what this machine gives that request at all (docs/performance.md).
 */
import { spawn } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { InProcess, Statement } from "./inproc";
import { runLoad, type LoadResult } from "./load";
import { freePort, rssMiB, serveCommand, stopChild } from "./server";

export type CeilingResult = {
  /** The request whose statements were replayed. */
  path: string;
  /** The statements it sent, in order (abbreviated text). */
  statements: string[];
  runs: LoadResult[];
  rssMiB: number;
  /**
   * Rounds run side by side with the console (PostgreSQL, where both can have the database open):
   * in each, the console and then the bare server (the other way round every other round), each
   * for the same seconds at 50 connections. A share measured minutes apart moves by tens of points
   * on a shared 2-core machine; a round's two runs see the same machine.
   */
  sideBySide?: SideBySide;
};

/** The console and the bare server, loaded in turn: `rounds` and their median share. */
export type SideBySide = {
  rounds: Array<{ console: LoadResult; ceiling: LoadResult }>;
  /** The median over the rounds of the console's req/s over the bare server's (0–1). */
  share: number;
  /** Medians over the rounds of each side's p99, ms. */
  consoleP99: number | null;
  ceilingP99: number | null;
};

/** The median of `xs` (null when empty). */
function median(xs: number[]): number | null {
  if (!xs.length) return null;
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Loads the console (`consoleRun`, a run at `connections`) and the bare server (`ceilingUrl`) in
 * turn for `rounds` rounds, alternating which goes first, and returns the rounds with their
 * median share.
 */
export async function sideBySide(
  consoleRun: (connections: number) => Promise<LoadResult>,
  ceilingUrl: string,
  connections: number,
  rounds: number,
  durationSeconds: number,
  timeoutSeconds: number,
): Promise<SideBySide> {
  const done: SideBySide["rounds"] = [];
  const bare = () => runLoad(ceilingUrl, {}, connections, durationSeconds, timeoutSeconds);
  for (let i = 0; i < rounds; i++) {
    if (i % 2 === 0) {
      const mine = await consoleRun(connections);
      done.push({ console: mine, ceiling: await bare() });
    } else {
      const theirs = await bare();
      done.push({ console: await consoleRun(connections), ceiling: theirs });
    }
  }
  return {
    rounds: done,
    share: median(done.map((r) => r.console.rps / Math.max(r.ceiling.rps, 0.001))) ?? 0,
    consoleP99: median(done.flatMap((r) => (r.console.p99 === null ? [] : [r.console.p99]))),
    ceilingP99: median(done.flatMap((r) => (r.ceiling.p99 === null ? [] : [r.ceiling.p99]))),
  };
}

/**
 * Records the statements `requestPath` sends through the app in process, as the bench operator, on
 * its second request: the first also fills what the console keeps between requests (a list's
 * summary), which the load runs' requests then read instead of recounting. `request`: headers to
 * send (If-None-Match) and the status expected (default 200).
 */
export async function recordStatements(
  inproc: InProcess,
  requestPath: string,
  request: { headers?: Record<string, string>; status?: number } = {},
): Promise<Statement[]> {
  await inproc.get(requestPath, request.headers);
  const { result, statements } = await inproc.capture(() => inproc.get(requestPath, request.headers));
  if (result.status !== (request.status ?? 200)) throw new Error(`${requestPath} answered ${result.status} in process`);
  return statements;
}

/** A bare server started by `startCeiling`: its URL for the request, its RSS at most, and its stop. */
export type CeilingServer = { url: string; maxRssMiB: () => number; stop: () => Promise<void> };

/**
 * Starts the bare server on `where` (PostgreSQL `url`, else the PGlite folder `dataDir`, which no
 * other process may have open) for `requestPath`, answering with `statements`.
 * @throws when it does not answer within 120 s or answers anything but 200.
 */
export async function startCeiling(
  root: string,
  where: { url?: string; dataDir?: string },
  requestPath: string,
  statements: Statement[],
  workDir: string,
): Promise<CeilingServer> {
  const file = path.join(workDir, `ceiling-statements-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(statements));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}${requestPath}`;
  const env: NodeJS.ProcessEnv = { ...process.env, CEILING_STATEMENTS: file, PORT: String(port) };
  delete env.DATABASE_URL;
  if (where.url) env.DATABASE_URL = where.url;
  else env.PGLITE_DIR = where.dataDir;
  // The console's own Node flags (package.json `serve`), with tsx for this TypeScript file.
  const command = serveCommand(root, ["--import", "tsx", path.join(root, "scripts/bench/ceiling-server.ts")]);
  const child = spawn("sh", ["-c", command], { cwd: root, env, stdio: ["ignore", "pipe", "inherit"] });
  const stop = async () => {
    clearInterval(sampler);
    child.removeAllListeners("exit");
    await stopChild(child);
    rmSync(file, { force: true });
  };
  let rss = 0;
  const sampler = setInterval(() => (rss = Math.max(rss, rssMiB(child.pid!) ?? 0)), 250);
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the ceiling server did not start within 120 s")), 120_000);
      child.once("exit", (code) => reject(new Error(`the ceiling server exited with ${code}`)));
      child.stdout.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("listening")) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const probe = await fetch(url);
    if (probe.status !== 200) throw new Error(`the ceiling server answered ${probe.status}: ${await probe.text()}`);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, maxRssMiB: () => rss, stop };
}

/** The statements as the report names them: each one's start, on one line. */
const statementTexts = (statements: Statement[]) =>
  statements.map((s) => s.text.replace(/\s+/g, " ").trim().slice(0, 80));

/**
 * Starts the bare server (`startCeiling`), loads it at each of `levels` connections, and stops it.
 * @throws as `startCeiling`.
 */
export async function measureCeiling(
  root: string,
  where: { url?: string; dataDir?: string },
  requestPath: string,
  statements: Statement[],
  levels: number[],
  durationSeconds: number,
  timeoutSeconds: number,
  workDir: string,
): Promise<CeilingResult> {
  const server = await startCeiling(root, where, requestPath, statements, workDir);
  try {
    const runs: LoadResult[] = [];
    // Warm-up, not reported: the console's runs at these levels come after its runs at 1 connection.
    await runLoad(server.url, {}, 1, Math.min(2, durationSeconds), timeoutSeconds);
    for (const n of levels) runs.push(await runLoad(server.url, {}, n, durationSeconds, timeoutSeconds));
    return { path: requestPath, statements: statementTexts(statements), runs, rssMiB: server.maxRssMiB() };
  } finally {
    await server.stop();
  }
}
