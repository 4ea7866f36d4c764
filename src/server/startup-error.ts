import { ConfigError } from "./config";
import { LockedError } from "./lock";
import { NotAdoptedError } from "./db/catalog";

/** A start-up failure with a message that already says what to change. */
export class StartupError extends Error {}

type Errnoish = {
  code?: unknown;
  errno?: unknown;
  syscall?: unknown;
  path?: unknown;
  message?: unknown;
  cause?: unknown;
  address?: unknown;
  port?: unknown;
};

/** The first error code (errno name like EACCES, or PostgreSQL SQLSTATE) in `err` or its causes. */
function codeOf(err: unknown): { code?: string; path?: string } {
  for (
    let e = err as Errnoish | undefined, depth = 0;
    e && typeof e === "object" && depth < 5;
    e = e.cause as Errnoish, depth++
  ) {
    if (typeof e.code === "string") return { code: e.code, path: typeof e.path === "string" ? e.path : undefined };
    // Emscripten's file system errors (PGlite) carry only a numeric errno.
    if (typeof e.errno === "number" && e.errno in wasiErrno)
      return { code: wasiErrno[e.errno as keyof typeof wasiErrno] };
  }
  return {};
}

// Emscripten errno numbers (WASI) of the failures a data folder can have.
const wasiErrno = { 2: "EACCES", 51: "ENOSPC", 22: "EFBIG", 69: "EROFS", 63: "EPERM", 54: "ENOTDIR" } as const;

/** Some text of `err` for the one line: its message, else its JSON, else its string form. */
function textOf(err: unknown): string {
  if (err instanceof Error && err.message) return err.message;
  if (err && typeof err === "object") {
    const message = (err as Errnoish).message;
    if (typeof message === "string" && message) return message;
    try {
      const json = JSON.stringify(err);
      if (json && json !== "{}") return json;
    } catch {
      // circular: fall through
    }
  }
  return String(err);
}

/**
 * One line saying why the console could not start and what to do, for any start-up failure: a bad
 * variable, a locked, read-only or full data folder, an unreachable database, a port in use.
 * `where` names the data folder and the database for the message.
 * @returns the line (no newline) and the exit code (2 for configuration, lock and a database that
 * needs `npm run db:adopt`; 1 otherwise).
 */
export function describeStartupError(
  err: unknown,
  where: { dataDir?: string; databaseUrl?: string; port?: number; host?: string },
): { line: string; exitCode: number } {
  if (err instanceof ConfigError || err instanceof LockedError || err instanceof NotAdoptedError)
    return { line: oneLine(err.message), exitCode: 2 };
  if (err instanceof StartupError) return { line: oneLine(err.message), exitCode: 1 };
  const { code, path } = codeOf(err);
  const folder = path ?? where.dataDir ?? "the data folder";
  const database = where.databaseUrl ? redactUrl(where.databaseUrl) : undefined;
  let line: string;
  switch (code) {
    case "EACCES":
    case "EPERM":
    case "EROFS":
      line = `Cannot write to the data folder (${folder}): ${code === "EROFS" ? "it is on a read-only file system" : "permission denied"}. Make it writable, or set DATA_DIR to a folder that is.`;
      break;
    case "ENOSPC":
    case "EFBIG":
    case "EDQUOT":
      line = `The disk holding the data folder (${where.dataDir ?? folder}) is full (${code}). Free some space, or set DATA_DIR to a folder on another disk.`;
      break;
    case "ENOTDIR":
    case "EEXIST":
      line = `The data folder (${folder}) is not a folder (${code}). Set DATA_DIR to a folder.`;
      break;
    case "EADDRINUSE":
      line = `Port ${where.port} on ${where.host} is already in use by another program. Stop it, or set PORT to a free port.`;
      break;
    case "EADDRNOTAVAIL":
      line = `Cannot listen on ${where.host}: this machine has no such address. Set HOST to one of its addresses (or 0.0.0.0).`;
      break;
    case "ECONNREFUSED":
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "ETIMEDOUT":
    case "EHOSTUNREACH":
    case "ECONNRESET":
      line = `Cannot reach the PostgreSQL server of DATABASE_URL (${database ?? "unset"}): ${code}. Check the host and port, and that the server is running.`;
      break;
    case "28P01":
    case "28000":
      line = `PostgreSQL refused the sign-in of DATABASE_URL (${database ?? "unset"}): ${textOf(err)}. Check the user and password.`;
      break;
    case "3D000":
      line = `The database of DATABASE_URL (${database ?? "unset"}) does not exist: ${textOf(err)}. Create it (createdb) or fix the URL.`;
      break;
    default:
      line = `Pedal Console failed to start: ${textOf(err)}${code ? ` (${code})` : ""}`;
  }
  return { line: oneLine(line), exitCode: 1 };
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}

/** The URL without its password, for messages. */
function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(not a URL)";
  }
}
