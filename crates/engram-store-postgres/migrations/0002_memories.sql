-- Memories: atomic facts with versions (a chain from root_id), relations,
-- source documents and lifetimes. A memory goes when the last document it
-- came from goes (trigger on memory_sources). memory_log is to the memory
-- search index what index_log is to the document index, under the same
-- per-organisation lock (commit order).

CREATE TABLE memories (
    id             TEXT PRIMARY KEY,
    org_id         TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
    container_tag  TEXT NOT NULL,
    content        TEXT NOT NULL,
    embedding      vector NOT NULL,
    is_static      BOOLEAN NOT NULL DEFAULT false,
    is_inference   BOOLEAN NOT NULL DEFAULT false,
    is_latest      BOOLEAN NOT NULL DEFAULT true,
    is_forgotten   BOOLEAN NOT NULL DEFAULT false,
    forget_after   BIGINT,
    forget_reason  TEXT,
    version        BIGINT NOT NULL DEFAULT 1,
    parent_id      TEXT,
    root_id        TEXT,
    source_count   BIGINT NOT NULL DEFAULT 1,
    metadata       JSONB NOT NULL,
    document_date  TEXT,
    event_dates    JSONB NOT NULL DEFAULT '[]',
    entities       JSONB NOT NULL DEFAULT '[]',
    created_at     BIGINT NOT NULL,
    updated_at     BIGINT NOT NULL
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

CREATE FUNCTION engram_memory_sources_gone() RETURNS trigger AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM memory_sources WHERE memory_id = OLD.memory_id) THEN
        DELETE FROM memories WHERE id = OLD.memory_id;
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER memory_sources_last AFTER DELETE ON memory_sources
    FOR EACH ROW EXECUTE FUNCTION engram_memory_sources_gone();

CREATE SEQUENCE memory_log_seq;
CREATE TABLE memory_log (
    memory_id  TEXT PRIMARY KEY,
    org_id     TEXT NOT NULL,
    seq        BIGINT NOT NULL
);
CREATE INDEX memory_log_org_seq ON memory_log(org_id, seq);

CREATE FUNCTION engram_memories_changed() RETURNS trigger AS $$
DECLARE
    org TEXT;
    mem TEXT;
BEGIN
    IF TG_OP = 'DELETE' THEN
        org := OLD.org_id;
        mem := OLD.id;
    ELSE
        org := NEW.org_id;
        mem := NEW.id;
    END IF;
    PERFORM pg_advisory_xact_lock(hashtextextended(org, 7));
    INSERT INTO memory_log (memory_id, org_id, seq) VALUES (mem, org, nextval('memory_log_seq'))
    ON CONFLICT (memory_id) DO UPDATE SET seq = EXCLUDED.seq, org_id = EXCLUDED.org_id;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER memories_log AFTER INSERT OR UPDATE OR DELETE ON memories
    FOR EACH ROW EXECUTE FUNCTION engram_memories_changed();
