//! Document lifecycle types shared by every layer.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Flat metadata: string keys to string, number, boolean or string-array
/// values (checked by [`crate::validate::metadata`]).
pub type Metadata = serde_json::Map<String, serde_json::Value>;

macro_rules! string_enum {
    ($(#[$m:meta])* $name:ident { $($variant:ident => $s:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum $name {
            $(#[serde(rename = $s)] $variant),+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The wire and storage spelling.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $s),+ }
            }
        }

        // by hand: the derive does not see the wire spellings through the
        // macro's `serde(rename)`
        #[cfg(feature = "openapi")]
        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                utoipa::openapi::schema::ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::String)
                    .enum_values(Some([$($s),+]))
                    .into()
            }
        }

        #[cfg(feature = "openapi")]
        impl utoipa::ToSchema for $name {}

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $name {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                match s {
                    $($s => Ok($name::$variant),)+
                    other => Err(format!(
                        "unknown value `{other}`, expected one of: {}",
                        [$($s),+].join(", ")
                    )),
                }
            }
        }
    };
}

string_enum!(
    /// Where a document is in the pipeline. The happy path is
    /// `queued -> extracting -> chunking -> embedding -> indexing -> done`.
    DocumentStatus {
        Unknown => "unknown",
        Queued => "queued",
        Extracting => "extracting",
        Chunking => "chunking",
        Embedding => "embedding",
        Indexing => "indexing",
        Done => "done",
        Failed => "failed",
    }
);

impl DocumentStatus {
    /// Statuses of a document whose processing has not finished.
    pub fn is_processing(self) -> bool {
        matches!(
            self,
            Self::Queued | Self::Extracting | Self::Chunking | Self::Embedding | Self::Indexing
        )
    }
}

string_enum!(
    /// What kind of source a document came from.
    DocumentType {
        Text => "text",
        Pdf => "pdf",
        Tweet => "tweet",
        GoogleDoc => "google_doc",
        GoogleSlide => "google_slide",
        GoogleSheet => "google_sheet",
        Image => "image",
        Video => "video",
        Audio => "audio",
        NotionDoc => "notion_doc",
        Webpage => "webpage",
        Onedrive => "onedrive",
        GithubMarkdown => "github_markdown",
        Granola => "granola",
    }
);

string_enum!(
    /// `memory`: index and extract memories; `superrag`: index only.
    TaskType {
        Memory => "memory",
        Superrag => "superrag",
    }
);

string_enum!(
    /// When memory formation runs relative to `done`.
    Dreaming {
        Instant => "instant",
        Dynamic => "dynamic",
    }
);

string_enum!(
    /// Whether memory formation for a document is still pending.
    DreamingStatus {
        Dreaming => "dreaming",
        Done => "done",
    }
);

string_enum!(
    /// List sort key.
    SortField {
        CreatedAt => "createdAt",
        UpdatedAt => "updatedAt",
    }
);

string_enum!(
    /// List sort order.
    SortOrder {
        Asc => "asc",
        Desc => "desc",
    }
);

/// A validated document to ingest: what every write route produces and the
/// engine consumes.
#[derive(Debug, Clone, PartialEq)]
pub struct DocumentInput {
    pub content: String,
    pub container_tags: Vec<String>,
    pub custom_id: Option<String>,
    pub metadata: Metadata,
    pub task_type: TaskType,
    pub dreaming: Dreaming,
    pub filepath: Option<String>,
    pub entity_context: Option<String>,
}

/// A validated document search (`/v3/search`).
#[derive(Debug, Clone, PartialEq)]
pub struct DocumentSearch {
    pub q: String,
    /// Most documents returned.
    pub limit: usize,
    /// Documents carrying any of these tags; all when empty.
    pub container_tags: Vec<String>,
    /// Only this document's chunks (id or custom id).
    pub doc_id: Option<String>,
    /// Minimum chunk score, 0..=1.
    pub chunk_threshold: f32,
    pub filter: Option<crate::filter::Filter>,
    /// Exact path, or a prefix when it ends with `/`.
    pub filepath: Option<String>,
    pub include_full_docs: bool,
    pub include_summary: bool,
    pub only_matching_chunks: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enums_round_trip_through_strings_and_serde() {
        for s in DocumentStatus::ALL {
            assert_eq!(s.as_str().parse::<DocumentStatus>().unwrap(), *s);
            let j = serde_json::to_string(s).unwrap();
            assert_eq!(j, format!("\"{}\"", s.as_str()));
        }
        assert!("bogus"
            .parse::<TaskType>()
            .unwrap_err()
            .contains("memory, superrag"));
        assert!(DocumentStatus::Embedding.is_processing());
        assert!(!DocumentStatus::Done.is_processing());
    }
}
