//! The keyword context of a fact: the words of the turns it was formed
//! from, which search reads the way a chunk reads its neighbours. Reads
//! turns only.

use crate::Turn;

/// The turns around turn `i` as keyword context for its facts: the one
/// before, itself and the one after.
pub(crate) fn context_of(turns: &[Turn], i: usize) -> String {
    let from = i.saturating_sub(1);
    let to = (i + 2).min(turns.len());
    turns[from..to]
        .iter()
        .map(|t| match t.speaker {
            Some(s) => format!("{s}: {}", t.text),
            None => t.text.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The keyword context of a fact stated in clause `own` of turn `i`: the
/// turn before, its own turn without the clauses that became other
/// memories (those are found by their own words; left here they would make
/// every fact of the turn match every question about one of them), and
/// the turn after.
pub(crate) fn context_without_siblings(
    turns: &[Turn],
    i: usize,
    clauses: &[(String, bool)],
    own: usize,
) -> String {
    let line = |t: &Turn, text: &str| match t.speaker {
        Some(s) => format!("{s}: {text}"),
        None => text.to_string(),
    };
    let mut out = Vec::with_capacity(3);
    if let Some(p) = i.checked_sub(1).and_then(|p| turns.get(p)) {
        out.push(line(p, p.text));
    }
    let kept: Vec<&str> = clauses
        .iter()
        .enumerate()
        .filter(|(j, (_, fact))| *j == own || !fact)
        .map(|(_, (c, _))| c.as_str())
        .collect();
    out.push(line(&turns[i], &kept.join(" ")));
    if let Some(n) = turns.get(i + 1) {
        out.push(line(n, n.text));
    }
    out.join("\n")
}
