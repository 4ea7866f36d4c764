/**
 * The front end's source is not handed out: the production build makes no source maps, and the
 * server answers 404 to a `.map` file even when one is in the web folder.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
