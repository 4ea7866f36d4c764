import { createHash } from "node:crypto";
import { readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import path from "node:path";

/** Thrown when another live process holds the data folder. */
export class LockedError extends Error {}

/**
 * Takes the data folder for this process: PGlite is single-process and two instances on one
 * folder corrupt it. The lock is a Linux abstract-namespace unix socket named from the folder's
 * real path: binding it is atomic (one process wins, however many start together), and the
 * kernel releases it the moment its process dies, so a crashed console leaves no stale lock to
 * take over. `DATA_DIR/console.lock` records the holder's pid for people (and the message here);
 * it is informational only.
 * @returns a function releasing the lock.
 * @throws LockedError when a live process holds it.
 */
export async function lockDataDir(dataDir: string): Promise<() => void> {
  const real = realpathSync(dataDir);
  const name = lockName(dataDir);
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ path: name, exclusive: true }, () => resolve());
  }).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== "EADDRINUSE") throw err;
    throw new LockedError(
      `The data folder ${dataDir} is in use by another console${holder(real)}. Stop it first, or set DATA_DIR to another folder.`,
    );
  });
  server.unref(); // the lock alone does not keep the process alive
  held.set(real, server);
  const file = path.join(real, "console.lock");
  writeFileSync(file, String(process.pid));
  return () => release(server, file, real);
}

/** The lock sockets this process holds, by the data folder's real path. */
const held = new Map<string, Server>();

/** The abstract socket name of a data folder's lock (the same for every path naming the folder). */
export function lockName(dataDir: string): string {
  return `\0pedal-console:${createHash("sha256").update(realpathSync(dataDir)).digest("hex")}`;
}

/**
 * Hands every connection made to this process's lock of `dataDir` to `handler` (maintenance.ts:
 * the command line's way to reach a running console). A no-op when this process holds no such lock.
 */
export function onLockConnection(dataDir: string, handler: (socket: Socket) => void) {
  held.get(realpathSync(dataDir))?.on("connection", handler);
}

function release(server: Server, file: string, real: string) {
  held.delete(real);
  rmSync(file, { force: true });
  server.close();
}

/** " (pid N)" from the informational lock file, when it names one. */
function holder(folder: string): string {
  try {
    const pid = Number(readFileSync(path.join(folder, "console.lock"), "utf8").trim());
    return pid > 0 ? ` (pid ${pid})` : "";
  } catch {
    return "";
  }
}
