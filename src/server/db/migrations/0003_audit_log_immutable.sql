-- Audit rows are append-only: no UPDATE or DELETE, whoever asks.
CREATE OR REPLACE FUNCTION audit_log_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log rows cannot be changed or deleted';
END
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS audit_log_no_change ON audit_log;
--> statement-breakpoint
CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_immutable();
