use engram_embed::local::BertEncoder;
fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}
fn main() {
    let dir = std::path::Path::new("/root/.cache/engram/models/all-MiniLM-L6-v2");
    let enc = BertEncoder::load(dir, 256).unwrap();
    let args: Vec<String> = std::env::args().skip(1).collect();
    // args: name, query, memories...
    let name = &args[0];
    let q = &args[1];
    let mems = &args[2..];
    let mut texts = vec![name.clone(), q.clone()];
    texts.extend(mems.iter().cloned());
    let v = enc.encode(&texts).unwrap();
    let n = &v[0];
    let qv = &v[1];
    let qn = dot(qv, n);
    for (i, m) in mems.iter().enumerate() {
        let mv = &v[2 + i];
        let raw = dot(qv, mv);
        let mn = dot(mv, n);
        let proj = (raw - qn * mn) / ((1.0 - qn * qn) * (1.0 - mn * mn)).sqrt();
        println!("raw {raw:.3} proj {proj:.3} m.n {mn:.3}  {m}");
    }
    println!("q.n {qn:.3}");
}
