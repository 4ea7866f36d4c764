#!/usr/bin/env node
/**
 * `npm start`'s build: the web app (vite) and the server bundle (scripts/build-server.mjs), only
 * when what they are built from changed since the last build. A fingerprint of the sources (every
 * file under src/, the build configuration and the lockfile: paths and contents, SHA-256) and of
 * the outputs it built (their modification times) is kept in dist/.build-fingerprint; when both
 * match, nothing is built and the console starts in seconds. Any other build since (`npm run
 * build`) changes the outputs' times, so the next start builds again. `--force` builds anyway;
 * `--check` builds nothing and exits 0 when up to date, 1 when a build is due; `--record` keeps
 * the stamp of the outputs as they are, without building (the test of this script uses both).
 */
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const inputs = ["src", "vite.config.ts", "tsconfig.json", "package-lock.json", "scripts/build-server.mjs"];
const outputs = ["dist/web/index.html", "dist/server/main.js"];
const stamp = "dist/.build-fingerprint";

/** Every file under `path` (or `path` itself), sorted: the fingerprint does not depend on the disk's order. */
function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => files(join(path, name)));
}

const hash = createHash("sha256");
for (const file of inputs.flatMap(files)) {
  hash.update(file).update("\0").update(readFileSync(file)).update("\0");
}
const sources = hash.digest("hex");
/** The sources' fingerprint and the outputs' modification times, as the stamp keeps them. */
const fingerprint = () => [sources, ...outputs.map((o) => (existsSync(o) ? statSync(o).mtimeMs : "none"))].join(" ");

const upToDate =
  !process.argv.includes("--force") && existsSync(stamp) && readFileSync(stamp, "utf8").trim() === fingerprint();

if (process.argv.includes("--check")) {
  process.exit(upToDate ? 0 : 1);
} else if (process.argv.includes("--record")) {
  writeFileSync(stamp, `${fingerprint()}\n`);
} else if (upToDate) {
  console.log("The build is up to date with the sources: starting without rebuilding.");
} else {
  console.log("Building the web app and the server (their sources changed since the last build)...");
  const run = (args) => execFileSync(process.execPath, args, { stdio: "inherit" });
  run(["node_modules/vite/bin/vite.js", "build", "--logLevel", "warn"]);
  run(["scripts/build-server.mjs"]);
  writeFileSync(stamp, `${fingerprint()}\n`);
}
