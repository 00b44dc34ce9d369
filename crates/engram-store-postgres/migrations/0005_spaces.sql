-- Container tags' settings. A tag exists without a row here as soon as a
-- document or memory uses it; the row holds what a client set.
CREATE TABLE container_tags (
    org_id          TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    tag             TEXT NOT NULL,
    name            TEXT,
    entity_context  TEXT,
    profile_buckets TEXT NOT NULL DEFAULT '[]',
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL,
    PRIMARY KEY (org_id, tag)
);

-- Merges of container tags: queued by the API, run in one transaction by
-- a background task (or, after a crash, by the next sweep).
CREATE TABLE tag_merges (
    id               TEXT PRIMARY KEY,
    org_id           TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    sources          TEXT NOT NULL,
    target           TEXT NOT NULL,
    status           TEXT NOT NULL,
    moved_documents  BIGINT NOT NULL DEFAULT 0,
    moved_memories   BIGINT NOT NULL DEFAULT 0,
    created_at       BIGINT NOT NULL,
    updated_at       BIGINT NOT NULL
);
CREATE INDEX tag_merges_status ON tag_merges(status, created_at);

-- Each organisation's settings: one JSON document.
CREATE TABLE org_settings (
    org_id      TEXT PRIMARY KEY REFERENCES orgs(id) ON DELETE CASCADE,
    settings    TEXT NOT NULL,
    updated_at  BIGINT NOT NULL
);
