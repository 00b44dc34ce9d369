//! Memory formation ("dreaming"): the facts of a processed `memory`
//! document become memories of its space. A transcript (`Speaker: text`
//! lines, or JSON messages) is read turn by turn, facts coming from what
//! people say and assistant turns giving context; other text is read
//! paragraph by paragraph. The configured LLM extracts when there is one,
//! the offline extractor otherwise (and whenever the model fails).
//!
//! Reprocessing a document (a conversation that grew) forms its facts
//! again: those already remembered from it merge without counting twice,
//! so only what is new adds memories.

use super::remember::{Fact, Remembered};
use crate::{Engine, EngineError};
use chrono::NaiveDate;
use engram_core::{Dreaming, TaskType};
use engram_memory::{Role, Turn};
use engram_store::{Document, MemoryEntity};

/// The space of a document without container tags.
pub const DEFAULT_SPACE: &str = "sm_project_default";

/// Speakers whose turns are an assistant's.
const ASSISTANTS: &[&str] = &["assistant", "ai", "bot", "system", "tool", "model"];

/// The day a document speaks of: a `date` in its metadata (anything that
/// starts `YYYY-MM-DD`), else the day it was created.
pub fn document_day(doc: &Document) -> NaiveDate {
    for key in ["date", "documentDate", "sessionDate", "timestamp"] {
        if let Some(d) = doc
            .metadata
            .get(key)
            .and_then(|v| v.as_str())
            .and_then(|s| s.get(..10))
            .and_then(|s| NaiveDate::parse_from_str(s, "%Y-%m-%d").ok())
        {
            return d;
        }
    }
    doc.created_at.date_naive()
}

/// Labels that head a line without naming who speaks ("Note: ...").
const NOT_SPEAKERS: &[&str] = &[
    "note",
    "notes",
    "summary",
    "title",
    "subject",
    "re",
    "fwd",
    "q",
    "a",
    "question",
    "answer",
    "update",
    "warning",
    "tip",
    "example",
    "todo",
    "important",
    "edit",
    "ps",
    "nb",
    "date",
    "time",
    "location",
    "topic",
    "agenda",
    "status",
    "source",
    "url",
    "link",
    "tags",
    "description",
];

/// The turns of a text: transcript turns with speakers, or paragraphs.
/// A role label (`user:`, or a document's paragraphs, written by the
/// application's user) speaks as `user`: the person's name when the space
/// knows it, else [`engram_memory::UNNAMED_USER`].
pub fn turns_of<'a>(text: &'a str, day: NaiveDate, user: &'a str) -> Vec<Turn<'a>> {
    if let Some(spans) = engram_extract::conversation::turns(text)
        .or_else(|| role_lines(text))
        .or_else(|| named_line(text))
    {
        let parts: Vec<(&str, &str)> = spans
            .iter()
            .filter_map(|&(a, b)| {
                let t = &text[a..b];
                let colon = engram_extract::conversation::speaker_prefix(t)?;
                Some((t[..colon].trim(), t[colon + 1..].trim()))
            })
            .collect();
        let generic = |s: &str| matches!(s.to_ascii_lowercase().as_str(), "user" | "human");
        let name_of = |s: &'a str| if generic(s) { user } else { s };
        let mut people: Vec<&str> = parts.iter().map(|(s, _)| name_of(s)).collect();
        people.sort_unstable();
        people.dedup();
        return parts
            .iter()
            .map(|&(speaker, body)| {
                let lower = speaker.to_ascii_lowercase();
                let role = if ASSISTANTS.contains(&lower.as_str()) {
                    Role::Assistant
                } else {
                    Role::User
                };
                let name = name_of(speaker);
                // in a two-party conversation "you" is the other one
                let listener = match people.as_slice() {
                    [a, b] => Some(if *a == name { *b } else { *a })
                        .filter(|l| !ASSISTANTS.contains(&l.to_ascii_lowercase().as_str()))
                        .filter(|l| *l != engram_memory::UNNAMED_USER),
                    _ => None,
                };
                Turn {
                    role,
                    speaker: Some(name),
                    listener,
                    text: body,
                    date: Some(day),
                    generic: generic(speaker),
                }
            })
            .collect();
    }
    paragraphs(text)
        .into_iter()
        .map(|p| Turn {
            role: Role::User,
            speaker: Some(user),
            listener: None,
            text: p,
            date: Some(day),
            generic: true,
        })
        .collect()
}

/// The paragraphs of a text (split at blank lines), a paragraph that is
/// only markdown headings kept with the one after it: "# About me" says
/// whose the list below is, and "## Current goals" what its items are.
fn paragraphs(text: &str) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    // (the byte offset of a heading paragraph waiting for its body)
    let mut heading: Option<usize> = None;
    let mut at = 0;
    for part in text.split("\n\n") {
        let start = at;
        at += part.len() + 2;
        let p = part.trim();
        if p.is_empty() {
            continue;
        }
        let begin = start + (part.len() - part.trim_start().len());
        let only_headings = p.lines().all(|l| l.trim_start().starts_with('#'));
        if only_headings {
            heading.get_or_insert(begin);
            continue;
        }
        let end = begin + p.len();
        out.push(text[heading.take().unwrap_or(begin)..end].trim());
    }
    if let Some(h) = heading {
        out.push(text[h..].trim());
    }
    out
}

/// One message headed by a person's name ("Ana: I moved to Porto."): a
/// turn, when the label reads as a name and not as a heading ("Note:").
fn named_line(text: &str) -> Option<Vec<(usize, usize)>> {
    let t = text.trim_end();
    if t.contains('\n') {
        return None;
    }
    let colon = engram_extract::conversation::speaker_prefix(t)?;
    let label = t[..colon].trim();
    let start = text.len() - text.trim_start().len();
    (engram_memory::offline::is_person_name(label)
        && !NOT_SPEAKERS.contains(&label.to_ascii_lowercase().as_str()))
    .then(|| vec![(start, t.len())])
}

/// A transcript too short for [`engram_extract::conversation::turns`]
/// (one message): every line starts with a chat role (`user: ...`).
fn role_lines(text: &str) -> Option<Vec<(usize, usize)>> {
    let mut spans = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end();
        if !body.trim().is_empty() {
            let colon = engram_extract::conversation::speaker_prefix(body)?;
            let role = body[..colon].to_ascii_lowercase();
            if role != "user" && !ASSISTANTS.contains(&role.as_str()) {
                return None;
            }
            spans.push((offset, offset + body.len()));
        }
        offset += line.len();
    }
    (!spans.is_empty()).then_some(spans)
}

/// Most text formed as one group (characters): a model reads a group in
/// one call, so groups stay well inside a context window.
pub const GROUP_CHARS: usize = 24_000;

impl Engine {
    /// Form the memories of document `doc` (as the pipeline read it) from
    /// its extracted `text` while it is processed, when it dreams
    /// `instant`ly (those that dream `dynamic`ally form later, grouped:
    /// [`Engine::form_memories`]).
    /// Returns how many facts were remembered.
    pub(crate) async fn form_instant(
        &self,
        org_id: &str,
        mut doc: Document,
        text: &str,
    ) -> Result<usize, EngineError> {
        if doc.dreaming != Dreaming::Instant {
            return Ok(0);
        }
        doc.text = Some(text.to_string());
        self.form_memories(org_id, &[doc]).await
    }

    /// Form the memories of related documents of one space, read together
    /// in the order given (one model call for the group when an LLM is
    /// configured, so facts and inferences can span documents); returns
    /// how many facts were remembered (new or merged). Documents of task
    /// type `superrag`, or without extracted text, form none.
    pub async fn form_memories(
        &self,
        org_id: &str,
        docs: &[Document],
    ) -> Result<usize, EngineError> {
        let docs: Vec<&Document> = docs
            .iter()
            .filter(|d| d.task_type == TaskType::Memory && d.text.is_some())
            .collect();
        let Some(first) = docs.first() else {
            return Ok(0);
        };
        let tag = first
            .container_tags
            .first()
            .cloned()
            .unwrap_or_else(|| DEFAULT_SPACE.to_string());
        let space = self.store.get_space(org_id, &tag).await?.map(|s| s.space);
        // a document's own context, else its space's
        let space_context = match docs.iter().find_map(|d| d.entity_context.clone()) {
            Some(c) => Some(c),
            None => space.as_ref().and_then(|s| s.entity_context.clone()),
        };
        let user = self
            .user_name(
                org_id,
                &tag,
                &docs,
                space.as_ref(),
                space_context.as_deref(),
            )
            .await?;
        let user = user.as_deref().unwrap_or(engram_memory::UNNAMED_USER);
        // and the organisation's instructions for extraction
        let space_context = match (
            space_context,
            self.effective_settings(org_id).await?.workspace_prompt,
        ) {
            (Some(c), Some(p)) => Some(format!("{c}\nInstructions for this workspace: {p}")),
            (None, Some(p)) => Some(format!("Instructions for this workspace: {p}")),
            (c, None) => c,
        };
        let space_context = match (space_context, user) {
            (c, engram_memory::UNNAMED_USER) => c,
            (Some(c), u) => Some(format!("{c}\nThe user's name is {u}.")),
            (None, u) => Some(format!("The user's name is {u}.")),
        };
        let context = space_context.as_deref();
        let parts: Vec<Vec<engram_memory::Turn>> = docs
            .iter()
            .map(|d| turns_of(d.text.as_deref().unwrap_or(""), document_day(d), user))
            .collect();
        // whom the space's document before spoke of
        let prior = self.prior_facts(org_id, &tag, &docs).await?;
        let (candidates, source) =
            engram_memory::llm::extract_parts(self.llm.as_deref(), &parts, context, &prior).await;
        let texts: Vec<String> = candidates.iter().map(|(_, c)| c.content.clone()).collect();
        let mut vectors = self.embed_texts(texts).await?;
        // the offline rules' doubtful cases go to the judge
        let mut candidates = candidates;
        if source == engram_memory::llm::Source::Offline {
            self.drop_judged(&mut candidates, &mut vectors).await?;
        }
        tracing::debug!(
            documents = docs.len(),
            facts = candidates.len(),
            ?source,
            "facts extracted"
        );

        let mut n = 0;
        // the memory each candidate became, for inferences to point at
        let mut became: Vec<Option<String>> = Vec::with_capacity(candidates.len());
        for ((part, c), embedding) in candidates.into_iter().zip(vectors) {
            let sources: Vec<String> = c
                .derived_from
                .iter()
                .filter_map(|i| became.get(*i).cloned().flatten())
                .collect();
            let source = source_of(&c);
            let fact = Fact {
                content: c.content,
                embedding,
                is_static: c.is_static,
                is_inference: !c.derived_from.is_empty(),
                metadata: Default::default(),
                forget_after: None,
                forget_reason: None,
                document_id: Some(docs[part].id.clone()),
                document_date: c.document_date.map(|d| d.to_string()),
                source,
                event_dates: c.event_dates,
                entities: c
                    .entities
                    .into_iter()
                    .map(|e| MemoryEntity {
                        name: e.name,
                        kind: e.kind.as_str().to_string(),
                    })
                    .collect(),
            };
            let m = self.remember(org_id, &tag, fact).await?;
            let outdated = matches!(m, Remembered::Outdated(_));
            let id = m.memory().id.clone();
            for source in &sources {
                self.store
                    .relate_memories(org_id, &id, source, engram_store::RelationKind::Derives)
                    .await?;
            }
            became.push(Some(id));
            n += usize::from(!outdated);
        }
        Ok(n)
    }
}

/// Metadata keys that may name the person a document is about.
const NAME_KEYS: &[&str] = &["userName", "user_name", "speakerName", "speaker", "user"];

impl Engine {
    /// Who the application's user of space `tag` is, for the facts of
    /// `docs`: a self-introduction in them ("I'm Maya"), a name in their
    /// metadata (`userName`, ...), the one person a transcript names beside
    /// an assistant, what the space learned before, or a name its
    /// description gives. A name learned from the documents is remembered
    /// for the space, so later documents use it.
    async fn user_name(
        &self,
        org_id: &str,
        tag: &str,
        docs: &[&Document],
        space: Option<&engram_store::Space>,
        context: Option<&str>,
    ) -> Result<Option<String>, EngineError> {
        let day = NaiveDate::default();
        let unnamed = engram_memory::UNNAMED_USER;
        // each document read as turns once, for both ways of finding a name
        let parsed: Vec<Vec<engram_memory::Turn>> = docs
            .iter()
            .map(|d| turns_of(d.text.as_deref().unwrap_or(""), day, unnamed))
            .collect();
        let introduced = parsed
            .iter()
            .find_map(|turns| engram_memory::offline::self_introduction(turns));
        let in_metadata = || {
            docs.iter().find_map(|d| {
                NAME_KEYS.iter().find_map(|k| {
                    d.metadata
                        .get(*k)
                        .and_then(|v| v.as_str())
                        .map(str::trim)
                        .filter(|n| engram_memory::offline::is_person_name(n))
                        .map(str::to_string)
                })
            })
        };
        // "Maya: ..." with an assistant and nobody else
        let only_speaker = || {
            parsed.iter().find_map(|turns| {
                let mut humans: Vec<&str> = turns
                    .iter()
                    .filter(|t| t.role == Role::User && !t.generic)
                    .filter_map(|t| t.speaker)
                    .collect();
                humans.sort_unstable();
                humans.dedup();
                let assisted = turns.iter().any(|t| t.role == Role::Assistant);
                match humans.as_slice() {
                    [one] if assisted && engram_memory::offline::is_person_name(one) => {
                        Some(one.to_string())
                    }
                    _ => None,
                }
            })
        };
        let learned = introduced.or_else(in_metadata).or_else(only_speaker);
        let known = space.and_then(|s| s.user_name.clone());
        if let Some(name) = &learned {
            if known.as_ref() != Some(name) {
                self.store
                    .upsert_space(
                        org_id,
                        tag,
                        engram_store::SpacePatch {
                            user_name: Some(name.clone()),
                            ..Default::default()
                        },
                    )
                    .await?;
            }
            return Ok(learned);
        }
        Ok(known.or_else(|| context.and_then(engram_memory::offline::name_in_context)))
    }
}

/// What a candidate was formed from, for search: the day it was said (so
/// that "in May 2023" finds what was said then) and its source turns.
fn source_of(c: &engram_memory::Candidate) -> Option<engram_store::MemorySource> {
    if c.context.is_empty() {
        return None;
    }
    let day = c
        .document_date
        .map(|d| format!("{}\n", d.format("%-d %B %Y")))
        .unwrap_or_default();
    Some(engram_store::MemorySource {
        text: format!("{day}{}", c.context),
    })
}

/// Split documents due to dream into groups formed together: one per
/// organisation and space (first container tag), in the order of the days
/// they speak of (then creation), each
/// at most [`GROUP_CHARS`] of text (a longer document is a group alone).
pub fn dream_groups(mut docs: Vec<Document>) -> Vec<Vec<Document>> {
    let space = |d: &Document| d.container_tags.first().cloned().unwrap_or_default();
    // the day a document speaks of first: documents of one batch share a
    // creation time, and a conversation's sessions carry their dates
    docs.sort_by_cached_key(|d| {
        (
            d.org_id.clone(),
            space(d),
            document_day(d),
            d.created_at,
            d.id.clone(),
        )
    });
    let mut groups: Vec<Vec<Document>> = Vec::new();
    let mut chars = 0;
    for d in docs {
        let len = d.text.as_deref().map_or(0, str::len);
        let joins = groups.last().and_then(|g| g.last()).is_some_and(|last| {
            last.org_id == d.org_id && space(last) == space(&d) && chars + len <= GROUP_CHARS
        });
        if joins {
            chars += len;
            groups.last_mut().expect("joins a group").push(d);
        } else {
            chars = len;
            groups.push(vec![d]);
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_heading_stays_with_the_paragraph_after_it() {
        let text = "# About me\n\n- Based in: Bergen\n- Diet: pescatarian\n\n## Goals\n\n- Learn Spanish\n\nA plain paragraph.\n\n# Trailing";
        assert_eq!(
            paragraphs(text),
            [
                "# About me\n\n- Based in: Bergen\n- Diet: pescatarian",
                "## Goals\n\n- Learn Spanish",
                "A plain paragraph.",
                "# Trailing",
            ]
        );
    }

    fn doc(id: &str, org: &str, tag: &str, minute: i64, chars: usize) -> Document {
        let at = chrono::DateTime::from_timestamp(1_700_000_000 + minute * 60, 0).unwrap();
        Document {
            text: Some("x".repeat(chars)),
            ..super::super::fixtures::document(id, org, tag, at)
        }
    }

    #[test]
    fn dream_groups_are_per_space_in_creation_order_and_bounded() {
        let check = |docs: Vec<Document>, want: &[&[&str]]| {
            let got: Vec<Vec<String>> = dream_groups(docs)
                .into_iter()
                .map(|g| g.into_iter().map(|d| d.id).collect())
                .collect();
            assert_eq!(got, want);
        };
        check(
            vec![
                doc("b", "o1", "ana", 2, 10),
                doc("c", "o1", "ben", 1, 10),
                doc("a", "o1", "ana", 1, 10),
                doc("d", "o2", "ana", 0, 10),
            ],
            &[&["a", "b"], &["c"], &["d"]],
        );
        check(
            vec![
                doc("a", "o", "t", 1, GROUP_CHARS - 10),
                doc("b", "o", "t", 2, 10),
                doc("c", "o", "t", 3, 10),
                doc("d", "o", "t", 4, GROUP_CHARS * 2),
            ],
            &[&["a", "b"], &["c"], &["d"]],
        );
    }

    #[test]
    fn transcripts_become_turns_and_text_paragraphs() {
        let day = NaiveDate::from_ymd_opt(2024, 5, 1).unwrap();
        let turns_of = |text, day| turns_of(text, day, "Maya");
        let t = turns_of("user: I live in Paris.\nassistant: Nice!", day);
        assert_eq!(t.len(), 2);
        assert_eq!((t[0].role, t[0].speaker), (Role::User, Some("Maya")));
        assert!(t[0].generic);
        assert_eq!(t[1].role, Role::Assistant);
        assert_eq!(t[0].listener, None, "an assistant is not who `you` means");
        let t = turns_of("Ana: hi Ben\nBen: hi Ana", day);
        assert_eq!(t[0].listener, Some("Ben"));
        let t = turns_of("user: I moved to Berlin.", day);
        assert_eq!((t.len(), t[0].text), (1, "I moved to Berlin."));
        let t = turns_of("Note: Ana lives in Paris.", day);
        assert_eq!(
            (t[0].speaker, t[0].generic),
            (Some("Maya"), true),
            "a heading is not a speaker: the user wrote it"
        );
        let t = turns_of("Ana: I moved to Porto.", day);
        assert_eq!(
            (t[0].speaker, t[0].text),
            (Some("Ana"), "I moved to Porto.")
        );
        let t = turns_of("Ana lives in Paris.\n\nShe works at a bakery.", day);
        assert_eq!(t.len(), 2);
        assert_eq!((t[0].speaker, t[0].generic), (Some("Maya"), true));
    }
}
