-- Comment list counters (docs/lists.md): status_counts rows for entity 'skill_comments' (one per
-- status: the /comments cards and the review queue's "remaining"), kept by statement-level
-- triggers like 0007's, so that a bulk moderation of many comments costs one counter update per
-- statement. refresh_list_counts() now also recomputes them (it keeps everything 0010 counts).

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
  DELETE FROM status_counts;
  INSERT INTO status_counts (entity, status, n)
  SELECT 'customers', status, count(*) FROM customers GROUP BY status
  UNION ALL SELECT 'teams', status, count(*) FROM teams GROUP BY status
  UNION ALL SELECT 'users_data', status, count(*) FROM users_data GROUP BY status
  UNION ALL SELECT 'users_data', 'signed_in', count(*) FROM users_data WHERE last_login IS NOT NULL
  UNION ALL SELECT 'users_signed_in', status, count(*) FROM users_data WHERE last_login IS NOT NULL GROUP BY status
  UNION ALL SELECT 'skills', status, count(*) FROM skills GROUP BY status
  UNION ALL SELECT 'skills', 'global', count(*) FROM skills WHERE is_global
  UNION ALL SELECT 'skill_comments', status, count(*) FROM skill_comments GROUP BY status;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION count_skill_comments() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE deltas jsonb;
BEGIN
  EXECUTE format('WITH ch AS (%s) SELECT jsonb_object_agg(status, n) FROM (SELECT status, sum(d) AS n FROM ch GROUP BY status) x',
    changed_rows_sql(TG_OP)) INTO deltas;
  PERFORM bump_status_counts('skill_comments', coalesce(deltas, '{}'));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER skill_comments_counts_insert AFTER INSERT ON skill_comments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_skill_comments();
--> statement-breakpoint
CREATE TRIGGER skill_comments_counts_update AFTER UPDATE ON skill_comments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_skill_comments();
--> statement-breakpoint
CREATE TRIGGER skill_comments_counts_delete AFTER DELETE ON skill_comments REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_skill_comments();
--> statement-breakpoint
CREATE TRIGGER skill_comments_counts_truncate AFTER TRUNCATE ON skill_comments FOR EACH STATEMENT EXECUTE FUNCTION refresh_list_counts_after_truncate();
--> statement-breakpoint
SELECT refresh_list_counts();
--> statement-breakpoint
-- Search: the comments list matches the comment text; pg_trgm as in 0001, optional.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX IF NOT EXISTS skill_comments_value_trgm ON skill_comments USING gin (comment_value gin_trgm_ops);
  END IF;
END
$$;
