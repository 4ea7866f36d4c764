-- The Assign Skill picker (GET /api/teams/{teamId}/assignable-skills) lists the active skills a team
-- does not have, by name: at 50,000 skills it scanned and sorted the whole table on every keystroke.
-- A partial index in the picker's order (active skills only) serves its pages, its bounded count
-- and its offsets from the index alone; a trigram index on the description serves its search (the
-- name has skills_name_trgm). pg_trgm is optional, as in 0001.
CREATE INDEX IF NOT EXISTS skills_active_name_lower_idx ON skills (lower(skill_name), skill_id) WHERE status = 'active';
--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX IF NOT EXISTS skills_description_trgm ON skills USING gin ((coalesce(skill_description, '')) gin_trgm_ops);
  END IF;
END
$$;
