-- A change to who a credential is (an operator's role, ban or profile; a session ended or
-- refreshed; an API token revoked, lowered or renewed) is announced on the channel
-- `pedal_credentials` at commit, so that every server copy drops the sessions and tokens it keeps
-- for a few seconds (src/server/credential-cache.ts). Statement-level: one notice per statement,
-- and PostgreSQL folds equal notices of one transaction into one. An API token's last_used_at,
-- written once a minute per token, changes nobody's rights and announces nothing.
CREATE FUNCTION pedal_credentials_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('pedal_credentials', TG_TABLE_NAME);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER operator_credentials_changed AFTER UPDATE OR DELETE ON "operator"
  FOR EACH STATEMENT EXECUTE FUNCTION pedal_credentials_changed();--> statement-breakpoint
CREATE TRIGGER operator_session_credentials_changed AFTER UPDATE OR DELETE ON "operator_session"
  FOR EACH STATEMENT EXECUTE FUNCTION pedal_credentials_changed();--> statement-breakpoint
CREATE TRIGGER operator_api_token_credentials_changed
  AFTER UPDATE OF operator_id, token_hash, role, expires_at, platform_id, revoked_at OR DELETE ON "operator_api_token"
  FOR EACH STATEMENT EXECUTE FUNCTION pedal_credentials_changed();
