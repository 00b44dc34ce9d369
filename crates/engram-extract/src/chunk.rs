//! Token-budgeted chunking.
//!
//! Text is cut into units — sentences grouped by paragraph, or (for chat
//! transcripts) turns — whose token counts come from one tokenizer pass over
//! the whole text. Units are packed greedily up to the target size. A chunk
//! prefers to end where a paragraph or turn ends: a new group starts a new
//! chunk when the whole group would not fit and the chunk is already at
//! least half full (transcripts: always). Consecutive chunks share a small
//! overlap of whole trailing sentences. A unit longer than the target is cut
//! into token windows. Chunks are slices of the input, so positions and
//! offsets are exact.

use crate::conversation;
use crate::sentences::split_sentences;
use engram_core::tokens::TokenCounter;

/// Chunking parameters, in tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkConfig {
    pub target_tokens: usize,
    pub overlap_tokens: usize,
}

impl ChunkConfig {
    /// Default target, clamped to the model's limit (`max_tokens` minus the
    /// two special tokens).
    pub fn for_model(requested: Option<usize>, max_tokens: usize) -> Self {
        let limit = max_tokens.saturating_sub(2).max(16);
        let target = requested.unwrap_or(DEFAULT_TARGET_TOKENS).clamp(16, limit);
        Self {
            target_tokens: target,
            overlap_tokens: (target / 8).min(48),
        }
    }
}

/// Default chunk size in tokens.
pub const DEFAULT_TARGET_TOKENS: usize = 200;

/// One chunk: a slice `[start, end)` of the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextChunk {
    pub content: String,
    pub token_count: usize,
    pub start: usize,
    pub end: usize,
}

#[derive(Debug, Clone, Copy)]
struct Unit {
    start: usize,
    end: usize,
    tokens: usize,
    group: usize,
}

/// Chunk `text`; transcripts are detected and chunked on turns.
pub fn chunk_text(text: &str, counter: &dyn TokenCounter, cfg: ChunkConfig) -> Vec<TextChunk> {
    let offsets = counter.token_offsets(text);
    let count = |a: usize, b: usize| {
        let lo = offsets.partition_point(|(s, _)| *s < a);
        let hi = offsets.partition_point(|(s, _)| *s < b);
        hi - lo
    };
    let (groups, strict) = match conversation::turns(text) {
        Some(t) => (t, true),
        None => (paragraphs(text), false),
    };
    let mut units = Vec::new();
    for (g, (gs, ge)) in groups.into_iter().enumerate() {
        let whole = count(gs, ge);
        let pieces = if strict && whole <= cfg.target_tokens {
            vec![(gs, ge)]
        } else {
            split_sentences(text, gs, ge)
        };
        for (s, e) in pieces {
            let tokens = count(s, e);
            if tokens <= cfg.target_tokens {
                units.push(Unit {
                    start: s,
                    end: e,
                    tokens,
                    group: g,
                });
            } else {
                windows(&offsets, s, e, cfg.target_tokens, g, &mut units);
            }
        }
    }
    pack(text, &units, cfg, strict)
}

fn paragraphs(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut last_nonblank_end = 0;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let ls = offset;
        offset += line.len();
        if line.trim().is_empty() {
            if let Some(s) = start.take() {
                out.push((s, last_nonblank_end));
            }
        } else {
            if start.is_none() {
                start = Some(ls);
            }
            last_nonblank_end = ls + line.trim_end().len();
        }
    }
    if let Some(s) = start {
        out.push((s, last_nonblank_end));
    }
    out
}

fn windows(
    offsets: &[(usize, usize)],
    s: usize,
    e: usize,
    size: usize,
    group: usize,
    units: &mut Vec<Unit>,
) {
    let lo = offsets.partition_point(|(a, _)| *a < s);
    let hi = offsets.partition_point(|(a, _)| *a < e);
    let toks = &offsets[lo..hi];
    let mut i = 0;
    while i < toks.len() {
        let j = (i + size).min(toks.len());
        let start = if i == 0 { s } else { toks[i].0 };
        let end = if j == toks.len() { e } else { toks[j].0 };
        units.push(Unit {
            start,
            end,
            tokens: j - i,
            group,
        });
        i = j;
    }
}

fn pack(text: &str, units: &[Unit], cfg: ChunkConfig, strict: bool) -> Vec<TextChunk> {
    let mut out = Vec::new();
    let mut cur: Vec<usize> = Vec::new();
    let mut cur_tokens = 0usize;
    let group_tokens = |from: usize| -> usize {
        let g = units[from].group;
        units[from..]
            .iter()
            .take_while(|u| u.group == g)
            .map(|u| u.tokens)
            .sum()
    };
    for i in 0..units.len() {
        let u = units[i];
        if let Some(&last) = cur.last() {
            let starts_group = units[last].group != u.group;
            let overflow = cur_tokens + u.tokens > cfg.target_tokens;
            let min_fill = if strict { 0 } else { cfg.target_tokens / 2 };
            let early = starts_group
                && cur_tokens >= min_fill
                && cur_tokens + group_tokens(i) > cfg.target_tokens;
            if overflow || early {
                emit(text, units, &cur, cur_tokens, &mut out);
                // overlap: whole trailing units of the previous chunk
                let mut keep: Vec<usize> = Vec::new();
                let mut kept = 0;
                for &k in cur.iter().rev() {
                    if keep.len() + 1 >= cur.len()
                        || kept + units[k].tokens > cfg.overlap_tokens
                        || kept + units[k].tokens + u.tokens > cfg.target_tokens
                    {
                        break;
                    }
                    kept += units[k].tokens;
                    keep.push(k);
                }
                keep.reverse();
                cur = keep;
                cur_tokens = kept;
            }
        }
        cur.push(i);
        cur_tokens += u.tokens;
    }
    if !cur.is_empty() {
        emit(text, units, &cur, cur_tokens, &mut out);
    }
    out
}

fn emit(text: &str, units: &[Unit], cur: &[usize], tokens: usize, out: &mut Vec<TextChunk>) {
    let start = units[cur[0]].start;
    let end = units[*cur.last().unwrap_or(&cur[0])].end;
    let content = text[start..end].trim().to_string();
    if !content.is_empty() {
        out.push(TextChunk {
            content,
            token_count: tokens,
            start,
            end,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engram_core::tokens::ApproxTokenCounter;
    use proptest::prelude::*;

    fn cfg(target: usize, overlap: usize) -> ChunkConfig {
        ChunkConfig {
            target_tokens: target,
            overlap_tokens: overlap,
        }
    }

    fn check(text: &str, c: ChunkConfig, want: &[&str]) {
        let got: Vec<String> = chunk_text(text, &ApproxTokenCounter, c)
            .into_iter()
            .map(|c| c.content)
            .collect();
        assert_eq!(got, want, "text: {text:?}");
    }

    #[test]
    fn small_text_is_one_chunk() {
        check(
            "Hello world. Second sentence.",
            cfg(50, 5),
            &["Hello world. Second sentence."],
        );
        check("   \n\n  ", cfg(50, 5), &[]);
    }

    #[test]
    fn breaks_at_sentences_with_overlap() {
        // each sentence is 3 tokens (two words + '.')
        check(
            "Aa bb. Cc dd. Ee ff. Gg hh.",
            cfg(6, 3),
            &["Aa bb. Cc dd.", "Cc dd. Ee ff.", "Ee ff. Gg hh."],
        );
        check(
            "Aa bb. Cc dd. Ee ff. Gg hh.",
            cfg(6, 0),
            &["Aa bb. Cc dd.", "Ee ff. Gg hh."],
        );
    }

    #[test]
    fn prefers_paragraph_boundaries() {
        check(
            "Aa bb. Cc dd.\n\nEe ff. Gg hh. Ii jj.",
            cfg(10, 0),
            &["Aa bb. Cc dd.", "Ee ff. Gg hh. Ii jj."],
        );
    }

    #[test]
    fn transcripts_chunk_on_turns() {
        let t = "alice: one two three\nbob: four five six\nalice: seven eight nine";
        // each turn is 5 tokens; two turns fit in 10
        check(
            t,
            cfg(10, 0),
            &[
                "alice: one two three\nbob: four five six",
                "alice: seven eight nine",
            ],
        );
        // with overlap the previous turn is repeated for context
        check(
            t,
            cfg(10, 5),
            &[
                "alice: one two three\nbob: four five six",
                "bob: four five six\nalice: seven eight nine",
            ],
        );
    }

    #[test]
    fn overlong_sentences_are_windowed() {
        let text = (0..25)
            .map(|i| format!("w{i}"))
            .collect::<Vec<_>>()
            .join(" ");
        let chunks = chunk_text(&text, &ApproxTokenCounter, cfg(10, 0));
        assert_eq!(chunks.len(), 3);
        assert!(chunks.iter().all(|c| c.token_count <= 10));
        assert_eq!(chunks[0].content, "w0 w1 w2 w3 w4 w5 w6 w7 w8 w9");
    }

    proptest! {
        #[test]
        fn chunks_cover_text_within_budget(
            words in prop::collection::vec("[a-z]{1,12}[.!?]?", 0..300),
            breaks in prop::collection::vec(0usize..8, 0..300),
            target in 8usize..60,
            overlap in 0usize..12,
        ) {
            let mut text = String::new();
            for (i, w) in words.iter().enumerate() {
                text.push_str(w);
                text.push_str(match breaks.get(i) { Some(0) => "\n\n", Some(1) => "\n", _ => " " });
            }
            let c = cfg(target, overlap);
            let chunks = chunk_text(&text, &ApproxTokenCounter, c);
            let counter = ApproxTokenCounter;
            let mut covered = 0usize;
            for ch in &chunks {
                prop_assert!(ch.token_count <= target);
                prop_assert!(counter.count(&ch.content) <= target);
                prop_assert!(ch.start <= covered || text[covered..ch.start].trim().is_empty(), "gap before {}", ch.start);
                prop_assert!(ch.end >= covered);
                covered = ch.end;
            }
            prop_assert!(text[covered..].trim().is_empty());
        }
    }
}
