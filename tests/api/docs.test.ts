/**
 * The documentation a newcomer reads: the README is the front page (at most 200 lines), every link
 * of the README and docs/ resolves inside the repository, and the README's configuration table
 * names exactly the variables the server reads (src/server/config.ts).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const pages = [
  "README.md",
  ...readdirSync(path.join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

describe("documentation", () => {
  it("keeps the README a front page of at most 200 lines that starts with the two commands", () => {
    const readme = read("README.md");
    expect(readme.split("\n").length).toBeLessThanOrEqual(200);
    const firstBlock = readme.slice(readme.indexOf("```"), readme.indexOf("```", readme.indexOf("```") + 3));
    expect(firstBlock).toContain("npm start");
    expect(firstBlock).toContain("npm test");
  });

  it("links only what the repository holds", () => {
    const broken: string[] = [];
    for (const page of pages) {
      const text = read(page);
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:|#)/.test(target)) continue;
        const file = path.resolve(path.dirname(path.join(root, page)), decodeURIComponent(target.split("#")[0]));
        if (!file.startsWith(root) || !existsSync(file)) broken.push(`${page}: ${target}`);
      }
      if (/\.\.\/shared\//.test(text)) broken.push(`${page}: names ../shared/, which a clone does not have`);
    }
    expect(broken).toEqual([]);
  });

  it("documents in the README every variable the server reads, and no other", () => {
    const config = read("src/server/config.ts");
    const schema = config.slice(
      config.indexOf("const envSchema = z.object({"),
      config.indexOf("});", config.indexOf("const envSchema")),
    );
    const read_ = [...schema.matchAll(/^\s{2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]).sort();
    const readme = read("README.md");
    const table = readme.slice(
      readme.indexOf("## Configuration"),
      readme.indexOf("\n## ", readme.indexOf("## Configuration") + 5),
    );
    // A row may name several related variables: | `SSO_CLIENT_ID`, `SSO_CLIENT_SECRET` | ...
    const documented = [...table.matchAll(/^\| ((?:`[A-Z][A-Z0-9_]+`(?:, )?)+) \|/gm)]
      .flatMap((m) => [...m[1].matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((n) => n[1]))
      .sort();
    expect(read_.length).toBeGreaterThan(20);
    expect(documented).toEqual(read_);
  });
});
