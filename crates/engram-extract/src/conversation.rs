//! Chat transcripts: recognising them, and rendering JSON message lists as
//! `role: content` lines so that they chunk on turn boundaries.

use serde_json::Value;

/// If `content` is a JSON array of `{role, content}` messages (content a
/// string or a list of `{type: "text", text}` parts), render it as one
/// `role: text` line per message.
pub fn render_json_messages(content: &str) -> Option<String> {
    let t = content.trim_start();
    if !t.starts_with('[') {
        return None;
    }
    let v: Value = serde_json::from_str(t).ok()?;
    let msgs = v.as_array()?;
    if msgs.is_empty() {
        return None;
    }
    let mut lines = Vec::with_capacity(msgs.len());
    for m in msgs {
        let role = m.get("role")?.as_str()?;
        let text = match m.get("content")? {
            Value::String(s) => s.clone(),
            Value::Array(parts) => parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join(" "),
            _ => return None,
        };
        lines.push(format!("{role}: {}", text.trim().replace('\n', " ")));
    }
    Some(lines.join("\n"))
}

/// Length of a `Speaker:` prefix at the start of `line`, if it has one: up to
/// 40 characters of letters, digits, spaces, `_`, `-`, `.` or `'`, then `:`
/// and a space.
pub fn speaker_prefix(line: &str) -> Option<usize> {
    let colon = line.find(": ")?;
    let name = &line[..colon];
    let ok = !name.is_empty()
        && name.chars().count() <= 40
        && name.chars().next().is_some_and(|c| c.is_alphanumeric())
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '_' | '-' | '.' | '\''));
    ok.then_some(colon)
}

/// Byte ranges of the turns of a transcript: each line starting with a
/// speaker prefix begins a turn, continuation lines belong to it. `None`
/// when the text is not a transcript (fewer than two turns, or most lines
/// not turns).
pub fn turns(text: &str) -> Option<Vec<(usize, usize)>> {
    let mut turns: Vec<(usize, usize)> = Vec::new();
    let mut lines = 0usize;
    let mut offset = 0usize;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let body = line.trim_end();
        if body.trim().is_empty() {
            continue;
        }
        lines += 1;
        if speaker_prefix(body).is_some() {
            turns.push((start, start + body.len()));
        } else if let Some(last) = turns.last_mut() {
            last.1 = start + body.len();
        } else {
            return None; // text before the first turn: not a transcript
        }
    }
    let starts = turns.len();
    (starts >= 2 && starts * 2 >= lines).then_some(turns)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_messages_render_as_lines() {
        let c = r#"[{"role":"user","content":"Hi there"},{"role":"assistant","content":[{"type":"text","text":"Hello"}]}]"#;
        assert_eq!(
            render_json_messages(c).unwrap(),
            "user: Hi there\nassistant: Hello"
        );
        assert!(render_json_messages("[1, 2]").is_none());
        assert!(render_json_messages("not json").is_none());
    }

    #[test]
    fn transcripts_are_recognised() {
        let t = "Alice: hi\nBob: hello there\nmore from bob\nAlice: bye";
        let got: Vec<&str> = turns(t).unwrap().iter().map(|(a, b)| &t[*a..*b]).collect();
        assert_eq!(
            got,
            vec!["Alice: hi", "Bob: hello there\nmore from bob", "Alice: bye"]
        );
        assert!(turns("Note: one line only").is_none());
        assert!(turns("Intro text\nAlice: hi\nBob: yo").is_none());
        assert!(
            turns("A plain paragraph.\nAnother line.\nThird: x\nFourth: y\nfive\nsix\nseven")
                .is_none()
        );
    }
}
