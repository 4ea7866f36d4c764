-- Prompt review's one gate (docs/prompt-review.md, "One gate for what platforms are served").
-- The console states its PROMPT_REVIEW mode at the start of each of its transactions
-- (`pedal.prompt_review`, a transaction-local setting); an approval marks its own transaction
-- (`pedal.review_applying`). While review is on, a write that changes what a platform is served is
-- refused here, whatever path made it (a route, a restore, a bulk action or its undo, a cascade):
-- a prompt's title, content, status or skill, or its deletion, while it is actively assigned to a
-- platform review covers; an assignment made, removed or changed on such a platform; a platform
-- deleted with such assignments. Review covers every platform under `all`, and the platforms
-- marked "Changes need review" under `protected`. Writes outside the console (no setting) pass.
CREATE OR REPLACE FUNCTION pedal_review_mode() RETURNS text LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN coalesce(current_setting('pedal.review_applying', true), '') = 'on' THEN 'off'
    ELSE coalesce(nullif(current_setting('pedal.prompt_review', true), ''), 'off') END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION pedal_review_refuse(what text, id uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'prompt review required: %', what USING ERRCODE = 'PR001', DETAIL = id::text;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION pedal_prompts_review_gate() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  mode text := pedal_review_mode();
BEGIN
  IF mode = 'off' THEN
    IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
    RETURN NEW;
  END IF;
  IF TG_OP = 'UPDATE' AND (NEW.prompt_title, NEW.prompt_value, NEW.status, NEW.skill_id)
      IS NOT DISTINCT FROM (OLD.prompt_title, OLD.prompt_value, OLD.status, OLD.skill_id) THEN
    RETURN NEW;
  END IF;
  IF EXISTS (SELECT 1 FROM platform_prompts pp JOIN platforms pl ON pl.platform_id = pp.platform_id
      WHERE pp.prompt_id = OLD.prompt_id AND pp.is_active AND (mode = 'all' OR pl.needs_review)) THEN
    PERFORM pedal_review_refuse('prompt', OLD.prompt_id);
  END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION platform_prompts_review_gate() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  mode text := pedal_review_mode();
BEGIN
  IF mode = 'off' THEN
    IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
    RETURN NEW;
  END IF;
  IF TG_OP = 'UPDATE' AND (NEW.prompt_id, NEW.platform_id, NEW.is_active, NEW.assigned_at)
      IS NOT DISTINCT FROM (OLD.prompt_id, OLD.platform_id, OLD.is_active, OLD.assigned_at) THEN
    RETURN NEW;
  END IF;
  IF TG_OP <> 'INSERT' AND (mode = 'all' OR EXISTS (SELECT 1 FROM platforms pl
      WHERE pl.platform_id = OLD.platform_id AND pl.needs_review)) THEN
    PERFORM pedal_review_refuse('assignment', OLD.prompt_id);
  END IF;
  IF TG_OP <> 'DELETE' AND (mode = 'all' OR EXISTS (SELECT 1 FROM platforms pl
      WHERE pl.platform_id = NEW.platform_id AND pl.needs_review)) THEN
    PERFORM pedal_review_refuse('assignment', NEW.prompt_id);
  END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION platforms_review_gate() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  mode text := pedal_review_mode();
BEGIN
  IF mode <> 'off' AND (mode = 'all' OR OLD.needs_review)
    AND EXISTS (SELECT 1 FROM platform_prompts pp WHERE pp.platform_id = OLD.platform_id AND pp.is_active) THEN
    PERFORM pedal_review_refuse('platform', OLD.platform_id);
  END IF;
  RETURN OLD;
END
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS pedal_prompts_review_gate ON pedal_prompts;
--> statement-breakpoint
CREATE TRIGGER pedal_prompts_review_gate BEFORE UPDATE OR DELETE ON pedal_prompts
  FOR EACH ROW EXECUTE FUNCTION pedal_prompts_review_gate();
--> statement-breakpoint
DROP TRIGGER IF EXISTS platform_prompts_review_gate ON platform_prompts;
--> statement-breakpoint
CREATE TRIGGER platform_prompts_review_gate BEFORE INSERT OR UPDATE OR DELETE ON platform_prompts
  FOR EACH ROW EXECUTE FUNCTION platform_prompts_review_gate();
--> statement-breakpoint
DROP TRIGGER IF EXISTS platforms_review_gate ON platforms;
--> statement-breakpoint
CREATE TRIGGER platforms_review_gate BEFORE DELETE ON platforms
  FOR EACH ROW EXECUTE FUNCTION platforms_review_gate();
