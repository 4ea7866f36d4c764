#!/usr/bin/env node
/**
 * Bundles the server's TypeScript (src/server/main.ts and what it imports) into one ES module,
 * dist/server/main.js, for `npm start` and the benchmark: Node runs it without a TypeScript loader,
 * which starts faster and keeps about 90 MiB less memory. Packages stay external (loaded from
 * node_modules as they are); migrations and the web app are read from the project at run time
 * (src/server/paths.ts). About half a second. `--outfile PATH` writes it elsewhere (the API tests
 * build their own under test-results/).
 */
import { build } from "esbuild";

const at = process.argv.indexOf("--outfile");
await build({
  entryPoints: ["src/server/main.ts"],
  outfile: at > 0 ? process.argv[at + 1] : "dist/server/main.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: "linked",
  logLevel: "warning",
});
