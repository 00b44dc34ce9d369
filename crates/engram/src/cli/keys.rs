//! `engram keys list|create|rename|revoke|scoped`: the organisation's API
//! keys, through the server (`engram admin keys` works on a data directory
//! instead).

use super::{print, CliError, Common};
use engram_api::ScopedKeyRequest;
use engram_client::Client;

#[derive(clap::Subcommand, Debug)]
pub enum KeysCommand {
    /// The organisation's keys (never their secrets).
    List,
    /// A new full key (its secret is shown this once).
    Create {
        #[arg(long)]
        name: String,
    },
    /// Rename a key.
    Rename {
        id: String,
        #[arg(long)]
        name: String,
    },
    /// Revoke a key: requests with it get 401 from then on.
    Revoke { id: String },
    /// A key that reaches one container tag, and only the document,
    /// memory, search and profile routes.
    Scoped {
        #[arg(long)]
        tag: String,
        #[arg(long)]
        name: Option<String>,
        /// Seconds until it stops working.
        #[arg(long)]
        expires_in: Option<u64>,
        /// Its own limit, in requests per minute.
        #[arg(long)]
        rate_limit: Option<u32>,
    },
}

pub async fn keys(client: Client, common: Common, cmd: KeysCommand) -> Result<(), CliError> {
    let base = client.base().to_string();
    let err = |e| CliError::from_client(e, &base);
    match cmd {
        KeysCommand::List => {
            let list = client.keys().await.map_err(err)?;
            print(&common, &list, || {
                let mut out = format!("{:<24} {:<24} {:<10} scope", "id", "name", "state");
                for k in &list.keys {
                    let state = if k.revoked_at.is_some() {
                        "revoked"
                    } else {
                        "active"
                    };
                    let scope = k
                        .container_tag
                        .as_deref()
                        .map_or("full".to_string(), |t| format!("tag `{t}`"));
                    out.push_str(&format!(
                        "\n{:<24} {:<24} {state:<10} {scope}",
                        k.id, k.name
                    ));
                }
                out
            });
        }
        KeysCommand::Create { name } => {
            let k = client.create_key(&name).await.map_err(err)?;
            print(&common, &k, || {
                format!(
                    "created key {} ({}); store it now, it is not shown again:\n{}",
                    k.id, k.name, k.key
                )
            });
        }
        KeysCommand::Rename { id, name } => {
            let k = client.rename_key(&id, &name).await.map_err(err)?;
            print(&common, &k, || format!("key {} is now `{}`", k.id, k.name));
        }
        KeysCommand::Revoke { id } => {
            let k = client.revoke_key(&id).await.map_err(err)?;
            print(&common, &k, || format!("revoked key {} ({})", k.id, k.name));
        }
        KeysCommand::Scoped {
            tag,
            name,
            expires_in,
            rate_limit,
        } => {
            let req = ScopedKeyRequest {
                container_tag: tag,
                name,
                expires_in,
                rate_limit,
                expires_at: None,
            };
            let k = client.create_scoped_key(&req).await.map_err(err)?;
            print(&common, &k, || {
                format!(
                    "created key {} for container tag `{}`; store it now, it is not shown again:\n{}",
                    k.id, k.container_tag, k.key
                )
            });
        }
    }
    Ok(())
}
