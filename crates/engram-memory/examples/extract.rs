//! Print the offline extractor's facts for a transcript on standard input
//! (`Speaker: text` lines; `user:` lines speak as the application's
//! user): `cargo run -p engram-memory --example extract < chat.txt`. A
//! tool for studying the rules on your own examples; with
//! `RUST_LOG=engram_memory=debug` it also says why each dropped clause
//! was dropped.

use engram_memory::{offline, Role, Turn, UNNAMED_USER};
use std::io::Read;

fn main() {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .without_time()
        .with_target(false)
        .init();
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .expect("read standard input");
    let day = chrono::NaiveDate::from_ymd_opt(2024, 5, 8);
    let lines: Vec<(&str, &str)> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_once(": ").unwrap_or((UNNAMED_USER, l)))
        .collect();
    let mut people: Vec<&str> = lines.iter().map(|(s, _)| *s).collect();
    people.sort_unstable();
    people.dedup();
    let turns: Vec<Turn> = lines
        .iter()
        .map(|(speaker, body)| {
            let generic = *speaker == "user" || *speaker == UNNAMED_USER;
            let speaker = if generic { UNNAMED_USER } else { speaker };
            let role = if speaker == "assistant" {
                Role::Assistant
            } else {
                Role::User
            };
            let listener = match people.as_slice() {
                [a, b] => Some(if *a == speaker { *b } else { *a }),
                _ => None,
            };
            Turn {
                role,
                speaker: Some(speaker),
                listener,
                text: body,
                date: day,
                generic,
            }
        })
        .collect();
    for c in offline::extract(&turns) {
        let kind = if c.is_static { "static " } else { "" };
        println!("{kind}{}", c.content);
    }
}
