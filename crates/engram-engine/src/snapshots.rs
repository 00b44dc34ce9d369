//! Index snapshots: an organisation's search index saved to local disk
//! with the change-log position it reflects, so that a restart loads it in
//! seconds and catches up from the log, instead of re-reading every chunk
//! from the store and rebuilding the HNSW graph.
//!
//! A snapshot is a cache like the index itself: the store stays the truth.
//! One that is missing, of another encoding, truncated or corrupt (every
//! byte is covered by a CRC-32, the graph file too, checked before the
//! graph is handed to usearch) is deleted and the index is rebuilt from the
//! store. Files are written under temporary names, synced, then renamed,
//! so a crash mid-save leaves the previous snapshot whole.
//!
//! Layout in the snapshot directory, per organisation and index kind:
//! `<org>.<kind>.snap` (header, the index's encoding, trailer) and
//! `<org>.<kind>.<nonce>.graph` (the HNSW graph it names, when it has one).

use engram_index::OrgIndex;
use std::fs::{self, File};
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"ENGRAMSN";
/// The framing's version (the index's own encoding has its own).
const FORMAT: u32 = 1;
/// Trailer: graph length (u64), graph CRC (u32), CRC of all before (u32).
const TRAILER: u64 = 16;

/// Where snapshots go and when they are taken.
#[derive(Debug, Clone)]
pub struct SnapshotConfig {
    pub dir: PathBuf,
    /// Organisations with fewer chunks are not saved: they load from the
    /// store in well under a second.
    pub min_chunks: usize,
    /// Save once this many changes were applied since the last snapshot
    /// (or a twentieth of the index, when that is more).
    pub min_changes: usize,
}

impl SnapshotConfig {
    /// Snapshots in `dir` with the defaults.
    pub fn new(dir: PathBuf) -> Self {
        Self {
            dir,
            min_chunks: 2_000,
            min_changes: 1_000,
        }
    }

    /// Whether an index of `chunks` chunks with `unsaved` changes applied
    /// since its last snapshot should be saved now.
    pub fn due(&self, chunks: usize, unsaved: usize) -> bool {
        chunks >= self.min_chunks && unsaved > 0 && unsaved >= self.min_changes.max(chunks / 20)
    }
}

/// A CRC-32 over everything that passes through.
struct Crc<T> {
    inner: T,
    crc: crc32fast::Hasher,
}

impl<T: Write> Write for Crc<T> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.crc.update(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl<T: Read> Read for Crc<T> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.crc.update(&buf[..n]);
        Ok(n)
    }
}

fn invalid(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("snapshot: {what}"))
}

fn snap_path(dir: &Path, org: &str, kind: &str) -> PathBuf {
    dir.join(format!("{org}.{kind}.snap"))
}

/// Organisation ids are generated (base62), but a snapshot's name must
/// never leave its directory whatever the id.
fn safe(org: &str) -> io::Result<()> {
    if !org.is_empty() && org.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        Ok(())
    } else {
        Err(invalid("organisation id unsuitable for a file name"))
    }
}

fn file_crc(path: &Path) -> io::Result<(u64, u32)> {
    let mut f = BufReader::with_capacity(1 << 20, File::open(path)?);
    let mut crc = crc32fast::Hasher::new();
    let mut len = 0u64;
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            return Ok((len, crc.finalize()));
        }
        crc.update(&buf[..n]);
        len += n as u64;
    }
}

fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Save `index`, which reflects the change log up to `seq`, with `label`
/// (what must match for it to be read back: dimension, graph mode).
pub fn save(
    dir: &Path,
    org: &str,
    kind: &str,
    label: &str,
    seq: i64,
    index: &OrgIndex,
) -> io::Result<()> {
    safe(org)?;
    fs::create_dir_all(dir)?;
    let nonce = engram_core::ids::random_base62(8);
    let graph_name = format!("{org}.{kind}.{nonce}.graph");
    let graph = dir.join(&graph_name);
    let tmp = dir.join(format!("{org}.{kind}.{nonce}.tmp"));
    let result = (|| {
        let file = File::create(&tmp)?;
        let mut w = Crc {
            inner: BufWriter::with_capacity(1 << 20, file),
            crc: crc32fast::Hasher::new(),
        };
        w.write_all(MAGIC)?;
        w.write_all(&FORMAT.to_le_bytes())?;
        for s in [label, graph_name.as_str()] {
            w.write_all(&(s.len() as u32).to_le_bytes())?;
            w.write_all(s.as_bytes())?;
        }
        w.write_all(&seq.to_le_bytes())?;
        index.encode(&mut w, &graph)?;
        let (glen, gcrc) = if graph.exists() {
            File::open(&graph)?.sync_all()?;
            file_crc(&graph)?
        } else {
            (0, 0)
        };
        w.write_all(&glen.to_le_bytes())?;
        w.write_all(&gcrc.to_le_bytes())?;
        let crc = w.crc.clone().finalize();
        let mut file = w.inner.into_inner().map_err(|e| e.into_error())?;
        file.write_all(&crc.to_le_bytes())?;
        file.sync_all()?;
        fs::rename(&tmp, snap_path(dir, org, kind))?;
        sync_dir(dir);
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
        let _ = fs::remove_file(&graph);
        return result;
    }
    // graphs of earlier snapshots, and files of saves that never finished
    let prefix = format!("{org}.{kind}.");
    for entry in fs::read_dir(dir)?.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let stale = name.starts_with(&prefix)
            && (name.ends_with(".graph") || name.ends_with(".tmp"))
            && name != graph_name;
        if stale {
            let _ = fs::remove_file(entry.path());
        }
    }
    Ok(())
}

/// The snapshot of `org`'s `kind` index: the index and the change-log
/// position it reflects; `None` when there is none. An unreadable snapshot
/// is an error (the caller deletes it with [`remove`]).
pub fn load(dir: &Path, org: &str, kind: &str, label: &str) -> io::Result<Option<(i64, OrgIndex)>> {
    safe(org)?;
    let path = snap_path(dir, org, kind);
    let mut file = match File::open(&path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let len = file.metadata()?.len();
    if len < TRAILER + 8 {
        return Err(invalid("truncated"));
    }
    file.seek(SeekFrom::Start(len - TRAILER))?;
    let mut trailer = [0u8; TRAILER as usize];
    file.read_exact(&mut trailer)?;
    let glen = u64::from_le_bytes(trailer[0..8].try_into().expect("8 bytes"));
    let gcrc = u32::from_le_bytes(trailer[8..12].try_into().expect("4 bytes"));
    let want = u32::from_le_bytes(trailer[12..16].try_into().expect("4 bytes"));
    file.seek(SeekFrom::Start(0))?;

    let mut r = Crc {
        inner: BufReader::with_capacity(1 << 20, file).take(len - 4),
        crc: crc32fast::Hasher::new(),
    };
    let mut magic = [0u8; 8];
    r.read_exact(&mut magic)?;
    let mut b4 = [0u8; 4];
    r.read_exact(&mut b4)?;
    if &magic != MAGIC || u32::from_le_bytes(b4) != FORMAT {
        return Err(invalid("not a snapshot of this version"));
    }
    let mut strings = Vec::new();
    for _ in 0..2 {
        r.read_exact(&mut b4)?;
        let n = u32::from_le_bytes(b4) as u64;
        if n > 4096 {
            return Err(invalid("header"));
        }
        let mut s = vec![0u8; n as usize];
        r.read_exact(&mut s)?;
        strings.push(String::from_utf8(s).map_err(|_| invalid("header"))?);
    }
    if strings[0] != label {
        return Err(invalid("made with other settings"));
    }
    let graph_name = &strings[1];
    if !graph_name.starts_with(&format!("{org}.{kind}.")) || graph_name.contains('/') {
        return Err(invalid("graph name"));
    }
    let graph = dir.join(graph_name);
    if glen > 0 && file_crc(&graph)? != (glen, gcrc) {
        return Err(invalid("graph file does not match"));
    }
    let mut b8 = [0u8; 8];
    r.read_exact(&mut b8)?;
    let seq = i64::from_le_bytes(b8);
    let header = 8 + 4 + 8 + strings.iter().map(|s| s.len() as u64).sum::<u64>() + 8;
    let body = len - TRAILER - header;
    let index = OrgIndex::decode(&mut r, body, &graph)?;
    // the graph flag and trailer's first 12 bytes are covered too
    let mut rest = [0u8; 12];
    r.read_exact(&mut rest)?;
    if r.inner.limit() != 0 || r.crc.clone().finalize() != want {
        return Err(invalid("checksum"));
    }
    Ok(Some((seq, index)))
}

/// Delete `org`'s `kind` snapshot and its graphs.
pub fn remove(dir: &Path, org: &str, kind: &str) {
    let prefix = format!("{org}.{kind}.");
    if let Ok(entries) = fs::read_dir(dir) {
        for entry in entries.flatten() {
            if entry.file_name().to_string_lossy().starts_with(&prefix) {
                let _ = fs::remove_file(entry.path());
            }
        }
    }
}
