/**
 * AsyncLocalStorage is off between the calls that use it (src/server/async-context.ts): on Node 20
 * a store left enabled keeps V8's promise hooks on for the whole process, and every await of every
 * request pays for them. After a sign-in, a saved-views request and a sign-out (better-auth's
 * stores and the console's own), no store is left enabled.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsole, type TestConsole } from "../support/app";

/** Every AsyncLocalStorage better-auth keeps, and whether each is enabled (Node's own flag). */
function betterAuthStores(): Array<{ enabled?: boolean }> {
  const global = (globalThis as Record<symbol, { context?: Record<string, unknown> } | undefined>)[
    Symbol.for("better-auth:global")
  ];
  return Object.values(global?.context ?? {}).filter((v) => v instanceof AsyncLocalStorage) as Array<{
    enabled?: boolean;
  }>;
}

describe("AsyncLocalStorage between requests", () => {
  let app: TestConsole;
  beforeAll(async () => {
    app = await startConsole("pglite");
  });
  afterAll(() => app.close());

  it("is off once no request uses it", async () => {
    const cookie = await app.cookie("editor");
    expect((await app.request("/api/views?limit=5", { headers: { cookie } })).status).toBe(200);
    const signIn = await app.request("/api/auth/sign-in/email", {
      method: "POST",
      json: { email: "editor@test.example", password: "correct-horse-battery" },
    });
    expect(signIn.status).toBe(200);
    await new Promise((resolve) => setImmediate(resolve));
    const stores = betterAuthStores();
    expect(stores.length).toBeGreaterThan(0);
    expect(stores.filter((s) => s.enabled)).toEqual([]);
  });
});
