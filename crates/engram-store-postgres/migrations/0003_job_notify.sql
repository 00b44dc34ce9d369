-- Wake idle workers of every replica when a job becomes runnable: a new or
-- re-enqueued job, or one whose lease was released. (Claims set a lease
-- and notify nothing, so notifications cannot feed on themselves.)
-- PostgreSQL delivers a transaction's notifications at commit, folding
-- duplicates into one.

CREATE FUNCTION engram_jobs_notify() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('engram_jobs', '');
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER jobs_notify_insert AFTER INSERT ON jobs
    FOR EACH ROW EXECUTE FUNCTION engram_jobs_notify();
CREATE TRIGGER jobs_notify_release AFTER UPDATE ON jobs
    FOR EACH ROW WHEN (NEW.lease_owner IS NULL AND OLD.lease_owner IS NOT NULL)
    EXECUTE FUNCTION engram_jobs_notify();
