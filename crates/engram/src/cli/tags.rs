//! `engram tags list|info|create|context|delete|merge` (container tags as
//! spaces) and `engram logs` (the organisation's request log).

use super::{print, CliError, Common};
use engram_api::{MergeContainerTagsRequest, PatchContainerTagRequest};
use engram_client::Client;
use std::time::Duration;

#[derive(clap::Subcommand, Debug)]
pub enum TagsCommand {
    /// Every container tag, with document and memory counts.
    List,
    /// A tag's settings.
    Info { tag: String },
    /// Create a tag (or rename one).
    Create {
        tag: String,
        /// A display name.
        #[arg(long)]
        name: Option<String>,
    },
    /// Show, set or clear the context that guides memory extraction.
    Context {
        tag: String,
        /// The new context (omit to show the current one).
        text: Option<String>,
        /// Remove the context.
        #[arg(long, conflicts_with = "text")]
        clear: bool,
    },
    /// Delete a tag with its documents and memories.
    Delete {
        tag: String,
        /// Confirm: the tag's documents and memories are deleted.
        #[arg(long)]
        yes: bool,
    },
    /// Merge tags into another (their documents and memories move).
    Merge {
        /// The tags to merge away.
        #[arg(required = true)]
        sources: Vec<String>,
        /// The tag they merge into.
        #[arg(long)]
        into: String,
        /// Wait until the merge has run.
        #[arg(long)]
        wait: bool,
    },
}

pub async fn tags(client: Client, common: Common, cmd: TagsCommand) -> Result<(), CliError> {
    let base = client.base().to_string();
    let err = |e| CliError::from_client(e, &base);
    match cmd {
        TagsCommand::List => {
            let list = client.tags().await.map_err(err)?;
            print(&common, &list, || {
                if list.is_empty() {
                    return "no container tags yet".to_string();
                }
                let mut out = super::bold(&format!(
                    "{:<32} {:>9} {:>9}  last activity",
                    "tag", "documents", "memories"
                ));
                for t in &list {
                    out.push_str(&format!(
                        "\n{:<32} {:>9} {:>9}  {}",
                        t.container_tag,
                        t.document_count,
                        t.memory_count,
                        t.last_activity_at.as_deref().unwrap_or("-")
                    ));
                }
                out
            });
        }
        TagsCommand::Info { tag } => {
            let t = client.tag(&tag).await.map_err(err)?;
            print(&common, &t, || {
                format!(
                    "tag:     {}\nname:    {}\ncontext: {}\nbuckets: {}",
                    t.container_tag,
                    t.name.as_deref().unwrap_or("-"),
                    t.entity_context.as_deref().unwrap_or("-"),
                    t.profile_buckets
                        .iter()
                        .map(|b| b.key.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            });
        }
        TagsCommand::Create { tag, name } => {
            let req = PatchContainerTagRequest {
                name,
                ..Default::default()
            };
            let t = client.patch_tag(&tag, &req).await.map_err(err)?;
            print(&common, &t, || format!("tag {} is set up", t.container_tag));
        }
        TagsCommand::Context { tag, text, clear } => {
            let t = if text.is_none() && !clear {
                client.tag(&tag).await.map_err(err)?
            } else {
                let req = PatchContainerTagRequest {
                    entity_context: Some(text),
                    ..Default::default()
                };
                client.patch_tag(&tag, &req).await.map_err(err)?
            };
            print(&common, &t, || {
                t.entity_context
                    .clone()
                    .unwrap_or_else(|| "(no context)".into())
            });
        }
        TagsCommand::Delete { tag, yes } => {
            if !yes {
                return Err(CliError::new(
                    1,
                    "confirmation_required",
                    format!("deleting `{tag}` deletes its documents and memories"),
                )
                .hint("add --yes to confirm"));
            }
            let d = client.delete_tag(&tag).await.map_err(err)?;
            print(&common, &d, || {
                format!(
                    "deleted {}: {} documents, {} memories",
                    d.container_tag, d.deleted_documents_count, d.deleted_memories_count
                )
            });
        }
        TagsCommand::Merge {
            sources,
            into,
            wait,
        } => {
            let req = MergeContainerTagsRequest {
                container_tags: sources,
                target_container_tag: into,
            };
            let queued = client.merge_tags(&req).await.map_err(err)?;
            if !wait {
                print(&common, &queued, || {
                    format!("merge {} queued", queued.merge_id)
                });
                return Ok(());
            }
            loop {
                let m = client.merge_status(&queued.merge_id).await.map_err(err)?;
                if m.status != "queued" && m.status != "running" {
                    print(&common, &m, || {
                        format!(
                            "merge {} {}: {} documents and {} memories moved into {}",
                            m.id, m.status, m.moved_documents, m.moved_memories, m.target_tag
                        )
                    });
                    return if m.status == "done" {
                        Ok(())
                    } else {
                        Err(CliError::new(
                            1,
                            "merge_failed",
                            format!("merge {}", m.status),
                        ))
                    };
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    }
    Ok(())
}

/// `engram logs`: recorded requests, newest first.
#[derive(clap::Args, Debug)]
pub struct LogsArgs {
    /// Request type: add, search, update, delete, ...
    #[arg(long = "type")]
    pub kind: Option<String>,
    /// HTTP status code.
    #[arg(long)]
    pub status: Option<u16>,
    /// API key id.
    #[arg(long)]
    pub key: Option<String>,
    /// 1h, 24h (default), 7d or 30d.
    #[arg(long)]
    pub period: Option<String>,
    /// Entries per page (1 to 100).
    #[arg(long)]
    pub limit: Option<u64>,
    #[arg(long)]
    pub page: Option<u64>,
}

pub async fn logs(client: Client, common: Common, args: LogsArgs) -> Result<(), CliError> {
    let base = client.base().to_string();
    let mut query: Vec<(&str, String)> = Vec::new();
    let mut add = |k, v: Option<String>| {
        if let Some(v) = v {
            query.push((k, v));
        }
    };
    add("type", args.kind);
    add("statusCode", args.status.map(|s| s.to_string()));
    add("keyId", args.key);
    add("period", args.period);
    add("limit", args.limit.map(|n| n.to_string()));
    add("page", args.page.map(|n| n.to_string()));
    let out = client
        .logs(&query)
        .await
        .map_err(|e| CliError::from_client(e, &base))?;
    print(&common, &out, || {
        if out.logs.is_empty() {
            return "no requests in this window".to_string();
        }
        let mut s = String::new();
        for l in &out.logs {
            s.push_str(&format!(
                "{}  {:<9} {}  {:>8.1} ms\n",
                l.created_at, l.kind, l.status_code, l.duration
            ));
        }
        s.push_str(&format!(
            "page {} of {} ({} requests)",
            out.pagination.current_page,
            out.pagination.total_pages.max(1),
            out.pagination.total_items
        ));
        s
    });
    Ok(())
}
