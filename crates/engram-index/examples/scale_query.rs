//! Development aid: time `OrgIndex::search` alone over a synthetic
//! organisation (the same generator shape as `engram bench scale`), without
//! a store or a model. `VOCAB=path/to/tokenizer.json cargo run --release -p
//! engram-index --example scale_query -- [chunks] [queries]`.

use engram_index::{IndexChunk, IndexDocument, OrgIndex, Query, Scope};
use std::time::Instant;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn gauss(&mut self) -> f32 {
        let (u, v) = (self.unit().max(1e-12), self.unit());
        ((-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()) as f32
    }
    fn zipf(&mut self, n: usize) -> usize {
        ((n as f64).powf(self.unit()) - 1.0) as usize
    }
}

fn normalised(mut v: Vec<f32>) -> Vec<f32> {
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-12);
    v.iter_mut().for_each(|x| *x /= n);
    v
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let chunks = args.first().copied().unwrap_or(100_000);
    let queries = args.get(1).copied().unwrap_or(300);
    let dim = 384;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let syl = [
        "ka", "lo", "mi", "ren", "tu", "sha", "vor", "el", "dan", "qui", "po", "zi",
    ];
    let vocab: Vec<String> = match std::env::var("VOCAB") {
        // the model's whole words, roughly in frequency order
        Ok(path) => {
            let t: serde_json::Value =
                serde_json::from_slice(&std::fs::read(path).expect("tokenizer.json"))
                    .expect("json");
            let mut w: Vec<(u64, String)> = t["model"]["vocab"]
                .as_object()
                .expect("vocab")
                .iter()
                .filter(|(w, _)| w.len() >= 2 && w.bytes().all(|b| b.is_ascii_lowercase()))
                .map(|(w, id)| (id.as_u64().unwrap_or(0), w.clone()))
                .collect();
            w.sort_unstable();
            w.into_iter().map(|x| x.1).collect()
        }
        Err(_) => (0..8000)
            .map(|_| {
                (0..2 + rng.below(3))
                    .map(|_| syl[rng.below(syl.len())])
                    .collect()
            })
            .collect(),
    };
    let centres: Vec<Vec<f32>> = (0..1000)
        .map(|_| normalised((0..dim).map(|_| rng.gauss()).collect()))
        .collect();
    let text = |rng: &mut Rng, n: usize| {
        (0..n)
            .map(|_| vocab[rng.zipf(vocab.len())].as_str())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let vector = |rng: &mut Rng| {
        let c = &centres[rng.below(centres.len())];
        let spread = 1.2 / (dim as f32).sqrt();
        normalised(c.iter().map(|x| x + spread * rng.gauss()).collect())
    };
    let t = Instant::now();
    let mut index = OrgIndex::new(dim);
    let docs: Vec<IndexDocument> = (0..chunks)
        .map(|i| IndexDocument {
            id: format!("d{i}"),
            seq: i as i64,
            container_tags: vec![format!("tag-{}", i % 10)],
            metadata: serde_json::json!({"n": i})
                .as_object()
                .cloned()
                .unwrap_or_default(),
            filepath: None,
            chunks: vec![IndexChunk {
                id: format!("c{i}"),
                position: 0,
                text: text(&mut rng, 60),
                embedding: vector(&mut rng),
            }],
        })
        .collect();
    index.upsert_many(docs);
    eprintln!(
        "built {} chunks in {:.1} s",
        index.chunks(),
        t.elapsed().as_secs_f64()
    );
    for (label, scope) in [
        ("whole organisation", Scope::default()),
        (
            "one tag",
            Scope {
                container_tags: vec!["tag-3".into()],
                ..Scope::default()
            },
        ),
    ] {
        let mut lat = Vec::new();
        for _ in 0..queries {
            let q = text(&mut rng, 9);
            let e = vector(&mut rng);
            let t = Instant::now();
            let hits = index.search(&Query {
                text: &q,
                embedding: &e,
                scope: &scope,
                limit: 10,
            });
            lat.push(t.elapsed().as_secs_f64() * 1000.0);
            assert!(!hits.is_empty());
        }
        lat.sort_by(f64::total_cmp);
        let p = |x: f64| lat[((lat.len() - 1) as f64 * x).round() as usize];
        println!("{label}: p50 {:.2} ms, p95 {:.2} ms", p(0.5), p(0.95));
    }
}
