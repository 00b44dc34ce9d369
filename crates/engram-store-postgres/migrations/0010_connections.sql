-- Connections to outside sources. Secrets are sealed by the engine before
-- they get here (never plaintext); cursor and config are the provider's
-- own JSON; the lease keeps one replica at a time syncing a connection.
CREATE TABLE connections (
    id               TEXT PRIMARY KEY,
    org_id           TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    provider         TEXT NOT NULL,
    container_tags   TEXT NOT NULL DEFAULT '[]',
    document_limit   BIGINT NOT NULL,
    metadata         TEXT NOT NULL DEFAULT '{}',
    secrets          BYTEA,
    status           TEXT NOT NULL,
    email            TEXT,
    expires_at       BIGINT,
    redirect_url     TEXT,
    oauth_state      TEXT UNIQUE,
    config           TEXT NOT NULL DEFAULT 'null',
    cursor           TEXT NOT NULL DEFAULT 'null',
    last_sync        TEXT NOT NULL DEFAULT 'null',
    next_sync_at     BIGINT,
    lease_owner      TEXT,
    lease_expires_at BIGINT,
    created_at       BIGINT NOT NULL,
    updated_at       BIGINT NOT NULL
);
CREATE INDEX connections_org ON connections(org_id, provider);
CREATE INDEX connections_due ON connections(status, next_sync_at);

-- Which connection synced a document (none: written through the API).
ALTER TABLE documents ADD COLUMN connection_id TEXT;
CREATE INDEX documents_connection ON documents(org_id, connection_id);
