/**
 * The command line's way to reach a console that holds the embedded database (docs/configuration.md,
 * commands): PGlite is one process, so while the console runs, `npm run operator:unlock` cannot
 * open the data folder and asks the running console instead, through the data folder's lock socket
 * (lock.ts). Nothing listens on a network port for this.
 *
 * The socket is a Linux abstract socket, which any local process can connect to, so each request
 * proves that its sender can read the console's auth secret (`DATA_DIR/auth-secret` or
 * BETTER_AUTH_SECRET): the console sends a random challenge, the request carries
 * HMAC-SHA256(secret, challenge, command, email). Whoever holds that secret can already sign
 * session cookies, so this grants nothing more. One request per connection, one JSON line each way.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { connect, type Socket } from "node:net";
import { z } from "zod";
import { emailAddress } from "../domain/text";
import { unlockOperator } from "./auth";
import type { Database } from "./db/client";
import { lockName, onLockConnection } from "./lock";

/** What the command line may ask a running console to do. */
const requestSchema = z.strictObject({
  command: z.literal("unlock"),
  email: emailAddress(),
  proof: z.string().regex(/^[0-9a-f]{64}$/),
});

/** The answer: the exit code the command should end with, and the line it prints. */
export type MaintenanceAnswer = { code: number; message: string };

const proofOf = (secret: string, challenge: string, command: string, email: string) =>
  createHmac("sha256", secret).update(`${challenge}\n${command}\n${email}`).digest("hex");

/** Reads one line (at most 4 KB) from `socket`. */
function readLine(socket: Socket, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => fail(new Error("no answer")), timeoutMs);
    const fail = (err: Error) => {
      clearTimeout(timer);
      socket.off("data", onData);
      reject(err);
    };
    const onData = (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const end = text.indexOf("\n");
      if (end >= 0) {
        clearTimeout(timer);
        socket.off("data", onData);
        resolve(text.slice(0, end));
      } else if (text.length > 4096) fail(new Error("line too long"));
    };
    socket.on("data", onData);
    socket.once("error", fail);
    socket.once("close", () => fail(new Error("closed")));
  });
}

/**
 * In the console: answers the command line's requests on the lock socket of `dataDir` (embedded
 * database only), running them on `db`. Each is audited as the command's own run would be.
 */
export function serveMaintenance(dataDir: string, secret: string, db: Database) {
  onLockConnection(dataDir, (socket) => {
    socket.on("error", () => undefined);
    const challenge = randomBytes(32).toString("hex");
    const answer = (a: MaintenanceAnswer) => socket.end(`${JSON.stringify(a)}\n`);
    socket.write(`${JSON.stringify({ challenge })}\n`);
    readLine(socket, 5_000)
      .then(async (line) => {
        const parsed = requestSchema.safeParse(JSON.parse(line));
        if (!parsed.success) return answer({ code: 2, message: "The request was not understood." });
        const { command, email, proof } = parsed.data;
        const expected = Buffer.from(proofOf(secret, challenge, command, email), "hex");
        if (!timingSafeEqual(expected, Buffer.from(proof, "hex"))) {
          return answer({
            code: 2,
            message:
              "The running console refused the request: this command does not have its auth secret (BETTER_AUTH_SECRET or DATA_DIR/auth-secret).",
          });
        }
        const found = await unlockOperator(db, email);
        return answer(
          found
            ? { code: 0, message: `Operator ${email} unlocked: they can sign in again.` }
            : { code: 1, message: `No operator has the email ${email}.` },
        );
      })
      .catch(() => socket.destroy());
  });
}

/**
 * On the command line: asks the console that holds `dataDir` to run `command` for `email`.
 * @returns its answer, or undefined when no console answers on that folder's lock.
 */
export async function askRunningConsole(
  dataDir: string,
  secret: string,
  command: "unlock",
  email: string,
): Promise<MaintenanceAnswer | undefined> {
  const socket = connect({ path: lockName(dataDir) });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("error", reject);
    });
    const { challenge } = JSON.parse(await readLine(socket, 5_000)) as { challenge: string };
    socket.write(`${JSON.stringify({ command, email, proof: proofOf(secret, challenge, command, email) })}\n`);
    return JSON.parse(await readLine(socket, 30_000)) as MaintenanceAnswer;
  } catch {
    return undefined;
  } finally {
    socket.destroy();
  }
}
