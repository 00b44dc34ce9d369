//! `engram remember`, `engram update` and `engram forget`: memories
//! written, versioned and forgotten directly.

use super::{print, CliError, Common};
use engram_api::{
    CreateMemoriesRequest, ForgetMemoryRequest, MemoryTarget, NewMemoryItem, PatchMemoryRequest,
};
use engram_client::Client;

/// `engram remember`: one fact, straight into a tag's memories.
#[derive(clap::Args, Debug)]
pub struct RememberArgs {
    /// The fact, in a sentence.
    pub text: String,
    /// The container tag it belongs to.
    #[arg(long)]
    pub tag: String,
    /// A lasting trait (goes to the static profile).
    #[arg(long = "static")]
    pub is_static: bool,
    /// Forget it then (ISO 8601).
    #[arg(long)]
    pub forget_after: Option<String>,
}

/// `engram update`: a new version of a memory.
#[derive(clap::Args, Debug)]
pub struct UpdateArgs {
    /// The memory's id.
    pub id: String,
    /// Its new text.
    pub text: String,
    #[arg(long)]
    pub tag: String,
}

/// `engram forget`: a memory, by id or exact text.
#[derive(clap::Args, Debug)]
pub struct ForgetArgs {
    /// The memory's exact text (or give --id).
    #[arg(required_unless_present = "id")]
    pub text: Option<String>,
    #[arg(long, conflicts_with = "text")]
    pub id: Option<String>,
    #[arg(long)]
    pub tag: String,
    /// Why (kept with the forgotten memory).
    #[arg(long)]
    pub reason: Option<String>,
}

pub async fn remember(client: Client, common: Common, a: RememberArgs) -> Result<(), CliError> {
    let base = client.base().to_string();
    let req = CreateMemoriesRequest {
        container_tag: Some(a.tag),
        container_tags: None,
        memories: vec![NewMemoryItem {
            content: a.text,
            is_static: a.is_static.then_some(true),
            forget_after: a.forget_after,
            ..Default::default()
        }],
    };
    let out = client
        .remember(&req)
        .await
        .map_err(|e| CliError::from_client(e, &base))?;
    print(&common, &out, || {
        out.memories
            .iter()
            .map(|m| format!("remembered {}: {}", m.id, m.memory))
            .collect::<Vec<_>>()
            .join("\n")
    });
    Ok(())
}

pub async fn update(client: Client, common: Common, a: UpdateArgs) -> Result<(), CliError> {
    let base = client.base().to_string();
    let req = PatchMemoryRequest {
        target: MemoryTarget {
            id: Some(a.id),
            content: None,
            container_tag: Some(a.tag),
            container_tags: None,
        },
        new_content: Some(a.text),
        ..Default::default()
    };
    let m = client
        .update_memory(&req)
        .await
        .map_err(|e| CliError::from_client(e, &base))?;
    print(&common, &m, || {
        format!("{} is version {}: {}", m.id, m.version, m.memory)
    });
    Ok(())
}

pub async fn forget(client: Client, common: Common, a: ForgetArgs) -> Result<(), CliError> {
    let base = client.base().to_string();
    let req = ForgetMemoryRequest {
        target: MemoryTarget {
            id: a.id,
            content: a.text,
            container_tag: Some(a.tag),
            container_tags: None,
        },
        reason: a.reason,
    };
    let out = client
        .forget(&req)
        .await
        .map_err(|e| CliError::from_client(e, &base))?;
    print(&common, &out, || format!("forgot {}", out.id));
    Ok(())
}
