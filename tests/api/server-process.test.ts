/**
 * The console as a process on the embedded database: first start seeds and prints the sign-in,
 * a second console on the same folder refuses, SIGTERM stops cleanly, a restart reuses the data.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../support/crash";
import { serverEntry } from "../support/server-entry";

const root = path.resolve(import.meta.dirname, "../..");
const dataDir = mkdtempSync(path.join(tmpdir(), "pedal-proc-"));

function start(port: number): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  let out = "";
  const child = spawn(process.execPath, serverEntry(), {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "warn", DATABASE_URL: "", NODE_ENV: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function waitFor(check: () => boolean, ms = 60_000) {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 100));
  }
}

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("console process on the embedded database", () => {
  it("seeds once, refuses a second console, stops cleanly and reuses its data", async () => {
    const [p1, p2, p3] = [await freePort(), await freePort(), await freePort()];
    const first = start(p1);
    await waitFor(() => first.output().includes("Pedal Console is running"));
    expect(first.output()).toContain("demo data loaded");
    const creds = JSON.parse(readFileSync(path.join(dataDir, "demo-operators.json"), "utf8"));
    expect(first.output()).toContain(`admin@pedal.example  password: ${creds[0].password}`);
    expect(existsSync(path.join(dataDir, "console.lock"))).toBe(true);

    const second = start(p2);
    expect(await second.exited).toBe(2);
    expect(second.output()).toContain("is in use by another console");

    const health = await fetch(`http://localhost:${p1}/healthz`);
    expect(health.status).toBe(200);

    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    expect(existsSync(path.join(dataDir, "console.lock"))).toBe(false);

    const again = start(p3);
    await waitFor(() => again.output().includes("Pedal Console is running"));
    expect(again.output()).not.toContain("demo data loaded");
    expect(again.output()).toContain(`password: ${creds[0].password}`);
    const signIn = await fetch(`http://localhost:${p3}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: `http://localhost:${p3}` },
      body: JSON.stringify({ email: "admin@pedal.example", password: creds[0].password }),
    });
    expect(signIn.status).toBe(200);
    again.child.kill("SIGINT");
    expect(await again.exited).toBe(0);
  });
});

describe("the ports the tests start consoles on", () => {
  it("gives each console of a file its own port, even before the one before it listens", async () => {
    // Consoles started side by side probe for a port before any of them listens; twenty asked in a
    // row from fifty must all differ (by chance they would almost surely not).
    const ports: number[] = [];
    for (let i = 0; i < 20; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(20);
  });
});
