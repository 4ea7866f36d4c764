/**
 * The console as a process (docs/security.md "What was attacked: requests, data and the API description"):
 * - request bodies over MAX_BODY_BYTES are refused 413 before anyone reads them, so a 50 MB body,
 *   with or without content-length, leaves the server's memory where it was;
 * - SIGTERM in the middle of 60 concurrent requests: every one is answered, then a clean exit;
 * - 20 processes started together on one data folder with a stale lock: exactly one gets it;
 * - start-up failures (read-only data folder, full disk, bad DATABASE_URL, port taken) print one
 *   line saying what is wrong and exit non-zero;
 * - NODE_ENV=production on the embedded database: no demo data, no printed passwords;
 * - `npm run serve` (scripts/serve.sh) sizes Node's heap for the database it is given.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { Agent, request, type IncomingMessage } from "node:http";
import { connect } from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { freePort } from "../support/crash";
import { serverEntry } from "../support/server-entry";
import { migratedFolder, root, startConsoleProcess, testFolder, type ConsoleProcess } from "../support/server";

const production = { NODE_ENV: "production", BETTER_AUTH_SECRET: "s".repeat(40) };

/** Starts a production console (no demo data: quick) on a fresh folder. */
async function startQuick(
  extra: Record<string, string> = {},
): Promise<{ proc: ConsoleProcess; port: number; folder: string }> {
  const port = await freePort();
  const folder = migratedFolder("proc");
  const proc = startConsoleProcess({ ...production, PORT: String(port), DATA_DIR: folder, ...extra });
  await proc.started;
  return { proc, port, folder };
}

/** Sends `total` bytes as the body of a POST, in 64 KB writes; resolves with the answer (or the socket's error). */
function sendLarge(
  port: number,
  p: string,
  total: number,
  chunked: boolean,
): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = { "content-type": "application/json", origin: `http://localhost:${port}` };
    if (!chunked) headers["content-length"] = String(total);
    const req = request({ host: "127.0.0.1", port, path: p, method: "POST", headers, agent: false });
    let settled = false;
    // The answer counts once its head has arrived: the server may close the connection while the
    // client is still uploading the refused body (the client then sees EPIPE after the 413).
    let answered: { status: number; body: string } | undefined;
    req.on("response", (res: IncomingMessage) => {
      answered = { status: res.statusCode ?? 0, body: "" };
      res.on("data", (d) => (answered!.body += d));
      res.on("end", () => {
        settled = true;
        resolve(answered!);
      });
      res.on("error", () => undefined);
    });
    req.on("error", (err) => {
      if (!settled) resolve(answered ?? { error: String(err) });
    });
    const chunk = Buffer.alloc(64 * 1024, "a");
    let sent = 0;
    const pump = () => {
      while (sent < total && !req.destroyed) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      req.end();
    };
    pump();
  });
}

describe("request bodies", () => {
  it("refuses a 50 MB body with 413 on every kind of route, with or without content-length, while memory stays within 50 MB", async () => {
    const { proc, port } = await startQuick();
    try {
      // Warm up, then take the baseline.
      for (let i = 0; i < 3; i++) await fetch(`http://127.0.0.1:${port}/healthz`);
      const before = proc.rss();
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, proc.rss())), 20);
      const targets = ["/api/auth/sign-in/email", "/api/customers", "/api/no-such-route", "/healthz"];
      const answers = [];
      for (const target of targets) {
        for (const chunked of [false, true])
          answers.push({ target, chunked, answer: await sendLarge(port, target, 50 * 1024 * 1024, chunked) });
      }
      // Ten at once, anonymous sign-ins, as the attack did.
      const burst = await Promise.all(
        Array.from({ length: 10 }, (_, i) => sendLarge(port, "/api/auth/sign-in/email", 50 * 1024 * 1024, i % 2 === 0)),
      );
      clearInterval(sampler);
      peak = Math.max(peak, proc.rss());
      // Each is refused: a 413 in the error shape, or, when the server closes the connection while
      // the client is still writing 50 MB, the client's own EPIPE/ECONNRESET. Never accepted, never a 5xx.
      const tooLarge = {
        error: { code: "payload_too_large", message: "The request body is larger than the 1 MB the console accepts" },
      };
      for (const { target, chunked, answer } of answers) {
        if ("status" in answer) {
          expect(answer.status, `${target} chunked=${chunked}`).toBe(413);
          expect(JSON.parse(answer.body), `${target} chunked=${chunked}`).toEqual(tooLarge);
        } else expect(answer.error, `${target} chunked=${chunked}`).toMatch(/EPIPE|ECONNRESET/);
      }
      // In the burst the point is memory: each is refused 413, or cut while the client still uploads
      // (the server stops reading a body it refused); none is accepted or fails with a 5xx.
      for (const answer of burst) {
        if ("status" in answer) expect(answer.status).toBe(413);
        else expect(answer.error).toMatch(/EPIPE|ECONNRESET/);
      }
      expect(peak - before, `RSS ${before >> 20} MiB before, ${peak >> 20} MiB at most`).toBeLessThan(50 * 1024 * 1024);
      // The server is still well.
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    } finally {
      proc.child.kill("SIGKILL");
      await proc.exited;
    }
  }, 180_000);

  it("answers a body over MAX_BODY_BYTES with 413 in the error shape and Connection: close, with or without content-length", async () => {
    const { proc, port } = await startQuick({ MAX_BODY_BYTES: "1024" });
    try {
      const headers = { "content-type": "application/json", origin: `http://localhost:${port}` };
      for (const target of ["/api/auth/sign-in/email", "/api/customers", "/api/no-such-route", "/healthz"]) {
        const sized = await fetch(`http://127.0.0.1:${port}${target}`, {
          method: "POST",
          headers,
          body: "a".repeat(4096),
        });
        const chunked = await fetch(`http://127.0.0.1:${port}${target}`, {
          method: "POST",
          headers,
          duplex: "half",
          body: new ReadableStream({
            start(c) {
              c.enqueue(new TextEncoder().encode("a".repeat(4096)));
              c.close();
            },
          }),
        } as RequestInit);
        for (const res of [sized, chunked]) {
          expect(res.status, target).toBe(413);
          expect((await res.json()).error.code, target).toBe("payload_too_large");
          // The connection is not reused for a next request (which would meet a reset).
          expect(res.headers.get("connection"), target).toBe("close");
        }
      }
    } finally {
      proc.child.kill("SIGKILL");
      await proc.exited;
    }
  }, 120_000);
});

describe("stopping", () => {
  it("answers every one of 60 concurrent requests when SIGTERM comes 150 ms in, then exits 0", async () => {
    const { proc, port } = await startQuick();
    const paths = ["/healthz", "/api/customers", "/api/auth/get-session", "/api/dashboard", "/"];
    const one = (i: number) =>
      new Promise<number | string>((resolve) => {
        const req = request({ host: "127.0.0.1", port, path: paths[i % paths.length], agent: false }, (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        });
        req.on("error", (err) => resolve(String(err)));
        req.end();
      });
    const all = Promise.all(Array.from({ length: 60 }, (_, i) => one(i)));
    await new Promise((r) => setTimeout(r, 150));
    proc.child.kill("SIGTERM");
    const results = await all;
    expect(
      results.filter((r) => typeof r !== "number"),
      "requests not answered",
    ).toEqual([]);
    expect(results.every((r) => typeof r === "number" && r < 500)).toBe(true);
    expect(await proc.exited).toBe(0);
    expect(proc.output()).not.toMatch(/error/i);
  }, 120_000);

  it("is ready until SIGTERM, then answers /readyz 503 while it drains and /healthz 200", async () => {
    const { proc, port } = await startQuick();
    const get = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request({ host: "127.0.0.1", port, path, agent: false }, (res) => {
          let body = "";
          res.on("data", (d) => (body += d));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on("error", reject);
        req.end();
      });
    expect(await get("/readyz")).toEqual({ status: 200, body: JSON.stringify({ ok: true }) });
    proc.child.kill("SIGTERM");
    // The server keeps its listener while connections keep coming (drain), so these are answered.
    await new Promise((r) => setTimeout(r, 50));
    const ready = await get("/readyz");
    const live = await get("/healthz");
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body).error.code).toBe("unavailable");
    expect(live.status).toBe(200);
    expect(await proc.exited).toBe(0);
  }, 120_000);
});

describe("the data folder's lock", () => {
  it("lets exactly one of 20 processes started together take a folder with a stale lock", async () => {
    const folder = testFolder("lock");
    // A stale lock: the pid of a process that has exited.
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
      encoding: "utf8",
    }).stdout;
    writeFileSync(path.join(folder, "console.lock"), dead);
    const procs = Array.from({ length: 20 }, () => {
      const child = spawn(process.execPath, ["--import", "tsx", "tests/support/lock-holder.ts", folder], {
        cwd: root,
        stdio: ["pipe", "pipe", "pipe"],
      });
      let out = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (out += d));
      const settled = new Promise<string>((resolve) => {
        child.stdout.on("data", () => out.includes("\n") && resolve(out.trim()));
        child.on("exit", () => resolve(out.trim()));
      });
      return { child, settled };
    });
    const outcomes = await Promise.all(procs.map((p) => p.settled));
    for (const p of procs) p.child.stdin.end();
    await Promise.all(
      procs.map((p) => new Promise((r) => (p.child.exitCode !== null ? r(null) : p.child.on("exit", r)))),
    );
    expect(outcomes.filter((o) => o === "LOCKED").length, outcomes.join(", ")).toBe(1);
    expect(outcomes.filter((o) => o === "REFUSED").length, outcomes.join(", ")).toBe(19);
  }, 120_000);
});

describe("start-up failures", () => {
  /**
   * Runs the console until it exits; it must exit non-zero having printed exactly one line.
   * `mount`, when given, is a mount command run first over the data folder, in a private mount
   * namespace (`unshare -rm`: no privileges needed, nothing changes outside the process).
   */
  async function failedStart(env: Record<string, string>, mount?: (folder: string) => string): Promise<string> {
    const port = await freePort();
    const folder = testFolder("fail");
    const full = {
      ...process.env,
      DATABASE_URL: "",
      NODE_ENV: "",
      LOG_LEVEL: "warn",
      PORT: String(port),
      DATA_DIR: folder,
      ...env,
    };
    const argv = [process.execPath, ...serverEntry()];
    const result = mount
      ? spawnSync("unshare", ["-rm", "sh", "-c", `${mount(folder)} && exec ${argv.map((a) => `'${a}'`).join(" ")}`], {
          cwd: root,
          env: full,
          encoding: "utf8",
          timeout: 90_000,
        })
      : spawnSync(argv[0], argv.slice(1), { cwd: root, env: full, encoding: "utf8", timeout: 90_000 });
    const output = `${result.stdout}${result.stderr}`.trim();
    expect(result.status, output).not.toBe(0);
    expect(result.status, output).not.toBeNull();
    expect(output.split("\n"), output).toHaveLength(1);
    expect(output).not.toMatch(/\[object Object\]|^\s+at |Error: /m);
    return output;
  }

  it("says the data folder is read-only", async () => {
    const line = await failedStart({}, (folder) => `mount -t tmpfs -o ro tmpfs '${folder}'`);
    expect(line).toMatch(/^Cannot write to the data folder .*read-only/);
  }, 120_000);

  it("says the disk is full", async () => {
    const line = await failedStart({}, (folder) => `mount -t tmpfs -o size=2m tmpfs '${folder}'`);
    expect(line).toMatch(/^The disk holding the data folder .* is full/);
  }, 120_000);

  it("says the database cannot be reached, without printing its password", async () => {
    const port = await freePort();
    const line = await failedStart({ DATABASE_URL: `postgres://someone:hunter2secret@127.0.0.1:${port}/nothing` });
    expect(line).toMatch(/^Cannot reach the PostgreSQL server of DATABASE_URL .*ECONNREFUSED/);
    expect(line).not.toContain("hunter2secret");
  }, 120_000);

  it("says DATABASE_URL is not a URL", async () => {
    const line = await failedStart({ DATABASE_URL: "not a url" });
    expect(line).toMatch(/DATABASE_URL/);
  }, 120_000);

  it("says the port is taken", async () => {
    const { proc, port } = await startQuick();
    try {
      const line = await failedStart({ ...production, PORT: String(port) });
      expect(line).toBe(
        `Port ${port} on 127.0.0.1 is already in use by another program. Stop it, or set PORT to a free port.`,
      );
    } finally {
      proc.child.kill("SIGTERM");
      await proc.exited;
    }
  }, 120_000);
});

describe("production on the embedded database", () => {
  it("loads no demo data and creates no operator with a printed password", async () => {
    const { proc, port, folder } = await startQuick();
    try {
      const out = proc.output();
      expect(out).not.toContain("demo data loaded");
      expect(out).not.toContain("password:");
      expect(out).toContain("npm run operator:create");
      expect(existsSync(path.join(folder, "demo-operators.json"))).toBe(false);
      const signIn = await fetch(`http://127.0.0.1:${port}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: `http://localhost:${port}` },
        body: JSON.stringify({ email: "admin@pedal.example", password: "anything-at-all" }),
      });
      expect(signIn.status).not.toBe(200);
    } finally {
      proc.child.kill("SIGTERM");
      expect(await proc.exited).toBe(0);
    }
  }, 120_000);
});

describe("npm run serve (scripts/serve.sh)", () => {
  // The script's arguments stand in for the entry point, so Node prints the flags it was started
  // with (and the allocator's arena bound it was given).
  const flagsOf = (env: Record<string, string>) => {
    const r = spawnSync(
      "sh",
      [
        path.join(root, "scripts/serve.sh"),
        "-p",
        "process.execArgv.filter((a) => a.startsWith('--')).join(' ') + ' ' + process.env.MALLOC_ARENA_MAX",
      ],
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: "", ...env },
        encoding: "utf8",
      },
    );
    expect(r.status, r.stderr).toBe(0);
    return r.stdout.trim();
  };

  it("starts Node with its heap sized for the database (PostgreSQL: 160 and 32 MiB; embedded: 128 and 2 MiB, growing by 10 %) and glibc's arenas bounded", () => {
    expect(flagsOf({ DATABASE_URL: "postgres://127.0.0.1:1/pedal" })).toBe(
      "--max-old-space-size=160 --max-semi-space-size=32 2",
    );
    expect(flagsOf({})).toBe("--max-old-space-size=128 --max-semi-space-size=2 --heap-growing-percent=10 2");
  });
});

describe("transport", () => {
  it("keeps an idle connection 65 s for the next request (KEEP_ALIVE_TIMEOUT_SECONDS), and closes one whose headers or body come too slowly (HEADERS_TIMEOUT_SECONDS, REQUEST_TIMEOUT_SECONDS)", async () => {
    const { proc, port } = await startQuick({ HEADERS_TIMEOUT_SECONDS: "1", REQUEST_TIMEOUT_SECONDS: "2" });
    try {
      // Node's own 5 s closed connections a client was about to reuse (ECONNRESET on its request).
      const keepAlive = await new Promise<string>((resolve, reject) => {
        const agent = new Agent({ keepAlive: true });
        const req = request({ host: "127.0.0.1", port, path: "/healthz", agent }, (res) => {
          res.resume();
          res.on("end", () => {
            agent.destroy();
            resolve(String(res.headers["keep-alive"]));
          });
        });
        req.on("error", reject);
        req.end();
      });
      expect(keepAlive).toBe("timeout=65");
      const slow = (parts: string[]) =>
        new Promise<{ answer: string; ms: number }>((resolve) => {
          const started = Date.now();
          let answer = "";
          const socket = connect(port, "127.0.0.1");
          socket.on("data", (d) => (answer += d));
          socket.on("close", () => resolve({ answer, ms: Date.now() - started }));
          socket.on("error", () => undefined);
          // One part every 400 ms, never the end: only the server's bounds can close this.
          let i = 0;
          const timer = setInterval(() => {
            if (socket.destroyed) return clearInterval(timer);
            socket.write(parts[Math.min(i++, parts.length - 1)]);
          }, 400);
        });
      const headers = await slow(["GET /healthz HTTP/1.1\r\n", "Host: x\r\n", "X-Slow: 1\r\n"]);
      expect(headers.answer).toMatch(/^HTTP\/1\.1 408/);
      expect(headers.ms).toBeLessThan(5_000);
      const body = await slow([
        `POST /api/auth/sign-in/email HTTP/1.1\r\nHost: localhost:${port}\r\nOrigin: http://localhost:${port}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`,
        "{",
        '"a',
      ]);
      expect(body.answer).toMatch(/^HTTP\/1\.1 408/);
      expect(body.ms).toBeLessThan(6_000);
    } finally {
      proc.child.kill("SIGTERM");
      await proc.exited;
    }
  }, 60_000);

  it("logs a client that aborts its request body as an aborted request (499, info), never as a server error", async () => {
    const { proc, port } = await startQuick({ LOG_LEVEL: "info" });
    try {
      for (const target of ["/api/auth/sign-in/email", "/api/customers", "/api/no-such-route"]) {
        await new Promise<void>((resolve) => {
          const req = request({
            host: "127.0.0.1",
            port,
            path: target,
            method: "POST",
            agent: false,
            headers: {
              "content-type": "application/json",
              "content-length": "100000",
              origin: `http://localhost:${port}`,
            },
          });
          req.on("error", () => resolve());
          req.on("response", (res) => {
            res.resume();
            resolve();
          });
          req.write('{"email":"' + "a".repeat(1000));
          setTimeout(() => req.destroy(), 100);
        });
      }
      await new Promise((r) => setTimeout(r, 300));
      const lines = proc
        .output()
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as { level: number; status?: number; msg: string });
      expect(
        lines.filter((l) => l.level >= 50 || (l.status ?? 0) >= 500),
        proc.output(),
      ).toEqual([]);
      expect(lines.filter((l) => l.status === 499 && l.level === 30).length, proc.output()).toBeGreaterThanOrEqual(1);
    } finally {
      proc.child.kill("SIGTERM");
      await proc.exited;
    }
  }, 60_000);
});
