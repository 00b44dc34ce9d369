//! `engram admin keys create|list|revoke`: key management straight on a data
//! directory (no server needed), and the first-run credentials file.

use crate::config::{config_dir, default_data_dir};
use anyhow::Context;
use clap::Subcommand;
use engram_store::Store;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Subcommand)]
pub enum KeysCommand {
    /// Create an API key (and its organisation if needed).
    Create {
        #[command(flatten)]
        db: Database,
        /// A name for the key.
        #[arg(long, default_value = "default")]
        name: String,
        /// Organisation to create the key in (created if missing).
        #[arg(long, default_value = "default")]
        org: String,
        /// Print `{"id", "key", "orgId"}` as JSON.
        #[arg(long)]
        json: bool,
    },
    /// List keys (never their secrets).
    List {
        #[command(flatten)]
        db: Database,
        #[arg(long)]
        json: bool,
    },
    /// Revoke a key by id.
    Revoke {
        id: String,
        #[command(flatten)]
        db: Database,
    },
}

/// Which database the command works on (as `engram serve` chooses).
#[derive(clap::Args)]
pub struct Database {
    #[arg(long, env = "ENGRAM_DATA_DIR")]
    data_dir: Option<PathBuf>,
    /// A PostgreSQL database instead of the SQLite file in the data dir.
    #[arg(long, env = "ENGRAM_DATABASE_URL")]
    database_url: Option<String>,
}

async fn open(db: Database) -> anyhow::Result<Arc<dyn Store>> {
    let dir = db.data_dir.unwrap_or_else(default_data_dir);
    crate::store::open(db.database_url.as_deref().filter(|u| !u.is_empty()), &dir).await
}

pub async fn run(cmd: KeysCommand) -> anyhow::Result<()> {
    match cmd {
        KeysCommand::Create {
            db,
            name,
            org,
            json,
        } => {
            let store = open(db).await?;
            let (rec, key) = engram_engine::auth::create_key(store.as_ref(), &org, &name).await?;
            if json {
                println!(
                    "{}",
                    serde_json::json!({"id": rec.id, "key": key, "orgId": rec.org_id})
                );
            } else {
                println!(
                    "Created key {} ({name}) in organisation {org}:\n{key}",
                    rec.id
                );
            }
            store.close().await;
        }
        KeysCommand::List { db, json } => {
            let store = open(db).await?;
            let orgs = store.list_orgs().await?;
            let keys = store.list_api_keys(None).await?;
            let org_name = |id: &str| {
                orgs.iter()
                    .find(|o| o.id == id)
                    .map(|o| o.name.clone())
                    .unwrap_or_default()
            };
            if json {
                let v: Vec<_> = keys
                    .iter()
                    .map(|k| {
                        serde_json::json!({
                            "id": k.id, "name": k.name, "orgId": k.org_id, "orgName": org_name(&k.org_id),
                            "createdAt": k.created_at.to_rfc3339(), "revoked": k.revoked_at.is_some(),
                        })
                    })
                    .collect();
                println!("{}", serde_json::Value::Array(v));
            } else {
                println!("{:<24} {:<16} {:<16} STATE", "ID", "NAME", "ORG");
                for k in &keys {
                    let state = if k.revoked_at.is_some() {
                        "revoked"
                    } else {
                        "active"
                    };
                    println!(
                        "{:<24} {:<16} {:<16} {state}",
                        k.id,
                        k.name,
                        org_name(&k.org_id)
                    );
                }
            }
            store.close().await;
        }
        KeysCommand::Revoke { id, db } => {
            let store = open(db).await?;
            let ok = store.revoke_api_key(&id).await?;
            store.close().await;
            if !ok {
                anyhow::bail!("no active key with id {id}");
            }
            println!("Revoked key {id}");
        }
    }
    Ok(())
}

/// Write `{baseUrl, apiKey, orgId}` to the config dir's `credentials.json`
/// with mode 0600 (created that way, never world-readable in between).
pub fn write_credentials(base_url: &str, key: &str, org_id: &str) -> anyhow::Result<PathBuf> {
    let path = config_dir().join("credentials.json");
    let body = serde_json::to_vec_pretty(
        &serde_json::json!({"baseUrl": base_url, "apiKey": key, "orgId": org_id}),
    )?;
    write_private(&path, &body)?;
    Ok(path)
}

/// Replace `path` with `body`, readable by the owner only (mode 0600 from
/// creation), atomically (a temporary file renamed over it).
pub fn write_private(path: &std::path::Path, body: &[u8]) -> anyhow::Result<()> {
    let dir = path.parent().unwrap_or(std::path::Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let tmp = dir.join(format!(".{name}.tmp"));
    let _ = std::fs::remove_file(&tmp);
    {
        use std::io::Write;
        let mut opts = std::fs::OpenOptions::new();
        opts.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            opts.mode(0o600);
        }
        let mut f = opts
            .open(&tmp)
            .with_context(|| format!("cannot write {}", tmp.display()))?;
        f.write_all(body)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)?;
    Ok(())
}
