-- Maintained counters for the lists (docs/lists.md): customer_counts, team_counts and
-- status_counts are kept exact by statement-level triggers with transition tables, so that a bulk
-- insert of many rows costs one counter update per statement, not one per row. Counter rows are
-- always updated in key order, so that concurrent transactions cannot deadlock on them.
-- refresh_list_counts() recomputes everything (after a TRUNCATE, or a bulk load run with
-- session_replication_role = replica, which skips triggers).

CREATE OR REPLACE FUNCTION bump_status_counts(p_entity text, p_deltas jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO status_counts (entity, status, n)
  SELECT p_entity, d.key, d.value::bigint FROM jsonb_each_text(p_deltas) d WHERE d.value::bigint <> 0 ORDER BY d.key
  ON CONFLICT (entity, status) DO UPDATE SET n = status_counts.n + excluded.n;
$$;
--> statement-breakpoint
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
  UNION ALL SELECT 'users_data', 'signed_in', count(*) FROM users_data WHERE last_login IS NOT NULL;
END;
$$;
--> statement-breakpoint
-- The rows a statement changed, each with d = +1 (new) or -1 (old), as SQL over the transition tables.
CREATE OR REPLACE FUNCTION changed_rows_sql(op text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE op
    WHEN 'INSERT' THEN 'SELECT n.*, 1 AS d FROM new_rows n'
    WHEN 'DELETE' THEN 'SELECT o.*, -1 AS d FROM old_rows o'
    ELSE 'SELECT n.*, 1 AS d FROM new_rows n UNION ALL SELECT o.*, -1 FROM old_rows o' END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION count_customers() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE deltas jsonb;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO customer_counts (customer_id) SELECT customer_id FROM new_rows ORDER BY customer_id ON CONFLICT DO NOTHING;
  END IF;
  EXECUTE format('WITH ch AS (%s) SELECT jsonb_object_agg(status, n) FROM (SELECT status, sum(d) AS n FROM ch GROUP BY status) x',
    changed_rows_sql(TG_OP)) INTO deltas;
  PERFORM bump_status_counts('customers', coalesce(deltas, '{}'));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION count_teams() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE deltas jsonb;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO team_counts (team_id) SELECT team_id FROM new_rows ORDER BY team_id ON CONFLICT DO NOTHING;
  END IF;
  EXECUTE format($q$
    WITH ch AS (%s),
    per_customer AS (
      UPDATE customer_counts c SET team_count = c.team_count + x.n
      FROM (SELECT customer_id, sum(d) AS n FROM ch GROUP BY customer_id HAVING sum(d) <> 0 ORDER BY customer_id) x
      WHERE c.customer_id = x.customer_id RETURNING 1)
    SELECT jsonb_object_agg(status, n) FROM (SELECT status, sum(d) AS n FROM ch GROUP BY status) x$q$,
    changed_rows_sql(TG_OP)) INTO deltas;
  PERFORM bump_status_counts('teams', coalesce(deltas, '{}'));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION count_users() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE deltas jsonb;
BEGIN
  EXECUTE format($q$
    WITH ch AS (%s),
    per_customer AS (
      UPDATE customer_counts c SET user_count = c.user_count + x.n
      FROM (SELECT customer_id, sum(d) AS n FROM ch GROUP BY customer_id HAVING sum(d) <> 0 ORDER BY customer_id) x
      WHERE c.customer_id = x.customer_id RETURNING 1)
    SELECT jsonb_object_agg(k, n) FROM (
      SELECT status AS k, sum(d) AS n FROM ch GROUP BY status
      UNION ALL SELECT 'signed_in', sum(d) FROM ch WHERE last_login IS NOT NULL) x WHERE n IS NOT NULL$q$,
    changed_rows_sql(TG_OP)) INTO deltas;
  PERFORM bump_status_counts('users_data', coalesce(deltas, '{}'));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION count_team_members() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format($q$
    WITH ch AS (%s)
    UPDATE team_counts c SET user_count = c.user_count + x.n
    FROM (SELECT team_id, sum(d) AS n FROM ch GROUP BY team_id HAVING sum(d) <> 0 ORDER BY team_id) x
    WHERE c.team_id = x.team_id$q$, changed_rows_sql(TG_OP));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION count_team_skills() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Only active assignments count (SPEC.md §4).
  EXECUTE format($q$
    WITH ch AS (%s)
    UPDATE team_counts c SET skills_count = c.skills_count + x.n
    FROM (SELECT team_id, sum(d) AS n FROM ch WHERE status = 'active' GROUP BY team_id HAVING sum(d) <> 0 ORDER BY team_id) x
    WHERE c.team_id = x.team_id$q$, changed_rows_sql(TG_OP));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION refresh_list_counts_after_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_list_counts();
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER customers_counts_insert AFTER INSERT ON customers REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_customers();
--> statement-breakpoint
CREATE TRIGGER customers_counts_update AFTER UPDATE ON customers REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_customers();
--> statement-breakpoint
CREATE TRIGGER customers_counts_delete AFTER DELETE ON customers REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_customers();
--> statement-breakpoint
CREATE TRIGGER customers_counts_truncate AFTER TRUNCATE ON customers FOR EACH STATEMENT EXECUTE FUNCTION refresh_list_counts_after_truncate();
--> statement-breakpoint
CREATE TRIGGER teams_counts_insert AFTER INSERT ON teams REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_teams();
--> statement-breakpoint
CREATE TRIGGER teams_counts_update AFTER UPDATE ON teams REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_teams();
--> statement-breakpoint
CREATE TRIGGER teams_counts_delete AFTER DELETE ON teams REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_teams();
--> statement-breakpoint
CREATE TRIGGER teams_counts_truncate AFTER TRUNCATE ON teams FOR EACH STATEMENT EXECUTE FUNCTION refresh_list_counts_after_truncate();
--> statement-breakpoint
CREATE TRIGGER users_data_counts_insert AFTER INSERT ON users_data REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_users();
--> statement-breakpoint
CREATE TRIGGER users_data_counts_update AFTER UPDATE ON users_data REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_users();
--> statement-breakpoint
CREATE TRIGGER users_data_counts_delete AFTER DELETE ON users_data REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_users();
--> statement-breakpoint
CREATE TRIGGER users_data_counts_truncate AFTER TRUNCATE ON users_data FOR EACH STATEMENT EXECUTE FUNCTION refresh_list_counts_after_truncate();
--> statement-breakpoint
CREATE TRIGGER teams_users_counts_insert AFTER INSERT ON teams_users REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_team_members();
--> statement-breakpoint
CREATE TRIGGER teams_users_counts_update AFTER UPDATE ON teams_users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_team_members();
--> statement-breakpoint
CREATE TRIGGER teams_users_counts_delete AFTER DELETE ON teams_users REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_team_members();
--> statement-breakpoint
CREATE TRIGGER teams_users_counts_truncate AFTER TRUNCATE ON teams_users FOR EACH STATEMENT EXECUTE FUNCTION refresh_list_counts_after_truncate();
--> statement-breakpoint
CREATE TRIGGER teams_skills_counts_insert AFTER INSERT ON teams_skills REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_team_skills();
--> statement-breakpoint
CREATE TRIGGER teams_skills_counts_update AFTER UPDATE ON teams_skills REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_team_skills();
--> statement-breakpoint
CREATE TRIGGER teams_skills_counts_delete AFTER DELETE ON teams_skills REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_team_skills();
--> statement-breakpoint
CREATE TRIGGER teams_skills_counts_truncate AFTER TRUNCATE ON teams_skills FOR EACH STATEMENT EXECUTE FUNCTION refresh_list_counts_after_truncate();
--> statement-breakpoint
SELECT refresh_list_counts();
--> statement-breakpoint
-- Search: valid domains are searched too (customers list); pg_trgm as in 0001, optional.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX IF NOT EXISTS customers_domains_trgm ON customers USING gin (valid_domains gin_trgm_ops);
  END IF;
END
$$;
