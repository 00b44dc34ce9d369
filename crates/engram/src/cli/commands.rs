//! `engram add`, `engram search` and `engram profile`.

use super::{print, CliError, Common};
use engram_api::{AddDocumentRequest, ProfileRequest, V4SearchRequest};
use engram_client::Client;
use serde_json::Value;
use std::io::Read;
use std::time::{Duration, Instant};

/// `engram add`: text, a text file or a URL, as one document.
#[derive(clap::Args, Debug)]
pub struct AddArgs {
    /// The text, a path to a text file, or a URL (the server fetches it).
    #[arg(required_unless_present_any = ["stdin", "batch"])]
    pub input: Option<String>,
    /// Read the content from standard input.
    #[arg(long, conflicts_with_all = ["input", "batch"])]
    pub stdin: bool,
    /// Many documents: a JSON array file, or a folder of text files.
    #[arg(long, conflicts_with = "input", value_name = "FILE|FOLDER")]
    pub batch: Option<std::path::PathBuf>,
    /// Container tag(s) to scope the document by.
    #[arg(long = "tag")]
    pub tags: Vec<String>,
    /// Metadata as a JSON object (`{"source": "notes"}`).
    #[arg(long)]
    pub metadata: Option<String>,
    /// A custom id: adding again with it replaces the document.
    #[arg(long)]
    pub id: Option<String>,
    /// A title (kept as the `title` metadata field).
    #[arg(long)]
    pub title: Option<String>,
    /// Wait until processing ends (`done` with its memories formed, or
    /// `failed`).
    #[arg(long)]
    pub wait: bool,
}

fn bad_input(message: impl Into<String>) -> CliError {
    CliError::new(1, "invalid_input", message)
}

/// What `add` sends.
enum Content {
    /// What was typed, a text file's text, or stdin: sent as JSON.
    Text(String),
    /// A binary file (PDF, DOCX, an image...): uploaded as a file.
    File { name: String, bytes: Vec<u8> },
}

fn content_of(args: &AddArgs) -> Result<Content, CliError> {
    if args.stdin {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| bad_input(format!("cannot read standard input: {e}")))?;
        return Ok(Content::Text(s));
    }
    let input = args.input.clone().unwrap_or_default();
    let path = std::path::Path::new(&input);
    if !input.contains('\n') && path.is_file() {
        let bytes = std::fs::read(path)
            .map_err(|e| bad_input(format!("cannot read {}: {e}", path.display())))?;
        return Ok(match String::from_utf8(bytes) {
            Ok(text) => Content::Text(text),
            Err(e) => Content::File {
                name: path
                    .file_name()
                    .map(|n| n.to_string_lossy().to_string())
                    .unwrap_or_else(|| "upload".into()),
                bytes: e.into_bytes(),
            },
        });
    }
    Ok(Content::Text(input))
}

pub async fn add(client: Client, common: Common, args: AddArgs) -> Result<(), CliError> {
    if let Some(path) = &args.batch {
        return super::batch::add_batch(&client, &common, path, &args.tags, args.wait).await;
    }
    let base = client.base().to_string();
    let content = content_of(&args)?;
    let mut metadata = match &args.metadata {
        None => None,
        Some(m) => match serde_json::from_str::<Value>(m) {
            Ok(Value::Object(o)) => Some(o),
            _ => return Err(bad_input("--metadata must be a JSON object")),
        },
    };
    if let Some(title) = &args.title {
        metadata
            .get_or_insert_with(Default::default)
            .insert("title".into(), Value::String(title.clone()));
    }
    let added = match content {
        Content::Text(content) => {
            if content.trim().is_empty() {
                return Err(bad_input("there is nothing to add: the content is empty"));
            }
            let req = AddDocumentRequest {
                content,
                container_tags: (!args.tags.is_empty()).then(|| args.tags.clone()),
                custom_id: args.id.clone(),
                metadata,
                ..Default::default()
            };
            client.add(&req).await
        }
        Content::File { name, bytes } => {
            let mut fields = Vec::new();
            if !args.tags.is_empty() {
                fields.push((
                    "containerTags",
                    serde_json::to_string(&args.tags).unwrap_or_default(),
                ));
            }
            if let Some(m) = metadata {
                fields.push(("metadata", Value::Object(m).to_string()));
            }
            if let Some(id) = &args.id {
                fields.push(("customId", id.clone()));
            }
            let spinner = super::progress(&common, 0, &format!("uploading {name}"));
            let r = client.upload(&name, bytes, &fields).await;
            spinner.finish_and_clear();
            r
        }
    }
    .map_err(|e| CliError::from_client(e, &base))?;
    if !args.wait {
        print(&common, &added, || {
            format!("added {} ({})", added.id, added.status)
        });
        return Ok(());
    }
    let started = Instant::now();
    let spinner = super::progress(&common, 0, "processing");
    loop {
        let d = client
            .document(&added.id)
            .await
            .map_err(|e| CliError::from_client(e, &base))?;
        let status = d.status.to_string();
        // `done` with memories still forming (`dreaming`) is not finished:
        // a search right after would not find them
        let forming = d.dreaming_status == engram_core::DreamingStatus::Dreaming;
        spinner.set_message(if forming {
            "forming memories".to_string()
        } else {
            status.clone()
        });
        if status == "failed" || (status == "done" && !forming) {
            spinner.finish_and_clear();
            let v = serde_json::to_value(&d).unwrap_or_default();
            print(&common, &v, || match &d.error {
                Some(e) => format!("{} {status}: {e}", d.id),
                None => format!(
                    "{} {status} in {:.1} s ({} chunks)",
                    d.id,
                    started.elapsed().as_secs_f64(),
                    d.chunk_count.unwrap_or(0)
                ),
            });
            return if status == "failed" {
                Err(CliError::new(
                    1,
                    "processing_failed",
                    d.error.unwrap_or_else(|| "processing failed".into()),
                ))
            } else {
                Ok(())
            };
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// `engram search`: memories (or documents, or both) for a query.
#[derive(clap::Args, Debug)]
pub struct SearchArgs {
    pub query: String,
    /// Container tag to search in.
    #[arg(long)]
    pub tag: Option<String>,
    /// Most results (default 10).
    #[arg(long)]
    pub limit: Option<u64>,
    /// Least similarity, 0 to 1.
    #[arg(long)]
    pub threshold: Option<f64>,
    /// `memories` (default), `hybrid` or `documents`.
    #[arg(long, value_parser = ["memories", "hybrid", "documents"])]
    pub mode: Option<String>,
    /// Re-score the top results.
    #[arg(long)]
    pub rerank: bool,
    /// Rewrite the query before searching.
    #[arg(long)]
    pub rewrite: bool,
    /// A filter expression as JSON (`{"AND": [...]}`).
    #[arg(long)]
    pub filter: Option<String>,
    /// Add to each result: `documents`, `summaries`, `related` (the
    /// memories it updates, extends or derives from, and those that point
    /// at it), `forgotten` (also forgotten memories). Comma-separated.
    #[arg(long, value_delimiter = ',', value_parser = ["documents", "summaries", "related", "forgotten"])]
    pub include: Vec<String>,
}

pub async fn search(client: Client, common: Common, args: SearchArgs) -> Result<(), CliError> {
    let base = client.base().to_string();
    let filters = match &args.filter {
        None => None,
        Some(f) => Some(
            serde_json::from_str::<Value>(f)
                .map_err(|e| bad_input(format!("--filter is not JSON: {e}")))?,
        ),
    };
    let req = V4SearchRequest {
        q: args.query.clone(),
        container_tag: args.tag.clone(),
        limit: args.limit,
        threshold: args.threshold,
        search_mode: args.mode.clone(),
        rerank: args.rerank.then_some(true),
        rewrite_query: args.rewrite.then_some(true),
        filters,
        include: (!args.include.is_empty()).then(|| {
            let has = |w: &str| args.include.iter().any(|i| i == w).then_some(true);
            engram_api::SearchInclude {
                documents: has("documents"),
                summaries: has("summaries"),
                related_memories: has("related"),
                forgotten_memories: has("forgotten"),
                chunks: None,
            }
        }),
        ..Default::default()
    };
    let out = client
        .search(&req)
        .await
        .map_err(|e| CliError::from_client(e, &base))?;
    print(&common, &out, || {
        if out.results.is_empty() {
            return "no results".to_string();
        }
        out.results
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let text = r.memory.as_deref().or(r.chunk.as_deref()).unwrap_or("");
                let score = super::dim(&format!("[{:.3}]", r.similarity));
                format!("{:>2}. {score} {}", i + 1, one_line(text))
            })
            .collect::<Vec<_>>()
            .join("\n")
    });
    Ok(())
}

/// `engram profile`: what is known about a container tag.
#[derive(clap::Args, Debug)]
pub struct ProfileArgs {
    /// The container tag (a user, a project, ...).
    #[arg(long)]
    pub tag: String,
    /// Also search the tag's memories for this.
    #[arg(long)]
    pub query: Option<String>,
}

pub async fn profile(client: Client, common: Common, args: ProfileArgs) -> Result<(), CliError> {
    let base = client.base().to_string();
    let req = ProfileRequest {
        container_tag: args.tag.clone(),
        q: args.query.clone(),
        ..Default::default()
    };
    let out = client
        .profile(&req)
        .await
        .map_err(|e| CliError::from_client(e, &base))?;
    print(&common, &out, || {
        let list = |items: &[String]| {
            if items.is_empty() {
                "  (none)".to_string()
            } else {
                items
                    .iter()
                    .map(|s| format!("  - {}", one_line(s)))
                    .collect::<Vec<_>>()
                    .join("\n")
            }
        };
        let mut s = format!(
            "static:\n{}\ndynamic:\n{}",
            list(&out.profile.static_facts),
            list(&out.profile.dynamic)
        );
        if let Some(r) = &out.search_results {
            s.push_str(&format!("\nmatching memories: {}", r.results.len()));
            for m in &r.results {
                let text = m.memory.as_deref().or(m.chunk.as_deref()).unwrap_or("");
                s.push_str(&format!("\n  [{:.3}] {}", m.similarity, one_line(text)));
            }
        }
        s
    });
    Ok(())
}

/// Text on one line, cut at 160 characters.
fn one_line(s: &str) -> String {
    let flat = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() > 160 {
        format!("{}…", flat.chars().take(159).collect::<String>())
    } else {
        flat
    }
}
