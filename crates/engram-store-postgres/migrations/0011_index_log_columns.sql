-- A document's row changes at every stage of its processing (status,
-- updated_at), but the search index holds only its metadata, filepath,
-- tags (their own trigger) and chunks (replaced together with text and
-- chunk_count when processing completes). Logging every stage took the
-- organisation's advisory lock four more times a document and made each
-- replica reload it four more times: only changes the index can see are
-- logged now.
DROP TRIGGER documents_index ON documents;
CREATE TRIGGER documents_index
AFTER INSERT OR DELETE OR UPDATE OF id, org_id, metadata, filepath, content, text, chunk_count, revision
ON documents
FOR EACH ROW EXECUTE FUNCTION engram_documents_changed();
