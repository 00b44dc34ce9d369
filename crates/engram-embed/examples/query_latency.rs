//! Development aid: time one short query through the encoder.

use engram_embed::local::{max_seq_length, BertEncoder};
use engram_embed::model_files::locate_default;
use std::time::Instant;

fn main() {
    kernel();
    let found = locate_default().expect("model");
    let enc = BertEncoder::load(found.dir(), max_seq_length(found.dir())).expect("load");
    pair(&enc);
    let q = vec!["When did Caroline go to the LGBTQ support group?".to_string()];
    for _ in 0..20 {
        enc.encode(&q).unwrap();
    }
    let mut times = Vec::new();
    for _ in 0..200 {
        let t = Instant::now();
        enc.encode(&q).unwrap();
        times.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);
    println!("p50 {:.2} ms, min {:.2} ms", times[100], times[0]);
}

#[allow(dead_code)]
fn kernel() {
    use engram_embed::kernels::dense;
    for (rows, inp, out) in [
        (12usize, 384usize, 1536usize),
        (12, 384, 1152),
        (12, 1536, 384),
        (96, 384, 1536),
    ] {
        let x = vec![0.1f32; rows * inp];
        let w = vec![0.01f32; out * inp];
        let b = vec![0.0f32; out];
        let mut y = vec![0.0f32; rows * out];
        let n = 200;
        let t = Instant::now();
        for _ in 0..n {
            dense(&x, rows, inp, &w, &b, &mut y);
        }
        let dt = t.elapsed().as_secs_f64() / n as f64;
        println!(
            "dense {rows}x{inp}x{out}: {:.3} ms, {:.1} GFLOPS, weights {:.1} GB/s",
            dt * 1000.0,
            2.0 * (rows * inp * out) as f64 / dt / 1e9,
            (out * inp * 4) as f64 / dt / 1e9
        );
    }
}

#[allow(dead_code)]
fn pair(enc: &BertEncoder) {
    let ids: Vec<u32> = vec![
        101, 2043, 2106, 10677, 2175, 2000, 1996, 28685, 2490, 2177, 1029, 102,
    ];
    let model = enc.model();
    for threads in [1, 2] {
        let t = Instant::now();
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(|| {
                    for _ in 0..100 {
                        model.embed_ids(&ids, false);
                    }
                });
            }
        });
        println!(
            "{threads} thread(s) side by side, one sequence each: {:.2} ms per forward",
            t.elapsed().as_secs_f64() * 1000.0 / 100.0
        );
    }
}
