-- The search index lives in each Engram process's memory; this log tells
-- every process what changed since it last looked. One row per document at
-- its latest change (REPLACE gives it a new, larger seq); deleted documents
-- keep their row so that others learn of the deletion. Writes are
-- serialised, so seq order is commit order.

CREATE TABLE index_log (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    org_id       TEXT NOT NULL,
    document_id  TEXT NOT NULL UNIQUE
);
CREATE INDEX index_log_org_seq ON index_log(org_id, seq);

INSERT INTO index_log (org_id, document_id) SELECT org_id, id FROM documents ORDER BY rowid;

CREATE TRIGGER documents_index_insert AFTER INSERT ON documents BEGIN
    INSERT OR REPLACE INTO index_log (org_id, document_id) VALUES (new.org_id, new.id);
END;
CREATE TRIGGER documents_index_update AFTER UPDATE ON documents BEGIN
    INSERT OR REPLACE INTO index_log (org_id, document_id) VALUES (new.org_id, new.id);
END;
CREATE TRIGGER documents_index_delete AFTER DELETE ON documents BEGIN
    INSERT OR REPLACE INTO index_log (org_id, document_id) VALUES (old.org_id, old.id);
END;
CREATE TRIGGER tags_index_insert AFTER INSERT ON document_tags BEGIN
    INSERT OR REPLACE INTO index_log (org_id, document_id) VALUES (new.org_id, new.document_id);
END;
CREATE TRIGGER tags_index_delete AFTER DELETE ON document_tags BEGIN
    INSERT OR REPLACE INTO index_log (org_id, document_id) VALUES (old.org_id, old.document_id);
END;

-- Keyword search moved into the in-process index (per-scope statistics,
-- reading context); the FTS5 table is no longer read.
DROP TRIGGER chunks_fts_insert;
DROP TRIGGER chunks_fts_delete;
DROP TABLE chunks_fts;
