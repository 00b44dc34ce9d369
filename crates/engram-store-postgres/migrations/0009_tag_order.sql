-- The order a document's container tags were given in: the first is the
-- space its memories form in (a write's singular `containerTag`), so it
-- must not be lost to sorting.
ALTER TABLE document_tags ADD COLUMN position INTEGER NOT NULL DEFAULT 0;
