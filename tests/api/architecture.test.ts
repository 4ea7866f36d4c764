/**
 * The code's layering (DESIGN.md "Conventions"): shared code flows one way. `src/domain` imports
 * neither side; the server never imports the web app and the web app never imports the server;
 * only `src/server/config.ts` reads process.env.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

function files(dir: string, pattern = /\.(ts|tsx)$/): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full, pattern) : pattern.test(name) ? [full] : [];
  });
}

/** Relative import targets of a file (imports, re-exports, side-effect and dynamic imports), resolved to paths under the repository. */
function imports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/(?:from|import)\s+"(\.[^"]+)"|import\(\s*"(\.[^"]+)"\s*\)/g)].map((m) =>
    path.resolve(path.dirname(file), m[1] ?? m[2]),
  );
}

const under = (dir: string) => (p: string) => p.startsWith(path.join(root, dir) + path.sep);

describe("architecture", () => {
  const src = files(path.join(root, "src"));

  it("keeps src/domain free of server and web code", () => {
    const bad = src.filter(under("src/domain")).flatMap((f) =>
      imports(f)
        .filter((i) => under("src/server")(i) || under("src/web")(i))
        .map((i) => `${f} → ${i}`),
    );
    expect(bad).toEqual([]);
  });

  it("never imports the web app from the server, nor the server from the web app", () => {
    const bad = [
      ...src.filter(under("src/server")).flatMap((f) =>
        imports(f)
          .filter(under("src/web"))
          .map((i) => `${f} → ${i}`),
      ),
      ...src.filter(under("src/web")).flatMap((f) =>
        imports(f)
          .filter(under("src/server"))
          .map((i) => `${f} → ${i}`),
      ),
    ];
    expect(bad).toEqual([]);
  });

  // The console's code, its tests and its scripts: a cycle anywhere is found here (ESLint's
  // import/no-cycle found the same at a third of the lint's time).
  it("has no import cycle, type imports included, in src, tests or scripts", () => {
    const code = ["src", "tests", "scripts"].flatMap((dir) => files(path.join(root, dir), /\.(ts|tsx|mjs|js)$/));
    const known = new Set(code);
    const resolve = (target: string) =>
      [`${target}.ts`, `${target}.tsx`, target, path.join(target, "index.ts")].find((f) => known.has(f));
    const graph = new Map(
      code.map((f) => [
        f,
        imports(f)
          .map(resolve)
          .filter((t): t is string => t !== undefined),
      ]),
    );
    // Tarjan's strongly connected components: any with more than one file (or a file importing itself) is a cycle.
    let index = 0;
    const stack: string[] = [];
    const meta = new Map<string, { index: number; low: number; onStack: boolean }>();
    const cycles: string[][] = [];
    const visit = (v: string) => {
      meta.set(v, { index, low: index, onStack: true });
      index++;
      stack.push(v);
      for (const w of graph.get(v) ?? []) {
        if (!meta.has(w)) {
          visit(w);
          meta.get(v)!.low = Math.min(meta.get(v)!.low, meta.get(w)!.low);
        } else if (meta.get(w)!.onStack) meta.get(v)!.low = Math.min(meta.get(v)!.low, meta.get(w)!.index);
      }
      if (meta.get(v)!.low === meta.get(v)!.index) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          meta.get(w)!.onStack = false;
          component.push(path.relative(root, w));
        } while (w !== v);
        if (component.length > 1 || graph.get(v)!.includes(v)) cycles.push(component.sort());
      }
    };
    expect(code.length).toBeGreaterThan(src.length);
    for (const f of code) if (!meta.has(f)) visit(f);
    expect(cycles).toEqual([]);
  });

  it("reads process.env only in src/server/config.ts", () => {
    const readers = src
      .filter((f) => readFileSync(f, "utf8").includes("process.env"))
      .map((f) => path.relative(root, f));
    expect(readers).toEqual(["src/server/config.ts"]);
  });
});
