/**
 * Global search API (the shell's search box): finds a record of each kind by part of its name,
 * case-insensitively; ranks an exact name first; at most 5 per kind with `more`; one SQL statement
 * per kind; on PGlite and PostgreSQL.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchKinds, type SearchKind, type SearchResult } from "../../src/domain/search";
import { msg } from "../../src/domain/messages";
import { startConsole, type TestConsole } from "../support/app";
import { targets } from "../support/databases";

describe.each(targets)("global search API on %s", (target) => {
  let app: TestConsole;
  /** A made-up word no demo record contains, so that the test's own records are the only matches. */
  const token = `Qorvex${randomUUID().slice(0, 4).replace(/[0-9]/g, "k")}`;
  const ids = {} as Record<SearchKind, string>;

  beforeAll(async () => {
    app = await startConsole(target, { demo: true });
    const one = async (query: ReturnType<typeof sql>) => (await app.rows<{ id: string }>(query))[0].id;
    ids.customers = await one(
      sql`insert into customers (customer_name) values (${`Northwind ${token} Trading`}) returning customer_id as id`,
    );
    ids.users = await one(
      sql`insert into users_data (customer_id, email, first_name, last_name) values (${ids.customers}, ${`jo.${token.toLowerCase()}@example.com`}, 'Jo', ${`${token}son`}) returning user_id as id`,
    );
    ids.teams = await one(
      sql`insert into teams (customer_id, team_name) values (${ids.customers}, ${`Platform ${token} Squad`}) returning team_id as id`,
    );
    ids.skills = await one(
      sql`insert into skills (skill_name) values (${`${token} Summaries`}) returning skill_id as id`,
    );
    ids.prompts = await one(
      sql`insert into pedal_prompts (prompt_title, skill_id) values (${`Weekly ${token} digest`}, ${ids.skills}) returning prompt_id as id`,
    );
    ids.platforms = await one(
      sql`insert into platforms (platform_name) values (${`${token} Desktop`}) returning platform_id as id`,
    );
  });
  afterAll(() => app.close());

  const search = async (q: string) => {
    const { status, body } = await app.read(`/api/search?q=${encodeURIComponent(q)}`);
    expect(status, q).toBe(200);
    return body as SearchResult;
  };
  const group = (result: SearchResult, kind: SearchKind) => result.groups.find((g) => g.kind === kind)!;

  it("finds a record of each kind by part of its name, whatever the case", async () => {
    const part = token.slice(1, -1).toUpperCase();
    const result = await search(part);
    expect(result.groups.map((g) => g.kind)).toEqual([...searchKinds]);
    for (const kind of searchKinds)
      expect(
        group(result, kind).items.map((i) => i.id),
        kind,
      ).toContain(ids[kind]);
    expect(group(result, "users").items[0]).toMatchObject({
      title: `Jo ${token}son`,
      subtitle: `jo.${token.toLowerCase()}@example.com · Northwind ${token} Trading`,
    });
    expect(group(result, "teams").items[0].subtitle).toBe(`Northwind ${token} Trading`);
    expect(group(result, "prompts").items[0].subtitle).toBe(`${token} Summaries`);
    // A user by email too.
    expect(group(await search(`jo.${token}@EXAMPLE`), "users").items[0].id).toBe(ids.users);
  });

  it("ranks an exact name first, then names starting with the text", async () => {
    const exact = `${token}x`;
    for (const name of [`The ${exact} Group`, `${exact} Holdings`, exact, `Big ${exact}`]) {
      await app.rows(sql`insert into customers (customer_name) values (${name})`);
    }
    const items = group(await search(exact.toLowerCase()), "customers").items.map((i) => i.title);
    expect(items[0]).toBe(exact);
    expect(items[1]).toBe(`${exact} Holdings`);
    expect(items).toHaveLength(4);
    // A user whose email is exactly the text comes first among users.
    const [{ email }] = await app.rows<{ email: string }>(sql`select email from users_data order by email limit 1`);
    expect(group(await search(email.toUpperCase()), "users").items[0].subtitle).toContain(email);
  });

  it("gives at most 5 per kind and says when more match, matching the database", async () => {
    const result = await search("an");
    for (const g of result.groups) expect(g.items.length).toBeLessThanOrEqual(5);
    const users = group(result, "users");
    expect(users.items).toHaveLength(5);
    expect(users.more).toBe(true);
    // Below 3 characters a search matches names that start with the text.
    for (const item of users.items) expect(`${item.title} ${item.subtitle}`.toLowerCase()).toMatch(/(^|\s|\.)an|^an/);
    const platformCount = await app.count(sql`select 1 from platforms where platform_name ilike '%desktop%'`);
    const platforms = group(await search("desktop"), "platforms");
    expect(platforms.items).toHaveLength(Math.min(5, platformCount));
    expect(platforms.more).toBe(platformCount > 5);
  });

  it("treats LIKE wildcards as text and refuses an empty or control-character search", async () => {
    const result = await search("%_%");
    for (const g of result.groups) expect(g.items).toEqual([]);
    const empty = await app.read("/api/search?q=%20");
    expect(empty.status).toBe(422);
    expect(empty.body.error.message).toBe(msg.search.queryRequired);
    expect((await app.read("/api/search?q=a%07b")).status).toBe(422);
    expect((await app.read("/api/search?q=" + "x".repeat(201))).status).toBe(422);
  });
});
