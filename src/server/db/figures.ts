import { sql } from "drizzle-orm";

/**
 * Users by the day of their last sign-in over the last `days` days, oldest first, every day present
 * (`{ label: "YYYY-MM-DD", users }` rows): the analytics screen's sign-ins figure and the
 * dashboard's trend (docs/dashboard.md). A range of `users_data_last_login_at_idx`; the data keeps
 * one sign-in time per user, so a user counts once, on their latest day.
 */
export const signInsPerDay = (days: number) => sql`
  select to_char(d.day, 'YYYY-MM-DD') as label, coalesce(n.users, 0)::int as users
  from generate_series(date_trunc('day', now()) - make_interval(days => ${days - 1}), date_trunc('day', now()), interval '1 day') as d(day)
  left join (
    select date_trunc('day', last_login) as day, count(*) as users from users_data
    where last_login >= date_trunc('day', now()) - make_interval(days => ${days - 1})
    group by 1
  ) n on n.day = d.day
  order by d.day`;
