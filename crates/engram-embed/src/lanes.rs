//! The in-process embedder's scheduler: which texts run together, and on
//! which threads.
//!
//! One thread owns the queue. Requests arrive over a channel; whatever is
//! waiting when the thread looks is cut into *units* of about
//! [`UNIT_TOKENS`] tokens (concurrent small requests share a unit, a large
//! one is spread over several), and each unit runs on a *lane*: a thread of
//! its own, one per core, running its passes alone. Lanes never wait for
//! each other, so a core taken for a moment by the HTTP server or the
//! database slows one unit, not every step of a pass on every core (with
//! one pass spread over both cores, work taking a tenth of the CPU cost a
//! fifth of embedding: measured with `engram bench throughput`).
//!
//! A unit small enough to be about latency (a search's query, one short
//! text) that arrives while every lane is idle runs instead on every core
//! at once ([`WIDE_TOKENS`]); a search does not wait for one core to do
//! what two do in half the time. Queries (`urgent`) go ahead of documents
//! in the queue, and when every lane is busy a query's unit runs on an
//! *express* lane (threads kept for queries, one per core) rather than
//! wait for a lane. Lanes run at a lower priority than every other thread
//! of the process (express lanes included), so a query, an HTTP request or
//! a store write takes a core from a lane for the moment it needs and the
//! lanes soak up the rest.
//!
//! This module runs passes; it does not know how a pass computes (see
//! [`crate::cpu_bert`]).

use crate::local::Core;
use crate::EmbedError;
use std::collections::{HashMap, VecDeque};
use std::panic::AssertUnwindSafe;
use std::sync::mpsc;
use std::sync::Arc;
use tokio::sync::oneshot;

/// Tokens a unit aims at on a lane. One core runs ~400 tokens or more a
/// pass as fast per token as 1 500 (measured: 4, 8 and 16 chunks of 105
/// tokens 165, 167 and 168 chunks/s a core), and a smaller unit frees a
/// lane sooner for a query.
pub const UNIT_TOKENS: usize = 768;
/// Units of at most this many tokens run on every core when every lane is
/// idle.
pub const WIDE_TOKENS: usize = 512;

/// The answer to one request.
pub(crate) type Reply = oneshot::Sender<Result<Vec<Vec<f32>>, EmbedError>>;

/// What the scheduler's thread hears.
pub(crate) enum Msg {
    /// Embed `texts` (already prompted); queries are `urgent`.
    Embed {
        texts: Vec<String>,
        urgent: bool,
        reply: Reply,
    },
    /// A unit finished.
    Done {
        on: Runner,
        unit: Unit,
        result: Result<Vec<Vec<f32>>, String>,
    },
    /// The embedder was dropped: finish what was asked, then exit.
    Stop,
}

/// Where a unit ran.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Runner {
    Wide,
    Lane(usize),
    Express(usize),
}

/// Texts that run together, and whose they are.
pub(crate) struct Unit {
    texts: Vec<String>,
    /// `(request, index in the request)` of each text.
    from: Vec<(u64, usize)>,
    tokens: usize,
    urgent: bool,
}

/// A request with texts still running.
struct Waiting {
    reply: Reply,
    out: Vec<Option<Vec<f32>>>,
    left: usize,
    failure: Option<String>,
}

/// The queue, the lanes and the requests in flight; owned by one thread.
pub(crate) struct Scheduler {
    core: Arc<Core>,
    wide: rayon::ThreadPool,
    lanes: Vec<rayon::ThreadPool>,
    busy: Vec<bool>,
    wide_busy: bool,
    express: Vec<rayon::ThreadPool>,
    express_busy: Vec<bool>,
    queue: VecDeque<Unit>,
    waiting: HashMap<u64, Waiting>,
    next: u64,
    max_tokens: usize,
    /// For lanes to report back on.
    tx: mpsc::Sender<Msg>,
}

impl Scheduler {
    /// A lane and an express lane per thread of the all-core `wide` pool
    /// (one per core); texts count at most `max_tokens` (truncation).
    pub(crate) fn new(
        core: Arc<Core>,
        wide: rayon::ThreadPool,
        max_tokens: usize,
        tx: mpsc::Sender<Msg>,
    ) -> Result<Self, EmbedError> {
        let lane = |name: String, nice: bool| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(1)
                .thread_name(move |_| name.clone())
                .start_handler(move |_| {
                    if nice {
                        lower_priority()
                    }
                })
                .build()
                .map_err(|e| {
                    EmbedError::ModelUnavailable(format!("cannot start embedding lanes: {e}"))
                })
        };
        let cores = wide.current_num_threads().max(1);
        let express = (0..cores)
            .map(|i| lane(format!("engram-express-{i}"), false))
            .collect::<Result<Vec<_>, _>>()?;
        let lanes = (0..cores)
            .map(|i| lane(format!("engram-lane-{i}"), true))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            core,
            wide,
            busy: vec![false; lanes.len()],
            lanes,
            wide_busy: false,
            express_busy: vec![false; express.len()],
            express,
            queue: VecDeque::new(),
            waiting: HashMap::new(),
            next: 0,
            max_tokens,
            tx,
        })
    }

    /// Serve `rx` until [`Msg::Stop`] and the last answer.
    pub(crate) fn run(mut self, rx: mpsc::Receiver<Msg>) {
        let mut stopping = false;
        while let Ok(first) = rx.recv() {
            let mut fresh = Vec::new();
            self.hear(first, &mut fresh, &mut stopping);
            // everything already waiting is cut together, so concurrent
            // small requests share units
            while let Ok(m) = rx.try_recv() {
                self.hear(m, &mut fresh, &mut stopping);
            }
            self.enqueue(fresh);
            self.schedule();
            if stopping && self.waiting.is_empty() && !self.running() {
                break;
            }
        }
    }

    fn running(&self) -> bool {
        self.wide_busy || self.express_busy.iter().any(|b| *b) || self.busy.iter().any(|b| *b)
    }

    fn hear(&mut self, m: Msg, fresh: &mut Vec<(u64, Vec<String>, bool)>, stopping: &mut bool) {
        match m {
            Msg::Embed {
                texts,
                urgent,
                reply,
            } => {
                if texts.is_empty() {
                    let _ = reply.send(Ok(Vec::new()));
                    return;
                }
                let id = self.next;
                self.next += 1;
                self.waiting.insert(
                    id,
                    Waiting {
                        reply,
                        out: vec![None; texts.len()],
                        left: texts.len(),
                        failure: None,
                    },
                );
                fresh.push((id, texts, urgent));
            }
            Msg::Done { on, unit, result } => {
                match on {
                    Runner::Wide => self.wide_busy = false,
                    Runner::Lane(l) => self.busy[l] = false,
                    Runner::Express(e) => self.express_busy[e] = false,
                }
                self.answer(unit, result);
            }
            Msg::Stop => *stopping = true,
        }
    }

    /// File a finished unit's vectors (or its failure) with their requests
    /// and answer those that are complete.
    fn answer(&mut self, unit: Unit, result: Result<Vec<Vec<f32>>, String>) {
        let mut vectors = match result {
            Ok(v) => v.into_iter().map(Some).collect::<Vec<_>>(),
            Err(e) => {
                for (id, _) in &unit.from {
                    if let Some(w) = self.waiting.get_mut(id) {
                        w.failure = Some(e.clone());
                    }
                }
                vec![None; unit.from.len()]
            }
        };
        vectors.resize(unit.from.len(), None);
        for ((id, i), v) in unit.from.into_iter().zip(vectors) {
            let Some(w) = self.waiting.get_mut(&id) else {
                continue;
            };
            w.out[i] = v;
            w.left -= 1;
            if w.left == 0 {
                let w = self.waiting.remove(&id).expect("present");
                let answer = match w.failure {
                    Some(e) => Err(EmbedError::Inference(e)),
                    None => Ok(w.out.into_iter().map(Option::unwrap_or_default).collect()),
                };
                let _ = w.reply.send(answer);
            }
        }
    }

    /// Cut new requests into units: queries first, in arrival order.
    fn enqueue(&mut self, fresh: Vec<(u64, Vec<String>, bool)>) {
        let (urgent, rest): (Vec<_>, Vec<_>) = fresh.into_iter().partition(|(_, _, u)| *u);
        for unit in self.cut(urgent, true).into_iter().rev() {
            self.queue.push_front(unit);
        }
        let units = self.cut(rest, false);
        self.queue.extend(units);
    }

    fn cut(&self, requests: Vec<(u64, Vec<String>, bool)>, urgent: bool) -> Vec<Unit> {
        let texts: Vec<(u64, usize, String)> = requests
            .into_iter()
            .flat_map(|(id, texts, _)| texts.into_iter().enumerate().map(move |(i, t)| (id, i, t)))
            .collect();
        let tokens: Vec<usize> = texts
            .iter()
            .map(|(_, _, t)| estimate_tokens(t, self.max_tokens))
            .collect();
        let mut units = Vec::new();
        let mut texts = texts.into_iter();
        for (start, end) in cut(&tokens, self.lanes.len()) {
            let mut unit = Unit {
                texts: Vec::with_capacity(end - start),
                from: Vec::with_capacity(end - start),
                tokens: tokens[start..end].iter().sum(),
                urgent,
            };
            for (id, i, t) in texts.by_ref().take(end - start) {
                unit.texts.push(t);
                unit.from.push((id, i));
            }
            units.push(unit);
        }
        units
    }

    /// Start what can start: a lone small unit on every core when nothing
    /// runs, else units on idle lanes, in queue order; a query's unit that
    /// finds every lane busy on an idle express lane.
    fn schedule(&mut self) {
        while let Some(first) = self.queue.front() {
            let lone = self.queue.len() == 1;
            let (small, urgent) = (first.tokens <= WIDE_TOKENS, first.urgent);
            let on = if self.wide_busy {
                None
            } else if self.lanes.len() > 1 && !self.running() && lone && small {
                Some(Runner::Wide)
            } else {
                self.busy.iter().position(|b| !*b).map(Runner::Lane)
            };
            let on = match on {
                Some(on) => on,
                None if urgent => match self.express_busy.iter().position(|b| !*b) {
                    Some(e) => Runner::Express(e),
                    None => return,
                },
                None => return,
            };
            let unit = self.queue.pop_front().expect("present");
            match on {
                Runner::Wide => self.wide_busy = true,
                Runner::Lane(l) => self.busy[l] = true,
                Runner::Express(e) => self.express_busy[e] = true,
            }
            self.start(on, unit);
        }
    }

    fn start(&self, on: Runner, unit: Unit) {
        let (core, tx) = (self.core.clone(), self.tx.clone());
        let job = move || {
            let started = std::time::Instant::now();
            // a panic in a pass fails its unit's requests, not the embedder
            let result =
                std::panic::catch_unwind(AssertUnwindSafe(|| core.encode_here(&unit.texts)))
                    .unwrap_or_else(|_| {
                        Err(EmbedError::Inference("the forward pass panicked".into()))
                    })
                    .map_err(|e| e.to_string());
            tracing::debug!(
                runner = ?on,
                texts = unit.texts.len(),
                tokens = unit.tokens,
                ms = started.elapsed().as_secs_f64() * 1000.0,
                "embedded"
            );
            let _ = tx.send(Msg::Done { on, unit, result });
        };
        match on {
            Runner::Wide => self.wide.spawn(job),
            Runner::Lane(l) => self.lanes[l].spawn(job),
            Runner::Express(e) => self.express[e].spawn(job),
        }
    }
}

/// Let every other thread of the process (HTTP, the store, the workers,
/// the express lanes) go first: a lane soaks up what CPU is left. Search
/// latency while 2 000 documents are ingested
/// (`scripts/search-during-ingest.py`): p95 49 ms with lanes at the
/// default priority and no express lane, 14 ms with both (one pass on
/// both cores, before lanes: 210 ms). Under `engram bench load` (searches
/// queueing behind each other) one express lane left search's p99 at
/// 90-125 ms, one per core at 57-73. Raising one's own nice value needs
/// no privilege; where it fails the lane runs as before.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: plain syscalls on the calling thread.
    unsafe {
        let tid = libc::gettid();
        libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, LANE_NICE);
    }
}

/// The nice value of lanes (0 is the default, 19 the lowest priority).
const LANE_NICE: libc::c_int = 10;

/// Tokens of `text` for cutting units, without tokenising it: a word
/// piece is rarely shorter than four bytes of English on average, plus
/// the two special tokens; at most the model's limit.
fn estimate_tokens(text: &str, max_tokens: usize) -> usize {
    (text.len() / 4 + 2).min(max_tokens.max(1))
}

/// Cut texts of `tokens` each, in order, into units of at most about
/// [`UNIT_TOKENS`], as even as the texts allow; more than
/// [`WIDE_TOKENS`] in all spreads over a multiple of `lanes` units, so one
/// large request keeps every lane busy. A text goes to the unit its middle
/// falls in.
fn cut(tokens: &[usize], lanes: usize) -> Vec<(usize, usize)> {
    let total: usize = tokens.iter().sum();
    if tokens.is_empty() || total == 0 {
        return if tokens.is_empty() {
            Vec::new()
        } else {
            vec![(0, tokens.len())]
        };
    }
    let mut n = total.div_ceil(UNIT_TOKENS).max(1);
    if total > WIDE_TOKENS && lanes > 1 {
        n = n.div_ceil(lanes) * lanes;
    }
    let n = n.min(tokens.len());
    let mut out: Vec<(usize, usize)> = Vec::with_capacity(n);
    let mut last = usize::MAX;
    let mut before = 0;
    for (i, &t) in tokens.iter().enumerate() {
        let unit = ((2 * before + t) * n / (2 * total)).min(n - 1);
        before += t;
        match out.last_mut() {
            Some(u) if unit == last => u.1 = i + 1,
            _ => out.push((i, i + 1)),
        }
        last = unit;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sizes(tokens: &[usize], lanes: usize) -> Vec<usize> {
        let units = cut(tokens, lanes);
        // in order, every text once
        assert_eq!(units.first().map(|u| u.0), Some(0));
        assert_eq!(units.last().map(|u| u.1), Some(tokens.len()));
        for w in units.windows(2) {
            assert_eq!(w[0].1, w[1].0);
        }
        units.iter().map(|(a, b)| b - a).collect()
    }

    #[test]
    fn units_spread_large_requests_over_every_lane() {
        // one query: one unit (it may run wide)
        assert_eq!(sizes(&[12], 2), vec![1]);
        // a few short texts stay together
        assert_eq!(sizes(&[105; 4], 2), vec![4]);
        // past the wide limit: a multiple of the lanes
        assert_eq!(sizes(&[105; 8], 2), vec![4, 4]);
        assert_eq!(sizes(&[105; 16], 2), vec![4, 4, 4, 4]);
        assert_eq!(sizes(&[105; 32], 2), vec![5, 6, 5, 5, 6, 5]);
        assert_eq!(sizes(&[105; 16], 3), vec![5, 6, 5]);
        // one lane: units by size alone
        assert_eq!(sizes(&[105; 16], 1), vec![5, 6, 5]);
        // never more units than texts
        assert_eq!(sizes(&[256, 256, 256], 4), vec![1, 1, 1]);
        // a text longer than a unit runs alone
        assert_eq!(sizes(&[2000, 10, 10], 2), vec![1, 2]);
        assert_eq!(sizes(&[10, 2000, 10], 2), vec![1, 1, 1]);
        // uneven texts: units of similar size, not of similar count
        assert_eq!(sizes(&[600, 20, 20, 20, 20, 20], 2), vec![1, 5]);
    }

    #[test]
    fn estimates_stay_within_the_model_limit() {
        assert_eq!(estimate_tokens("", 256), 2);
        assert_eq!(estimate_tokens("hello world!", 256), 5);
        assert_eq!(estimate_tokens(&"x".repeat(10_000), 256), 256);
    }
}
