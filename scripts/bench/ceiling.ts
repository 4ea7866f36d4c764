/**
 * The machine's ceiling for a request: the statements one real request sent (recorded in process),
 * replayed by a bare `node:http` server (scripts/bench/ceiling-server.ts) in a child process run
 * with the console's Node flags (scripts/serve.sh), and loaded with the same autocannon runs as the
 * console. The report puts its requests per second beside the console's, so a throughput target
 * can be read against what this machine gives that request at all (docs/performance.md).
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
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
};

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

/**
 * Starts the bare server on `where` (PostgreSQL `url`, else the PGlite folder `dataDir`, which no
 * other process may have open), loads it at each of `levels` connections, and stops it.
 * @throws when it does not answer within 120 s or answers anything but 200.
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
  const file = path.join(workDir, "ceiling-statements.json");
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
    let rss = 0;
    const sampler = setInterval(() => (rss = Math.max(rss, rssMiB(child.pid!) ?? 0)), 250);
    const runs: LoadResult[] = [];
    try {
      // Warm-up, not reported: the console's runs at these levels come after its runs at 1 connection.
      await runLoad(url, {}, 1, Math.min(2, durationSeconds), timeoutSeconds);
      for (const n of levels) runs.push(await runLoad(url, {}, n, durationSeconds, timeoutSeconds));
    } finally {
      clearInterval(sampler);
    }
    return {
      path: requestPath,
      statements: statements.map((s) => s.text.replace(/\s+/g, " ").trim().slice(0, 80)),
      runs,
      rssMiB: rss,
    };
  } finally {
    child.removeAllListeners("exit");
    await stopChild(child);
  }
}
