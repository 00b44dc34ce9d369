//! The [`Store`] trait for [`PgStore`]: each operation delegates to the
//! module that owns it (documents, jobs, memories, spaces, ...).

use super::*;

#[async_trait]
impl Store for PgStore {
    async fn ensure_org(&self, name: &str) -> StoreResult<Org> {
        keys::ensure_org(self, name).await
    }
    async fn list_orgs(&self) -> StoreResult<Vec<Org>> {
        keys::list_orgs(self).await
    }
    async fn insert_api_key(&self, key: &ApiKeyRecord) -> StoreResult<()> {
        keys::insert_api_key(self, key).await
    }
    async fn get_api_key(&self, id: &str) -> StoreResult<Option<ApiKeyRecord>> {
        keys::get_api_key(self, id).await
    }
    async fn list_api_keys(&self, org_id: Option<&str>) -> StoreResult<Vec<ApiKeyRecord>> {
        keys::list_api_keys(self, org_id).await
    }
    async fn revoke_api_key(&self, id: &str) -> StoreResult<bool> {
        keys::revoke_api_key(self, id).await
    }
    async fn rename_api_key(&self, id: &str, name: &str) -> StoreResult<bool> {
        keys::rename_api_key(self, id, name).await
    }
    async fn get_org(&self, id: &str) -> StoreResult<Option<Org>> {
        keys::get_org(self, id).await
    }
    async fn embedding_model(&self) -> StoreResult<Option<ModelInfo>> {
        keys::embedding_model(self).await
    }
    async fn record_embedding_model(&self, model: &ModelInfo) -> StoreResult<ModelInfo> {
        keys::record_embedding_model(self, model).await
    }
    async fn upsert_documents(&self, docs: Vec<NewDocument>) -> StoreResult<Vec<UpsertOutcome>> {
        upsert::upsert_documents(self, docs).await
    }
    async fn get_document(&self, org_id: &str, id: &str) -> StoreResult<Option<Document>> {
        docs::get_document(self, org_id, id).await
    }
    async fn update_document(
        &self,
        org_id: &str,
        id: &str,
        patch: DocumentPatch,
    ) -> StoreResult<Option<Document>> {
        docs::update_document(self, org_id, id, patch).await
    }
    async fn delete_document(&self, org_id: &str, id: &str) -> StoreResult<bool> {
        docs::delete_document(self, org_id, id).await
    }
    async fn delete_documents_by_tags(&self, org_id: &str, tags: &[String]) -> StoreResult<u64> {
        docs::delete_by_tags(self, org_id, tags).await
    }
    async fn delete_documents_by_filepath(&self, org_id: &str, path: &str) -> StoreResult<u64> {
        docs::delete_by_filepath(self, org_id, path).await
    }
    async fn list_documents(
        &self,
        org_id: &str,
        q: &ListQuery,
    ) -> StoreResult<(Vec<Document>, u64)> {
        docs::list_documents(self, org_id, q).await
    }
    async fn list_processing(&self, org_id: &str) -> StoreResult<Vec<Document>> {
        docs::list_processing(self, org_id).await
    }
    async fn list_chunks(&self, org_id: &str, document_id: &str) -> StoreResult<Vec<Chunk>> {
        docs::list_chunks(self, org_id, document_id).await
    }
    async fn index_changes(
        &self,
        org_id: &str,
        after: i64,
        limit: usize,
    ) -> StoreResult<Vec<IndexChange>> {
        search::changes(self, search::Log::Documents, org_id, after, limit).await
    }
    async fn index_documents(
        &self,
        org_id: &str,
        ids: &[String],
    ) -> StoreResult<Vec<IndexedDocument>> {
        search::index_documents(self, org_id, ids).await
    }
    async fn chunks_at(
        &self,
        org_id: &str,
        document_id: &str,
        positions: &[i64],
    ) -> StoreResult<Vec<Chunk>> {
        search::chunks_at(self, org_id, document_id, positions).await
    }
    async fn documents_by_ids(&self, org_id: &str, ids: &[String]) -> StoreResult<Vec<Document>> {
        docs::documents_by_ids(self, org_id, ids).await
    }
    async fn small_documents_by_ids(
        &self,
        org_id: &str,
        ids: &[String],
        max_bytes: usize,
    ) -> StoreResult<Vec<Document>> {
        docs::small_documents_by_ids(self, org_id, ids, max_bytes).await
    }
    async fn chunks_by_ids(&self, org_id: &str, ids: &[String]) -> StoreResult<Vec<Chunk>> {
        search::chunks_by_ids(self, org_id, ids).await
    }
    fn supports_vector_index(&self) -> bool {
        true
    }
    async fn prepare_vector_index(&self, dimension: usize) -> StoreResult<()> {
        self.ensure_vector_index(dimension).await
    }
    async fn nearest_chunks(
        &self,
        org_id: &str,
        scope: &SearchScope,
        embedding: &[f32],
        k: usize,
    ) -> StoreResult<Vec<(String, f32)>> {
        search::nearest_chunks(self, org_id, scope, embedding, k).await
    }
    async fn insert_memories(&self, memories: Vec<NewMemory>) -> StoreResult<Vec<Memory>> {
        memories::insert(self, memories).await
    }
    async fn get_memory(&self, org_id: &str, id: &str) -> StoreResult<Option<Memory>> {
        memories::get(self, org_id, id).await
    }
    async fn find_memory(
        &self,
        org_id: &str,
        container_tag: &str,
        content: &str,
    ) -> StoreResult<Option<Memory>> {
        memories::find(self, org_id, container_tag, content).await
    }
    async fn update_memory(
        &self,
        org_id: &str,
        id: &str,
        update: MemoryUpdate,
    ) -> StoreResult<Option<Memory>> {
        memories::update(self, org_id, id, update).await
    }
    async fn forget_memory(
        &self,
        org_id: &str,
        id: &str,
        reason: Option<&str>,
    ) -> StoreResult<ForgetOutcome> {
        memories::forget(self, org_id, id, reason).await
    }
    async fn list_memories(
        &self,
        org_id: &str,
        q: &MemoryListQuery,
    ) -> StoreResult<(Vec<Memory>, u64)> {
        memories::list(self, org_id, q).await
    }
    async fn memory_changes(
        &self,
        org_id: &str,
        after: i64,
        limit: usize,
    ) -> StoreResult<Vec<IndexChange>> {
        search::changes(self, search::Log::Memories, org_id, after, limit).await
    }
    async fn memories_by_ids(&self, org_id: &str, ids: &[String]) -> StoreResult<Vec<Memory>> {
        memories::by_ids(self, org_id, ids).await
    }
    async fn memories_relating_to(&self, org_id: &str, id: &str) -> StoreResult<Vec<Memory>> {
        memories::relating_to(self, org_id, id).await
    }
    async fn add_memory_source(
        &self,
        org_id: &str,
        id: &str,
        document_id: Option<&str>,
    ) -> StoreResult<Option<Memory>> {
        memories::add_source(self, org_id, id, document_id).await
    }
    async fn relate_memories(
        &self,
        org_id: &str,
        from: &str,
        to: &str,
        kind: RelationKind,
    ) -> StoreResult<bool> {
        memories::relate(self, org_id, from, to, kind).await
    }
    async fn expire_memories(&self, at: Timestamp) -> StoreResult<u64> {
        memories::expire(self, at).await
    }
    async fn get_settings(&self, org_id: &str) -> StoreResult<engram_core::Metadata> {
        spaces::get_settings(self, org_id).await
    }
    async fn put_settings(
        &self,
        org_id: &str,
        settings: &engram_core::Metadata,
    ) -> StoreResult<()> {
        spaces::put_settings(self, org_id, settings).await
    }
    async fn reset_org(&self, org_id: &str) -> StoreResult<engram_store::OrgReset> {
        spaces::reset_org(self, org_id).await
    }
    async fn list_spaces(&self, org_id: &str) -> StoreResult<Vec<SpaceSummary>> {
        spaces::list(self, org_id, None).await
    }
    async fn get_space(&self, org_id: &str, tag: &str) -> StoreResult<Option<SpaceSummary>> {
        Ok(spaces::list(self, org_id, Some(tag)).await?.pop())
    }
    async fn upsert_space(&self, org_id: &str, tag: &str, patch: SpacePatch) -> StoreResult<Space> {
        spaces::upsert(self, org_id, tag, patch).await
    }
    async fn delete_space(&self, org_id: &str, tag: &str) -> StoreResult<SpaceDeleted> {
        spaces::delete(self, org_id, tag).await
    }
    async fn enqueue_merge(
        &self,
        org_id: &str,
        sources: &[String],
        target: &str,
    ) -> StoreResult<TagMerge> {
        spaces::enqueue_merge(self, org_id, sources, target).await
    }
    async fn get_merge(&self, org_id: &str, id: &str) -> StoreResult<Option<TagMerge>> {
        spaces::get_merge(self, org_id, id).await
    }
    async fn run_merge(&self, id: &str) -> StoreResult<Option<TagMerge>> {
        spaces::run_merge(self, id).await
    }
    async fn insert_connection(&self, c: NewConnection) -> StoreResult<Connection> {
        connections::insert(self, c).await
    }
    async fn get_connection(&self, org_id: &str, id: &str) -> StoreResult<Option<Connection>> {
        connections::get(self, org_id, id).await
    }
    async fn connection_by_state(&self, state: &str) -> StoreResult<Option<Connection>> {
        connections::by_state(self, state).await
    }
    async fn connection_by_id(&self, id: &str) -> StoreResult<Option<Connection>> {
        connections::by_id(self, id).await
    }
    async fn list_connections(
        &self,
        org_id: &str,
        q: &ConnectionQuery,
    ) -> StoreResult<Vec<Connection>> {
        connections::list(self, org_id, q).await
    }
    async fn update_connection(
        &self,
        org_id: &str,
        id: &str,
        patch: ConnectionPatch,
    ) -> StoreResult<Option<Connection>> {
        connections::update(self, org_id, id, patch).await
    }
    async fn delete_connection(
        &self,
        org_id: &str,
        id: &str,
        delete_documents: bool,
    ) -> StoreResult<bool> {
        connections::delete(self, org_id, id, delete_documents).await
    }
    async fn claim_connection_syncs(
        &self,
        worker: &str,
        at: Timestamp,
        lease: Duration,
        max: usize,
    ) -> StoreResult<Vec<Connection>> {
        connections::claim(self, worker, at, lease, max).await
    }
    async fn renew_connection_lease(
        &self,
        id: &str,
        worker: &str,
        lease: Duration,
    ) -> StoreResult<bool> {
        connections::renew(self, id, worker, lease).await
    }
    async fn connection_documents(
        &self,
        org_id: &str,
        connection_id: &str,
    ) -> StoreResult<Vec<Document>> {
        connections::documents(self, org_id, connection_id).await
    }
    async fn queued_merges(&self) -> StoreResult<Vec<String>> {
        spaces::queued_merges(self).await
    }
    async fn claim_jobs(&self, worker: &str, max: usize, lease: Duration) -> StoreResult<Vec<Job>> {
        jobs::claim(self, worker, max, lease).await
    }
    async fn renew_leases(
        &self,
        worker: &str,
        ids: &[String],
        lease: Duration,
    ) -> StoreResult<Vec<String>> {
        jobs::renew(self, worker, ids, lease).await
    }
    async fn set_jobs_stage(
        &self,
        jobs: &[Job],
        status: engram_core::DocumentStatus,
    ) -> StoreResult<Vec<bool>> {
        jobs::set_stage(self, jobs, status).await
    }
    async fn complete_jobs(&self, done: Vec<(Job, ProcessedDocument)>) -> StoreResult<Vec<bool>> {
        jobs::complete(self, done).await
    }
    async fn complete_dreams(&self, jobs: &[Job]) -> StoreResult<Vec<bool>> {
        jobs::complete_dreams(self, jobs).await
    }
    async fn fail_job(
        &self,
        job: &Job,
        error: &str,
        retry_at: Option<Timestamp>,
    ) -> StoreResult<bool> {
        jobs::fail(self, job, error, retry_at).await
    }
    async fn release_jobs(&self, worker: &str) -> StoreResult<u64> {
        jobs::release(self, worker).await
    }
    async fn record_requests(&self, logs: &[RequestLog]) -> StoreResult<()> {
        analytics::record(self, logs).await
    }
    async fn purge_requests(&self, before: Timestamp) -> StoreResult<u64> {
        analytics::purge(self, before).await
    }
    async fn request_groups(
        &self,
        org_id: &str,
        from: Timestamp,
        to: Timestamp,
        by: GroupBy,
    ) -> StoreResult<Vec<RequestGroup>> {
        analytics::groups(self, org_id, from, to, by).await
    }
    async fn list_requests(
        &self,
        org_id: &str,
        q: &LogQuery,
    ) -> StoreResult<(Vec<RequestLog>, u64)> {
        analytics::list(self, org_id, q).await
    }
    async fn hit_rate_limit(
        &self,
        bucket: &str,
        at: Timestamp,
        window: Duration,
    ) -> StoreResult<RateWindow> {
        analytics::hit(self, bucket, at, window).await
    }
    async fn pending_jobs(&self) -> StoreResult<u64> {
        jobs::pending(self).await
    }
    async fn subscribe_jobs(
        &self,
        on_job: std::sync::Arc<dyn Fn() + Send + Sync>,
    ) -> StoreResult<()> {
        jobs::subscribe(self, on_job).await
    }
    async fn close(&self) {
        PgStore::close(self).await
    }
}
