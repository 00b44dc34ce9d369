//! The JSON error body every failing request answers with.

use serde::{Deserialize, Serialize};

/// `{"error": "...", "details": "...", "type": "ValidationError"}`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct ErrorBody {
    pub error: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<String>,
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(
        rename = "retryAfterSeconds",
        skip_serializing_if = "Option::is_none",
        default
    )]
    pub retry_after_seconds: Option<u64>,
}
