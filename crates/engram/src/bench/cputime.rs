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
    // clock ticks per second: 100 on every Linux this runs on
    const TICKS: f64 = 100.0;
    for task in dir.flatten() {
        let path = task.path();
        let (Ok(comm), Ok(stat)) = (
            std::fs::read_to_string(path.join("comm")),
            std::fs::read_to_string(path.join("stat")),
        ) else {
            continue;
        };
        // fields after the parenthesised name: state is the 3rd field,
        // utime the 14th and stime the 15th
        let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
            continue;
        };
        let f: Vec<&str> = rest.split_whitespace().collect();
        let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
        let secs = (ticks(11) + ticks(12)) / TICKS;
        let name = comm.trim().trim_end_matches(|c: char| c.is_ascii_digit());
        *out.entry(name.to_string()).or_insert(0.0) += secs;
    }
    out
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
