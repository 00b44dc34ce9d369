-- A document's row changes at every stage of its processing (status,
-- updated_at), but the search index holds only its metadata, filepath,
-- tags (their own triggers) and chunks (replaced together with text and
-- chunk_count when processing completes). Logging every stage made each
-- replica reload the document four more times and cost four more log
-- writes a document: only changes the index can see are logged now.
DROP TRIGGER documents_index_update;
CREATE TRIGGER documents_index_update
AFTER UPDATE OF id, org_id, metadata, filepath, content, text, chunk_count, revision ON documents
BEGIN
    INSERT OR REPLACE INTO index_log (org_id, document_id) VALUES (new.org_id, new.id);
END;
