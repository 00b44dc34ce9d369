//! Schema migrations as the backends embed them: each backend lists its
//! `migrations/NNNN_description.sql` files (`include_str!`, so the binary
//! carries them) and this module reads version, description and options
//! off the names, as sqlx's migration files are named. It holds no SQL of
//! its own; [`unlisted`] lets a backend's test check that its list and its
//! folder agree.
//!
//! (sqlx's `migrate!` macro does the same at compile time, but it needs
//! sqlx's `macros` feature, which builds SQLite a second time for the
//! proc-macro: two minutes of every cold build.)

use std::path::Path;

/// One migration: `NNNN_words.sql` is version `NNNN`, description "words".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Embedded {
    pub version: i64,
    pub description: String,
    pub sql: &'static str,
    /// A file opening with `-- no-transaction` runs outside a transaction.
    pub no_tx: bool,
}

/// The migrations of `files` (`(file name, contents)`), in version order.
///
/// # Panics
/// On a file name that is not `NNNN_description.sql`: the list is written
/// by hand next to the files, and a test runs it.
pub fn parse(files: &[(&str, &'static str)]) -> Vec<Embedded> {
    let mut out: Vec<Embedded> = files
        .iter()
        .map(|(name, sql)| {
            let (version, rest) = name
                .split_once('_')
                .unwrap_or_else(|| panic!("migration {name}: no NNNN_ prefix"));
            let description = rest
                .strip_suffix(".sql")
                .unwrap_or_else(|| panic!("migration {name}: not .sql"));
            Embedded {
                version: version
                    .parse()
                    .unwrap_or_else(|_| panic!("migration {name}: version")),
                description: description.replace('_', " "),
                sql,
                no_tx: sql.starts_with("-- no-transaction"),
            }
        })
        .collect();
    out.sort_by_key(|m| m.version);
    out
}

/// The `.sql` files of `dir` that `files` lacks or holds with other
/// contents: empty when the embedded list is complete.
pub fn unlisted(dir: &Path, files: &[(&str, &str)]) -> std::io::Result<Vec<String>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        if !name.ends_with(".sql") {
            continue;
        }
        let on_disk = std::fs::read_to_string(&path)?;
        if !files.iter().any(|(n, sql)| *n == name && *sql == on_disk) {
            out.push(name.to_string());
        }
    }
    out.sort();
    Ok(out)
}

/// Panics unless `files` holds every `.sql` file of the `migrations/`
/// folder under `manifest_dir`, with the same contents: a backend's test.
pub fn assert_embedded(manifest_dir: &str, files: &[(&str, &str)]) {
    let dir = Path::new(manifest_dir).join("migrations");
    let missing = unlisted(&dir, files).expect("the migrations folder");
    assert!(missing.is_empty(), "not embedded: {missing:?}");
}

/// In a backend crate (which depends on sqlx; this crate does not), given
/// the file names of its `migrations/` folder: `FILES`, those files
/// embedded; `migrator()`, the `sqlx` migrator over them, as
/// `sqlx::migrate!("./migrations")` would build it (the same versions and
/// checksums, so a database migrated by either accepts the other), and a
/// test that the names list the whole folder.
#[macro_export]
macro_rules! embedded_migrations {
    ($($name:literal),+ $(,)?) => {
        /// Every file of `migrations/`, by name (a test checks the two agree).
        const FILES: &[(&str, &str)] = &[$((
            $name,
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/migrations/", $name)),
        )),+];
        $crate::embedded_migrations!(@migrator FILES);
    };
    (@migrator $files:expr) => {
        pub(crate) fn migrator() -> ::sqlx::migrate::Migrator {
            ::sqlx::migrate::Migrator::with_migrations(
                $crate::migrations::parse($files)
                    .into_iter()
                    .map(|m| {
                        ::sqlx::migrate::Migration::new(
                            m.version,
                            m.description.into(),
                            ::sqlx::migrate::MigrationType::Simple,
                            ::sqlx::SqlSafeStr::into_sql_str(m.sql),
                            m.no_tx,
                        )
                    })
                    .collect(),
            )
        }

        #[cfg(test)]
        #[test]
        fn every_migration_file_is_embedded() {
            $crate::migrations::assert_embedded(env!("CARGO_MANIFEST_DIR"), $files);
            assert_eq!(migrator().iter().count(), $files.len());
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_give_version_and_description() {
        let got = parse(&[
            ("0002_index_log.sql", "create table log (id integer);"),
            (
                "0001_init.sql",
                "-- no-transaction\ncreate index concurrently x on y (z);",
            ),
        ]);
        assert_eq!(
            got.iter()
                .map(|m| (m.version, m.description.as_str(), m.no_tx))
                .collect::<Vec<_>>(),
            vec![(1, "init", true), (2, "index log", false)]
        );
    }

    #[test]
    fn a_file_missing_from_the_list_is_reported() {
        let dir = std::env::temp_dir().join(format!("engram-migrations-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("0001_init.sql"), "a").unwrap();
        std::fs::write(dir.join("0002_more.sql"), "b").unwrap();
        std::fs::write(dir.join("README"), "not a migration").unwrap();
        let listed = [("0001_init.sql", "a"), ("0002_more.sql", "changed")];
        assert_eq!(unlisted(&dir, &listed).unwrap(), ["0002_more.sql"]);
        assert!(
            unlisted(&dir, &[("0001_init.sql", "a"), ("0002_more.sql", "b")])
                .unwrap()
                .is_empty()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
