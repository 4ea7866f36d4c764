/**
 * How the API tests start the console as a process: the server bundle, as `npm run serve` runs it
 * (scripts/build-server.mjs), built from the current sources once per test run by the global setup
 * (tests/support/global-setup.ts) into test-results/server/. A process then starts without
 * compiling the TypeScript first: seconds less per start, and dozens of starts per run. Outside
 * that setup (the file does not exist) the sources run through tsx.
 */
import { existsSync } from "node:fs";
import path from "node:path";

/** The bundle the global setup builds. */
export const serverBundle = path.resolve(import.meta.dirname, "../../test-results/server/main.js");

/** Node's arguments that run the console: the bundle, or `--import tsx src/server/main.ts`. */
export function serverEntry(): string[] {
  return existsSync(serverBundle) ? [serverBundle] : ["--import", "tsx", "src/server/main.ts"];
}
