//! The one error type of the core crate: a validation failure that names the
//! offending field, so the server can answer `400 ValidationError` with a
//! `details` string a client can act on.

use std::fmt;

/// Input that breaks a rule. `field` is a JSON path such as
/// `containerTags[1]` or `metadata.owner`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ValidationError {
    pub field: String,
    pub message: String,
}

impl ValidationError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.field, self.message)
        }
    }
}
