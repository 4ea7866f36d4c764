import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";

/** Thrown when another live process holds the data folder. */
export class LockedError extends Error {}

/**
 * Takes `DATA_DIR/console.lock` for this process: PGlite is single-process and its folder has no
 * lock of its own. A lock left by a dead process is taken over.
 * @returns a function releasing the lock.
 * @throws LockedError when a live process holds it.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, "console.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const pid = Number(readFileSync(file, "utf8").trim());
      if (pid && pid !== process.pid && isAlive(pid)) {
        throw new LockedError(
          `The data folder ${dataDir} is in use by another console (pid ${pid}). Stop it first, or set DATA_DIR to another folder.`,
        );
      }
      rmSync(file, { force: true }); // stale lock of a process that is gone
    }
  }
  throw new LockedError(`Could not take the lock ${file}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
