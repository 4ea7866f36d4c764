/**
 * What installing and serving the console may do beyond the console itself (docs/security.md):
 * no dependency runs an install script the project has not decided on (package.json
 * `allowScripts`, read by npm 11), the install-time analytics beacon of swagger-ui-dist
 * (@scarf/scarf) is denied and switched off, and /api/docs sends the document nowhere.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startConsole } from "../support/app";

const root = path.resolve(import.meta.dirname, "../..");
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
const lock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8"));

describe("supply chain", () => {
  it("decides on every install script of the lockfile, and denies the analytics beacon", () => {
    const withScripts = Object.entries(lock.packages as Record<string, { hasInstallScript?: boolean }>)
      .filter(([, p]) => p.hasInstallScript)
      .map(([where]) => where.split("node_modules/").at(-1)!);
    expect(withScripts.length).toBeGreaterThan(0);
    const undecided = [...new Set(withScripts)].filter((name) => !(name in pkg.allowScripts));
    expect(undecided).toEqual([]);
    expect(pkg.allowScripts["@scarf/scarf"]).toBe(false);
    expect(pkg.scarfSettings).toEqual({ enabled: false });
  });

  it("serves /api/docs without sending the document to an outside validator", async () => {
    const app = await startConsole("pglite");
    try {
      const init = await (await app.request("/api/docs/init.js", { as: "viewer" })).text();
      expect(init).toContain("validatorUrl: null");
      const page = await (await app.request("/api/docs", { as: "viewer" })).text();
      expect(page).not.toMatch(/https?:\/\//);
    } finally {
      await app.close();
    }
  });
});
