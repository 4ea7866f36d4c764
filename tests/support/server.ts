/**
 * The console as `npm run serve` runs it (its bundle: tests/support/server-entry.ts), in a child
 * process on its own data folder under test-results/, for tests of the process itself: memory,
 * signals, start-up failures, the data folder's lock.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import path from "node:path";
import { serverEntry } from "./server-entry";

export const root = path.resolve(import.meta.dirname, "../..");

/** A fresh folder under test-results/ (tests write only there). */
export function testFolder(prefix: string): string {
  const base = path.join(root, "test-results", "tmp");
  mkdirSync(base, { recursive: true });
  return mkdtempSync(path.join(base, `${prefix}-`));
}

/** A data folder holding a migrated, empty embedded database, made once per API run (tests/support/global-setup.ts). */
export const migratedFolderTemplate = path.join(root, "test-results", "pglite-folder");

/**
 * A fresh data folder under test-results/ whose embedded database is already created and migrated
 * (a copy of the run's template), so that a console started on it skips both: about 4 of the 7 s
 * of a first start. It starts as on a new folder otherwise (demo data and operators on a trial
 * start). A test of the first start itself takes an empty `testFolder`; outside the API run (no
 * template) the folder is empty.
 */
export function migratedFolder(prefix: string): string {
  const folder = testFolder(prefix);
  if (existsSync(migratedFolderTemplate)) cpSync(migratedFolderTemplate, folder, { recursive: true });
  return folder;
}

export type ConsoleProcess = {
  child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Resolves when the start banner is printed; rejects when the process exits first. */
  started: Promise<void>;
  /** Resident memory of the process now, in bytes (Linux /proc). */
  rss(): number;
};

/**
 * Starts a console process. `env` is added to a clean environment: embedded database (no
 * DATABASE_URL), no NODE_ENV, log level warn; pass DATA_DIR and PORT. `bundle`: run the built
 * server (dist/server/main.js, `npm run build`), as the browser tests do, which starts in about a
 * second instead of compiling the sources first.
 */
export function startConsoleProcess(env: Record<string, string>, options: { bundle?: boolean } = {}): ConsoleProcess {
  let out = "";
  const entry = options.bundle ? ["dist/server/main.js"] : serverEntry();
  const child = spawn(process.execPath, entry, {
    cwd: root,
    env: { ...process.env, DATABASE_URL: "", NODE_ENV: "", LOG_LEVEL: "warn", BETTER_AUTH_SECRET: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  let onStart: () => void = () => undefined;
  const started = new Promise<void>((resolve, reject) => {
    onStart = resolve;
    void exited.then((code) => reject(new Error(`console exited (${code}) before starting:\n${out}`)));
  });
  started.catch(() => undefined); // a test that expects a failed start never awaits it
  const collect = (d: Buffer) => {
    out += d;
    if (out.includes("Pedal Console is running")) onStart();
  };
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  return {
    child,
    output: () => out,
    exited,
    started,
    rss: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
    },
  };
}
