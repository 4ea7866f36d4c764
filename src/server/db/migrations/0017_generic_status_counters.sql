-- Status counters of any table with one function (docs/lists.md "Counters"): count_statuses()
-- keeps status_counts for the table its trigger is on, under the entity name given as the
-- trigger's argument; refresh_status_counters() recomputes every table that has such triggers
-- (found in pg_trigger, so there is no list to keep); register_status_counter(table, entity)
-- creates a table's four triggers and counts it. A new entity with status cards adds one line:
--   SELECT register_status_counter('<table>', '<entity>');
-- refresh_list_counts() is written here for the last time: it keeps its own counters and calls
-- refresh_status_counters() for the rest.

CREATE OR REPLACE FUNCTION count_statuses() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE deltas jsonb;
BEGIN
  EXECUTE format('WITH ch AS (%s) SELECT jsonb_object_agg(status, n) FROM (SELECT status, sum(d) AS n FROM ch GROUP BY status) x',
    changed_rows_sql(TG_OP)) INTO deltas;
  PERFORM bump_status_counts(TG_ARGV[0], coalesce(deltas, '{}'));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION refresh_status_counters() RETURNS void LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
  FOR r IN
    SELECT DISTINCT t.tgrelid::regclass AS source, split_part(encode(t.tgargs, 'escape'), '\000', 1) AS entity
    FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
    WHERE p.proname = 'count_statuses' AND t.tgnargs = 1
  LOOP
    DELETE FROM status_counts WHERE entity = r.entity;
    EXECUTE format('INSERT INTO status_counts (entity, status, n) SELECT %L, status, count(*) FROM %s GROUP BY status', r.entity, r.source);
  END LOOP;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION register_status_counter(p_source regclass, p_entity text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  name text := (SELECT relname FROM pg_class WHERE oid = p_source);
BEGIN
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %s', name || '_counts_insert', p_source);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %s', name || '_counts_update', p_source);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %s', name || '_counts_delete', p_source);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %s', name || '_counts_truncate', p_source);
  EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %s REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_statuses(%L)', name || '_counts_insert', p_source, p_entity);
  EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %s REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_statuses(%L)', name || '_counts_update', p_source, p_entity);
  EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %s REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_statuses(%L)', name || '_counts_delete', p_source, p_entity);
  EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %s FOR EACH STATEMENT EXECUTE FUNCTION refresh_list_counts_after_truncate()', name || '_counts_truncate', p_source);
  DELETE FROM status_counts WHERE entity = p_entity;
  EXECUTE format('INSERT INTO status_counts (entity, status, n) SELECT %L, status, count(*) FROM %s GROUP BY status', p_entity, p_source);
END;
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
  DELETE FROM skill_counts;
  INSERT INTO skill_counts (skill_id, team_count)
  SELECT s.skill_id, coalesce(a.n, 0) FROM skills s
  LEFT JOIN (SELECT skill_id, count(*) AS n FROM teams_skills WHERE status = 'active' GROUP BY skill_id) a ON a.skill_id = s.skill_id;
  -- The status counters with rows of their own (signed in, global); the plain ones below.
  DELETE FROM status_counts;
  INSERT INTO status_counts (entity, status, n)
  SELECT 'customers', status, count(*) FROM customers GROUP BY status
  UNION ALL SELECT 'teams', status, count(*) FROM teams GROUP BY status
  UNION ALL SELECT 'users_data', status, count(*) FROM users_data GROUP BY status
  UNION ALL SELECT 'users_data', 'signed_in', count(*) FROM users_data WHERE last_login IS NOT NULL
  UNION ALL SELECT 'users_signed_in', status, count(*) FROM users_data WHERE last_login IS NOT NULL GROUP BY status
  UNION ALL SELECT 'skills', status, count(*) FROM skills GROUP BY status
  UNION ALL SELECT 'skills', 'global', count(*) FROM skills WHERE is_global;
  PERFORM refresh_status_counters();
END;
$$;
--> statement-breakpoint
SELECT register_status_counter('skill_comments', 'skill_comments');
--> statement-breakpoint
SELECT register_status_counter('pedal_prompts', 'prompts');
--> statement-breakpoint
SELECT register_status_counter('platforms', 'platforms');
--> statement-breakpoint
DROP FUNCTION IF EXISTS count_skill_comments();
--> statement-breakpoint
DROP FUNCTION IF EXISTS count_prompt_platform_statuses();
--> statement-breakpoint
DROP FUNCTION IF EXISTS refresh_prompt_platform_counts();
