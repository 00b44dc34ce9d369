-- Memories: atomic facts with versions (a chain from root_id), relations,
-- source documents and lifetimes. A memory goes when the last document it
-- came from goes (trigger on memory_sources). memory_log is to the memory
-- search index what index_log is to the document index.

CREATE TABLE memories (
    id             TEXT PRIMARY KEY,
    org_id         TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    container_tag  TEXT NOT NULL,
    content        TEXT NOT NULL,
    embedding      BLOB NOT NULL,
    is_static      INTEGER NOT NULL DEFAULT 0,
    is_inference   INTEGER NOT NULL DEFAULT 0,
    is_latest      INTEGER NOT NULL DEFAULT 1,
    is_forgotten   INTEGER NOT NULL DEFAULT 0,
    forget_after   INTEGER,
    forget_reason  TEXT,
    version        INTEGER NOT NULL DEFAULT 1,
    parent_id      TEXT,
    root_id        TEXT,
    source_count   INTEGER NOT NULL DEFAULT 1,
    metadata       TEXT NOT NULL,
    document_date  TEXT,
    event_dates    TEXT NOT NULL DEFAULT '[]',
    entities       TEXT NOT NULL DEFAULT '[]',
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL
);
CREATE INDEX memories_org_tag ON memories(org_id, container_tag, created_at);
CREATE INDEX memories_content ON memories(org_id, container_tag, content);

CREATE TABLE memory_sources (
    memory_id    TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    document_id  TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    PRIMARY KEY (memory_id, document_id)
);
CREATE INDEX memory_sources_document ON memory_sources(document_id);

CREATE TABLE memory_relations (
    memory_id   TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    related_id  TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    kind        TEXT NOT NULL,
    PRIMARY KEY (memory_id, related_id)
);
CREATE INDEX memory_relations_related ON memory_relations(related_id);

CREATE TRIGGER memory_sources_last AFTER DELETE ON memory_sources
WHEN NOT EXISTS (SELECT 1 FROM memory_sources WHERE memory_id = old.memory_id)
BEGIN
    DELETE FROM memories WHERE id = old.memory_id;
END;

CREATE TABLE memory_log (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    org_id     TEXT NOT NULL,
    memory_id  TEXT NOT NULL UNIQUE
);
CREATE INDEX memory_log_org_seq ON memory_log(org_id, seq);

CREATE TRIGGER memories_log_insert AFTER INSERT ON memories BEGIN
    INSERT OR REPLACE INTO memory_log (org_id, memory_id) VALUES (new.org_id, new.id);
END;
CREATE TRIGGER memories_log_update AFTER UPDATE ON memories BEGIN
    INSERT OR REPLACE INTO memory_log (org_id, memory_id) VALUES (new.org_id, new.id);
END;
CREATE TRIGGER memories_log_delete AFTER DELETE ON memories BEGIN
    INSERT OR REPLACE INTO memory_log (org_id, memory_id) VALUES (old.org_id, old.id);
END;
