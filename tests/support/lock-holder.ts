/**
 * A process that takes a data folder's lock as the console does (`lockDataDir`), prints LOCKED or
 * REFUSED, and holds the lock until its stdin closes. Used by the lock race test.
 */
import { lockDataDir, LockedError } from "../../src/server/lock";

const folder = process.argv[2];
lockDataDir(folder).then(
  (release) => {
    process.stdout.write("LOCKED\n");
    process.stdin.resume();
    process.stdin.on("end", () => {
      release();
      process.exit(0);
    });
  },
  (err) => {
    process.stdout.write(err instanceof LockedError ? "REFUSED\n" : `ERROR ${String(err)}\n`);
    process.exit(err instanceof LockedError ? 2 : 1);
  },
);
