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
