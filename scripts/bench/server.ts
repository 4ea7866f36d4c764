/**
 * The console as `npm start` runs it: a child running package.json's `serve` script
 * (scripts/serve.sh: the bundled server, `node <heap flags> dist/server/main.js`, exec'd so the
 * child's pid is the server's) serving the built web app, on a free loopback port, with its
 * resident memory sampled from /proc.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

export type RunningServer = {
  url: string;
  pid: number;
  /** Cookie header of a signed-in session. */
  signIn(email: string, password: string): Promise<string>;
  /** Resident set size samples (MiB), one every 250 ms since start, with the phase running then. */
  rss: Array<{ at: number; mib: number; phase: string }>;
  setPhase(phase: string): void;
  stop(): Promise<void>;
};

/**
 * package.json's `serve` script as a shell command that execs the server (its pid is the child's),
 * with `args` (an entry point and its Node flags) in place of the bundled server's.
 */
export function serveCommand(root: string, args: string[] = []): string {
  const serve = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: { serve: string } })
    .scripts.serve;
  return `exec ${serve}${args.map((a) => ` '${a.replace(/'/g, "'\\''")}'`).join("")}`;
}

/** Ends a running child: SIGTERM, then SIGKILL if it has not exited 15 s later; resolves once it has exited. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const done = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await done;
  clearTimeout(timer);
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** VmRSS of a process in MiB, or undefined once it has exited. */
export function rssMiB(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts the server with `env` added to this process's environment and waits for /healthz.
 * Its output goes to `logFile`.
 * @throws when it exits or does not answer within 120 s.
 */
export async function startServer(root: string, env: Record<string, string>, logFile: string): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const log = createWriteStream(logFile);
  const child = spawn("sh", ["-c", serveCommand(root)], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: "warn", ...env, PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: url },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  let exited: number | null = null;
  child.on("exit", (code) => {
    exited = code ?? -1;
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exited !== null)
      throw new Error(`the server exited with ${exited} before answering; see ${path.relative(root, logFile)}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error("the server did not answer /healthz within 120 s");
    }
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const rss: RunningServer["rss"] = [];
  let phase = "idle";
  const started = Date.now();
  const sampler = setInterval(() => {
    const mib = rssMiB(child.pid!);
    if (mib !== undefined) rss.push({ at: Date.now() - started, mib, phase });
  }, 250);
  sampler.unref();
  return {
    url,
    pid: child.pid!,
    rss,
    setPhase: (p) => {
      phase = p;
    },
    async signIn(email, password) {
      const res = await fetch(`${url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: url },
        body: JSON.stringify({ email, password }),
      });
      if (res.status !== 200) throw new Error(`sign-in as ${email} answered ${res.status}: ${await res.text()}`);
      return res.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
    },
    async stop() {
      clearInterval(sampler);
      if (exited !== null) return;
      await stopChild(child);
      log.end();
    },
  };
}
