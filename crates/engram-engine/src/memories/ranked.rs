//! How memories found for a `/v4/search` are ranked before they are
//! returned: the factors a question's shape gives a memory (a name alone,
//! something over for a question about now, a memory that answers the
//! question's shape, a time, a place or a title asked for, a fact of
//! someone's people, no occupation for a question about one's job), the threshold cut and the limit. Reads the
//! memories' text through `engram_memory::relate::Asked`; no IO.

use super::search::SearchHit;
use engram_store::Memory;

/// What a memory that only says a name is worth to a question that asks
/// something else.
const NAME_ONLY: f32 = 0.95;

/// What a memory of something over ("Jo sold their Civic", "Luis gave up
/// the cello") is worth to a question about how things are now ("what
/// car does Jo drive?"): below the memories that still hold.
const OVER_NOW: f32 = 0.8;

/// What a memory that answers the question's shape gains over one that
/// only names its thing: "what is X about?" - "Ines's novel is a mystery
/// set in ..." (not "Ines finished her novel"); "what is Priya working
/// on?" - Priya's project (not Aisha's work).
const DESCRIBES: f32 = 1.1;

/// What a memory that holds a time gains, and one that holds none is
/// worth, for a question that asks when ("when does Jonas fly out?":
/// "Jonas's flight is now on 14 June", not "Jonas is nervous about
/// flying").
const TIMED: f32 = 1.1;
const UNTIMED: f32 = 0.8;

/// What a memory that names a place gains for a question that asks where
/// ("where is Sam staying?": "... with their in-laws in Delft", not "Sam
/// is renovating the kitchen"). One that names none keeps its score: on
/// LoCoMo a penalty cost R@1.
const PLACED: f32 = 1.1;

/// What a memory that names no place is worth for a question that asks
/// where someone goes to school or works ("where does Leo go to school?":
/// not "Leo has swimming on Thursdays after school"; "where does Ike
/// teach?": not "Ike has been teaching for 8 years"). Only there: for
/// where-questions at large a penalty cost LoCoMo R@1.
const UNPLACED_SCHOOL: f32 = 0.8;

/// What a memory that names no occupation is worth for a question that
/// asks what someone does ("what does Kenji do?": "Kenji got a job as a
/// UX researcher", not "Kenji's girlfriend is Aiko", which the name alone
/// brings as close).
const NO_JOB: f32 = 0.85;

/// What a memory that names a title or a make gains for a question that
/// asks which book, show or make ("what book is Tim reading?": "... is
/// The Name of the Wind", over "Tim is reading a fantasy book"; "what
/// bike does Sol have?": "... is a Trek").
const TITLED: f32 = 1.1;

/// What a fact of someone's people is worth for a question about them by
/// name alone ("where does Mei live?": "Mei's boyfriend Jonas lives in
/// Munich" below what is said of Mei).
const THEIR_PEOPLE: f32 = 0.75;

/// Memories at or above `threshold`, best first (at most `limit`), and
/// how many there were. "Sam is the user's name." matches any question
/// that names Sam; it answers only one that asks for a name, and ranks
/// below the facts about Sam otherwise. A memory of something over ranks
/// below what still holds for a question about now, and one that says
/// what a thing is above one that only names it for "what is X about?"
/// (as one that says what X is working on, for "what is X working on?").
pub(super) fn ranked_memories(
    q: &str,
    mut found: Vec<(Memory, f32)>,
    threshold: f32,
    limit: usize,
) -> (Vec<SearchHit>, usize) {
    if !engram_memory::offline::asks_for_a_name(q) {
        for (m, sc) in found.iter_mut() {
            if engram_memory::offline::says_a_name(&m.content) {
                *sc *= NAME_ONLY;
            }
        }
    }
    // (read for the candidates only: a few, not the index)
    // "what is Ines's novel about?": what it is, over that it was
    // finished; "what is Priya working on?": Priya's work, over others'.
    // A memory of the shape that answers the question is relevant even
    // when its words alone fall short of the threshold ("what is the user
    // reading now?": "The user is reading The Three-Body Problem", whose
    // title pulls its vector away)
    let asked = engram_memory::relate::Asked::of(q);
    for (m, sc) in found.iter_mut() {
        if asked.answered_by(&m.content) {
            *sc = (*sc * DESCRIBES).min(1.0);
        }
    }
    found.retain(|(_, sc)| *sc >= threshold);
    for (m, sc) in found.iter_mut() {
        // (never below the threshold it passed: "does Tariq have a dog?"
        // is still answered by "Tariq's dog Max passed away")
        if asked.outdated(&m.content) {
            *sc = (*sc * OVER_NOW).max(threshold);
        }
        match asked.timed(&m.content) {
            Some(true) => *sc = (*sc * TIMED).min(1.0),
            Some(false) => *sc = (*sc * UNTIMED).max(threshold),
            None => {}
        }
        if asked.placed(&m.content) {
            *sc = (*sc * PLACED).min(1.0);
        }
        if asked.titled(&m.content) {
            *sc = (*sc * TITLED).min(1.0);
        }
        if asked.unplaced_school(&m.content) {
            *sc = (*sc * UNPLACED_SCHOOL).max(threshold);
        }
        if asked.no_job(&m.content) {
            *sc = (*sc * NO_JOB).max(threshold);
        }
        if asked.of_their_people(&m.content) {
            *sc = (*sc * THEIR_PEOPLE).max(threshold);
        }
    }
    found.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.id.cmp(&b.0.id)));
    let total = found.len();
    found.truncate(limit);
    let hits = found
        .into_iter()
        .map(|(memory, score)| SearchHit::Memory {
            memory,
            score,
            related: None,
            documents: Vec::new(),
            passages: Vec::new(),
        })
        .collect();
    (hits, total)
}
