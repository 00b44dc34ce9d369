//! CPU time by thread, read from `/proc/self/task` (Linux; elsewhere every
//! figure is zero): where a benchmark's cores went, the embedder's lanes
//! apart from everything else.

use std::collections::BTreeMap;

/// Seconds of CPU (user + system) each thread name has used so far, summed
/// over threads of the same name with their trailing digits dropped
/// (`engram-lane-0` and `engram-lane-1` count as `engram-lane-`).
pub fn by_thread() -> BTreeMap<String, f64> {
    let mut out = BTreeMap::new();
    let Ok(dir) = std::fs::read_dir("/proc/self/task") else {
        return out;
    };
    for task in dir.flatten() {
        let path = task.path();
        let (Ok(comm), Some(secs)) = (
            std::fs::read_to_string(path.join("comm")),
            seconds(&path.join("stat")),
        ) else {
            continue;
        };
        let name = comm.trim().trim_end_matches(|c: char| c.is_ascii_digit());
        *out.entry(name.to_string()).or_insert(0.0) += secs;
    }
    out
}

/// Seconds of CPU the calling thread has used (zero where `/proc` is
/// missing): for a thread that ends before the figures are read.
pub fn this_thread() -> f64 {
    seconds(std::path::Path::new("/proc/thread-self/stat")).unwrap_or(0.0)
}

/// User + system seconds from a `/proc/.../stat` file.
fn seconds(stat: &std::path::Path) -> Option<f64> {
    // clock ticks per second: 100 on every Linux this runs on
    const TICKS: f64 = 100.0;
    let stat = std::fs::read_to_string(stat).ok()?;
    // fields after the parenthesised name: state is the 3rd field, utime
    // the 14th and stime the 15th
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    Some((ticks(11) + ticks(12)) / TICKS)
}

/// `after - before`, name by name (threads that ended in between are lost).
pub fn since(before: &BTreeMap<String, f64>) -> BTreeMap<String, f64> {
    by_thread()
        .into_iter()
        .map(|(k, v)| {
            let d = v - before.get(&k).copied().unwrap_or(0.0);
            (k, d)
        })
        .filter(|(_, d)| *d > 0.0)
        .collect()
}
