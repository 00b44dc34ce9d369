//! Opening the store a command runs on: PostgreSQL when a database URL is
//! given, else the embedded SQLite file in the data directory.

use anyhow::Context;
use engram_store::Store;
use std::path::Path;
use std::sync::Arc;

pub async fn open(database_url: Option<&str>, data_dir: &Path) -> anyhow::Result<Arc<dyn Store>> {
    if let Some(url) = database_url {
        let store = engram_store_postgres::PgStore::connect(url)
            .await
            .with_context(|| format!("cannot open {}", crate::config::redact_url(url)))?;
        return Ok(Arc::new(store));
    }
    std::fs::create_dir_all(data_dir)
        .with_context(|| format!("cannot create data directory {}", data_dir.display()))?;
    let db = data_dir.join("engram.db");
    let store = engram_store_sqlite::SqliteStore::open(&db)
        .await
        .with_context(|| format!("cannot open {}", db.display()))?;
    Ok(Arc::new(store))
}
