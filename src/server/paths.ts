import { existsSync } from "node:fs";
import path from "node:path";

/**
 * The project's folder (the one holding package.json), found from this module's location, so the
 * same paths hold whether the server runs from its TypeScript sources (src/server) or from its
 * bundle (dist/server, built by scripts/build-server.mjs).
 * @throws when no package.json is found above this module (a copy without the project around it).
 */
export function findProjectRoot(from: string = import.meta.dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const projectRoot = findProjectRoot();
