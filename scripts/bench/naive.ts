/**
 * The naive pattern the spec's original system uses for the users screen, on the benchmark
 * database: the whole users table with the customer's name joined, then one roles query per user,
 * then the four summary-card counts, each as its own query. Bounded in time: the table is read
 * through a cursor for at most `fetchBudgetMs` and the per-user queries run for at most
 * `rolesBudgetMs`; what was not read is extrapolated linearly (the work is per row).
 */
import type { InProcess } from "./inproc";

export type NaiveResult = {
  users: number;
  fetchedRows: number;
  fetchMs: number;
  /** Time to read every row, measured or extrapolated. */
  fetchAllMs: number;
  roleQueries: number;
  rolesMs: number;
  /** Mean time of one roles query. */
  perRoleMs: number;
  cardsMs: number;
  totalMs: number;
  extrapolated: boolean;
  formula: string;
};

const fmt = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(ms < 1 ? 3 : 1)} ms`);

/** Measures the naive pattern (see the module comment). */
export async function measureNaive(
  db: InProcess,
  fetchBudgetMs = 25_000,
  rolesBudgetMs = 25_000,
): Promise<NaiveResult> {
  return db.session(async (q) => {
    const [{ n: users }] = await q<{ n: number }>("select count(*)::int as n from users_data");
    // The whole table as the original system asks for it: every column and the customer's name.
    await q("set local cursor_tuple_fraction = 1");
    await q(`declare naive_users no scroll cursor for
      select u.*, c.customer_name from users_data u join customers c on c.customer_id = u.customer_id`);
    const ids: string[] = [];
    let fetchedRows = 0;
    const fetchStart = performance.now();
    for (;;) {
      const rows = await q<{ user_id: string }>("fetch 5000 from naive_users");
      fetchedRows += rows.length;
      for (const r of rows) if (ids.length < 200_000) ids.push(r.user_id);
      if (rows.length < 5000 || performance.now() - fetchStart > fetchBudgetMs) break;
    }
    const fetchMs = performance.now() - fetchStart;
    await q("close naive_users");
    const fetchAllMs = fetchedRows >= users ? fetchMs : (fetchMs * users) / Math.max(1, fetchedRows);

    // One roles query per user, as the original screen does.
    let roleQueries = 0;
    const rolesStart = performance.now();
    while (roleQueries < ids.length && performance.now() - rolesStart < rolesBudgetMs) {
      await q("select role from users_roles where user_id = $1", [ids[roleQueries]]);
      roleQueries++;
    }
    const rolesMs = performance.now() - rolesStart;
    const perRoleMs = rolesMs / Math.max(1, roleQueries);

    // The four cards, each its own whole-table count.
    const cardsStart = performance.now();
    await q("select count(*) from users_data");
    await q("select count(*) from users_data where status = 'active'");
    await q("select count(*) from users_data where status = 'inactive'");
    await q("select count(*) from users_data where last_login >= now() - interval '24 hours'");
    const cardsMs = performance.now() - cardsStart;

    const totalMs = fetchAllMs + users * perRoleMs + cardsMs;
    const extrapolated = fetchedRows < users || roleQueries < users;
    const formula =
      `T = fetch ${fmt(fetchMs)} × ${users.toLocaleString("en-US")} / ${fetchedRows.toLocaleString("en-US")} rows` +
      ` + ${users.toLocaleString("en-US")} users × ${fmt(perRoleMs)} a roles query (mean of ${roleQueries.toLocaleString("en-US")})` +
      ` + cards ${fmt(cardsMs)} = ${fmt(totalMs)}`;
    return {
      users,
      fetchedRows,
      fetchMs,
      fetchAllMs,
      roleQueries,
      rolesMs,
      perRoleMs,
      cardsMs,
      totalMs,
      extrapolated,
      formula,
    };
  });
}
