//! HTML to readable text: the main content without scripts, styles,
//! navigation, headers, footers or forms; block elements become lines.

use ego_tree::iter::Edge;
use scraper::{Html, Node, Selector};

const SKIP: &[&str] = &[
    "script", "style", "noscript", "nav", "header", "footer", "aside", "form", "svg", "iframe",
    "template", "button", "select", "canvas", "head", "object", "embed", "dialog", "menu",
];
const BLOCK: &[&str] = &[
    "p",
    "div",
    "section",
    "article",
    "main",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "li",
    "ul",
    "ol",
    "table",
    "tr",
    "blockquote",
    "pre",
    "dt",
    "dd",
    "dl",
    "figure",
    "figcaption",
    "hr",
    "address",
    "details",
    "summary",
    "body",
];

/// Nesting deeper than this is read without the HTML parser: html5ever
/// looks through the open elements at every tag, so its time grows with
/// the square of the depth (100 000 nested `<div>`s took minutes). Real
/// pages stay under a few hundred.
pub const MAX_NESTING: usize = 1_000;

/// `(title, text)` of an HTML page.
pub fn html_to_text(html: &str) -> (Option<String>, String) {
    if nesting(html) > MAX_NESTING {
        return (None, strip_tags(html));
    }
    let doc = Html::parse_document(html);
    let title = select_text(&doc, "title")
        .or_else(|| {
            let sel = Selector::parse(r#"meta[property="og:title"]"#).ok()?;
            doc.select(&sel)
                .next()?
                .value()
                .attr("content")
                .map(|s| s.trim().to_string())
        })
        .or_else(|| select_text(&doc, "h1"))
        .filter(|t| !t.is_empty())
        .map(|t| crate::clip(&t, 120));
    // prefer the main content when the page marks it
    let root = ["main", "article", "[role=main]", "body"]
        .iter()
        .filter_map(|s| Selector::parse(s).ok())
        .find_map(|sel| doc.select(&sel).next())
        .map(|e| *e)
        .unwrap_or_else(|| doc.tree.root());
    let mut out = String::new();
    let mut line = String::new();
    let mut brk = 0usize;
    let mut skip_depth = 0usize;
    let mut pre_depth = 0usize;
    for edge in root.traverse() {
        match edge {
            Edge::Open(node) => match node.value() {
                Node::Element(e) => {
                    let name = e.name();
                    let hidden = e.attr("aria-hidden") == Some("true")
                        || e.attr("hidden").is_some()
                        || e.attr("role") == Some("navigation");
                    if skip_depth > 0 || SKIP.contains(&name) || hidden {
                        skip_depth += 1;
                        continue;
                    }
                    if name == "pre" {
                        pre_depth += 1;
                    }
                    if name == "br" {
                        flush(&mut out, &mut line, &mut brk);
                        brk = brk.max(1);
                    } else if BLOCK.contains(&name) {
                        flush(&mut out, &mut line, &mut brk);
                        brk = 2;
                    } else if matches!(name, "td" | "th") && !line.trim().is_empty() {
                        line.push_str(" | ");
                    }
                }
                Node::Text(t) if skip_depth == 0 => {
                    if pre_depth > 0 {
                        line.push_str(t);
                    } else {
                        push_collapsed(&mut line, t);
                    }
                }
                _ => {}
            },
            Edge::Close(node) => {
                if let Node::Element(e) = node.value() {
                    if skip_depth > 0 {
                        skip_depth -= 1;
                        continue;
                    }
                    if e.name() == "pre" {
                        pre_depth = pre_depth.saturating_sub(1);
                    }
                    if BLOCK.contains(&e.name()) {
                        flush(&mut out, &mut line, &mut brk);
                        brk = 2;
                    }
                }
            }
        }
    }
    flush(&mut out, &mut line, &mut brk);
    (title, out.trim().to_string())
}

fn select_text(doc: &Html, sel: &str) -> Option<String> {
    let sel = Selector::parse(sel).ok()?;
    let el = doc.select(&sel).next()?;
    let mut s = String::new();
    for t in el.text() {
        push_collapsed(&mut s, t);
    }
    Some(s.trim().to_string())
}

fn push_collapsed(line: &mut String, t: &str) {
    for (i, word) in t.split_whitespace().enumerate() {
        let need_space = (i > 0 || t.starts_with(char::is_whitespace))
            && !line.is_empty()
            && !line.ends_with(' ');
        if need_space {
            line.push(' ');
        }
        line.push_str(word);
    }
    if t.ends_with(char::is_whitespace) && !line.is_empty() && !line.ends_with(' ') {
        line.push(' ');
    }
}

/// End the current line; `brk` newlines (at least one) separate it from
/// what came before.
fn flush(out: &mut String, line: &mut String, brk: &mut usize) {
    let l = line.trim();
    if !l.is_empty() {
        if !out.is_empty() {
            out.push_str(if *brk >= 2 { "\n\n" } else { "\n" });
        }
        out.push_str(l);
        *brk = 0;
    }
    line.clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readable_text_without_chrome() {
        let html = r#"<!doctype html><html><head><title> The  Page </title><style>p{}</style>
            <script>var x = "secret";</script></head><body>
            <nav><a href="/">Home</a> <a href="/about">About</a></nav>
            <header>Site header</header>
            <main><h1>Heading</h1><p>First <b>bold</b> para.</p><p>Second<br>line</p>
            <ul><li>one</li><li>two</li></ul><table><tr><td>a</td><td>b</td></tr></table></main>
            <footer>Copyright</footer></body></html>"#;
        let (title, text) = html_to_text(html);
        assert_eq!(title.as_deref(), Some("The Page"));
        assert_eq!(
            text,
            "Heading\n\nFirst bold para.\n\nSecond\nline\n\none\n\ntwo\n\na | b"
        );
        for gone in ["secret", "Home", "Site header", "Copyright", "p{}"] {
            assert!(!text.contains(gone), "{gone}");
        }
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let html = format!("{}deep{}", "<div>".repeat(3000), "</div>".repeat(3000));
        let (_, text) = html_to_text(&html);
        assert_eq!(text, "deep");
    }
}

/// Elements that never hold content (no closing tag).
const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr",
];

/// How deep the tags nest, counted without parsing (opening tags that are
/// not void or self-closed, less closing tags); linear in the input.
fn nesting(html: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let b = html.as_bytes();
    let mut i = 0;
    while let Some(at) = b[i..].iter().position(|c| *c == b'<') {
        i += at + 1;
        match b.get(i) {
            Some(b'/') => depth = depth.saturating_sub(1),
            Some(c) if c.is_ascii_alphabetic() => {
                let name_end = b[i..]
                    .iter()
                    .position(|c| !c.is_ascii_alphanumeric())
                    .map_or(b.len(), |n| i + n);
                let name = html[i..name_end].to_ascii_lowercase();
                let tag_end = b[i..]
                    .iter()
                    .position(|c| *c == b'>')
                    .map_or(b.len(), |n| i + n);
                let self_closed = tag_end > 0 && b.get(tag_end - 1) == Some(&b'/');
                if !VOID.contains(&name.as_str()) && !self_closed {
                    depth += 1;
                    deepest = deepest.max(depth);
                }
            }
            _ => {}
        }
    }
    deepest
}

/// The text of HTML with every tag removed (and scripts and styles with
/// their content), a few entities decoded, blank runs collapsed: linear,
/// for pages the parser cannot read in reasonable time.
fn strip_tags(html: &str) -> String {
    let mut out = String::with_capacity(html.len() / 4);
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let lower = rest.get(..8).unwrap_or(rest).to_ascii_lowercase();
        let skip_to = ["script", "style"]
            .iter()
            .find_map(|t| lower[1..].starts_with(t).then(|| format!("</{t}")));
        let end = match skip_to {
            Some(close) => rest
                .to_ascii_lowercase()
                .find(&close)
                .and_then(|c| rest[c..].find('>').map(|g| c + g + 1)),
            None => rest.find('>').map(|g| g + 1),
        };
        out.push(' ');
        rest = &rest[end.unwrap_or(rest.len())..];
    }
    out.push_str(rest);
    let decoded = out
        .replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    decoded.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod deep {
    use super::*;

    #[test]
    fn nesting_is_counted_without_parsing() {
        assert_eq!(nesting("<p>a<br>b<img src=x/></p>"), 1);
        assert_eq!(nesting("<div><div><span>x</span></div></div>"), 3);
        assert_eq!(nesting("<!doctype html><html><body><p>x</body></html>"), 3);
    }

    #[test]
    fn deep_pages_are_read_without_the_parser() {
        let mut html = "<div>".repeat(100_000);
        html.push_str("Deep <script>var x = '<b>';</script>inside &amp; alone.");
        html.push_str(&"</div>".repeat(100_000));
        let (title, text) = html_to_text(&html);
        assert_eq!(text, "Deep inside & alone.");
        assert!(title.is_none());
    }
}
