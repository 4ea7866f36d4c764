/**
 * The server's log (src/server/logger.ts): JSON lines for a log collector, or one readable line
 * per event when stdout is a terminal (`npm start` in a shell), secrets redacted either way; and
 * the start banner, which names the rules in force.
 */
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { startBanner } from "../../src/server/banner";
import { defaultIdentity } from "../../src/server/config";
import { createLogger, logDestination } from "../../src/server/logger";

/** A stream that keeps what is written to it. */
function capture() {
  const chunks: string[] = [];
  const out = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { out, text: () => chunks.join("") };
}

describe("the server's log", () => {
  it("on a terminal writes one readable line per event, with its fields, secrets redacted", () => {
    const terminal = capture();
    const logger = createLogger("info", logDestination(true, terminal.out));
    logger.info({ req: { method: "GET", url: "/api/users", headers: { cookie: "secret" } }, status: 200 }, "request");
    logger.warn("database connection lost");
    const lines = terminal.text().trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: request /);
    expect(lines[0]).toContain('"url":"/api/users"');
    expect(lines[0]).not.toContain("secret");
    expect(lines[1]).toMatch(/^\[\d\d:\d\d:\d\d\] WARN: database connection lost$/);
  });

  it("elsewhere writes JSON lines", () => {
    expect(logDestination(false)).toBeUndefined();
    const piped = capture();
    createLogger("info", piped.out).info({ status: 200 }, "request");
    expect(JSON.parse(piped.text())).toMatchObject({ level: 30, msg: "request", status: 200 });
  });

  it("the start banner says when prompt review or two-factor is required, and not otherwise", () => {
    const start = (promptReview: "off" | "protected", requireMfa: "none" | "admin") =>
      startBanner({
        config: { publicUrl: "http://localhost:3000", promptReview, identity: { ...defaultIdentity, requireMfa } },
        address: "127.0.0.1:3000",
        database: "embedded PGlite in .data",
        operators: [],
        trial: true,
      }).join("\n");
    expect(start("off", "none")).not.toMatch(/Prompt review|Two-factor/);
    expect(start("protected", "admin")).toContain("Prompt review: on (PROMPT_REVIEW=protected)");
    expect(start("protected", "admin")).toContain("Two-factor required: admin (REQUIRE_MFA)");
  });

  it("the start banner says how to create an operator only when the database has none", () => {
    const start = (operatorsExist: boolean) =>
      startBanner({
        config: { publicUrl: "http://localhost:3000", promptReview: "off", identity: defaultIdentity },
        address: "127.0.0.1:3000",
        database: "PostgreSQL (DATABASE_URL)",
        operators: [],
        trial: false,
        operatorsExist,
      }).join("\n");
    expect(start(false)).toContain("Create an operator with: npm run operator:create");
    expect(start(true)).not.toContain("Create an operator");
  });
});
