//! The web crawler: a site from its start URL, breadth first, same site
//! only (scheme, host and port), robots.txt obeyed (rules and
//! `Crawl-delay`), the sitemap used when there is one, a politeness delay
//! between requests, HTML only (other types are skipped), at most the
//! connection's document limit of pages. Every request and redirect goes
//! through the SSRF-guarded [`Fetcher`].
//!
//! Re-crawls are cheap: each page's `ETag`/`Last-Modified` are sent back
//! (`If-None-Match`/`If-Modified-Since`), a 304 or an unchanged body costs
//! no document write, and a page's links are remembered so that a 304
//! still leads on. A page that is gone (404/410, or no longer reached)
//! has its document removed. The cursor holds the crawl in progress
//! (queue and visited set), checkpointed every few pages, so a crawl that
//! dies resumes.

use crate::fetch::{FetchError, Fetcher};
use crate::robots::Robots;
use crate::{ConnectError, Item, Sink};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::time::Duration;

/// Pages between checkpoints.
const CHECKPOINT_EVERY: usize = 10;
/// The longest `Crawl-delay` honoured.
const MAX_DELAY: Duration = Duration::from_secs(10);

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
struct Page {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    etag: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    last_modified: Option<String>,
    hash: String,
    #[serde(default)]
    links: Vec<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
struct Run {
    queue: VecDeque<String>,
    visited: BTreeSet<String>,
    /// Pages kept this run (documents).
    kept: BTreeSet<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
struct State {
    /// Every page that is a document, by URL.
    #[serde(default)]
    pages: BTreeMap<String, Page>,
    /// The crawl in progress, if one was interrupted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    run: Option<Run>,
}

/// What one crawl did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct CrawlStats {
    pub fetched: usize,
    pub unchanged: usize,
    pub written: usize,
    pub removed: usize,
    pub skipped: usize,
}

/// A URL's identity: no fragment.
fn normal(mut u: url::Url) -> String {
    u.set_fragment(None);
    u.to_string()
}

fn same_site(a: &url::Url, b: &url::Url) -> bool {
    a.scheme() == b.scheme()
        && a.host_str() == b.host_str()
        && a.port_or_known_default() == b.port_or_known_default()
}

fn path_and_query(u: &url::Url) -> String {
    match u.query() {
        Some(q) => format!("{}?{q}", u.path()),
        None => u.path().to_string(),
    }
}

/// Links of an HTML page, resolved against `base`, and whether the page
/// asks not to be indexed / followed (`<meta name="robots">`).
fn links(html: &str, base: &url::Url) -> (Vec<String>, bool, bool) {
    let doc = scraper::Html::parse_document(html);
    let mut noindex = false;
    let mut nofollow = false;
    if let Ok(sel) = scraper::Selector::parse("meta[name]") {
        for m in doc.select(&sel) {
            let name = m.value().attr("name").unwrap_or("").to_ascii_lowercase();
            if name == "robots" || name == crate::robots::AGENT {
                let c = m.value().attr("content").unwrap_or("").to_ascii_lowercase();
                noindex |= c.contains("noindex") || c.contains("none");
                nofollow |= c.contains("nofollow") || c.contains("none");
            }
        }
    }
    let mut out = Vec::new();
    if !nofollow {
        if let Ok(sel) = scraper::Selector::parse("a[href]") {
            for a in doc.select(&sel) {
                let rel = a.value().attr("rel").unwrap_or("");
                if rel
                    .split_whitespace()
                    .any(|r| r.eq_ignore_ascii_case("nofollow"))
                {
                    continue;
                }
                if let Some(u) = a
                    .value()
                    .attr("href")
                    .and_then(|h| base.join(h.trim()).ok())
                {
                    if matches!(u.scheme(), "http" | "https") {
                        out.push(normal(u));
                    }
                }
            }
        }
    }
    out.sort();
    out.dedup();
    (out, noindex, nofollow)
}

/// `<loc>` entries of a sitemap (or a sitemap index).
fn sitemap_locs(xml: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = xml;
    while let Some(i) = rest.find("<loc>") {
        rest = &rest[i + 5..];
        let Some(j) = rest.find("</loc>") else { break };
        let loc = rest[..j]
            .trim()
            .replace("&amp;", "&")
            .replace("&lt;", "<")
            .replace("&gt;", ">");
        out.push(loc);
        rest = &rest[j + 6..];
    }
    out
}

fn refused(e: FetchError) -> ConnectError {
    match e {
        FetchError::Refused(m) => ConnectError::Config(format!("refused to fetch {m}")),
        FetchError::Network(m) => ConnectError::Unavailable(m),
        other => ConnectError::Unavailable(other.to_string()),
    }
}

/// The crawler of one connection.
pub struct Crawler<'a> {
    pub fetcher: &'a Fetcher,
    /// The least time between two requests (robots.txt may ask for more).
    pub delay: Duration,
    /// At most this many pages become documents.
    pub limit: usize,
}

impl Crawler<'_> {
    /// Crawl (or resume crawling) the site of `start`, writing changes to
    /// `sink`; returns the cursor for next time.
    pub async fn crawl(
        &self,
        start: &str,
        cursor: serde_json::Value,
        sink: &mut dyn Sink,
    ) -> Result<(serde_json::Value, CrawlStats), ConnectError> {
        let start = url::Url::parse(start.trim())
            .map_err(|e| ConnectError::Config(format!("metadata.startUrl `{start}`: {e}")))?;
        if !matches!(start.scheme(), "http" | "https") {
            return Err(ConnectError::Config(
                "metadata.startUrl must be an http or https URL".into(),
            ));
        }
        let mut state: State = serde_json::from_value(cursor).unwrap_or_default();
        let mut stats = CrawlStats::default();
        // robots.txt (missing or unreadable: everything is allowed)
        let mut robots_url = start.clone();
        robots_url.set_path("/robots.txt");
        robots_url.set_query(None);
        robots_url.set_fragment(None);
        let robots = match self.fetcher.get(robots_url.as_str(), &[]).await {
            Ok(r) if (200..300).contains(&r.status) => {
                Robots::parse(&String::from_utf8_lossy(&r.body.bytes))
            }
            Ok(r) if r.status == 429 => {
                return Err(ConnectError::RateLimited {
                    retry_after: r.retry_after.as_deref().and_then(crate::parse_retry_after),
                })
            }
            Ok(_) => Robots::default(),
            Err(e) => return Err(refused(e)),
        };
        let delay = robots
            .crawl_delay
            .map(|s| Duration::from_secs_f64(s.clamp(0.0, MAX_DELAY.as_secs_f64())))
            .unwrap_or_default()
            .max(self.delay);
        let mut run = match state.run.take() {
            Some(run) => run,
            None => {
                let mut queue = VecDeque::from([normal(start.clone())]);
                // the sitemap: named in robots.txt, or the usual place
                let mut maps = robots.sitemaps.clone();
                if maps.is_empty() {
                    let mut u = start.clone();
                    u.set_path("/sitemap.xml");
                    u.set_query(None);
                    maps.push(u.to_string());
                }
                let mut seen_maps = 0;
                while let Some(m) = maps.pop() {
                    seen_maps += 1;
                    if seen_maps > 10 {
                        break;
                    }
                    let Ok(mu) = url::Url::parse(&m) else {
                        continue;
                    };
                    if !same_site(&mu, &start) {
                        continue;
                    }
                    tokio::time::sleep(delay).await;
                    if let Ok(r) = self.fetcher.get(mu.as_str(), &[]).await {
                        if (200..300).contains(&r.status) {
                            let xml = String::from_utf8_lossy(&r.body.bytes);
                            let is_index = xml.contains("<sitemapindex");
                            for loc in sitemap_locs(&xml) {
                                if is_index {
                                    maps.push(loc);
                                } else if let Ok(u) = url::Url::parse(&loc) {
                                    queue.push_back(normal(u));
                                }
                            }
                        }
                    }
                }
                Run {
                    queue,
                    ..Default::default()
                }
            }
        };
        let limit = self.limit;
        let mut since_checkpoint = 0;
        while let Some(next) = run.queue.pop_front() {
            if run.kept.len() >= limit {
                break;
            }
            let Ok(u) = url::Url::parse(&next) else {
                continue;
            };
            if !same_site(&u, &start) || run.visited.contains(&next) {
                continue;
            }
            run.visited.insert(next.clone());
            if !robots.allowed(&path_and_query(&u)) {
                stats.skipped += 1;
                continue;
            }
            // a new page needs room for a document
            if !state.pages.contains_key(&next) && sink.room() == 0 {
                stats.skipped += 1;
                continue;
            }
            if stats.fetched > 0 {
                tokio::time::sleep(delay).await;
            }
            let known = state.pages.get(&next).cloned();
            let mut headers: Vec<(&str, &str)> = Vec::new();
            if let Some(p) = &known {
                if let Some(e) = &p.etag {
                    headers.push(("If-None-Match", e));
                }
                if let Some(l) = &p.last_modified {
                    headers.push(("If-Modified-Since", l));
                }
            }
            let r = match self.fetcher.get(&next, &headers).await {
                Ok(r) => r,
                Err(FetchError::Refused(m)) => {
                    tracing::info!(url = %next, "crawler refused: {m}");
                    stats.skipped += 1;
                    continue;
                }
                Err(FetchError::TooLarge(_)) => {
                    stats.skipped += 1;
                    continue;
                }
                Err(e) => {
                    // keep what we had of it; try again next time
                    if known.is_some() {
                        run.kept.insert(next.clone());
                    }
                    tracing::info!(url = %next, "crawler could not fetch: {e}");
                    continue;
                }
            };
            stats.fetched += 1;
            match r.status {
                304 => {
                    if let Some(p) = known {
                        stats.unchanged += 1;
                        run.kept.insert(next.clone());
                        run.queue.extend(p.links.iter().cloned());
                    }
                }
                429 => {
                    run.visited.remove(&next);
                    run.queue.push_front(next);
                    state.run = Some(run);
                    sink.checkpoint(&serde_json::to_value(&state).unwrap_or_default())
                        .await?;
                    return Err(ConnectError::RateLimited {
                        retry_after: r.retry_after.as_deref().and_then(crate::parse_retry_after),
                    });
                }
                s if (200..300).contains(&s) => {
                    let final_url = url::Url::parse(&r.body.final_url).unwrap_or(u.clone());
                    if !same_site(&final_url, &start) {
                        stats.skipped += 1;
                        continue;
                    }
                    let final_key = normal(final_url.clone());
                    if final_key != next {
                        // redirected: the target is the page
                        if run.visited.contains(&final_key)
                            || !robots.allowed(&path_and_query(&final_url))
                        {
                            continue;
                        }
                        run.visited.insert(final_key.clone());
                    }
                    let is_html = r
                        .body
                        .content_type
                        .as_deref()
                        .map(|c| c.to_ascii_lowercase().contains("html"))
                        .unwrap_or(false);
                    if !is_html {
                        stats.skipped += 1;
                        continue;
                    }
                    let html = String::from_utf8_lossy(&r.body.bytes).into_owned();
                    let (found, noindex, _) = links(&html, &final_url);
                    run.queue
                        .extend(found.iter().filter(|l| !run.visited.contains(*l)).cloned());
                    if noindex {
                        stats.skipped += 1;
                        continue;
                    }
                    let hash = hex::encode(Sha256::digest(&r.body.bytes));
                    let page = Page {
                        etag: r.etag.clone(),
                        last_modified: r.last_modified.clone(),
                        hash: hash.clone(),
                        links: found,
                    };
                    let unchanged = state.pages.get(&final_key).is_some_and(|p| p.hash == hash);
                    if unchanged {
                        stats.unchanged += 1;
                    } else {
                        let mut metadata = serde_json::Map::new();
                        metadata.insert("url".into(), final_key.clone().into());
                        sink.put(vec![Item {
                            id: final_key.clone(),
                            title: None,
                            url: Some(final_key.clone()),
                            bytes: r.body.bytes,
                            mime_type: r.body.content_type.clone(),
                            filename: None,
                            metadata,
                        }])
                        .await?;
                        stats.written += 1;
                    }
                    state.pages.insert(final_key.clone(), page);
                    run.kept.insert(final_key);
                }
                _ => {
                    // gone (404, 410) or refused: not a page any more
                }
            }
            since_checkpoint += 1;
            if since_checkpoint >= CHECKPOINT_EVERY {
                since_checkpoint = 0;
                let snapshot = State {
                    pages: state.pages.clone(),
                    run: Some(run.clone()),
                };
                sink.checkpoint(&serde_json::to_value(&snapshot).unwrap_or_default())
                    .await?;
            }
        }
        // pages not reached this time are gone from the site
        let gone: Vec<String> = state
            .pages
            .keys()
            .filter(|k| !run.kept.contains(*k))
            .cloned()
            .collect();
        if !gone.is_empty() {
            for g in &gone {
                state.pages.remove(g);
            }
            stats.removed = gone.len();
            sink.remove(gone).await?;
        }
        let cursor = serde_json::to_value(&state).unwrap_or_default();
        sink.checkpoint(&cursor).await?;
        Ok((cursor, stats))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_resolve_and_respect_nofollow() {
        let base = url::Url::parse("http://s.test/a/b.html").unwrap();
        let (l, noindex, _) = links(
            r#"<a href="c.html#x">c</a><a href="/d">d</a><a href="mailto:x@y">m</a>
               <a rel="nofollow" href="/e">e</a><a href="http://other.test/">o</a>"#,
            &base,
        );
        assert_eq!(
            l,
            [
                "http://other.test/",
                "http://s.test/a/c.html",
                "http://s.test/d"
            ]
        );
        assert!(!noindex);
        let (l, noindex, _) = links(
            r#"<meta name="robots" content="noindex, nofollow"><a href="/x">x</a>"#,
            &base,
        );
        assert!(l.is_empty() && noindex);
    }

    #[test]
    fn sitemaps() {
        let xml = "<urlset><url><loc> http://s.test/a?x=1&amp;y=2 </loc></url><url><loc>http://s.test/b</loc></url></urlset>";
        assert_eq!(
            sitemap_locs(xml),
            ["http://s.test/a?x=1&y=2", "http://s.test/b"]
        );
    }
}
