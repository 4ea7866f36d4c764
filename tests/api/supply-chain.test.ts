/**
 * What installing and serving the console may do beyond the console itself (docs/security.md):
 * no dependency runs an install script the project has not decided on (package.json
 * `allowScripts`, read by npm 11), the install-time analytics beacon of swagger-ui-dist
 * (@scarf/scarf) is denied and switched off, every package runs on the Node the project states
 * (a fresh install warns of no engine), and /api/docs sends the document nowhere.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import semver from "semver";
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

  it("installs only packages that run on the oldest Node package.json allows (no EBADENGINE warning)", () => {
    const oldest = semver.minVersion(pkg.engines.node as string)!;
    const misfits = Object.entries(lock.packages as Record<string, { engines?: unknown }>).flatMap(([where, p]) => {
      const node = (p.engines as { node?: unknown } | undefined)?.node;
      return where && typeof node === "string" && !semver.satisfies(oldest, node) ? [`${where} wants ${node}`] : [];
    });
    expect(misfits).toEqual([]);
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
