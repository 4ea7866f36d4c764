/**
 * The built web app's initial JavaScript: the entry script and the modules index.html preloads
 * (what the browser fetches before any screen), gzip-compressed (level 9) one file at a time.
 * Screens are chunks loaded on demand; the source maps tell which packages fill the initial code.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

/**
 * The initial JavaScript's budget, gzipped, in KiB: the benchmark's goal (scripts/bench.ts) and the
 * browser suite's check of every build (tests/e2e/bundle-budget.spec.ts).
 */
export const initialBudgetKiB = 130;

export type BundleReport = {
  initial: Array<{ file: string; bytes: number; gzip: number }>;
  initialGzip: number;
  /** Packages (or source folders) by their share of the initial code, in source bytes. */
  initialSources: Array<{ source: string; bytes: number }>;
  /** Chunks loaded on demand, and those among them named after a screen (…Page-<hash>.js). */
  lazyChunks: number;
  lazyScreens: string[];
  /** Screens whose code is in the initial files (should be none but the shell and sign-in). */
  eagerScreens: string[];
  /** Chart or editor libraries found in the initial code. */
  heavyInInitial: string[];
};

const heavyLibraries =
  /^(recharts|chart\.js|echarts|d3-[a-z]+|@nivo|victory|apexcharts|@codemirror|codemirror|monaco-editor|@monaco-editor|@uiw|prosemirror-[a-z]+|@tiptap|lexical|quill|@lexical|vega|plotly\.js)/;

/** The repository's root: a source map's paths are named from it (the build may be written elsewhere). */
const root = path.resolve(import.meta.dirname, "../..");

/** A package's name, or a source's first three path segments from the repository's root (`src/web/lib`). */
function sourceName(source: string): string {
  const nm = source.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = source.slice(nm + "node_modules/".length).split("/");
    return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  return path
    .relative(root, source)
    .split(path.sep)
    .filter((p) => p !== "..")
    .slice(0, 3)
    .join("/");
}

/** Whether the initial JavaScript is within `initialBudgetKiB`. */
export const withinBudget = (report: BundleReport) => report.initialGzip <= initialBudgetKiB * 1024;

/** Measures `webRoot` (the vite build output). */
export function measureBundle(webRoot: string): BundleReport {
  const html = readFileSync(path.join(webRoot, "index.html"), "utf8");
  const files = [
    ...[...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g)].map((m) => m[1]),
    ...[...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)].map((m) => m[1]),
  ];
  const initial = files.map((f) => {
    const body = readFileSync(path.join(webRoot, f.replace(/^\//, "")));
    return { file: path.basename(f), bytes: body.length, gzip: gzipSync(body, { level: 9 }).length };
  });
  const sources = new Map<string, number>();
  for (const f of files) {
    const map = path.join(webRoot, f.replace(/^\//, "") + ".map");
    if (!existsSync(map)) continue;
    const m = JSON.parse(readFileSync(map, "utf8")) as { sources: string[]; sourcesContent?: Array<string | null> };
    m.sources.forEach((s, i) => {
      const name = sourceName(path.resolve(path.dirname(map), s));
      sources.set(name, (sources.get(name) ?? 0) + (m.sourcesContent?.[i]?.length ?? 0));
    });
  }
  const assets = readdirSync(path.join(webRoot, "assets")).filter((f) => f.endsWith(".js"));
  const initialNames = new Set(initial.map((i) => i.file));
  const lazy = assets.filter((f) => !initialNames.has(f));
  const screenName = (f: string) => /^([A-Za-z]+Page)-[\w-]+\.js$/.exec(f)?.[1];
  return {
    initial,
    initialGzip: initial.reduce((n, i) => n + i.gzip, 0),
    initialSources: [...sources].map(([source, bytes]) => ({ source, bytes })).sort((a, b) => b.bytes - a.bytes),
    lazyChunks: lazy.length,
    lazyScreens: lazy.map(screenName).filter((s): s is string => !!s),
    eagerScreens: [...initialNames].map(screenName).filter((s): s is string => !!s),
    heavyInInitial: [...sources.keys()].filter((s) => heavyLibraries.test(s)),
  };
}
