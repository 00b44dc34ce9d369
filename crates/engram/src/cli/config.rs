//! `engram config get|set|unset`: the client's settings, in the platform's
//! config dir (`cli.json`, mode 0600: it may hold a key). Only known keys,
//! each checked before it is saved.

use super::{print, CliError, Common};
use crate::config::config_dir;
use serde_json::{Map, Value};
use std::path::PathBuf;

/// The settings the client knows: name in the file, name on the command
/// line, what it is.
const KEYS: &[(&str, &str, &str)] = &[
    ("url", "url", "the server's base URL (http or https)"),
    ("apiKey", "api-key", "the API key to use (em_...)"),
];

#[derive(clap::Subcommand, Debug)]
pub enum ConfigCommand {
    /// Show one setting, or all (the key masked).
    Get { key: Option<String> },
    /// Set a setting: `url` or `api-key`.
    Set { key: String, value: String },
    /// Remove a setting.
    Unset { key: String },
}

/// Where the client's settings live.
pub fn path() -> PathBuf {
    config_dir().join("cli.json")
}

/// The saved settings (empty when none).
pub fn load() -> Map<String, Value> {
    std::fs::read_to_string(path())
        .ok()
        .and_then(|s| serde_json::from_str(&s).ok())
        .unwrap_or_default()
}

fn field(key: &str) -> Result<&'static str, CliError> {
    KEYS.iter()
        .find(|(_, cli, _)| *cli == key)
        .map(|(file, _, _)| *file)
        .ok_or_else(|| {
            let known: Vec<String> = KEYS
                .iter()
                .map(|(_, cli, what)| format!("{cli} ({what})"))
                .collect();
            CliError::new(1, "unknown_setting", format!("there is no setting `{key}`"))
                .hint(format!("settings: {}", known.join(", ")))
        })
}

/// Check a value for a setting; the value to store.
fn check(file_key: &str, value: &str) -> Result<String, CliError> {
    let value = value.trim();
    let bad = |m: String| CliError::new(1, "invalid_value", m);
    match file_key {
        "url" => {
            let u =
                url::Url::parse(value).map_err(|e| bad(format!("`{value}` is not a URL: {e}")))?;
            if !matches!(u.scheme(), "http" | "https") || u.host().is_none() {
                return Err(bad(format!("`{value}` is not an http(s) URL")));
            }
            Ok(value.trim_end_matches('/').to_string())
        }
        _ => {
            if engram_engine::auth::key_id(value).is_none() {
                return Err(bad(
                    "that is not an Engram API key (em_<id>_<secret>)".into()
                ));
            }
            Ok(value.to_string())
        }
    }
}

fn mask(key: &str) -> String {
    let tail: String = key
        .chars()
        .rev()
        .take(4)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    format!("em_…{tail}")
}

fn shown(mut all: Map<String, Value>) -> Map<String, Value> {
    if let Some(Value::String(k)) = all.get("apiKey") {
        let m = mask(k);
        all.insert("apiKey".into(), Value::String(m));
    }
    all
}

fn save(all: &Map<String, Value>) -> Result<(), CliError> {
    let body = serde_json::to_vec_pretty(all).unwrap_or_default();
    crate::keys::write_private(&path(), &body)
        .map_err(|e| CliError::new(1, "config_write_failed", format!("{e:#}")))
}

pub fn run(common: &Common, cmd: ConfigCommand) -> Result<(), CliError> {
    let mut all = load();
    match cmd {
        ConfigCommand::Get { key: None } => {
            let v = shown(all);
            print(common, &v, || {
                if v.is_empty() {
                    return format!("no settings ({})", path().display());
                }
                v.iter()
                    .map(|(k, v)| format!("{k} = {}", v.as_str().unwrap_or_default()))
                    .collect::<Vec<_>>()
                    .join("\n")
            });
        }
        ConfigCommand::Get { key: Some(key) } => {
            let f = field(&key)?;
            let v = shown(all).remove(f).unwrap_or(Value::Null);
            print(common, &v, || v.as_str().unwrap_or("(not set)").to_string());
        }
        ConfigCommand::Set { key, value } => {
            let f = field(&key)?;
            let v = check(f, &value)?;
            all.insert(f.into(), Value::String(v));
            save(&all)?;
            let v = shown(all);
            print(common, &v, || {
                format!("{key} saved to {}", path().display())
            });
        }
        ConfigCommand::Unset { key } => {
            let f = field(&key)?;
            all.remove(f);
            save(&all)?;
            let v = shown(all);
            print(common, &v, || format!("{key} removed"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_checked() {
        assert_eq!(check("url", "http://h:1/").unwrap(), "http://h:1");
        assert!(check("url", "ftp://h").is_err());
        assert!(check("url", "not a url").is_err());
        assert!(check("apiKey", "em_short").is_err());
        let key = format!("em_{}_{}", "a".repeat(22), "b".repeat(32));
        assert_eq!(check("apiKey", &key).unwrap(), key);
        assert_eq!(mask(&key), "em_…bbbb");
        assert!(field("api-key").is_ok());
        assert_eq!(field("colour").unwrap_err().error, "unknown_setting");
    }
}
