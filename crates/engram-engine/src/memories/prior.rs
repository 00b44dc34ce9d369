//! What the space said just before a document being formed: the facts
//! remembered from its newest other document, whom a pronoun opening the
//! new one may mean ("she got into Edinburgh!!" after "Ken's daughter is
//! applying to unis"). The extractor decides whether they name one person;
//! this only reads them.

use crate::{Engine, EngineError};
use engram_store::{Document, MemoryListQuery};

/// How many of the space's newest memories are read for it.
const NEWEST: u64 = 30;

impl Engine {
    /// The facts of the newest document of space `tag` that is not one of
    /// `docs` (each fact's current version), newest first; none when the
    /// space has none.
    pub(super) async fn prior_facts(
        &self,
        org_id: &str,
        tag: &str,
        docs: &[&Document],
    ) -> Result<Vec<String>, EngineError> {
        let q = MemoryListQuery {
            container_tags: vec![tag.to_string()],
            limit: NEWEST,
            ..Default::default()
        };
        let (memories, _) = self.store.list_memories(org_id, &q).await?;
        let ours = |id: &String| docs.iter().any(|d| &d.id == id);
        let Some(last) = memories
            .iter()
            .find_map(|m| m.document_ids.iter().find(|id| !ours(id)))
        else {
            return Ok(Vec::new());
        };
        Ok(memories
            .iter()
            .filter(|m| m.document_ids.contains(last))
            .map(|m| m.content.clone())
            .collect())
    }
}
