-- Engram's SQLite schema, version 1. Timestamps are Unix milliseconds (UTC).

CREATE TABLE orgs (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    created_at  INTEGER NOT NULL
);

CREATE TABLE api_keys (
    id           TEXT PRIMARY KEY,
    org_id       TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    secret_hash  TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    revoked_at   INTEGER
);
CREATE INDEX api_keys_org ON api_keys(org_id);

CREATE TABLE meta (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);

CREATE TABLE documents (
    id               TEXT PRIMARY KEY,
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
    metadata         TEXT NOT NULL,
    filepath         TEXT,
    entity_context   TEXT,
    revision         INTEGER NOT NULL,
    chunk_count      INTEGER NOT NULL DEFAULT 0,
    file_name        TEXT,
    file_mime        TEXT,
    file_bytes       BLOB,
    created_at       INTEGER NOT NULL,
    updated_at       INTEGER NOT NULL
);
CREATE UNIQUE INDEX documents_custom_id ON documents(org_id, custom_id) WHERE custom_id IS NOT NULL;
CREATE INDEX documents_org_created ON documents(org_id, created_at);
CREATE INDEX documents_org_updated ON documents(org_id, updated_at);
CREATE INDEX documents_org_status ON documents(org_id, status);
CREATE INDEX documents_org_filepath ON documents(org_id, filepath);

CREATE TABLE document_tags (
    document_id  TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    org_id       TEXT NOT NULL,
    tag          TEXT NOT NULL,
    PRIMARY KEY (document_id, tag)
);
CREATE INDEX document_tags_org_tag ON document_tags(org_id, tag);

-- One row per chunk; `seq` is the rowid shared with the full-text index.
CREATE TABLE chunks (
    seq          INTEGER PRIMARY KEY,
    id           TEXT NOT NULL UNIQUE,
    document_id  TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    org_id       TEXT NOT NULL,
    position     INTEGER NOT NULL,
    content      TEXT NOT NULL,
    token_count  INTEGER NOT NULL,
    embedding    BLOB NOT NULL,
    created_at   INTEGER NOT NULL,
    UNIQUE (document_id, position)
);
CREATE INDEX chunks_org ON chunks(org_id);

CREATE VIRTUAL TABLE chunks_fts USING fts5(content, tokenize = 'porter unicode61');

CREATE TRIGGER chunks_fts_insert AFTER INSERT ON chunks BEGIN
    INSERT INTO chunks_fts(rowid, content) VALUES (new.seq, new.content);
END;
CREATE TRIGGER chunks_fts_delete AFTER DELETE ON chunks BEGIN
    DELETE FROM chunks_fts WHERE rowid = old.seq;
END;

-- The durable work queue. At most one job per document: a new revision
-- replaces the old job, which fences out a worker still holding it.
CREATE TABLE jobs (
    id                TEXT PRIMARY KEY,
    org_id            TEXT NOT NULL,
    document_id       TEXT NOT NULL UNIQUE REFERENCES documents(id) ON DELETE CASCADE,
    revision          INTEGER NOT NULL,
    attempts          INTEGER NOT NULL DEFAULT 0,
    run_after         INTEGER NOT NULL,
    lease_owner       TEXT,
    lease_expires_at  INTEGER,
    created_at        INTEGER NOT NULL
);
CREATE INDEX jobs_due ON jobs(run_after);
