-- Skill list counters (docs/lists.md): skill_counts.team_count (active team assignments, the
-- /skills Teams column) and status_counts rows for entity 'skills' (one per status, and 'global'
-- for the global skills: the /skills cards), kept by statement-level triggers like 0007's.
-- refresh_list_counts() now also recomputes them. Counter rows are taken in key order (teams'
-- counters before skills' in one statement), so that concurrent transactions cannot deadlock.

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
  UNION ALL SELECT 'skills', 'global', count(*) FROM skills WHERE is_global;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION count_skills() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE deltas jsonb;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO skill_counts (skill_id) SELECT skill_id FROM new_rows ORDER BY skill_id ON CONFLICT DO NOTHING;
  END IF;
  EXECUTE format($q$
    WITH ch AS (%s)
    SELECT jsonb_object_agg(k, n) FROM (
      SELECT status AS k, sum(d) AS n FROM ch GROUP BY status
      UNION ALL SELECT 'global', sum(d) FROM ch WHERE is_global) x WHERE n IS NOT NULL$q$,
    changed_rows_sql(TG_OP)) INTO deltas;
  PERFORM bump_status_counts('skills', coalesce(deltas, '{}'));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION count_team_skills() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Only active assignments count (SPEC.md §4), on the team and on the skill.
  EXECUTE format($q$
    WITH ch AS (%s)
    UPDATE team_counts c SET skills_count = c.skills_count + x.n
    FROM (SELECT team_id, sum(d) AS n FROM ch WHERE status = 'active' GROUP BY team_id HAVING sum(d) <> 0 ORDER BY team_id) x
    WHERE c.team_id = x.team_id$q$, changed_rows_sql(TG_OP));
  EXECUTE format($q$
    WITH ch AS (%s)
    UPDATE skill_counts c SET team_count = c.team_count + x.n
    FROM (SELECT skill_id, sum(d) AS n FROM ch WHERE status = 'active' GROUP BY skill_id HAVING sum(d) <> 0 ORDER BY skill_id) x
    WHERE c.skill_id = x.skill_id$q$, changed_rows_sql(TG_OP));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER skills_counts_insert AFTER INSERT ON skills REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_skills();
--> statement-breakpoint
CREATE TRIGGER skills_counts_update AFTER UPDATE ON skills REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_skills();
--> statement-breakpoint
CREATE TRIGGER skills_counts_delete AFTER DELETE ON skills REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_skills();
--> statement-breakpoint
CREATE TRIGGER skills_counts_truncate AFTER TRUNCATE ON skills FOR EACH STATEMENT EXECUTE FUNCTION refresh_list_counts_after_truncate();
--> statement-breakpoint
SELECT refresh_list_counts();
--> statement-breakpoint
-- Search: the skills list matches descriptions too; pg_trgm as in 0001, optional.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX IF NOT EXISTS skills_description_trgm ON skills USING gin (skill_description gin_trgm_ops);
  END IF;
END
$$;
