-- Scoped keys: one container tag, an optional expiry and rate limit
-- (requests per minute). A key without a tag is a full key.
ALTER TABLE api_keys ADD COLUMN container_tag TEXT;
ALTER TABLE api_keys ADD COLUMN expires_at INTEGER;
ALTER TABLE api_keys ADD COLUMN rate_limit INTEGER;

-- One row per API request, written in batches; purged after 90 days.
-- `input` and `output` are compact JSON objects; `duration_ms` in ms.
CREATE TABLE request_logs (
    id           TEXT PRIMARY KEY,
    org_id       TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    key_id       TEXT NOT NULL,
    kind         TEXT NOT NULL,
    status_code  INTEGER NOT NULL,
    error_type   TEXT,
    duration_ms  REAL NOT NULL,
    input        TEXT NOT NULL,
    output       TEXT NOT NULL,
    created_at   INTEGER NOT NULL
);
CREATE INDEX request_logs_org_time ON request_logs(org_id, created_at);
CREATE INDEX request_logs_time ON request_logs(created_at);

-- Rate-limit windows shared by every process on this database: a window
-- starts with its first request.
CREATE TABLE rate_limits (
    bucket        TEXT PRIMARY KEY,
    window_start  INTEGER NOT NULL,
    count         INTEGER NOT NULL
);
