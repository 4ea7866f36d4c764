import pino from "pino";

/** JSON logs on stdout, one line per event; secrets and cookies are redacted. */
export function createLogger(level: pino.LevelWithSilent) {
  return pino({
    level,
    base: undefined,
    redact: ["req.headers.cookie", "req.headers.authorization", "password", "*.password"],
  });
}
