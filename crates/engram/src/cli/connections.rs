//! `engram connections list|show|add|sync|remove`: the organisation's
//! connections to outside sources, through the server. `add` prints the
//! link to authorise OAuth providers in a browser; the web crawler and S3
//! start syncing at once.

use super::{print, CliError, Common};
use engram_api::CreateConnectionRequest;
use engram_client::Client;

#[derive(clap::Subcommand, Debug)]
pub enum ConnectionsCommand {
    /// The connections (with `--tag`: those syncing into it).
    List {
        #[arg(long)]
        tag: Vec<String>,
    },
    /// One connection: its settings and last sync.
    Show { id: String },
    /// Connect a source: notion, google-drive, onedrive, gmail, github,
    /// web-crawler or s3.
    Add {
        provider: String,
        /// The container tag synced documents go to.
        #[arg(long)]
        tag: Vec<String>,
        /// At most this many documents (default 10 000).
        #[arg(long)]
        limit: Option<i64>,
        /// The web crawler's start page.
        #[arg(long)]
        start_url: Option<String>,
        /// Provider settings and metadata stamped on every document, as
        /// key=value (S3: endpoint, region, bucket, prefix, accessKeyId,
        /// secretAccessKey; secrets are sealed and never shown again).
        #[arg(long = "meta", value_name = "KEY=VALUE")]
        meta: Vec<String>,
        /// Where the browser goes after authorising.
        #[arg(long)]
        redirect_url: Option<String>,
    },
    /// Sync a provider's connections now (with `--tag`: those syncing into it).
    Sync {
        provider: String,
        #[arg(long)]
        tag: Vec<String>,
    },
    /// Remove a connection and, unless `--keep-documents`, what it synced.
    Remove {
        id: String,
        #[arg(long)]
        keep_documents: bool,
    },
}

fn usage(message: String) -> CliError {
    CliError::new(1, "usage", message).hint("see `engram connections add --help`")
}

pub async fn connections(
    client: Client,
    common: Common,
    cmd: ConnectionsCommand,
) -> Result<(), CliError> {
    let base = client.base().to_string();
    let err = |e| CliError::from_client(e, &base);
    match cmd {
        ConnectionsCommand::List { tag } => {
            let list = client.connections(tag).await.map_err(err)?;
            print(&common, &list, || {
                if list.is_empty() {
                    return "no connections (add one with `engram connections add`)".into();
                }
                let mut out = format!(
                    "{:<24} {:<13} {:<20} {:<10} last sync",
                    "id", "provider", "tags", "documents"
                );
                for c in &list {
                    let run = c.last_sync_run.as_ref().map_or("never".to_string(), |r| {
                        let when = r.completed_at.as_deref().or(r.started_at.as_deref());
                        let mut s = format!("{} {}", r.status, when.unwrap_or_default());
                        if let Some(e) = &r.error_code {
                            s.push_str(&format!(" ({e})"));
                        }
                        s
                    });
                    out.push_str(&format!(
                        "\n{:<24} {:<13} {:<20} {:<10} {run}",
                        c.id,
                        c.provider,
                        c.container_tags.join(","),
                        c.document_limit
                    ));
                }
                out
            });
        }
        ConnectionsCommand::Show { id } => {
            let c = client.connection(&id).await.map_err(err)?;
            print(&common, &c, || {
                serde_json::to_string_pretty(&c).unwrap_or_default()
            });
        }
        ConnectionsCommand::Add {
            provider,
            tag,
            limit,
            start_url,
            meta,
            redirect_url,
        } => {
            let mut metadata = serde_json::Map::new();
            for kv in meta {
                let Some((k, v)) = kv.split_once('=') else {
                    return Err(usage(format!("--meta `{kv}` is not KEY=VALUE")));
                };
                metadata.insert(k.trim().to_string(), v.to_string().into());
            }
            if let Some(u) = start_url {
                metadata.insert("startUrl".into(), u.into());
            }
            let req = CreateConnectionRequest {
                container_tags: (!tag.is_empty()).then_some(tag),
                document_limit: limit,
                metadata: (!metadata.is_empty()).then_some(metadata),
                redirect_url,
                ..Default::default()
            };
            let made = client
                .create_connection(&provider, &req)
                .await
                .map_err(err)?;
            print(&common, &made, || {
                let link = made.auth_link.trim();
                if link.is_empty() || made.expires_in == "never" {
                    format!(
                        "connected {provider} ({}); the first sync has started \
                         (`engram connections show {}`)",
                        made.id, made.id
                    )
                } else {
                    format!(
                        "created {provider} connection {}; open this link to authorise it \
                         (valid {}):\n{link}",
                        made.id, made.expires_in
                    )
                }
            });
        }
        ConnectionsCommand::Sync { provider, tag } => {
            let msg = client
                .import_connections(&provider, tag)
                .await
                .map_err(err)?;
            print(&common, &serde_json::json!({ "message": msg }), || {
                msg.clone()
            });
        }
        ConnectionsCommand::Remove { id, keep_documents } => {
            let gone = client
                .delete_connection(&id, !keep_documents)
                .await
                .map_err(err)?;
            print(&common, &gone, || {
                let what = if keep_documents {
                    "its documents stay"
                } else {
                    "with its documents"
                };
                gone.iter()
                    .map(|g| format!("removed {} connection {} ({what})", g.provider, g.id))
                    .collect::<Vec<_>>()
                    .join("\n")
            });
        }
    }
    Ok(())
}
