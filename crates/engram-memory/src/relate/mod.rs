//! How a newly stated fact relates to one already remembered: the same
//! fact again (merge), a new value of the same attribute of the same
//! subject (`updates`: "Ana lives in Paris" -> "Ana moved from Paris to
//! Berlin"), added detail (`extends`), or unrelated.
//!
//! Rules, not a model, of these kinds:
//! - **Attributes** ("slots"): where someone lives, who employs them, their
//!   occupation, relationship, diet, age, a favourite, a preference, when an
//!   event is. Each is recognised by its wordings; the subject precedes the
//!   wording and the value follows. A new value of the same slot of the same
//!   subject updates the old fact however either is phrased ("lives in",
//!   "moved from X to Y", "relocated to", "is a nurse", "works as a
//!   software engineer", "was promoted to", "retired").
//! - **Retractions**: a fact that ends another by naming what it ends
//!   ("switched from coffee to tea", "quit Google", "stopped running",
//!   "cancelled the Japan trip", "Korea instead of Japan", "Max passed
//!   away", "broke up with Sam"). It updates an old fact of the same
//!   subject that mentions the retracted thing (for a death: any old fact
//!   that mentions who died, and whose they were: "Priya's grandpa passed
//!   away" ends "Priya's grandpa lives in Goa", not "Priya's dad and Priya
//!   baked bread"). What was lost, sold or given away ends only a fact that
//!   says it was had ("has a cat", not "has been taking photos"), and a
//!   retraction inside a relative clause ("helps people who lost their
//!   homes") is someone else's.
//!
//! - **Habits** (`habits`): a new amount of the same habit ("about 20 km
//!   a week now"), or one taken up again ("is back to running").
//! - **Outcomes** (`outcomes`): an event that was ahead, told as done
//!   ("got a 68 in the genetics exam" ends "has a genetics exam on May 12").
//! - **Takeovers** (`takeover`): work someone else took over ("Aisha took
//!   over the database work" ends Mark's helping with it).
//!
//! Embedding cosine guards every decision so that wording alone never joins
//! unrelated facts.

mod asked;
mod conjuncts;
mod couples;
mod doses;
mod employment;
mod finished;
mod habits;
mod instead;
mod lapsed;
mod moved;
mod outcomes;
mod renamed;
mod reports;
mod residence;
mod retimed;
mod retraction;
mod schedule;
mod slot_words;
mod slots;
mod switched;
mod takeover;
mod values;
mod wanted;
mod whose;

pub use asked::{states_work_on, Asked};
use couples::{earlier_stage, single_again, PARTNERED, PARTNERS};
pub use renamed::{rename, renamed};
pub use reports::names_manager;
pub use retraction::described_subject;
use retraction::{is_plan, mentions_owned, new_role, retraction, stem};
use slots::{lead_subject, normalise, same_subject};
pub use slots::{slot, slots};

/// What a new fact is to an old one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    /// The same fact: merge (one more source).
    Same,
    /// A new value of the same attribute: the new fact supersedes the old.
    Updates,
    /// The old fact with more detail: both stay valid.
    Extends,
    Unrelated,
}

/// Cosine at or above which two facts with the same numbers and mostly the
/// same words are the same fact.
pub const SAME_COSINE: f32 = 0.9;
/// Cosine an attribute update must reach (same topic).
pub const TOPIC_COSINE: f32 = 0.3;
/// Cosine a retraction must reach: it names what it ends, so the topic
/// check can be looser ("Max passed away" vs "Tariq adopted a dog named
/// Max").
pub const RETRACTION_COSINE: f32 = 0.2;
/// Cosine an extension must reach.
pub const EXTENDS_COSINE: f32 = 0.7;
const STOP: &[&str] = &[
    "a", "an", "the", "is", "are", "was", "were", "am", "to", "of", "in", "on", "at", "and", "or",
    "for", "with", "has", "have", "had", "be", "been", "it", "that", "this", "their", "his", "her",
    "my", "i", "he", "she", "they", "we", "you",
];

/// A word without the punctuation around it, its case kept ("Leith," ->
/// "Leith"): a name as it was written.
fn unpunctuated(w: &str) -> &str {
    w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '-')
}

/// The name that opens `words`: up to three words written with a
/// capital that name no month or weekday, ending where one closes the
/// clause ("Toronto, Canada." -> "Toronto"; "New York since May" -> "New
/// York"), without their punctuation.
fn name_at(words: &[&str]) -> Option<String> {
    let name: Vec<&str> = words
        .iter()
        .take_while(|n| crate::offline::named_not_dated(n) && unpunctuated(n) != "I")
        .take(3)
        .copied()
        .collect();
    let cut = name
        .iter()
        .position(|n| n.ends_with([',', '.', '!', ';']))
        .map_or(name.len(), |c| c + 1);
    let said: Vec<&str> = name[..cut].iter().map(|n| unpunctuated(n)).collect();
    (!said.is_empty()).then(|| said.join(" "))
}

/// Words before a verb that make it a plan or a wish, not what holds
/// ("wants to move", "will start", "thinking of moving").
const NOT_YET: &[&str] = &[
    "to", "will", "would", "might", "could", "may", "should", "of", "if", "can", "'ll",
];

/// Whether `old` (normalised) is said of `who` as its subject.
fn made_by(old: &str, who: &str) -> bool {
    same_subject(who, &lead_subject(old))
}

/// A word without a plural "s" ("bosses" is "boss", "managers" "manager").
fn stem_s(w: &str) -> &str {
    w.strip_suffix("es")
        .filter(|b| b.ends_with("ss"))
        .or_else(|| w.strip_suffix('s').filter(|b| !b.ends_with('s')))
        .unwrap_or(w)
}

fn content_words(s: &str) -> std::collections::BTreeSet<String> {
    normalise(s)
        .split_whitespace()
        .filter(|w| !STOP.contains(w))
        .map(str::to_string)
        .collect()
}

fn numbers(s: &str) -> Vec<String> {
    normalise(s)
        .split_whitespace()
        .filter(|w| w.chars().any(|c| c.is_ascii_digit()))
        .map(str::to_string)
        .collect()
}

/// Whether `fact` tells of something ending ("lost their job", "sold the
/// car", "Max passed away"): an event, true as history whenever it
/// arrives, where a state ("lives in Ankara") can be out of date.
pub fn ends_something(fact: &str) -> bool {
    retraction(fact).is_some()
}

/// Whether `fact` ends something for good ("Jo sold their Civic", "Lena
/// and Omar called off the engagement"), so that every current memory it
/// updates is over, not only the one it becomes the next version of.
pub fn ends_for_good(fact: &str) -> bool {
    // ("Priya's kitchen is done": the work and its state before)
    ends_something(fact) || single_again(fact).is_some() || finished::told_done(fact)
}

/// Whether `new` tells done the plan `old` had ahead ("Lia just turned
/// 30" after "Lia is turning 30 in March"): the plan is over, and a new
/// value of an attribute `new` also gives ("Lia is 29 years old") is the
/// memory it becomes the next version of.
pub fn tells_done(new: &str, old: &str) -> bool {
    outcomes::plan_done(new, old)
}

/// What of `old` stays true when `new` updates it but says nothing of it,
/// said with what `new` changed: "Omar got promoted to senior accountant"
/// replaces "Omar works as a junior accountant at Deloitte" as the job
/// title and leaves the workplace: "Omar works as a senior accountant at
/// Deloitte." Only a promotion leaves the workplace this way (a new
/// occupation may well be elsewhere); names are written as they were.
/// An ending leaves the rest of a list it took one from ("lives with
/// their cat Miso" after a break-up with the partner listed beside her).
pub fn residual(new: &str, old: &str) -> Option<String> {
    // "lives with their cat Miso" of "lives with their partner Tom and
    // their cat Miso" after "Tom and Priya split up"
    if ends_for_good(new) {
        if let Some(rest) = conjuncts::rest_of_list(new, old) {
            return Some(rest);
        }
    }
    // "skipping Porto" after "going to Lisbon for four days, then Porto"
    if let Some(rest) = skipped_stop(new, old) {
        return Some(rest);
    }
    // (a promotion; a new occupation may well be elsewhere)
    if !normalise(new).split_whitespace().any(|w| w == "promoted") {
        return None;
    }
    let (new_slots, old_slots) = (slots(new), slots(old));
    let (_, who, title) = new_slots.iter().find(|(s, _, _)| s == "occupation")?;
    if new_slots.iter().any(|(s, _, _)| s == "employer") {
        return None;
    }
    let (_, _, employer) = old_slots
        .iter()
        .find(|(s, w, v)| s == "employer" && same_subject(w, who) && v != "none")?;
    let subject = as_written(old, who)?;
    let employer = as_written(old, employer)?;
    let title = as_written(new, title).unwrap_or(title);
    let article = if title.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    Some(format!(
        "{subject} works as {article} {title} at {employer}."
    ))
}

/// `old` (a plan of several stops) without the stop `new` skips: "Jonas
/// is skipping Porto" leaves "Jonas is going to Lisbon for four days."
/// of "Jonas is going to Lisbon for four days, then Porto."; `None` when
/// `new` skips nothing or the stop is not one of a list in `old`.
fn skipped_stop(new: &str, old: &str) -> Option<String> {
    let n = normalise(new);
    let (_, after) = n.split_once(" skipping ")?;
    let stop = after.split_whitespace().next()?;
    let written = as_written(old, stop)?;
    let at = old.find(written)?;
    let before = old[..at].trim_end();
    // the joint before the stop: ", then", " and", ","
    let cut = ["then", "and"]
        .iter()
        .find_map(|j| before.strip_suffix(j))
        .map(|b| b.trim_end())
        .unwrap_or(before)
        .trim_end_matches(',');
    let joined = cut.len() < before.len() || before.ends_with(',');
    let tail = old[at + written.len()..].trim_start_matches(['.', '!']);
    (joined && tail.trim().is_empty()).then(|| format!("{cut}."))
}

/// The words of `text` that normalise to `lower` ("Deloitte" for
/// "deloitte"), when they occur in it.
fn as_written<'a>(text: &'a str, lower: &str) -> Option<&'a str> {
    let n = lower.split_whitespace().count();
    let words: Vec<(usize, &str)> = text
        .split_whitespace()
        .map(|w| (w.as_ptr() as usize - text.as_ptr() as usize, w))
        .collect();
    words.windows(n.max(1)).find_map(|run| {
        let said: Vec<String> = run.iter().map(|(_, w)| normalise(w)).collect();
        (said.join(" ") == lower).then(|| {
            let start = run[0].0;
            let (at, last) = run[run.len() - 1];
            let end = at + last.trim_end_matches(|c: char| !c.is_alphanumeric()).len();
            &text[start..end]
        })
    })
}

/// Whether `fact` states a dose of something ("put on metformin, 500mg
/// twice a day").
pub fn states_dose(fact: &str) -> bool {
    doses::states_dose(fact)
}

/// Whether `fact` says what someone cannot eat or take ("Marco is lactose
/// intolerant", "Ana is allergic to penicillin", "Ravi is coeliac"): it
/// answers "what can't Marco eat?" though it says no "eat".
pub fn states_intolerance(fact: &str) -> bool {
    let t = format!(" {} ", normalise(fact));
    [
        " allergic ",
        " allergy ",
        " allergies ",
        " intolerant ",
        " intolerance ",
        " coeliac ",
        " celiac ",
        " can't eat ",
        " cannot eat ",
        " can't have ",
    ]
    .iter()
    .any(|p| t.contains(p))
}

/// Whether `fact` tells of something over for good, so that it is not
/// how things are now: [`attributes_over`], except a plan moved to a new
/// date ("the Tokyo trip got pushed to spring"), which still holds.
pub fn over_now(fact: &str) -> bool {
    attributes_over(fact) && !retraction(fact).is_some_and(|r| r.plan) && !replaced(fact)
}

/// Whether `fact` tells of a switch from one thing to another ("Dr.
/// Okafor switched Greta from metformin to Ozempic", "Maya moved from
/// Lisbon to Oslo", "took Priya off propranolol and started Priya on
/// topiramate"): what it ends is replaced, and what follows "to"
/// holds now.
fn replaced(fact: &str) -> bool {
    // ("took Priya off propranolol and started Priya on topiramate": a
    // switch too)
    let t = switched::switched_object(&format!(" {} ", normalise(fact)));
    [" switched ", " changed ", " went from ", " moved "]
        .iter()
        .filter_map(|v| t.find(v))
        .any(|i| {
            let rest = &t[i..];
            rest.find(" from ")
                .is_some_and(|j| rest[j..].contains(" to "))
        })
}

/// Whether the attributes `fact` names are over rather than held ("Jon
/// lost their job as a banker", "Leo quit Google", "Ana used to live in
/// Rome"): they are not what it answers.
pub fn attributes_over(fact: &str) -> bool {
    let t = format!(" {} ", normalise(fact));
    ends_something(fact)
        || slots(fact).iter().any(|(_, _, v)| v == "none")
        || [
            " used to ",
            " no longer ",
            " former ",
            " formerly ",
            " anymore ",
        ]
        .iter()
        .any(|p| t.contains(p))
}

/// Whether a new fact, told in a wording of its own, updates an old one.
type Rule = fn(&str, &str) -> bool;

/// Updates told in wordings of their own, each with the cosine it needs.
const WORDED_UPDATES: &[(Rule, f32)] = &[
    // "about 20 km a week now" after "about 30 km a week"
    (habits::new_amount, TOPIC_COSINE),
    // "migraines are down to once a month" after "about twice a week"
    (habits::symptom_rate, TOPIC_COSINE),
    // "got a 68 in the genetics exam" after "has a genetics exam on May 12"
    (outcomes::outcome_of, TOPIC_COSINE),
    // "finished Valencia in 1:56:40" after "half marathon ... in Valencia"
    (outcomes::outcome_named, TOPIC_COSINE),
    // "passed the N5" after "goal is to pass JLPT N5 in July"
    (outcomes::aim_reached, TOPIC_COSINE),
    // "moved out" after "is moving out in March to live with ..."
    (outcomes::plan_done, TOPIC_COSINE),
    // "got the job at Google" after "has an interview at Google"
    (outcomes::hired, TOPIC_COSINE),
    // "got into Edinburgh" after "is applying to unis"
    (outcomes::admitted, TOPIC_COSINE),
    // "finished the migration" after "is leading the billing migration"
    (finished::finishes, TOPIC_COSINE),
    // "kitchen is done" after "kitchen is delayed"
    (finished::new_state, TOPIC_COSINE),
    // "is now flying on August 6th instead" after "has flights on August 4th"
    (instead::moves_day, instead::INSTEAD_COSINE),
    // "is now going to Lisbon in June instead" after "was going to Rome"
    (instead::goes_elsewhere, instead::INSTEAD_COSINE),
    // "the flight is now on June 14th" after "flies out on June 12th"
    (instead::event_moved, TOPIC_COSINE),
    // "the hen party is now in Barcelona" after "... the hen party, thinking
    // Lisbon"
    (instead::event_placed, TOPIC_COSINE),
    // "the metformin dose went up to 1000mg" after "on metformin, 500mg"
    (doses::new_dose, TOPIC_COSINE),
    // "got a cavapoo puppy" after "really wants a dog"
    (wanted::want_got, TOPIC_COSINE),
    // "is back on day shifts" after "switched to the night shift"
    (switched::switches, TOPIC_COSINE),
    // "is back to running" after "stopped running"
    (habits::taken_up_again, RETRACTION_COSINE),
    // "reports to Gareth now" after "new manager is Rita"; a new tutor
    (reports::new_holder, RETRACTION_COSINE),
    // "went back to work" after "is on paternity leave"
    (habits::back_from_leave, RETRACTION_COSINE),
    // "is fully recovered" after "needs rest for two weeks"
    (habits::recovered, RETRACTION_COSINE),
    // "rent went up to 1550" after "rent is 1450"
    (values::new_value, TOPIC_COSINE),
    // "standup moved to 10am" after "standup is at 9:30 every day"
    (retimed::new_time, TOPIC_COSINE),
    // "visa got renewed until 2027" after "visa expires in March 2025"
    (retimed::renewed, TOPIC_COSINE),
    // "switching their lessons to Thursdays" after "lessons every Tuesday"
    (schedule::new_weekday, TOPIC_COSINE),
    // "passed TOPIK level 3" after "currently at TOPIK level 2"
    (schedule::new_level, TOPIC_COSINE),
    // "got a Tesla Model 3 to replace the Golf" after "sold the Golf"
    (switched::replaces, TOPIC_COSINE),
    // "went vegan" after "eats pretty much everything"
    (switched::diet_taken_up, TOPIC_COSINE),
];

/// How `new` relates to `old`, given the cosine of their embeddings.
pub fn relate(new: &str, old: &str, cosine: f32) -> Relation {
    if normalise(new) == normalise(old) {
        return Relation::Same;
    }
    let (new_slots, old_slots) = (slots(new), slots(old));
    // the attributes both state of the same subject
    let shared: Vec<bool> = new_slots
        .iter()
        .flat_map(|(s1, who1, v1)| {
            old_slots
                .iter()
                .filter(move |(s2, who2, _)| s1 == s2 && same_subject(who1, who2))
                .map(move |(_, _, v2)| v1 == v2)
        })
        .collect();
    if !shared.is_empty() && cosine >= TOPIC_COSINE {
        // ("Kenji's girlfriend is Aiko" said with "... and Kenji just got
        // engaged": an earlier stage with the same one is no news)
        if earlier_stage(&new_slots, &old_slots, old) {
            return Relation::Same;
        }
        // a new value of any of them is an update; the same values restated
        // are the same fact only when that is all either says
        if shared.iter().any(|same| !same) {
            return Relation::Updates;
        }
        if new_slots.len() == old_slots.len() && shared.len() == new_slots.len() {
            return Relation::Same;
        }
    }
    // an attribute's next value told in a wording of its own
    if WORDED_UPDATES
        .iter()
        .any(|(rule, min)| cosine >= *min && rule(new, old))
    {
        return Relation::Updates;
    }
    if let Some(r) = retraction(new) {
        let old_n = normalise(old);
        let old_stems: Vec<String> = old_n.split_whitespace().map(stem).collect();
        let mentions = if r.possession {
            mentions_owned(&old_n, &r.stems)
        } else if r.plan {
            // a postponement ends the plan it moves, not every mention
            let has = |s: &String| old_stems.contains(s);
            let said = if r.whole {
                r.stems.iter().all(has)
            } else {
                r.stems.iter().any(has)
            };
            said && is_plan(&old_n)
        } else if r.habit {
            // the habit itself, not "wants to run the marathon"
            let words: Vec<&str> = old_n.split_whitespace().collect();
            words
                .iter()
                .enumerate()
                .any(|(i, w)| r.stems.contains(&stem(w)) && (i == 0 || words[i - 1] != "to"))
        } else if r.whole {
            r.stems.iter().all(|s| old_stems.contains(s))
        } else if r.done_to {
            // "no longer running the half marathon": the marathon
            r.stems[1..].iter().any(|s| old_stems.contains(s))
        } else {
            r.stems.iter().any(|s| old_stems.contains(s))
        };
        // the old fact is about the same one (or, for a death, names who
        // died: "priya's grandpa" only where Priya's grandpa is meant)
        let about = if r.is_subject {
            r.owner.as_ref().is_none_or(|o| {
                old_n.contains(&format!("{o}'s"))
                    // (a plan is its maker's: "kim's tokyo trip" moves
                    // what "kim is going to tokyo" planned)
                    || (r.plan && made_by(&old_n, o))
            })
        } else {
            // ("priya's gp put priya on propranolol": priya is on it)
            same_subject(&r.who, &lead_subject(&old_n))
                || switched::put_on(&old_n).is_some_and(|t| same_subject(&r.who, &lead_subject(&t)))
        };
        // a retraction never retracts another retraction of the same thing
        let also_retracts = retraction(old).is_some_and(|o| o.stems == r.stems);
        if mentions && about && !also_retracts && cosine >= RETRACTION_COSINE {
            return Relation::Updates;
        }
    }
    // "Aisha took over the database work" ends "Mark is helping with the
    // database part"
    if takeover::takes_over(new, old) && cosine >= RETRACTION_COSINE {
        return Relation::Updates;
    }
    // "Pia has a new manager now" ends "Pia's boss is Karen"
    if let Some((who, role)) = new_role(new) {
        let old_n = normalise(old);
        let names_role = old_n.split_whitespace().any(|w| role.contains(&stem_s(w)));
        let whose = old_n.contains(&format!("{who}'s")) || made_by(&old_n, &who);
        if names_role && whose && new_role(old).is_none() && cosine >= RETRACTION_COSINE {
            return Relation::Updates;
        }
    }
    // "Chris and Zoe broke up", "Zoe is single now" end "Zoe's boyfriend
    // Chris and Zoe have been together for three years"
    if let Some(who) = single_again(new) {
        let old_n = normalise(old);
        // (or their wedding: "called off the engagement" ends "Lena and
        // Omar's wedding is on June 14th")
        let wedding = who
            .split(" and ")
            .any(|p| old_n.contains(&format!("{}'s wedding", p.trim())));
        let partnered = wedding
            || old_n
                .split_whitespace()
                .any(|w| PARTNERS.contains(&w) || PARTNERED.contains(&w));
        // said of them, or of their partner ("zoe's boyfriend chris ...")
        let whose = made_by(&old_n, &who)
            || wedding
            || who.split(" and ").any(|p| {
                PARTNERS
                    .iter()
                    .any(|n| old_n.contains(&format!("{}'s {n}", p.trim())))
            });
        if partnered && whose && single_again(old).is_none() && cosine >= RETRACTION_COSINE {
            return Relation::Updates;
        }
    }
    let (a, b) = (content_words(new), content_words(old));
    if a.is_empty() || b.is_empty() {
        return Relation::Unrelated;
    }
    let shared = a.intersection(&b).count();
    let jaccard = shared as f32 / a.union(&b).count() as f32;
    if cosine >= SAME_COSINE && numbers(new) == numbers(old) && jaccard >= 0.6 {
        // ("Marta has been learning the cello for about a year" says all
        // of "... learning the cello" and more: the next version of it)
        if shared == b.len() && a.len() > b.len() {
            return Relation::Updates;
        }
        return Relation::Same;
    }
    if cosine >= EXTENDS_COSINE && shared == b.len() && a.len() > b.len() {
        return Relation::Extends;
    }
    Relation::Unrelated
}
#[cfg(test)]
#[path = "mod_tests.rs"]
mod tests;
