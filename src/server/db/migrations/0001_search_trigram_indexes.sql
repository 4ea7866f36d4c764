-- Trigram indexes back the case-insensitive (ILIKE) search of every list.
-- pg_trgm is optional: where the server lacks it, search still works, only without these indexes.
DO $$
BEGIN
  BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
  EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'pg_trgm is not available; search runs without trigram indexes';
  END;
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX IF NOT EXISTS customers_name_trgm ON customers USING gin (customer_name gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS teams_name_trgm ON teams USING gin (team_name gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS users_data_email_trgm ON users_data USING gin (email gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS users_data_name_trgm ON users_data USING gin ((coalesce(first_name, '') || ' ' || coalesce(last_name, '')) gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS users_data_job_title_trgm ON users_data USING gin (job_title gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS skills_name_trgm ON skills USING gin (skill_name gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS pedal_prompts_title_trgm ON pedal_prompts USING gin (prompt_title gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS platforms_name_trgm ON platforms USING gin (platform_name gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS skill_comments_value_trgm ON skill_comments USING gin (comment_value gin_trgm_ops);
  END IF;
END
$$;
