//! Turning what a client sent into indexable text, and text into chunks.
//!
//! - [`extract`]: HTML (readable text without scripts, styles, navigation),
//!   PDF, CSV, markdown and plain text, with a title and a document type.
//! - [`conversation`]: recognising chat transcripts so they chunk on turns.
//! - [`chunk`]: token-budgeted chunking on paragraph and sentence boundaries.
//! - [`summary`]: a short extractive summary.
//!
//! Pure functions over bytes and strings: no IO, no network, no models (the
//! chunker counts tokens through [`engram_core::tokens::TokenCounter`]).

pub mod chunk;
pub mod conversation;
mod html;
mod sentences;
pub mod summary;

pub use html::html_to_text;
pub use sentences::split_sentences;

use engram_core::DocumentType;

/// Why content could not be turned into text.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ExtractError {
    #[error("unsupported content type `{0}`")]
    Unsupported(String),
    #[error("could not read PDF: {0}")]
    Pdf(String),
    #[error("could not read CSV: {0}")]
    Csv(String),
    #[error("the content holds no text")]
    Empty,
}

/// Text ready for chunking.
#[derive(Debug, Clone, PartialEq)]
pub struct Extracted {
    pub text: String,
    pub title: Option<String>,
    pub doc_type: DocumentType,
}

/// What kind of bytes we were given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Html,
    Pdf,
    Csv,
    Markdown,
    Text,
}

/// Guess the format from a MIME type, a file name and the first bytes.
pub fn detect_format(
    bytes: &[u8],
    mime: Option<&str>,
    filename: Option<&str>,
) -> Result<Format, ExtractError> {
    let mime = mime.map(|m| {
        m.split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase()
    });
    let ext = filename
        .and_then(|f| f.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()))
        .unwrap_or_default();
    if bytes.starts_with(b"%PDF-") || mime.as_deref() == Some("application/pdf") || ext == "pdf" {
        return Ok(Format::Pdf);
    }
    match mime.as_deref() {
        Some("text/html") | Some("application/xhtml+xml") => return Ok(Format::Html),
        Some("text/csv") => return Ok(Format::Csv),
        Some("text/markdown") | Some("text/x-markdown") => return Ok(Format::Markdown),
        _ => {}
    }
    match ext.as_str() {
        "html" | "htm" | "xhtml" => return Ok(Format::Html),
        "csv" => return Ok(Format::Csv),
        "md" | "markdown" | "mdx" => return Ok(Format::Markdown),
        _ => {}
    }
    if std::str::from_utf8(bytes).is_err() && bytes.iter().take(4096).any(|b| *b == 0) {
        return Err(ExtractError::Unsupported(
            mime.unwrap_or_else(|| "application/octet-stream".into()),
        ));
    }
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(2048)]).to_ascii_lowercase();
    if looks_like_html(&head) {
        return Ok(Format::Html);
    }
    match mime.as_deref() {
        None | Some("") => Ok(Format::Text),
        Some(m)
            if m.starts_with("text/")
                || m == "application/json"
                || m == "application/xml"
                || m == "application/octet-stream" =>
        {
            Ok(Format::Text)
        }
        Some(m) => Err(ExtractError::Unsupported(m.to_string())),
    }
}

fn looks_like_html(head_lower: &str) -> bool {
    let t = head_lower.trim_start();
    t.starts_with("<!doctype html")
        || t.starts_with("<html")
        || (t.starts_with('<') && (t.contains("<body") || t.contains("<head")))
}

/// Extract text from bytes. `from_url` marks fetched web content (HTML then
/// becomes a `webpage`).
pub fn extract_bytes(
    bytes: &[u8],
    mime: Option<&str>,
    filename: Option<&str>,
    from_url: bool,
) -> Result<Extracted, ExtractError> {
    let format = detect_format(bytes, mime, filename)?;
    let out = match format {
        Format::Pdf => {
            let text = pdf_text(bytes)?;
            Extracted {
                title: first_line_title(&text),
                text,
                doc_type: DocumentType::Pdf,
            }
        }
        Format::Html => {
            let (title, text) = html_to_text(&String::from_utf8_lossy(bytes));
            let doc_type = if from_url {
                DocumentType::Webpage
            } else {
                DocumentType::Text
            };
            Extracted {
                title: title.or_else(|| first_line_title(&text)),
                text,
                doc_type,
            }
        }
        Format::Csv => {
            let text = csv_text(bytes)?;
            Extracted {
                title: filename.map(str::to_string),
                text,
                doc_type: DocumentType::Text,
            }
        }
        Format::Markdown | Format::Text => {
            return Ok(extract_text(&String::from_utf8_lossy(bytes)))
        }
    };
    if out.text.trim().is_empty() {
        return Err(ExtractError::Empty);
    }
    Ok(out.cleaned())
}

/// Extract from text a client sent inline: HTML is converted, chat
/// transcripts sent as JSON messages are rendered as `role: content` lines,
/// anything else is kept as it is.
pub fn extract_text(content: &str) -> Extracted {
    extract_text_as_sent(content).cleaned()
}

impl Extracted {
    /// Without control characters other than line breaks and tabs: a NUL
    /// in a text file means nothing to a reader, and PostgreSQL cannot
    /// store it (the document would fail to index on every retry).
    fn cleaned(mut self) -> Self {
        let bad = |c: char| c.is_control() && !matches!(c, '\n' | '\r' | '\t');
        if self.text.contains(bad) {
            self.text.retain(|c| !bad(c));
        }
        if let Some(t) = self.title.as_mut() {
            t.retain(|c| !bad(c));
        }
        self
    }
}

fn extract_text_as_sent(content: &str) -> Extracted {
    let head = content[..floor_char(content, 2048)].to_ascii_lowercase();
    if looks_like_html(&head) {
        let (title, text) = html_to_text(content);
        return Extracted {
            title: title.or_else(|| first_line_title(&text)),
            text,
            doc_type: DocumentType::Text,
        };
    }
    if let Some(text) = conversation::render_json_messages(content) {
        return Extracted {
            title: first_line_title(&text),
            text,
            doc_type: DocumentType::Text,
        };
    }
    let text = content.replace("\r\n", "\n");
    Extracted {
        title: markdown_title(&text).or_else(|| first_line_title(&text)),
        text,
        doc_type: DocumentType::Text,
    }
}

fn floor_char(s: &str, mut i: usize) -> usize {
    if i >= s.len() {
        return s.len();
    }
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The first `# Heading` of a markdown text.
pub fn markdown_title(text: &str) -> Option<String> {
    text.lines()
        .take(20)
        .map(str::trim)
        .find_map(|l| l.strip_prefix("# ").map(|t| t.trim().to_string()))
        .filter(|t| !t.is_empty())
        .map(|t| clip(&t, 120))
}

/// A title from the first non-empty line, clipped at a word boundary.
pub fn first_line_title(text: &str) -> Option<String> {
    let line = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    let line = line.trim_start_matches('#').trim();
    if line.is_empty() {
        return None;
    }
    Some(clip(line, 80))
}

/// At most `max` characters, cut at a word boundary with an ellipsis.
pub fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let cut: String = s.chars().take(max).collect();
    let cut = match cut.rfind(' ') {
        Some(i) if i > max / 2 => &cut[..i],
        _ => &cut[..],
    };
    format!("{}…", cut.trim_end_matches([',', ';', ':', ' ']))
}

/// The most a PDF's streams (other than images) may inflate to: what
/// pdf-extract would hold in memory at once. A text PDF of 50 MB inflates
/// to well under this; a decompression bomb is refused before anything is
/// inflated into memory.
pub const MAX_PDF_INFLATED: u64 = 128 << 20;

/// Counts what the PDF's deflated streams inflate to, streaming into a
/// sink (memory stays at a buffer), and refuses past [`MAX_PDF_INFLATED`].
/// A file lopdf cannot read is left to pdf-extract to refuse.
fn pdf_within_bounds(bytes: &[u8]) -> Result<(), ExtractError> {
    use std::io::Read;
    let Ok(doc) = lopdf::Document::load_mem(bytes) else {
        return Ok(());
    };
    let mut total: u64 = 0;
    for obj in doc.objects.values() {
        let Ok(stream) = obj.as_stream() else {
            continue;
        };
        let is = |key: &[u8], want: &[u8]| {
            stream.dict.get(key).is_ok_and(|v| match v {
                lopdf::Object::Name(n) => n == want,
                lopdf::Object::Array(a) => a
                    .iter()
                    .any(|x| matches!(x, lopdf::Object::Name(n) if n == want)),
                _ => false,
            })
        };
        if is(b"Subtype", b"Image") {
            continue;
        }
        total += if is(b"Filter", b"FlateDecode") {
            let left = MAX_PDF_INFLATED.saturating_sub(total) + 1;
            let mut inflater = flate2::read::ZlibDecoder::new(&stream.content[..]).take(left);
            std::io::copy(&mut inflater, &mut std::io::sink()).unwrap_or(0)
        } else {
            stream.content.len() as u64
        };
        if total > MAX_PDF_INFLATED {
            return Err(ExtractError::Pdf(format!(
                "the PDF inflates to more than {} MB; it is not read",
                MAX_PDF_INFLATED >> 20
            )));
        }
    }
    Ok(())
}

fn pdf_text(bytes: &[u8]) -> Result<String, ExtractError> {
    pdf_within_bounds(bytes)?;
    // pdf-extract can panic on malformed files; contain it.
    let owned = bytes.to_vec();
    let r = std::panic::catch_unwind(move || pdf_extract::extract_text_from_mem(&owned));
    match r {
        Ok(Ok(t)) => {
            let t = normalise_pdf_text(&t);
            if t.trim().is_empty() {
                Err(ExtractError::Empty)
            } else {
                Ok(t)
            }
        }
        Ok(Err(e)) => Err(ExtractError::Pdf(e.to_string())),
        Err(_) => Err(ExtractError::Pdf("malformed PDF".into())),
    }
}

fn normalise_pdf_text(t: &str) -> String {
    // collapse runs of blank lines and trailing spaces that PDF layout leaves
    let mut out = String::with_capacity(t.len());
    let mut blank = 0;
    for line in t.lines() {
        let l = line.trim_end();
        if l.trim().is_empty() {
            blank += 1;
            if blank == 1 && !out.is_empty() {
                out.push('\n');
            }
            continue;
        }
        blank = 0;
        out.push_str(l);
        out.push('\n');
    }
    out.trim().to_string()
}

fn csv_text(bytes: &[u8]) -> Result<String, ExtractError> {
    let mut rdr = csv::ReaderBuilder::new().flexible(true).from_reader(bytes);
    let headers: Vec<String> = rdr
        .headers()
        .map_err(|e| ExtractError::Csv(e.to_string()))?
        .iter()
        .map(|h| h.trim().to_string())
        .collect();
    let mut lines = Vec::new();
    for rec in rdr.records() {
        let rec = rec.map_err(|e| ExtractError::Csv(e.to_string()))?;
        let cells: Vec<String> = rec
            .iter()
            .enumerate()
            .filter(|(_, v)| !v.trim().is_empty())
            .map(|(i, v)| match headers.get(i).filter(|h| !h.is_empty()) {
                Some(h) => format!("{h}: {}", v.trim()),
                None => v.trim().to_string(),
            })
            .collect();
        if !cells.is_empty() {
            lines.push(cells.join("; "));
        }
    }
    if lines.is_empty() {
        return Err(ExtractError::Empty);
    }
    Ok(lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_dropped_line_breaks_kept() {
        let e = extract_bytes(
            b"a\0b\x01c\n\td\r\n",
            Some("text/plain"),
            Some("n.txt"),
            false,
        )
        .unwrap();
        assert_eq!(e.text, "abc\n\td\n");
        assert_eq!(extract_text("x\u{0}y").text, "xy");
    }

    #[test]
    fn formats_are_detected() {
        type Case<'a> = (&'a [u8], Option<&'a str>, Option<&'a str>, Format);
        let cases: &[Case] = &[
            (b"%PDF-1.4 ...", None, None, Format::Pdf),
            (b"<!DOCTYPE html><html>", None, None, Format::Html),
            (b"a,b\n1,2", Some("text/csv"), None, Format::Csv),
            (b"a,b\n1,2", None, Some("data.CSV"), Format::Csv),
            (b"# Hi", None, Some("x.md"), Format::Markdown),
            (
                b"plain words",
                Some("text/plain; charset=utf-8"),
                None,
                Format::Text,
            ),
        ];
        for (bytes, mime, name, want) in cases {
            assert_eq!(
                detect_format(bytes, *mime, *name).unwrap(),
                *want,
                "{name:?} {mime:?}"
            );
        }
        assert!(matches!(
            detect_format(b"\x00\x01\x02", Some("image/png"), None),
            Err(ExtractError::Unsupported(_))
        ));
    }

    #[test]
    fn csv_rows_become_labelled_lines() {
        let e = extract_bytes(
            b"name,city\nAda,London\nAlan,\n",
            None,
            Some("people.csv"),
            false,
        )
        .unwrap();
        assert_eq!(e.text, "name: Ada; city: London\nname: Alan");
        assert_eq!(e.title.as_deref(), Some("people.csv"));
    }

    #[test]
    fn titles() {
        assert_eq!(
            extract_text("intro\n# Real Title\nbody").title.as_deref(),
            Some("Real Title")
        );
        assert_eq!(
            extract_text("Short first line\nmore").title.as_deref(),
            Some("Short first line")
        );
        let long = "word ".repeat(40);
        let t = extract_text(&long).title.unwrap();
        assert!(t.ends_with('…') && t.chars().count() <= 81, "{t}");
    }

    #[test]
    fn broken_pdf_is_an_error_not_a_panic() {
        let r = extract_bytes(b"%PDF-1.7\n garbage garbage", None, None, false);
        assert!(
            matches!(r, Err(ExtractError::Pdf(_)) | Err(ExtractError::Empty)),
            "{r:?}"
        );
    }
}
