/**
 * The maintained status counters (docs/lists.md "Counters"): one trigger function for every table,
 * registered with one line, kept exact through inserts, updates, deletes and truncation, and
 * recomputed by refresh_list_counts() without that function knowing the table.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows, type DatabaseHandle } from "../../src/server/db/client";
import { freshDatabase, targets } from "../support/databases";

describe.each(targets)("status counters on %s", (target) => {
  let handle: DatabaseHandle;
  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(handle.db, query);
  const counts = async (entity: string) =>
    Object.fromEntries(
      (
        await rows<{ status: string; n: number }>(
          sql`select status, n::int as n from status_counts where entity = ${entity} and n <> 0 order by status`,
        )
      ).map((r) => [r.status, r.n]),
    );

  beforeAll(async () => {
    handle = await freshDatabase(target);
    await handle.db.execute(sql`create table gadgets (id serial primary key, status text not null)`);
    await handle.db.execute(sql`insert into gadgets (status) values ('active'), ('active'), ('draft')`);
  });
  afterAll(() => handle.close());

  it("counts a new table's statuses from one registration line, and keeps them exact", async () => {
    await handle.db.execute(sql`select register_status_counter('gadgets', 'gadgets')`);
    expect(await counts("gadgets")).toEqual({ active: 2, draft: 1 });
    await handle.db.execute(sql`insert into gadgets (status) values ('inactive'), ('draft')`);
    await handle.db.execute(sql`update gadgets set status = 'active' where status = 'draft'`);
    await handle.db.execute(sql`delete from gadgets where status = 'inactive'`);
    expect(await counts("gadgets")).toEqual({ active: 4 });
    await handle.db.execute(sql`truncate gadgets`);
    expect(await counts("gadgets")).toEqual({});
  });

  it("is recomputed by refresh_list_counts() with the console's own tables", async () => {
    await handle.db.execute(sql`insert into gadgets (status) values ('active'), ('draft')`);
    await handle.db.execute(sql`delete from status_counts`);
    await handle.db.execute(sql`select refresh_list_counts()`);
    expect(await counts("gadgets")).toEqual({ active: 1, draft: 1 });
    // The console's plain counters are registered the same way.
    const registered = await rows<{ entity: string }>(sql`
      select distinct split_part(encode(t.tgargs, 'escape'), '\\000', 1) as entity from pg_trigger t join pg_proc p on p.oid = t.tgfoid
      where p.proname = 'count_statuses' order by 1`);
    expect(registered.map((r) => r.entity)).toEqual(["gadgets", "platforms", "prompts", "skill_comments"]);
  });
});
