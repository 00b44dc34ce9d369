//! A small, dependency-free sentence splitter returning byte ranges.

const ABBREVIATIONS: &[&str] = &[
    "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "vs", "etc", "e.g", "i.e", "inc", "ltd",
    "co", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
    "no", "fig",
];

/// Byte ranges of the sentences of `text` within `[start, end)`. Sentences
/// end at `.`, `!`, `?` (with closing quotes or brackets) followed by white
/// space, or at a line break. Ranges exclude surrounding white space and
/// together cover every non-space character.
pub fn split_sentences(text: &str, start: usize, end: usize) -> Vec<(usize, usize)> {
    let s = &text[start..end];
    let bytes = s.as_bytes();
    let mut out = Vec::new();
    let mut sent_start: Option<usize> = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if sent_start.is_none() {
            if !b.is_ascii_whitespace() {
                sent_start = Some(i);
            }
            i += 1;
            continue;
        }
        let mut boundary = None;
        if b == b'\n' {
            boundary = Some(i);
        } else if matches!(b, b'.' | b'!' | b'?') {
            let mut j = i + 1;
            while j < bytes.len()
                && matches!(bytes[j], b'.' | b'!' | b'?' | b'"' | b'\'' | b')' | b']')
            {
                j += 1;
            }
            // curly closing quote (U+201D, 3 bytes)
            if s[j..].starts_with('\u{201d}') {
                j += 3;
            }
            let at_space = j >= bytes.len() || bytes[j].is_ascii_whitespace();
            if at_space && !(b == b'.' && is_abbreviation(&s[sent_start.unwrap_or(0)..i])) {
                boundary = Some(j);
            }
            if boundary.is_none() {
                i = j;
                continue;
            }
        }
        if let Some(e) = boundary {
            let st = sent_start.take().unwrap_or(0);
            let trimmed = s[st..e].trim_end();
            if !trimmed.is_empty() {
                out.push((start + st, start + st + trimmed.len()));
            }
            i = e.max(i + 1);
            continue;
        }
        i += 1;
    }
    if let Some(st) = sent_start {
        let trimmed = s[st..].trim_end();
        if !trimmed.is_empty() {
            out.push((start + st, start + st + trimmed.len()));
        }
    }
    out
}

fn is_abbreviation(before: &str) -> bool {
    let word = before
        .rsplit(|c: char| c.is_whitespace() || c == '(')
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    if word.len() == 1 && word.chars().all(|c| c.is_ascii_alphabetic()) {
        return true; // an initial: "J. R. R. Tolkien"
    }
    // initials run together: "J.K. Rowling", "R.R. Martin"
    if word.contains('.')
        && word
            .split('.')
            .all(|p| p.len() == 1 && p.chars().all(|c| c.is_ascii_alphabetic()))
    {
        return true;
    }
    ABBREVIATIONS.contains(&word.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, want: &[&str]) {
        let got: Vec<&str> = split_sentences(input, 0, input.len())
            .iter()
            .map(|(a, b)| &input[*a..*b])
            .collect();
        assert_eq!(got, want, "input: {input:?}");
    }

    #[test]
    fn sentences() {
        check("One. Two! Three?", &["One.", "Two!", "Three?"]);
        check(
            "Dr. Smith met Mr. Jones. Then left.",
            &["Dr. Smith met Mr. Jones.", "Then left."],
        );
        check("Version 2.5 is out. Yes", &["Version 2.5 is out.", "Yes"]);
        check(
            "He said \"stop.\" Then ran.",
            &["He said \"stop.\"", "Then ran."],
        );
        check(
            "line one\nline two\n\n  line three  ",
            &["line one", "line two", "line three"],
        );
        check(
            "J. R. R. Tolkien wrote it.",
            &["J. R. R. Tolkien wrote it."],
        );
        check(
            "A quote by J.K. Rowling that I like. And R.R. Martin too.",
            &[
                "A quote by J.K. Rowling that I like.",
                "And R.R. Martin too.",
            ],
        );
        check("Wait... what?! Really.", &["Wait...", "what?!", "Really."]);
        check("", &[]);
        check("ünïcödé. ends", &["ünïcödé.", "ends"]);
    }
}
