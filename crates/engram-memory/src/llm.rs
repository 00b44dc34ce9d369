//! The LLM extractor: one chat call per conversation (or document part),
//! asked for JSON, validated item by item; on any failure the caller gets
//! the offline extractor's answer instead ([`extract`]).

use crate::{offline, Candidate, Entity, EntityKind, Role, Turn};
use engram_llm::{complete_json, ChatRequest, Llm, LlmError};
use serde::Deserialize;

/// Most memories taken from one answer.
const MAX_MEMORIES: usize = 100;
/// Longest memory kept, in characters.
const MAX_CHARS: usize = 1000;

const INSTRUCTIONS: &str = "You extract memories from a conversation or document. A memory is one \
atomic fact about a person or the world, written as a self-contained sentence in the third person \
with names instead of pronouns (\"Caroline adopted a dog named Max\", not \"I adopted him\"). \
Take facts from what people say about themselves, their lives, plans, preferences and \
relationships; an assistant's turns are context only. Skip greetings, small talk, questions and \
opinions about the conversation itself. Resolve relative dates (\"yesterday\", \"last week\") \
against the date of the message and write them as absolute dates. Mark isStatic true for durable \
traits: identity, home, job, relationships, lasting preferences; false for events and passing \
states. Answer with JSON only: {\"memories\": [{\"content\": string, \"subject\": string or null, \
\"isStatic\": boolean, \"eventDates\": [\"YYYY-MM-DD\" or \"YYYY-MM\" or \"YYYY\"], \
\"entities\": [{\"name\": string, \"kind\": \"person\"|\"place\"|\"organisation\"|\"other\"}]}], \
\"inferences\": [{\"content\": string, \"from\": [indexes into memories]}]}. Inferences are few: \
only facts that follow from two or more of the memories together and are not stated themselves. \
When the input holds several documents (each headed \"## Document n\"), give each memory \
\"document\": n, the document it comes from; inferences may draw on several documents.";

#[derive(Deserialize)]
struct Answer {
    memories: Vec<Item>,
    #[serde(default)]
    inferences: Vec<Inference>,
}

#[derive(Deserialize)]
struct Inference {
    content: String,
    #[serde(default)]
    from: Vec<usize>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Item {
    content: String,
    #[serde(default)]
    subject: Option<String>,
    #[serde(default)]
    is_static: bool,
    #[serde(default)]
    event_dates: Vec<String>,
    #[serde(default)]
    entities: Vec<ItemEntity>,
    /// Which document of a group it comes from (1-based).
    #[serde(default)]
    document: Option<usize>,
}

#[derive(Deserialize)]
struct ItemEntity {
    name: String,
    #[serde(default)]
    kind: String,
}

/// The transcript as the model reads it: one line per turn; each part
/// of a group under a `## Document n` heading.
fn transcript(parts: &[Vec<Turn>], context: Option<&str>) -> String {
    let mut out = String::new();
    if let Some(c) = context.filter(|c| !c.trim().is_empty()) {
        out.push_str(&format!("Context about this space: {}\n\n", c.trim()));
    }
    for (n, turns) in parts.iter().enumerate() {
        if parts.len() > 1 {
            if n > 0 {
                out.push('\n');
            }
            out.push_str(&format!("## Document {}\n", n + 1));
        }
        transcribe(&mut out, turns);
    }
    out
}

fn transcribe(out: &mut String, turns: &[Turn]) {
    for t in turns {
        let who = t.speaker.unwrap_or(match t.role {
            Role::User => "user",
            Role::Assistant => "assistant",
        });
        let role = match t.role {
            Role::User => "",
            Role::Assistant => " (assistant)",
        };
        match t.date {
            Some(d) => out.push_str(&format!("[{d}] {who}{role}: {}\n", t.text)),
            None => out.push_str(&format!("{who}{role}: {}\n", t.text)),
        }
    }
}

fn valid_date(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    let digits = |p: &str, n: usize| p.len() == n && p.bytes().all(|b| b.is_ascii_digit());
    match parts.as_slice() {
        [y] => digits(y, 4),
        [y, m] => digits(y, 4) && digits(m, 2),
        [y, m, d] => {
            digits(y, 4)
                && digits(m, 2)
                && digits(d, 2)
                && chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d").is_ok()
        }
        _ => false,
    }
}

fn kind(k: &str) -> EntityKind {
    match k.to_ascii_lowercase().as_str() {
        "person" => EntityKind::Person,
        "place" | "location" => EntityKind::Place,
        "organisation" | "organization" | "company" => EntityKind::Organisation,
        _ => EntityKind::Other,
    }
}

/// Memories by the model; an error when the call fails or the answer is
/// not the asked-for JSON. Items that break the rules are dropped.
pub async fn extract_with(
    llm: &dyn Llm,
    turns: &[Turn<'_>],
    context: Option<&str>,
) -> Result<Vec<Candidate>, LlmError> {
    let parts = [turns.to_vec()];
    Ok(extract_parts_with(llm, &parts, context)
        .await?
        .into_iter()
        .map(|(_, c)| c)
        .collect())
}

/// Memories of a group of related documents (`parts`, in order) by the
/// model in one call, each with the index of the part it comes from (an
/// item naming no valid part belongs to the last; an inference to the
/// latest part it draws on).
pub async fn extract_parts_with(
    llm: &dyn Llm,
    parts: &[Vec<Turn<'_>>],
    context: Option<&str>,
) -> Result<Vec<(usize, Candidate)>, LlmError> {
    let req = ChatRequest::new(INSTRUCTIONS, transcript(parts, context));
    let (answer, _usage): (Answer, _) = complete_json(llm, req).await?;
    let last = parts.len().saturating_sub(1);
    let dates: Vec<Option<chrono::NaiveDate>> = parts
        .iter()
        .map(|turns| turns.iter().rev().find_map(|t| t.date))
        .collect();
    let date = |part: usize| dates.get(part).copied().flatten();
    let mut out: Vec<Candidate> = Vec::new();
    let mut part_of: Vec<usize> = Vec::new();
    // where each answered memory landed in `out` (dropped ones: None)
    let mut landed: Vec<Option<usize>> = Vec::new();
    for item in answer.memories.into_iter().take(MAX_MEMORIES) {
        landed.push(None);
        let content = item.content.trim().to_string();
        if content.is_empty()
            || content.chars().count() > MAX_CHARS
            || out.iter().any(|c| c.content.eq_ignore_ascii_case(&content))
        {
            continue;
        }
        *landed.last_mut().expect("pushed above") = Some(out.len());
        let part = item
            .document
            .and_then(|n| n.checked_sub(1))
            .filter(|p| *p <= last)
            .unwrap_or(last);
        part_of.push(part);
        out.push(Candidate {
            context: String::new(),
            derived_from: Vec::new(),
            content,
            subject: item
                .subject
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty()),
            is_static: item.is_static,
            document_date: date(part),
            event_dates: item
                .event_dates
                .into_iter()
                .filter(|d| valid_date(d))
                .collect(),
            entities: item
                .entities
                .into_iter()
                .filter(|e| !e.name.trim().is_empty())
                .map(|e| Entity {
                    name: e.name.trim().to_string(),
                    kind: kind(&e.kind),
                })
                .collect(),
        });
    }
    for inf in answer.inferences.into_iter().take(MAX_MEMORIES) {
        let content = inf.content.trim().to_string();
        let mut from: Vec<usize> = inf
            .from
            .iter()
            .filter_map(|i| landed.get(*i).copied().flatten())
            .collect();
        from.sort_unstable();
        from.dedup();
        // an inference rests on at least two stated facts
        if from.len() < 2
            || content.is_empty()
            || content.chars().count() > MAX_CHARS
            || out.iter().any(|c| c.content.eq_ignore_ascii_case(&content))
        {
            continue;
        }
        let part = from.iter().map(|i| part_of[*i]).max().unwrap_or(last);
        part_of.push(part);
        out.push(Candidate {
            is_static: crate::offline::is_static(&content),
            content,
            subject: None,
            document_date: date(part),
            event_dates: Vec::new(),
            entities: Vec::new(),
            derived_from: from,
            context: String::new(),
        });
    }
    for (c, part) in out.iter_mut().zip(&part_of) {
        attach_source(c, &parts[*part]);
    }
    Ok(part_of.into_iter().zip(out).collect())
}

/// The turn a model's memory most likely came from (most words shared)
/// as its source, with the turns around it as its context.
fn attach_source(c: &mut Candidate, turns: &[Turn]) {
    let words = |s: &str| -> std::collections::HashSet<String> {
        s.split(|ch: char| !ch.is_alphanumeric())
            .filter(|w| w.len() > 2)
            .map(str::to_lowercase)
            .collect()
    };
    let mine = words(&c.content);
    let best = turns
        .iter()
        .enumerate()
        .filter(|(_, t)| t.role == Role::User)
        .map(|(i, t)| (words(t.text).intersection(&mine).count(), i))
        .filter(|(n, _)| *n > 0)
        .max_by_key(|(n, i)| (*n, std::cmp::Reverse(*i)));
    if let Some((_, i)) = best {
        c.context = crate::offline::context_of(turns, i);
    }
}

/// Which extractor produced the memories.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Llm,
    Offline,
}

/// Memories by the model when one is configured and answers well, else by
/// the offline extractor.
pub async fn extract(
    llm: Option<&dyn Llm>,
    turns: &[Turn<'_>],
    context: Option<&str>,
) -> (Vec<Candidate>, Source) {
    if let Some(llm) = llm {
        match extract_with(llm, turns, context).await {
            Ok(found) => return (found, Source::Llm),
            Err(e) => {
                tracing::warn!(model = llm.name(), error = %e, "LLM extraction failed; using the offline extractor");
            }
        }
    }
    (guarded(|| offline::extract(turns)), Source::Offline)
}

/// `f`'s result, or nothing when it panics: a bug the rules meet in one
/// document forms no memories from it (and says so) instead of failing
/// the job that formed it, which would be retried and fail again.
pub fn guarded<T: Default>(f: impl FnOnce() -> T) -> T {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(out) => out,
        Err(_) => {
            tracing::error!("the offline extractor failed on a document; it forms no memories");
            T::default()
        }
    }
}

/// [`extract`] for a group of related documents: one model call for all
/// of them (see [`extract_parts_with`]); offline, each part on its own,
/// after the facts of the part before (the first after `prior`, the facts
/// of the space's document before them), whom a pronoun opening it may
/// mean. Each candidate comes with the index of its part; `derived_from`
/// indexes the whole list.
pub async fn extract_parts(
    llm: Option<&dyn Llm>,
    parts: &[Vec<Turn<'_>>],
    context: Option<&str>,
    prior: &[String],
) -> (Vec<(usize, Candidate)>, Source) {
    if let Some(llm) = llm {
        match extract_parts_with(llm, parts, context).await {
            Ok(found) => return (found, Source::Llm),
            Err(e) => {
                tracing::warn!(model = llm.name(), error = %e, "LLM extraction failed; using the offline extractor");
            }
        }
    }
    let mut out: Vec<(usize, Candidate)> = Vec::new();
    for (p, turns) in parts.iter().enumerate() {
        let base = out.len();
        // (whom the document before spoke of: the space's last one, or the
        // part before)
        let before: Vec<String> = match p.checked_sub(1) {
            None => prior.to_vec(),
            Some(b) => out
                .iter()
                .filter(|(part, _)| *part == b)
                .map(|(_, c)| c.content.clone())
                .collect(),
        };
        out.extend(
            guarded(|| offline::extract_after(turns, &before))
                .into_iter()
                .map(|mut c| {
                    c.derived_from.iter_mut().for_each(|i| *i += base);
                    (p, c)
                }),
        );
    }
    (out, Source::Offline)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engram_llm::{ChatResponse, Usage};

    #[test]
    fn a_panic_in_the_rules_forms_nothing() {
        let none: Vec<Candidate> = guarded(|| panic!("a rule's bug"));
        assert!(none.is_empty());
        assert_eq!(guarded(|| vec![1, 2]), vec![1, 2]);
    }
    use std::sync::Mutex;

    /// A model with scripted answers that records what it was asked.
    struct Scripted {
        answer: Result<String, LlmError>,
        asked: Mutex<Vec<ChatRequest>>,
    }

    #[async_trait::async_trait]
    impl Llm for Scripted {
        fn name(&self) -> &str {
            "scripted"
        }
        async fn complete(&self, req: ChatRequest) -> Result<ChatResponse, LlmError> {
            self.asked.lock().unwrap().push(req);
            self.answer.clone().map(|content| ChatResponse {
                content,
                usage: Usage::default(),
            })
        }
    }

    fn scripted(answer: Result<&str, LlmError>) -> Scripted {
        Scripted {
            answer: answer.map(str::to_string),
            asked: Mutex::new(Vec::new()),
        }
    }

    fn turns() -> Vec<Turn<'static>> {
        vec![Turn {
            generic: false,
            role: Role::User,
            speaker: Some("Ana"),
            listener: Some("Ben"),
            text: "I moved to Lisbon last month.",
            date: chrono::NaiveDate::from_ymd_opt(2024, 3, 10),
        }]
    }

    #[tokio::test]
    async fn a_valid_answer_becomes_candidates_and_bad_items_are_dropped() {
        let llm = scripted(Ok(r#"{"memories": [
            {"content": "Ana moved to Lisbon in February 2024", "subject": "Ana", "isStatic": true,
             "eventDates": ["2024-02", "last month", "2024-02-30"],
             "entities": [{"name": "Lisbon", "kind": "location"}, {"name": " ", "kind": "person"}]},
            {"content": "  "},
            {"content": "ana moved to lisbon in february 2024"}
        ]}"#));
        let (got, source) = extract(Some(&llm), &turns(), Some("Ana is a user")).await;
        assert_eq!(source, Source::Llm);
        assert_eq!(got.len(), 1);
        let c = &got[0];
        assert_eq!(c.content, "Ana moved to Lisbon in February 2024");
        assert_eq!(c.subject.as_deref(), Some("Ana"));
        assert!(c.is_static);
        assert_eq!(c.event_dates, ["2024-02"]);
        assert_eq!(
            c.entities,
            [Entity {
                name: "Lisbon".into(),
                kind: EntityKind::Place
            }]
        );
        assert_eq!(
            c.document_date,
            chrono::NaiveDate::from_ymd_opt(2024, 3, 10)
        );
        let asked = llm.asked.lock().unwrap();
        assert!(asked[0].json);
        let user = &asked[0].messages[1].content;
        assert!(
            user.contains("Context about this space: Ana is a user"),
            "{user}"
        );
        assert!(
            user.contains("[2024-03-10] Ana: I moved to Lisbon last month."),
            "{user}"
        );
    }

    #[tokio::test]
    async fn inferences_rest_on_two_kept_memories() {
        let llm = scripted(Ok(r#"{"memories": [
            {"content": "Ana has two daughters"},
            {"content": " "},
            {"content": "Ana's daughters go to school in Porto"},
            {"content": "Ana lives near Porto"}
        ], "inferences": [
            {"content": "Ana's family lives in the Porto area", "from": [0, 2, 3]},
            {"content": "Ana is a parent", "from": [0]},
            {"content": "Ana likes Porto", "from": [1, 9]}
        ]}"#));
        let (got, _) = extract(Some(&llm), &turns(), None).await;
        let texts: Vec<&str> = got.iter().map(|c| c.content.as_str()).collect();
        assert_eq!(
            texts,
            [
                "Ana has two daughters",
                "Ana's daughters go to school in Porto",
                "Ana lives near Porto",
                "Ana's family lives in the Porto area"
            ]
        );
        assert_eq!(
            got[3].derived_from,
            [0, 1, 2],
            "indexes of the kept memories"
        );
        assert!(got[..3].iter().all(|c| c.derived_from.is_empty()));
    }

    #[tokio::test]
    async fn a_group_is_one_call_and_each_memory_keeps_its_document() {
        let llm = scripted(Ok(r#"{"memories": [
            {"content": "Ana moved to Lisbon in February 2024", "document": 1},
            {"content": "Ana started a job at a Lisbon bakery", "document": 2},
            {"content": "Ana likes pastries", "document": 7},
            {"content": "Ana bakes at night"}
        ], "inferences": [
            {"content": "Ana works in the city she moved to", "from": [0, 1]}
        ]}"#));
        let mut second = turns();
        second[0].text = "I start at the bakery on Monday.";
        second[0].date = chrono::NaiveDate::from_ymd_opt(2024, 4, 2);
        let parts = [turns(), second];
        let (got, source) = extract_parts(Some(&llm), &parts, None, &[]).await;
        assert_eq!(source, Source::Llm);
        let placed: Vec<(usize, &str)> =
            got.iter().map(|(p, c)| (*p, c.content.as_str())).collect();
        assert_eq!(
            placed,
            [
                (0, "Ana moved to Lisbon in February 2024"),
                (1, "Ana started a job at a Lisbon bakery"),
                (1, "Ana likes pastries"),
                (1, "Ana bakes at night"),
                (1, "Ana works in the city she moved to"),
            ],
            "no valid document: the last; an inference: its latest source's"
        );
        assert_eq!(
            got[0].1.document_date,
            chrono::NaiveDate::from_ymd_opt(2024, 3, 10)
        );
        assert_eq!(
            got[1].1.document_date,
            chrono::NaiveDate::from_ymd_opt(2024, 4, 2)
        );
        assert_eq!(got[4].1.derived_from, [0, 1]);
        let asked = llm.asked.lock().unwrap().clone();
        assert_eq!(asked.len(), 1, "one call for the group");
        let user = &asked[0].messages[1].content;
        assert!(
            user.contains("## Document 1\n[2024-03-10] Ana: I moved"),
            "{user}"
        );
        assert!(
            user.contains("## Document 2\n[2024-04-02] Ana: I start"),
            "{user}"
        );
        // offline, each part is read on its own
        let (got, source) = extract_parts(None, &parts, None, &[]).await;
        assert_eq!(source, Source::Offline);
        assert_eq!(got.first().map(|(p, _)| *p), Some(0));
        assert_eq!(got.last().map(|(p, _)| *p), Some(1));
    }

    #[tokio::test]
    async fn failures_and_malformed_answers_fall_back_to_the_offline_extractor() {
        for answer in [
            Err(LlmError::Transient("down".into())),
            Ok("not json at all"),
            Ok(r#"{"facts": ["wrong key"]}"#),
        ] {
            let llm = scripted(answer);
            let (got, source) = extract(Some(&llm), &turns(), None).await;
            assert_eq!(source, Source::Offline);
            assert_eq!(got[0].content, "Ana moved to Lisbon in February 2024.");
        }
        let (_, source) = extract(None, &turns(), None).await;
        assert_eq!(source, Source::Offline);
    }
}
