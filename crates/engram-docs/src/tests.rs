//! Sections, anchors and search over the shipped pages.

use super::*;
use async_trait::async_trait;
use engram_core::tokens::TokenCounter;
use engram_embed::EmbedError;

#[test]
fn pages_have_titles_and_sections() {
    let pages = pages();
    assert_eq!(pages.len(), PAGES.len());
    for p in &pages {
        assert!(!p.title.is_empty(), "{} has no `# ` title", p.name);
        assert!(sections_of(p.name, p.markdown).len() >= 2, "{}", p.name);
    }
    assert_eq!(page("api.md").unwrap().name, "api");
    assert!(page("nope").is_none());
}

#[test]
fn sections_split_at_headings_not_in_code() {
    let md = "# Title\nintro\n## One\ntext\n```sh\n# a comment, not a heading\n```\n### Sub part\nmore\n## Two\nlast\n";
    let got: Vec<(String, String)> = sections_of("p", md)
        .into_iter()
        .map(|s| (s.heading, s.anchor))
        .collect();
    let want = [
        ("Title", "title"),
        ("Title › One", "one"),
        ("Title › One › Sub part", "sub-part"),
        ("Title › Two", "two"),
    ];
    assert_eq!(
        got,
        want.iter()
            .map(|(h, a)| (h.to_string(), a.to_string()))
            .collect::<Vec<_>>()
    );
    assert!(sections_of("p", md)[1].text.contains("# a comment"));
}

#[test]
fn anchors_are_like_renderers() {
    for (h, a) in [
        ("Scoped keys", "scoped-keys"),
        ("Search memories (v4)", "search-memories-v4"),
        ("`engram mcp`", "engram-mcp"),
        ("Read and change settings", "read-and-change-settings"),
    ] {
        assert_eq!(anchor(h), a, "{h}");
    }
}

#[tokio::test]
async fn keyword_search_finds_the_section() {
    let index = DocsIndex::build(None).await.unwrap();
    assert!(!index.hybrid() && index.len() > 50);
    for (q, page, needle) in [
        ("revoke a scoped key", "api", "/v3/auth/scoped-key"),
        (
            "ENGRAM_DATABASE_URL",
            "configuration",
            "ENGRAM_DATABASE_URL",
        ),
        ("Ollama embeddings", "providers", "ollama"),
        ("Claude Desktop", "mcp", "claude_desktop_config.json"),
    ] {
        let hits = index.search(q, 3, None).await.unwrap();
        assert!(
            hits.iter()
                .any(|h| h.page == page && h.text.to_lowercase().contains(&needle.to_lowercase())),
            "{q}: {:?}",
            hits.iter().map(|h| &h.heading).collect::<Vec<_>>()
        );
    }
    let only = index.search("keys", 10, Some("cli")).await.unwrap();
    assert!(!only.is_empty() && only.iter().all(|h| h.page == "cli"));
    assert!(index.search("zzzqqq", 5, None).await.unwrap().is_empty());
}

/// An embedder that knows one word: "memory" and "remember" share a vector.
struct Toy;

#[async_trait]
impl Embedder for Toy {
    fn model_name(&self) -> &str {
        "toy"
    }
    fn dimension(&self) -> usize {
        2
    }
    fn max_tokens(&self) -> usize {
        512
    }
    fn token_counter(&self) -> Arc<dyn TokenCounter> {
        unimplemented!("not chunking")
    }
    async fn embed(&self, texts: Vec<String>) -> Result<Vec<Vec<f32>>, EmbedError> {
        Ok(texts
            .iter()
            .map(|t| {
                let t = t.to_lowercase();
                if t.contains("remember") || t.contains("memory") {
                    vec![1.0, 0.0]
                } else {
                    vec![0.0, 1.0]
                }
            })
            .collect())
    }
}

#[tokio::test]
async fn hybrid_search_uses_the_embedder() {
    let index = DocsIndex::build(Some(Arc::new(Toy))).await.unwrap();
    assert!(index.hybrid());
    // no keyword in common, the vectors alone carry it
    let hits = index.search("remember", 5, None).await.unwrap();
    assert!(!hits.is_empty());
    assert!(hits.iter().all(|h| h.score > 0.0));
}

#[tokio::test]
async fn vectors_are_cached_per_docs_and_model() {
    let dir = tempfile::tempdir().unwrap();
    let a = DocsIndex::load_or_build(Some(Arc::new(Toy)), Some(dir.path()))
        .await
        .unwrap();
    let files: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().collect();
    assert_eq!(files.len(), 1);
    let name = files[0].file_name().to_string_lossy().to_string();
    assert_eq!(name, format!("docs-{}.f32", fingerprint("toy")));
    assert_eq!(
        std::fs::metadata(files[0].path()).unwrap().len() as usize,
        a.len() * 2 * 4
    );
    // read back: the same vectors, the same answers
    let b = DocsIndex::load_or_build(Some(Arc::new(Toy)), Some(dir.path()))
        .await
        .unwrap();
    assert_eq!(a.vectors(), b.vectors());
    // a cache of the wrong shape is ignored, not trusted, and rewritten
    std::fs::write(files[0].path(), [0u8; 12]).unwrap();
    let c = DocsIndex::load_or_build(Some(Arc::new(Toy)), Some(dir.path()))
        .await
        .unwrap();
    assert_eq!(a.vectors(), c.vectors());
    assert_eq!(
        std::fs::metadata(files[0].path()).unwrap().len() as usize,
        a.len() * 2 * 4
    );
    assert_ne!(fingerprint("toy"), fingerprint("other-model"));
}

#[test]
fn links_between_pages_resolve() {
    let link = |md: &str| -> Vec<String> {
        // `](target)` outside code; absolute URLs are not checked
        let mut out = Vec::new();
        let mut fenced = false;
        for line in md.lines() {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
            }
            if fenced {
                continue;
            }
            let mut rest = line;
            while let Some(i) = rest.find("](") {
                let tail = &rest[i + 2..];
                let Some(end) = tail.find(')') else { break };
                out.push(tail[..end].to_string());
                rest = &tail[end..];
            }
        }
        out
    };
    let mut checked = 0;
    for (name, md) in PAGES {
        for target in link(md) {
            if target.starts_with("http") {
                continue;
            }
            checked += 1;
            let (file, anchor_part) = target.split_once('#').unwrap_or((&target, ""));
            if let Some(outside) = file.strip_prefix("../") {
                let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../");
                assert!(
                    std::path::Path::new(path).join(outside).exists(),
                    "docs/{name}.md links to {target}, which is not in the repository"
                );
                continue;
            }
            let Some(p) = page(file) else {
                panic!("docs/{name}.md links to {target}: no such page")
            };
            if !anchor_part.is_empty() {
                assert!(
                    sections_of(p.name, p.markdown)
                        .iter()
                        .any(|s| s.anchor == anchor_part),
                    "docs/{name}.md links to {target}: no such heading"
                );
            }
        }
    }
    assert!(checked >= 5, "{checked}");
}
