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
CREATE INDEX request_logs_org_time ON request_logs(org_id, created_at, id);
CREATE INDEX request_logs_time ON request_logs(created_at);
CREATE INDEX request_logs_org_kind ON request_logs(org_id, kind, created_at, id);

-- Hourly rollups of request_logs, written in the same transaction: the
-- reports read whole hours here and only the partial hours at a window's
-- edges from request_logs. `error_type` is '' for requests that did not
-- fail; `total_ms` sums durations.
CREATE TABLE request_rollups (
    org_id       TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    hour         INTEGER NOT NULL,
    kind         TEXT NOT NULL,
    key_id       TEXT NOT NULL,
    status_code  INTEGER NOT NULL,
    error_type   TEXT NOT NULL,
    count        INTEGER NOT NULL,
    total_ms     REAL NOT NULL,
    last_at      INTEGER NOT NULL,
    PRIMARY KEY (org_id, hour, kind, key_id, status_code, error_type)
);
CREATE INDEX request_rollups_hour ON request_rollups(hour);

-- Rate-limit windows shared by every process on this database: a window
-- starts with its first request.
CREATE TABLE rate_limits (
    bucket        TEXT PRIMARY KEY,
    window_start  INTEGER NOT NULL,
    count         INTEGER NOT NULL
);
