-- The users list's `signed_in` filter (the dashboard's Active Users card opens /users?signed_in=true)
-- keeps its summary cards from counters: status_counts gets, under entity 'users_signed_in', the
-- users who have signed in at least once (last_login not null) per status. Kept by the same
-- statement-level trigger as the other user counters, updated after the 'users_data' rows, so
-- that counter rows are still always taken in key order.

CREATE OR REPLACE FUNCTION refresh_list_counts() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM customer_counts;
  INSERT INTO customer_counts (customer_id, user_count, team_count)
  SELECT c.customer_id, coalesce(u.n, 0), coalesce(t.n, 0) FROM customers c
  LEFT JOIN (SELECT customer_id, count(*) AS n FROM users_data GROUP BY customer_id) u ON u.customer_id = c.customer_id
  LEFT JOIN (SELECT customer_id, count(*) AS n FROM teams GROUP BY customer_id) t ON t.customer_id = c.customer_id;
  DELETE FROM team_counts;
  INSERT INTO team_counts (team_id, user_count, skills_count)
  SELECT t.team_id, coalesce(m.n, 0), coalesce(s.n, 0) FROM teams t
  LEFT JOIN (SELECT team_id, count(*) AS n FROM teams_users GROUP BY team_id) m ON m.team_id = t.team_id
  LEFT JOIN (SELECT team_id, count(*) AS n FROM teams_skills WHERE status = 'active' GROUP BY team_id) s ON s.team_id = t.team_id;
  DELETE FROM status_counts;
  INSERT INTO status_counts (entity, status, n)
  SELECT 'customers', status, count(*) FROM customers GROUP BY status
  UNION ALL SELECT 'teams', status, count(*) FROM teams GROUP BY status
  UNION ALL SELECT 'users_data', status, count(*) FROM users_data GROUP BY status
  UNION ALL SELECT 'users_data', 'signed_in', count(*) FROM users_data WHERE last_login IS NOT NULL
  UNION ALL SELECT 'users_signed_in', status, count(*) FROM users_data WHERE last_login IS NOT NULL GROUP BY status;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION count_users() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE deltas jsonb; signed_in_deltas jsonb;
BEGIN
  EXECUTE format($q$
    WITH ch AS (%s),
    per_customer AS (
      UPDATE customer_counts c SET user_count = c.user_count + x.n
      FROM (SELECT customer_id, sum(d) AS n FROM ch GROUP BY customer_id HAVING sum(d) <> 0 ORDER BY customer_id) x
      WHERE c.customer_id = x.customer_id RETURNING 1)
    SELECT (SELECT jsonb_object_agg(k, n) FROM (
        SELECT status AS k, sum(d) AS n FROM ch GROUP BY status
        UNION ALL SELECT 'signed_in', sum(d) FROM ch WHERE last_login IS NOT NULL) x WHERE n IS NOT NULL),
      (SELECT jsonb_object_agg(status, n) FROM (
        SELECT status, sum(d) AS n FROM ch WHERE last_login IS NOT NULL GROUP BY status) y)$q$,
    changed_rows_sql(TG_OP)) INTO deltas, signed_in_deltas;
  PERFORM bump_status_counts('users_data', coalesce(deltas, '{}'));
  PERFORM bump_status_counts('users_signed_in', coalesce(signed_in_deltas, '{}'));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
INSERT INTO status_counts (entity, status, n)
SELECT 'users_signed_in', status, count(*) FROM users_data WHERE last_login IS NOT NULL GROUP BY status ORDER BY status
ON CONFLICT (entity, status) DO UPDATE SET n = excluded.n;
