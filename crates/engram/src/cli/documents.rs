//! `engram documents`: the organisation's documents — list, get, chunks,
//! status (what is still processing) and delete. Named apart from `engram
//! docs`, which reads Engram's own documentation.

use super::{print, CliError, Common};
use engram_api::ListDocumentsRequest;
use engram_client::Client;

#[derive(clap::Subcommand, Debug)]
pub enum DocumentsCommand {
    /// Documents, newest first.
    List {
        /// Only documents in this container tag (repeatable).
        #[arg(long = "tag")]
        tags: Vec<String>,
        /// Metadata filter as JSON (`{"AND": [{"key": "source", "value": "notes"}]}`).
        #[arg(long)]
        filter: Option<String>,
        /// Documents per page (1-1100).
        #[arg(long, default_value_t = 20)]
        limit: u64,
        /// Page, from 1.
        #[arg(long, default_value_t = 1)]
        page: u64,
    },
    /// One document (by id or custom id): status, content, memories.
    Get { id: String },
    /// The passages a document was cut into.
    Chunks { id: String },
    /// Documents still being processed.
    Status,
    /// Delete documents (by id or custom id) and the memories only they stated.
    Delete {
        #[arg(required = true)]
        ids: Vec<String>,
        /// Confirm the deletion.
        #[arg(long)]
        yes: bool,
    },
}

pub async fn documents(
    client: Client,
    common: Common,
    cmd: DocumentsCommand,
) -> Result<(), CliError> {
    let base = client.base().to_string();
    let err = |e| CliError::from_client(e, &base);
    match cmd {
        DocumentsCommand::List {
            tags,
            filter,
            limit,
            page,
        } => {
            let filters = match filter {
                None => None,
                Some(f) => Some(serde_json::from_str(&f).map_err(|e| {
                    CliError::new(1, "invalid_input", format!("--filter is not JSON: {e}"))
                })?),
            };
            let req = ListDocumentsRequest {
                container_tags: (!tags.is_empty()).then_some(tags),
                filters,
                limit: Some(limit),
                page: Some(page),
                ..Default::default()
            };
            let list = client.list_documents(&req).await.map_err(err)?;
            print(&common, &list, || {
                if list.memories.is_empty() {
                    return "no documents".to_string();
                }
                let mut out = super::bold(&format!(
                    "{:<26} {:<10} {:<20} title",
                    "id", "status", "tags"
                ));
                for d in &list.memories {
                    out.push_str(&format!(
                        "\n{:<26} {:<10} {:<20} {}",
                        d.custom_id.as_deref().unwrap_or(&d.id),
                        d.status.to_string(),
                        d.container_tags.join(","),
                        d.title.as_deref().unwrap_or("-")
                    ));
                }
                let p = &list.pagination;
                out.push_str(&format!(
                    "\npage {} of {} ({} documents)",
                    p.current_page, p.total_pages, p.total_items
                ));
                out
            });
        }
        DocumentsCommand::Get { id } => {
            let d = client.document(&id).await.map_err(err)?;
            print(&common, &d, || {
                let mut out = format!(
                    "id:      {}\ncustom:  {}\nstatus:  {}\ntags:    {}\ntitle:   {}\nchunks:  {}",
                    d.id,
                    d.custom_id.as_deref().unwrap_or("-"),
                    d.status,
                    d.container_tags.join(", "),
                    d.title.as_deref().unwrap_or("-"),
                    d.chunk_count.unwrap_or(0)
                );
                if let Some(e) = &d.error {
                    out.push_str(&format!("\nerror:   {e}"));
                }
                if let Some(summary) = &d.summary {
                    out.push_str(&format!("\nsummary: {summary}"));
                }
                for m in d.memories.iter().flatten() {
                    out.push_str(&format!("\n  - {}", m.memory));
                }
                out
            });
        }
        DocumentsCommand::Chunks { id } => {
            let c = client.chunks(&id).await.map_err(err)?;
            print(&common, &c, || {
                if c.chunks.is_empty() {
                    return "no chunks (yet)".to_string();
                }
                c.chunks
                    .iter()
                    .map(|ch| format!("[{}] {}", ch.position, ch.content.trim()))
                    .collect::<Vec<_>>()
                    .join("\n\n")
            });
        }
        DocumentsCommand::Status => {
            let p = client.processing().await.map_err(err)?;
            print(&common, &p, || {
                if p.documents.is_empty() {
                    return "nothing is processing".to_string();
                }
                p.documents
                    .iter()
                    .map(|d| {
                        format!(
                            "{:<26} {}",
                            d.custom_id.as_deref().unwrap_or(&d.id),
                            d.status
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("\n")
            });
        }
        DocumentsCommand::Delete { ids, yes } => {
            if !yes {
                return Err(CliError::new(
                    1,
                    "confirmation_required",
                    format!(
                        "deleting {} document(s) also forgets the memories only they stated",
                        ids.len()
                    ),
                )
                .hint("add --yes to delete"));
            }
            for id in &ids {
                client.delete_document(id).await.map_err(err)?;
            }
            print(&common, &serde_json::json!({"deleted": ids}), || {
                format!("deleted {}", ids.join(", "))
            });
        }
    }
    Ok(())
}
