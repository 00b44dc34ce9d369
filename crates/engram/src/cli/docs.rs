//! `engram docs` (search and read Engram's own documentation, offline) and
//! `engram mcp` (the MCP server on standard input and output).
//!
//! The documentation is compiled into the binary (`engram-docs`); a search
//! uses the local embedding model when it is already on disk (hybrid, like
//! the server's search) and keywords alone otherwise: it never downloads
//! anything and needs no server.

use super::{bold, connect, dim, print, CliError, Common};
use engram_client::{HttpTransport, Transport};
use engram_embed::{model_files, Embedder};
use serde_json::json;
use std::sync::Arc;

#[derive(clap::Args, Debug)]
pub struct DocsArgs {
    /// What to look for (omit to list the pages).
    pub query: Vec<String>,
    /// Print this page whole (`api`, `cli`, ...), or with a query, search only it.
    #[arg(long)]
    pub page: Option<String>,
    /// Most sections to show.
    #[arg(long, default_value_t = 5)]
    pub limit: usize,
    /// Search by keywords only, even when the embedding model is on disk.
    #[arg(long)]
    pub keywords: bool,
}

/// The local embedding model, if it is on disk already (never fetched).
pub async fn local_embedder() -> Option<Arc<dyn Embedder>> {
    let configured = std::env::var_os("ENGRAM_MODEL_DIR").map(std::path::PathBuf::from);
    tokio::task::spawn_blocking(move || {
        let found = model_files::locate(
            configured.as_deref(),
            &model_files::default_cache_dir(),
            false,
        )
        .ok()?;
        let e =
            engram_embed::local::LocalEmbedder::start(found.dir(), model_files::DEFAULT_MODEL_NAME)
                .ok()?;
        Some(Arc::new(e) as Arc<dyn Embedder>)
    })
    .await
    .ok()
    .flatten()
}

/// Where the docs' section vectors are cached (beside the model).
fn docs_cache() -> std::path::PathBuf {
    model_files::default_cache_dir()
}

/// `engram docs`.
pub async fn docs(common: Common, args: DocsArgs) -> Result<(), CliError> {
    let query = args.query.join(" ");
    if query.trim().is_empty() {
        return match &args.page {
            Some(name) => {
                let page = engram_docs::page(name).ok_or_else(|| {
                    CliError::new(4, "not_found", format!("no page `{name}`"))
                        .hint("`engram docs` lists the pages")
                })?;
                print(&common, &page, || page.markdown.trim_end().to_string());
                Ok(())
            }
            None => {
                let pages: Vec<_> = engram_docs::pages()
                    .into_iter()
                    .map(|p| json!({"page": p.name, "title": p.title}))
                    .collect();
                print(&common, &json!({ "pages": pages }), || {
                    let mut s = String::from("Pages (read one with `engram docs --page NAME`, search with `engram docs QUERY`):\n");
                    for p in &pages {
                        s.push_str(&format!(
                            "  {:<14} {}\n",
                            p["page"].as_str().unwrap_or(""),
                            p["title"].as_str().unwrap_or("")
                        ));
                    }
                    s.trim_end().to_string()
                });
                Ok(())
            }
        };
    }
    if let Some(p) = &args.page {
        if engram_docs::page(p).is_none() {
            return Err(CliError::new(4, "not_found", format!("no page `{p}`"))
                .hint("`engram docs` lists the pages"));
        }
    }
    let embedder = if args.keywords {
        None
    } else {
        local_embedder().await
    };
    let index = engram_docs::DocsIndex::load_or_build(embedder, Some(&docs_cache()))
        .await
        .map_err(|e| CliError::new(1, "docs_failed", e.to_string()))?;
    let page = args.page.as_deref().map(|p| p.trim_end_matches(".md"));
    let hits = index
        .search(&query, args.limit.clamp(1, 50), page)
        .await
        .map_err(|e| CliError::new(1, "docs_failed", e.to_string()))?;
    let mode = if index.hybrid() { "hybrid" } else { "keywords" };
    print(
        &common,
        &json!({"query": query, "mode": mode, "results": hits}),
        || {
            if hits.is_empty() {
                return format!("Nothing in the docs matches \"{query}\".");
            }
            let mut s = String::new();
            for h in &hits {
                s.push_str(&format!(
                    "── {} {}\n",
                    bold(&h.heading),
                    dim(&format!("({}#{}) · {:.2}", h.page, h.anchor, h.score))
                ));
                let body: Vec<&str> = h.text.lines().skip(1).collect();
                let body = body.join("\n");
                let body = body.trim();
                let cut: String = body.chars().take(700).collect();
                s.push_str(&cut);
                if cut.len() < body.len() {
                    s.push_str(" …");
                }
                s.push_str("\n\n");
            }
            s.trim_end().to_string()
        },
    );
    Ok(())
}

/// `engram mcp`: serve MCP on standard input and output until the client
/// closes it. Tools reach the configured server with the configured key.
pub async fn mcp(common: Common) -> Result<(), CliError> {
    use rmcp::ServiceExt;
    let client = connect(&common)?;
    let base = client.base().to_string();
    let key = client.key().to_string();
    let transport: Arc<dyn Transport> =
        Arc::new(HttpTransport::new(&base).map_err(|e| CliError::from_client(e, &base))?);
    let docs = engram_mcp::Docs::new(local_embedder().await, Some(docs_cache()));
    let server = engram_mcp::EngramMcp::new(transport, Some(key), docs);
    let running = server
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|e| CliError::new(1, "mcp_failed", e.to_string()))?;
    running
        .waiting()
        .await
        .map_err(|e| CliError::new(1, "mcp_failed", e.to_string()))?;
    Ok(())
}
