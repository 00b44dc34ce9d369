//! Recall at a context budget, for `engram bench locomo --memories`: what
//! a reader (an LLM's prompt) gets for a given number of tokens of search
//! results. Recall@k counts results, but a result is not one unit across
//! modes: a memory is one sentence of about fifteen tokens that stands for
//! one turn, a chunk up to two hundred tokens that holds four or five
//! turns. So beside recall@k the bench takes each mode's results in rank
//! order until their text would pass a budget of tokens (counted with the
//! embedding model's tokenizer) and reports the evidence recall of what
//! fits, and how many turns the first ten results stand for.
//!
//! The text a result puts before a reader: a memory's sentence, a chunk's
//! passage, and in a hybrid list a memory with the passage it carries.
//! Pure functions over ranked results; the searching is the caller's.

use engram_core::tokens::TokenCounter;
use serde_json::{json, Value};
use std::collections::HashSet;

/// Budgets tabulated, in tokens of result text.
pub const BUDGETS: [usize; 6] = [100, 250, 500, 720, 1000, 2000];

/// How deep each mode's list is read for the budgets.
pub const DEPTH: usize = 100;

/// One result as a reader gets it: its size and the turns it stands for.
#[derive(Debug, Clone, PartialEq)]
pub struct Read {
    pub tokens: usize,
    pub turns: Vec<String>,
}

/// A result's text, as a reader gets it (see the module docs).
pub fn text_of(r: &Value) -> String {
    let mut out = String::new();
    for field in ["memory", "chunk"] {
        if let Some(t) = r[field].as_str() {
            out.push_str(t);
        }
    }
    for c in r["chunks"].as_array().into_iter().flatten() {
        if let Some(t) = c["content"].as_str() {
            out.push('\n');
            out.push_str(t);
        }
    }
    out
}

/// A result read: its tokens and turns.
pub fn read(r: &Value, turns: Vec<String>, counter: &dyn TokenCounter) -> Read {
    Read {
        tokens: counter.count(&text_of(r)),
        turns,
    }
}

/// The turns a reader sees within `budget` tokens: results in order,
/// stopping at the first that would pass it.
fn within(list: &[Read], budget: usize) -> HashSet<&String> {
    let mut used = 0;
    let mut seen = HashSet::new();
    for r in list {
        used += r.tokens;
        if used > budget {
            break;
        }
        seen.extend(&r.turns);
    }
    seen
}

/// Evidence recall (percent, averaged over questions) at each budget of
/// [`BUDGETS`], and the mean number of distinct turns the first ten
/// results stand for and the mean tokens they take.
pub fn table(asked: &[(HashSet<String>, Vec<Read>)]) -> Value {
    let n = asked.len().max(1) as f64;
    let recall: Vec<Value> = BUDGETS
        .iter()
        .map(|&b| {
            let sum: f64 = asked
                .iter()
                .map(|(gold, list)| {
                    let seen = within(list, b);
                    gold.iter().filter(|g| seen.contains(g)).count() as f64
                        / gold.len().max(1) as f64
                })
                .sum();
            json!({"tokens": b, "recall": 100.0 * sum / n})
        })
        .collect();
    let (mut turns, mut tokens) = (0.0, 0.0);
    for (_, list) in asked {
        let top: Vec<&Read> = list.iter().take(10).collect();
        turns += top
            .iter()
            .flat_map(|r| &r.turns)
            .collect::<HashSet<_>>()
            .len() as f64;
        tokens += top.iter().map(|r| r.tokens).sum::<usize>() as f64;
    }
    json!({"budgets": recall, "turnsInTop10": turns / n, "tokensInTop10": tokens / n})
}

/// The tables of several modes as text.
pub fn print(rows: &[(&str, Value)]) {
    println!(
        "recall at a context budget (results taken in rank order while their text fits; tokens by the model's tokenizer):"
    );
    let head: Vec<String> = BUDGETS.iter().map(|b| format!("{b:>7}")).collect();
    println!(
        "  {:<10} {}   top 10: turns  tokens",
        "mode",
        head.join(" ")
    );
    for (mode, t) in rows {
        let cells: Vec<String> = t["budgets"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| format!("{:>6.1}%", c["recall"].as_f64().unwrap_or(0.0)))
            .collect();
        println!(
            "  {:<10} {}   {:>12.1} {:>7.0}",
            mode,
            cells.join(" "),
            t["turnsInTop10"].as_f64().unwrap_or(0.0),
            t["tokensInTop10"].as_f64().unwrap_or(0.0)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(tokens: usize, turns: &[&str]) -> Read {
        Read {
            tokens,
            turns: turns.iter().map(|t| t.to_string()).collect(),
        }
    }

    fn gold(ids: &[&str]) -> HashSet<String> {
        ids.iter().map(|t| t.to_string()).collect()
    }

    #[test]
    fn a_budget_takes_results_in_order_until_one_would_not_fit() {
        let list = vec![r(60, &["D1:1"]), r(60, &["D1:2"]), r(10, &["D1:3"])];
        // 100 tokens: the second result would pass it, and reading stops
        // there (the small third one is not skipped to)
        let seen = within(&list, 100);
        assert_eq!(seen.len(), 1);
        assert!(seen.contains(&"D1:1".to_string()));
        assert_eq!(within(&list, 130).len(), 3);
        assert!(within(&list, 50).is_empty());
    }

    #[test]
    fn the_table_counts_recall_per_budget_and_what_the_top_ten_hold() {
        let asked = vec![
            // a chunk of three turns holds both gold turns at 200 tokens
            (
                gold(&["D1:1", "D1:2"]),
                vec![r(200, &["D1:1", "D1:2", "D1:3"])],
            ),
            // a memory finds one of two at 15 tokens
            (
                gold(&["D2:1", "D2:5"]),
                vec![r(15, &["D2:1"]), r(15, &["D2:1"])],
            ),
        ];
        let t = table(&asked);
        let at = |b: usize| {
            t["budgets"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["tokens"] == b)
                .unwrap()["recall"]
                .as_f64()
                .unwrap()
        };
        assert_eq!(at(100), 25.0);
        assert_eq!(at(250), 75.0);
        // 3 turns and 1 turn; 200 and 30 tokens
        assert_eq!(t["turnsInTop10"], 2.0);
        assert_eq!(t["tokensInTop10"], 115.0);
    }

    #[test]
    fn a_hybrid_memory_brings_its_passage_to_the_reader() {
        let hit = json!({"memory": "Ada drinks green tea.",
                         "chunks": [{"content": "Ada: I only drink green tea."}]});
        assert_eq!(
            text_of(&hit),
            "Ada drinks green tea.\nAda: I only drink green tea."
        );
        assert_eq!(
            text_of(&json!({"chunk": "Ravi: bees", "memory": null})),
            "Ravi: bees"
        );
    }
}
