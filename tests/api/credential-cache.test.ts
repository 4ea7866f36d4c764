/**
 * Sessions and API tokens kept for a few seconds (src/server/credential-cache.ts,
 * docs/performance.md "The per-request cost"), and tokens counted a few requests at a time
 * (`TokenRateCounter`, docs/identity.md "API tokens"). On PGlite and PostgreSQL.
 *
 * A change written with the database's triggers off (`session_replication_role = replica`) is one
 * the console is not told of: it shows that a credential is kept, and for how long. Every other
 * change, through the API or straight in SQL as another process would, reaches the kept
 * credentials within 1 s (tests/api/scale-out.test.ts: across two server processes).
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TokenRateCounter, tokenCountChunk } from "../../src/server/tokens";
import { startConsole, testClock, type TestConsole } from "../support/app";
import { targets } from "../support/databases";

describe.each(targets)("kept credentials on %s", (target) => {
  let app: TestConsole;
  const clock = testClock();

  beforeAll(async () => {
    app = await startConsole(target, { demo: true, clock, credentialCacheSeconds: 5 });
  });
  afterAll(() => app.close());

  /** Runs `statement` with the database's triggers off: no credential change is announced. */
  const unannounced = (statement: ReturnType<typeof sql>) =>
    app.handle.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(statement);
    });
  const get = (headers: Record<string, string>) =>
    app.request("/api/customers?limit=1", { headers, noOrigin: true }).then((r) => r.status);

  it("keeps a token for 5 s when no change is announced, and drops it within 1 s of a change written in SQL", async () => {
    const token = await app.token("viewer");
    const bearer = { authorization: `Bearer ${token}` };
    expect(await get(bearer)).toBe(200);
    await unannounced(
      sql`update operator_api_token set expires_at = now() - interval '1 day' where token_id = ${await app.tokenId("viewer")}`,
    );
    expect(await get(bearer)).toBe(200);
    clock.advance(6);
    expect(await get(bearer)).toBe(401);
    clock.reset();
    await app.handle.db.execute(
      sql`update operator_api_token set expires_at = now() + interval '30 days' where token_id = ${await app.tokenId("viewer")}`,
    );
    await expect.poll(() => get(bearer), { timeout: 1_000, interval: 20 }).toBe(200);
    await app.handle.db.execute(
      sql`update operator_api_token set revoked_at = now() where token_id = ${await app.tokenId("viewer")}`,
    );
    await expect.poll(() => get(bearer), { timeout: 1_000, interval: 20 }).toBe(401);
  });

  it("keeps a session for 5 s when no change is announced", async () => {
    const cookie = await app.cookie("viewer");
    expect(await get({ cookie })).toBe(200);
    // Ended behind the console's back: still answered from what it keeps, until 5 s have passed.
    await unannounced(
      sql`delete from operator_session where user_id = (select id from operator where email = 'viewer@test.example')`,
    );
    expect(await get({ cookie })).toBe(200);
    clock.advance(6);
    expect(await get({ cookie })).toBe(401);
    clock.reset();
  });

  it("drops a session within 1 s of a change to its operator written in SQL: demotion, deactivation", async () => {
    const cookie = await app.cookie("admin");
    const [{ id }] = await app.rows<{ id: string }>(sql`select id from operator where email = 'admin@test.example'`);
    // An admin's read: demoted in SQL, as another server copy or the command line would, the role
    // follows within 1 s (no request of this copy changed data meanwhile).
    const adminRead = () =>
      app.request(`/api/operators/${id}/sessions`, { headers: { cookie }, noOrigin: true }).then((r) => r.status);
    expect(await adminRead()).toBe(200);
    await app.handle.db.execute(sql`update operator set role = 'viewer' where id = ${id}`);
    await expect.poll(adminRead, { timeout: 1_000, interval: 20 }).toBe(403);
    await app.handle.db.execute(sql`update operator set role = 'admin' where id = ${id}`);
    await expect.poll(adminRead, { timeout: 1_000, interval: 20 }).toBe(200);
    // Deactivated in SQL: refused within 1 s.
    await app.handle.db.execute(sql`update operator set banned = true where id = ${id}`);
    await expect.poll(() => get({ cookie }), { timeout: 1_000, interval: 20 }).toBe(401);
  });

  it("refuses a session at once after its sign-out through this copy", async () => {
    const cookie = await app.cookie("editor");
    expect(await get({ cookie })).toBe(200);
    const out = await app.request("/api/auth/sign-out", { method: "POST", headers: { cookie }, json: {} });
    expect(out.status).toBe(200);
    expect(await get({ cookie })).toBe(401);
  });

  it("counts a token's requests a chunk at a time across copies: never above the limit, at most one and a half chunks per other copy below it", async () => {
    const perMinute = 1_000;
    const chunk = tokenCountChunk(perMinute);
    expect(chunk).toBe(10);
    const copies = [new TokenRateCounter(app.handle.db), new TokenRateCounter(app.handle.db)];
    const now = clock();
    let admitted = 0;
    for (let i = 0; i < 1_100; i++) {
      // Bursts of each copy's requests at once, alternating copies.
      const results = await Promise.all(
        Array.from({ length: 5 }, () => copies[i % 2].admit("counted-token", perMinute, now)),
      );
      admitted += results.filter((r) => r.admitted).length;
    }
    expect(admitted).toBeLessThanOrEqual(perMinute);
    // What the other copy took and had not used when the limit was reached: at most 1.5 chunks.
    expect(admitted).toBeGreaterThanOrEqual(perMinute - 1.5 * chunk);
    const refused = await copies[0].admit("counted-token", perMinute, now);
    expect(refused).toEqual({ admitted: false, retryAfterSeconds: 60 });
    // The next window admits again.
    const later = new Date(now.getTime() + 61_000);
    expect(await copies[1].admit("counted-token", perMinute, later)).toEqual({ admitted: true });
    // Below 200 a minute the count is exact request by request.
    expect(tokenCountChunk(150)).toBe(1);
    let exact = 0;
    for (let i = 0; i < 160; i++) if ((await copies[i % 2].admit("exact-token", 150, now)).admitted) exact++;
    expect(exact).toBe(150);
  });
});
