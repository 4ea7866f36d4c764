-- Prompt and platform list counters (docs/lists.md): status_counts rows for entities 'prompts'
-- and 'platforms' (one per status: the /prompts and /platforms cards), kept by statement-level
-- triggers like 0007's. refresh_prompt_platform_counts() recomputes them, and refresh_list_counts()
-- now calls it after its own work (its body is 0010's, unchanged, plus that call).

CREATE OR REPLACE FUNCTION refresh_prompt_platform_counts() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM status_counts WHERE entity IN ('prompts', 'platforms');
  INSERT INTO status_counts (entity, status, n)
  SELECT 'prompts', status, count(*) FROM pedal_prompts GROUP BY status
  UNION ALL SELECT 'platforms', status, count(*) FROM platforms GROUP BY status;
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
  PERFORM refresh_prompt_platform_counts();
END;
$$;
--> statement-breakpoint
-- One function for both tables: TG_TABLE_NAME picks the entity.
CREATE OR REPLACE FUNCTION count_prompt_platform_statuses() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE deltas jsonb;
BEGIN
  EXECUTE format('WITH ch AS (%s) SELECT jsonb_object_agg(status, n) FROM (SELECT status, sum(d) AS n FROM ch GROUP BY status) x',
    changed_rows_sql(TG_OP)) INTO deltas;
  PERFORM bump_status_counts(CASE TG_TABLE_NAME WHEN 'pedal_prompts' THEN 'prompts' ELSE 'platforms' END, coalesce(deltas, '{}'));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER pedal_prompts_counts_insert AFTER INSERT ON pedal_prompts REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_prompt_platform_statuses();
--> statement-breakpoint
CREATE TRIGGER pedal_prompts_counts_update AFTER UPDATE ON pedal_prompts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_prompt_platform_statuses();
--> statement-breakpoint
CREATE TRIGGER pedal_prompts_counts_delete AFTER DELETE ON pedal_prompts REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_prompt_platform_statuses();
--> statement-breakpoint
CREATE TRIGGER pedal_prompts_counts_truncate AFTER TRUNCATE ON pedal_prompts FOR EACH STATEMENT EXECUTE FUNCTION refresh_list_counts_after_truncate();
--> statement-breakpoint
CREATE TRIGGER platforms_counts_insert AFTER INSERT ON platforms REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_prompt_platform_statuses();
--> statement-breakpoint
CREATE TRIGGER platforms_counts_update AFTER UPDATE ON platforms REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_prompt_platform_statuses();
--> statement-breakpoint
CREATE TRIGGER platforms_counts_delete AFTER DELETE ON platforms REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_prompt_platform_statuses();
--> statement-breakpoint
CREATE TRIGGER platforms_counts_truncate AFTER TRUNCATE ON platforms FOR EACH STATEMENT EXECUTE FUNCTION refresh_list_counts_after_truncate();
--> statement-breakpoint
SELECT refresh_prompt_platform_counts();
--> statement-breakpoint
-- Search: /prompts matches content, /platforms and the Assign Platform modal match descriptions; pg_trgm as in 0001, optional.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX IF NOT EXISTS pedal_prompts_value_trgm ON pedal_prompts USING gin (prompt_value gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS platforms_description_trgm ON platforms USING gin (platform_description gin_trgm_ops);
  END IF;
END
$$;
