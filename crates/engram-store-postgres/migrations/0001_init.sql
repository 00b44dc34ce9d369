-- Engram's PostgreSQL schema, version 1. Timestamps are Unix milliseconds
-- (UTC), as in the SQLite schema, so both backends hold the same values.
-- Embeddings are pgvector `vector`s; metadata is `jsonb`.

CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE orgs (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    created_at  BIGINT NOT NULL
);

CREATE TABLE api_keys (
    id           TEXT PRIMARY KEY,
    org_id       TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    secret_hash  TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    revoked_at   BIGINT
);
CREATE INDEX api_keys_org ON api_keys(org_id);

CREATE TABLE meta (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);

-- `seq` is the creation order (the reading order of a conversation sent
-- one message per document).
CREATE TABLE documents (
    id               TEXT PRIMARY KEY,
    seq              BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    org_id           TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    custom_id        TEXT,
    content          TEXT NOT NULL,
    text             TEXT,
    title            TEXT,
    summary          TEXT,
    url              TEXT,
    source           TEXT,
    doc_type         TEXT NOT NULL,
    status           TEXT NOT NULL,
    error            TEXT,
    task_type        TEXT NOT NULL,
    dreaming         TEXT NOT NULL,
    dreaming_status  TEXT NOT NULL,
    metadata         JSONB NOT NULL,
    filepath         TEXT,
    entity_context   TEXT,
    revision         BIGINT NOT NULL,
    chunk_count      BIGINT NOT NULL DEFAULT 0,
    file_name        TEXT,
    file_mime        TEXT,
    file_bytes       BYTEA,
    created_at       BIGINT NOT NULL,
    updated_at       BIGINT NOT NULL
);
CREATE UNIQUE INDEX documents_custom_id ON documents(org_id, custom_id) WHERE custom_id IS NOT NULL;
CREATE INDEX documents_org_created ON documents(org_id, created_at);
CREATE INDEX documents_org_updated ON documents(org_id, updated_at);
CREATE INDEX documents_org_status ON documents(org_id, status);
CREATE INDEX documents_org_filepath ON documents(org_id, filepath text_pattern_ops);

CREATE TABLE document_tags (
    document_id  TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    org_id       TEXT NOT NULL,
    tag          TEXT NOT NULL,
    PRIMARY KEY (document_id, tag)
);
CREATE INDEX document_tags_org_tag ON document_tags(org_id, tag);

CREATE TABLE chunks (
    id           TEXT PRIMARY KEY,
    document_id  TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    org_id       TEXT NOT NULL,
    position     BIGINT NOT NULL,
    content      TEXT NOT NULL,
    token_count  BIGINT NOT NULL,
    embedding    vector NOT NULL,
    created_at   BIGINT NOT NULL,
    UNIQUE (document_id, position)
);

-- The durable work queue. At most one job per document: a new revision
-- replaces the old job, which fences out a worker still holding it.
CREATE TABLE jobs (
    id                TEXT PRIMARY KEY,
    org_id            TEXT NOT NULL,
    document_id       TEXT NOT NULL UNIQUE REFERENCES documents(id) ON DELETE CASCADE,
    revision          BIGINT NOT NULL,
    attempts          BIGINT NOT NULL DEFAULT 0,
    run_after         BIGINT NOT NULL,
    lease_owner       TEXT,
    lease_expires_at  BIGINT,
    created_at        BIGINT NOT NULL
);
CREATE INDEX jobs_due ON jobs(run_after, created_at);

-- What each replica's in-process search index must reload: one row per
-- document at its latest change. `seq` must grow in commit order within an
-- organisation, or a replica could read seq 11, move past it, and never see
-- a seq 10 committed later: so every transaction that writes an
-- organisation's documents holds that organisation's advisory lock (taken
-- here, and up front in a fixed order by the store) from before it draws a
-- seq until it commits.
CREATE SEQUENCE index_log_seq;
CREATE TABLE index_log (
    document_id  TEXT PRIMARY KEY,
    org_id       TEXT NOT NULL,
    seq          BIGINT NOT NULL
);
CREATE INDEX index_log_org_seq ON index_log(org_id, seq);

CREATE FUNCTION engram_log_change(org TEXT, doc TEXT) RETURNS void AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended(org, 7));
    INSERT INTO index_log (document_id, org_id, seq) VALUES (doc, org, nextval('index_log_seq'))
    ON CONFLICT (document_id) DO UPDATE SET seq = EXCLUDED.seq, org_id = EXCLUDED.org_id;
END;
$$ LANGUAGE plpgsql;

CREATE FUNCTION engram_documents_changed() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM engram_log_change(OLD.org_id, OLD.id);
    ELSE
        PERFORM engram_log_change(NEW.org_id, NEW.id);
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE FUNCTION engram_tags_changed() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM engram_log_change(OLD.org_id, OLD.document_id);
    ELSE
        PERFORM engram_log_change(NEW.org_id, NEW.document_id);
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER documents_index AFTER INSERT OR UPDATE OR DELETE ON documents
    FOR EACH ROW EXECUTE FUNCTION engram_documents_changed();
CREATE TRIGGER tags_index AFTER INSERT OR DELETE ON document_tags
    FOR EACH ROW EXECUTE FUNCTION engram_tags_changed();
