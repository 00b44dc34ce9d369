//! Development aid: embed newline-delimited JSON strings from stdin with the
//! local model and write little-endian f32 rows to stdout (for offline
//! retrieval experiments). Not part of the service.

use engram_embed::local::{max_seq_length, BertEncoder};
use engram_embed::model_files::locate_default;
use std::io::{BufRead, Write};

fn main() {
    let found = locate_default().expect("model");
    let enc = BertEncoder::load(found.dir(), max_seq_length(found.dir())).expect("load");
    let texts: Vec<String> = std::io::stdin()
        .lock()
        .lines()
        .map(|l| serde_json::from_str(&l.expect("line")).expect("json string"))
        .collect();
    let mut order: Vec<usize> = (0..texts.len()).collect();
    order.sort_by_key(|&i| texts[i].len());
    let mut out = vec![Vec::new(); texts.len()];
    for (n, batch) in order.chunks(8).enumerate() {
        let b: Vec<String> = batch.iter().map(|&i| texts[i].clone()).collect();
        for (&i, v) in batch.iter().zip(enc.encode(&b).expect("encode")) {
            out[i] = v;
        }
        if n % 50 == 0 {
            eprint!("\r{}/{}", n * 8, texts.len());
        }
    }
    let mut w = std::io::BufWriter::new(std::io::stdout().lock());
    for v in out {
        for x in v {
            w.write_all(&x.to_le_bytes()).expect("write");
        }
    }
}
