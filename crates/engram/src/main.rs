//! engram
fn main() {}
