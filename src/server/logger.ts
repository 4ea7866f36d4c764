import pino from "pino";
import pretty from "pino-pretty";

/** The longest text a log field keeps, in characters; the rest is cut and its length noted. */
export const maxLogText = 1024;
const maxItems = 20;
const maxDepth = 4;

/** `text` cut to `max` characters, saying how long it was. */
function cut(text: string, max = maxLogText): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

/**
 * An error as a log field: its type, code, message and stack, and what it wraps (`cause`), each
 * cut so that no error carries a client's input into the log whole (a driver's message quotes the
 * statement's parameters).
 */
function errorField(err: Error, depth: number): Record<string, unknown> {
  const code = (err as { code?: unknown }).code;
  const cause = (err as { cause?: unknown }).cause;
  return {
    type: err.name || "Error",
    message: cut(err.message ?? "", depth === 0 ? maxLogText : 256),
    ...(typeof code === "string" || typeof code === "number" ? { code } : {}),
    ...(depth === 0 && err.stack ? { stack: cut(err.stack) } : {}),
    ...(cause !== undefined && depth < 2 ? { cause: bounded(cause, depth + 1) } : {}),
  };
}

/**
 * A log field's value with every string cut to `maxLogText`, arrays and objects to their first 20
 * entries and nesting to 4 levels: whatever a request sends, a log line stays a few kilobytes.
 */
function bounded(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return cut(value);
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Error) return errorField(value, depth);
  if (value instanceof Date) return value;
  if (depth >= maxDepth) return "[…]";
  if (Array.isArray(value)) {
    const items = value.slice(0, maxItems).map((v) => bounded(v, depth + 1));
    return value.length > maxItems ? [...items, `… (${value.length} items)`] : items;
  }
  const entries = Object.entries(value);
  const kept = Object.fromEntries(entries.slice(0, maxItems).map(([k, v]) => [cut(k, 100), bounded(v, depth + 1)]));
  return entries.length > maxItems ? { ...kept, "…": `${entries.length} keys` } : kept;
}

/**
 * JSON logs on stdout, one line per event; secrets and cookies are redacted, and every field is
 * bounded (strings to 1 KB, errors without the input they quote), so no request can write a large
 * line or fill the disk through the log.
 */
export function createLogger(level: pino.LevelWithSilent, destination?: pino.DestinationStream) {
  return pino(
    {
      level,
      base: undefined,
      redact: ["req.headers.cookie", "req.headers.authorization", "password", "*.password"],
      formatters: { log: (object) => bounded(object, -1) as Record<string, unknown> },
    },
    destination,
  );
}

/**
 * Where the log goes: by default JSON lines on stdout (for a log collector); when stdout is a
 * terminal (`npm start` in a shell, `terminal`), one short readable line per event instead (time,
 * level, message, then the fields on the same line), written to `out`.
 */
export function logDestination(terminal: boolean, out: NodeJS.WritableStream = process.stdout) {
  if (!terminal) return undefined;
  return pretty({
    destination: out,
    sync: true,
    colorize: out === process.stdout,
    singleLine: true,
    translateTime: "SYS:HH:MM:ss",
    ignore: "pid,hostname",
  });
}
