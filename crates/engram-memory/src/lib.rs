//! Memories from text: turning what someone said or wrote into atomic,
//! attributed facts. This crate holds the extraction rules: no storage, and
//! no IO except a chat model reached through the [`engram_llm::Llm`] trait.
//! [`offline::extract`] is the default extractor (no language model
//! needed); [`llm::extract`] asks a model when one is configured and falls
//! back to the offline one.

pub mod judge;
pub mod llm;
pub mod offline;
pub mod plain_facts;
pub mod relate;

use chrono::NaiveDate;

/// Who said a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The person the memories are about (a user, or any human speaker).
    User,
    /// An assistant: its turns give context, not facts.
    Assistant,
}

/// One message (or one paragraph of a document) to extract from.
#[derive(Debug, Clone, PartialEq)]
pub struct Turn<'a> {
    pub role: Role,
    /// The speaker's name when known ("Caroline"); first-person pronouns
    /// are resolved to it.
    pub speaker: Option<&'a str>,
    /// Who the speaker is talking to, when known: "you" resolves to it.
    pub listener: Option<&'a str>,
    pub text: &'a str,
    /// When it was said or written: relative dates resolve against it.
    pub date: Option<NaiveDate>,
    /// The speaker is the application's user under a role label ("user",
    /// or a document's author), named only by what the space knows: a
    /// self-introduction here is news worth remembering.
    pub generic: bool,
}

/// What an entity is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum EntityKind {
    Person,
    Place,
    Organisation,
    Other,
}

impl EntityKind {
    pub fn as_str(self) -> &'static str {
        match self {
            EntityKind::Person => "person",
            EntityKind::Place => "place",
            EntityKind::Organisation => "organisation",
            EntityKind::Other => "other",
        }
    }
}

/// A named thing a memory mentions.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Entity {
    pub name: String,
    pub kind: EntityKind,
}

/// A fact ready to become a memory.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// Self-contained text: pronouns and relative dates resolved.
    pub content: String,
    /// Whom it is about, when known.
    pub subject: Option<String>,
    /// A durable trait (identity, home, job, relationships, lasting
    /// preferences) rather than an event or passing state.
    pub is_static: bool,
    /// When it was said (the turn's date).
    pub document_date: Option<NaiveDate>,
    /// Dates of the events it mentions: `YYYY-MM-DD` (a day, or the Monday
    /// of a week), `YYYY-MM` or `YYYY`.
    pub event_dates: Vec<String>,
    pub entities: Vec<Entity>,
    /// For an inference: the candidates (indices into the same list, all
    /// before this one) it was inferred from; empty for stated facts.
    pub derived_from: Vec<usize>,
    /// The words it was formed from (its turn and the turns around it),
    /// which keyword search reads as the memory's context; empty when
    /// unknown.
    pub context: String,
}

/// The name a generic speaker ([`Turn::generic`]) stands for when it is
/// not known: facts read "The user lives in Leeds".
pub const UNNAMED_USER: &str = "the user";
