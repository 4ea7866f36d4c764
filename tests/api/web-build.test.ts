/**
 * The front end's source is not handed out: the production build makes no source maps, and the
 * server answers 404 to a `.map` file even when one is in the web folder. `npm start` builds only
 * when the sources changed (scripts/build-if-changed.mjs).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/server/app";
import { defaultSecurity } from "../../src/server/config";
import viteConfig from "../../vite.config";
import { publicUrl } from "../support/app";
import { freshDatabase } from "../support/databases";

const webRoot = mkdtempSync(path.join(tmpdir(), "pedal-web-"));
afterAll(() => rmSync(webRoot, { recursive: true, force: true }));

describe("source maps", () => {
  it("are not made by the production build", () => {
    expect((viteConfig as { build?: { sourcemap?: unknown } }).build?.sourcemap).toBe(false);
  });

  it("are not served, even when present in the web folder", async () => {
    mkdirSync(path.join(webRoot, "assets"));
    writeFileSync(path.join(webRoot, "index.html"), "<!doctype html><title>x</title>");
    writeFileSync(path.join(webRoot, "assets/app.js"), "console.log(1)");
    writeFileSync(
      path.join(webRoot, "assets/app.js.map"),
      JSON.stringify({ version: 3, sources: ["secret.ts"], sourcesContent: ["secret"] }),
    );
    const handle = await freshDatabase("pglite");
    try {
      const { app } = createApp({
        db: handle.db,
        config: { authSecret: "x".repeat(40), publicUrl, security: defaultSecurity },
        logger: pino({ level: "silent" }),
        webRoot,
      });
      expect((await app.request("/assets/app.js")).status).toBe(200);
      for (const p of ["/assets/app.js.map", "/assets/x.js.map", "/app.js.map"]) {
        const res = await app.request(p);
        expect(res.status, p).toBe(404);
        expect(await res.text(), p).not.toContain("secret");
      }
    } finally {
      await handle.close();
    }
  });
});

describe("npm start's build", () => {
  const script = path.resolve("scripts/build-if-changed.mjs");
  /** Whether the script would build in `cwd`: 0 up to date, 1 a build is due. */
  const check = (cwd: string) => spawnSync(process.execPath, [script, "--check"], { cwd }).status;

  it("builds only when the sources changed since the last build, or when another build came since", () => {
    mkdirSync("test-results", { recursive: true });
    const project = mkdtempSync(path.join(path.resolve("test-results"), "start-build-"));
    try {
      for (const dir of ["src/web", "dist/web", "dist/server"]) mkdirSync(path.join(project, dir), { recursive: true });
      writeFileSync(path.join(project, "src/web/main.tsx"), "export {};\n");
      writeFileSync(path.join(project, "package-lock.json"), "{}\n");
      writeFileSync(path.join(project, "dist/web/index.html"), "<!doctype html>");
      writeFileSync(path.join(project, "dist/server/main.js"), "");
      expect(check(project)).toBe(1); // never built here
      expect(spawnSync(process.execPath, [script, "--record"], { cwd: project }).status).toBe(0);
      expect(check(project)).toBe(0); // a second start does not build
      writeFileSync(path.join(project, "src/web/main.tsx"), "export const changed = 1;\n");
      expect(check(project)).toBe(1); // a source changed
      writeFileSync(path.join(project, "src/web/main.tsx"), "export {};\n");
      expect(check(project)).toBe(0); // by content, not by time
      utimesSync(path.join(project, "dist/server/main.js"), new Date(), new Date(Date.now() + 5000));
      expect(check(project)).toBe(1); // built otherwise since (npm run build)
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
