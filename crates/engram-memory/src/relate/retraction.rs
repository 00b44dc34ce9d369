//! Retractions: facts that end another by naming what they end
//! ("switched from coffee to tea", "quit Google", "stopped running",
//! "cancelled the Japan trip", "Korea instead of Japan", "Max passed
//! away", "broke up with Sam"), and postponements, which end the plan
//! they move ("the Tokyo trip got pushed to next spring" ends "going to
//! Tokyo in October").

use super::slots::{lead_subject, normalise};
use crate::offline::lexicon::EVENTS;

/// Verbs that end what follows them: (phrase, whether the retracted thing
/// is the subject rather than the object).
const RETRACTIONS: &[(&str, bool)] = &[
    (" switched from ", false),
    (" changed from ", false),
    (" went from ", false),
    (" moved away from ", false),
    (" migrated off ", false),
    (" migrated from ", false),
    (" migrated away from ", false),
    (" moved off ", false),
    (" moved out of ", false),
    (" stopped ", false),
    (" quit ", false),
    (" quits ", false),
    (" gave up on ", false),
    (" gives up on ", false),
    (" gave up ", false),
    (" gives up ", false),
    (" no longer ", false),
    (" no more ", false),
    (" cancelled ", false),
    (" canceled ", false),
    (" called off ", false),
    (" instead of ", false),
    (" broke up with ", false),
    (" split up with ", false),
    (" divorced ", false),
    (" sold ", false),
    (" gave away ", false),
    (" pulled out of ", false),
    (" dropped out of ", false),
    (" to drop ", false),
    (" dropped the ", false),
    (" withdrew from ", false),
    (" rehomed ", false),
    (" lost ", false),
    (" paid off ", false),
    (" skipping ", false),
    (" passed away", true),
    (" died", true),
    (" was put down", true),
    (" ran away", true),
];

/// Words too common to identify what a retraction ends.
const WEAK: &[&str] = &[
    "the", "a", "an", "their", "his", "her", "my", "our", "your", "its", "this", "that", "to",
    "and", "of", "for", "with", "in", "on", "at", "from", "some", "all", "be", "being", "going",
    "doing", "having", "getting", "again", "anymore", "any", "more", "because", "so", "trip",
    "now",
];

/// A crude stem, so "nursing" meets "nurse" and "cats" meets "cat".
pub(super) fn stem(w: &str) -> String {
    let w = w.trim_end_matches("'s");
    for suf in ["ing", "ers", "er", "es", "ed", "e", "s"] {
        if let Some(s) = w.strip_suffix(suf) {
            if s.chars().count() >= 3 {
                // "running", "stopped": the doubled consonant is spelling
                let b = s.as_bytes();
                let doubled = matches!(suf, "ing" | "ed")
                    && b.len() >= 4
                    && b[b.len() - 1] == b[b.len() - 2]
                    && b"bdgmnprt".contains(&b[b.len() - 1]);
                return s[..s.len() - usize::from(doubled)].to_string();
            }
        }
    }
    w.to_string()
}

/// "is not vegetarian anymore" said as "is no longer vegetarian" (also
/// "isn't", "doesn't ... any more", "any longer"), the wording the
/// retractions know; other text as it is.
fn no_longer(t: &str) -> String {
    let Some(end) = [" anymore ", " any more ", " any longer "]
        .iter()
        .find_map(|e| t.find(e).map(|i| (i, e.len())))
    else {
        return t.to_string();
    };
    let head = &t[..end.0];
    let Some((i, neg)) = [" not ", "n't "]
        .iter()
        .filter_map(|n| head.rfind(n).map(|i| (i, *n)))
        .max()
    else {
        return t.to_string();
    };
    // "isn't" is "is" and the negation
    let (before, after) = (&head[..i], &head[i + neg.len()..]);
    let before = match neg {
        "n't " => match before.rsplit_once(' ') {
            Some((b, "is" | "does" | "do" | "are" | "was" | "did" | "has" | "have")) => {
                format!("{b} {}", before.rsplit(' ').next().unwrap_or(""))
            }
            Some((b, "ca")) => format!("{b} can"),
            Some((b, "wo")) => format!("{b} will"),
            _ => before.to_string(),
        },
        _ => before.to_string(),
    };
    format!("{before} no longer {after} {}", &t[end.0 + end.1..])
}

/// Plans one drops ("dropped the cabin project"), which "dropped" ends;
/// other things dropped ("dropped the kids off") it does not.
const DROPPED_PLANS: &[&str] = &[
    "project", "plan", "plans", "idea", "trip", "course", "class", "goal",
];

/// "dropped the cabin project" said as "gave up on the cabin project", the
/// wording the retractions know; other text as it is.
fn dropped_plan(t: &str) -> String {
    let Some(i) = t.find(" dropped the ") else {
        return t.to_string();
    };
    let after = &t[i + " dropped the ".len()..];
    let planned = after
        .split_whitespace()
        .take(4)
        .any(|w| DROPPED_PLANS.contains(&w));
    if !planned {
        return t.to_string();
    }
    format!("{} gave up on the {after}", &t[..i])
}

/// What a fact retracts.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Retraction {
    /// Who does the retracting (empty when the thing is the subject).
    pub who: String,
    /// Stems of the retracted thing.
    pub stems: Vec<String>,
    /// The retracted thing is the subject ("Max passed away").
    pub is_subject: bool,
    /// The thing retracted is one that was owned ("lost", "sold"): an old
    /// fact is ended only where it says the thing was had.
    pub possession: bool,
    /// Whose the subject is ("priya" of "priya's grandpa passed away").
    pub owner: Option<String>,
    /// A postponed event: an old fact is ended only where it is a plan
    /// (a date or a plan's wording), not wherever the event is named.
    pub plan: bool,
    /// A habit stopped ("stopped running", "quit smoking"): it ends what
    /// was done, not a plan to do it ("wants to run the Berlin marathon").
    pub habit: bool,
    /// The thing is a doing with an object ("no longer running the half
    /// marathon"): the object says what ends, the doing alone does not
    /// ("runs three times a week" goes on).
    pub done_to: bool,
    /// A debt paid off ("paid off the car loan"): only the same debt ends,
    /// every word of it ("the student loan" goes on).
    pub whole: bool,
}

/// Wordings that move an event to another time.
pub(super) const POSTPONED: &[&str] = &[
    " got pushed to ",
    " got pushed back to ",
    " was pushed to ",
    " was pushed back to ",
    " has been pushed to ",
    " has been pushed back to ",
    " got moved to ",
    " was moved to ",
    " has been moved to ",
    " got postponed to ",
    " got postponed until ",
    " was postponed to ",
    " was postponed until ",
    " has been postponed to ",
    " got delayed to ",
    " got delayed until ",
    " was delayed to ",
    " was delayed until ",
    " slipped to ",
    " has slipped to ",
    " slid to ",
    " got rescheduled to ",
    " got rescheduled for ",
    " was rescheduled to ",
    " was rescheduled for ",
    " has been rescheduled to ",
];

/// Words of an old fact that make it a plan a postponement can end.
const PLANNED: &[&str] = &[
    "going",
    "will",
    "planning",
    "plans",
    "planned",
    "scheduled",
    "booked",
    "trip",
    "visit",
    "flying",
    "travelling",
    "traveling",
    "heading",
    "spring",
    "summer",
    "fall",
    "autumn",
    "winter",
];

/// A subject split into whose it is and what it is: "priya's grandpa" ->
/// (Some("priya"), "grandpa"), "the tokyo trip" -> (None, "the tokyo trip").
fn owned(subject: &str) -> (Option<String>, &str) {
    match subject.rsplit_once("'s ") {
        Some((own, thing)) => (own.split_whitespace().last().map(str::to_string), thing),
        None => (None, subject),
    }
}

/// What a postponement ("the tokyo trip got pushed to ...") ends: the
/// event's own words ("tokyo"; the event noun itself when there are none).
fn postponement(t: &str) -> Option<Retraction> {
    let (own, thing) = match POSTPONED.iter().find_map(|p| t.find(p).map(|i| (i, p))) {
        Some((i, _)) => {
            let before = t[..i].trim();
            let subject = lead_subject(before);
            // ("the launch": a noun that could be a verb is the thing)
            let subject = if matches!(subject.as_str(), "the" | "our" | "my" | "their" | "") {
                before.to_string()
            } else {
                subject
            };
            let (own, thing) = owned(&subject);
            (own, thing.to_string())
        }
        // "Yusuf and Hana moved the wedding to 7 June": the event is the
        // object, theirs or the one spoken of
        None => (None, moved_object(t)?),
    };
    let thing = thing.as_str();
    let words: Vec<&str> = thing.split_whitespace().collect();
    let event = *words.last()?;
    if !EVENTS.contains(&event) && !STARTS.contains(&event) {
        return None;
    }
    let mut stems: Vec<String> = words[..words.len() - 1]
        .iter()
        .filter(|w| !WEAK.contains(w))
        .map(|w| stem(w))
        .collect();
    // ("the builder pushed the start back": the builder's start, both
    // said in the old fact)
    let starts = STARTS.contains(&event);
    if starts {
        let mover = crate::offline::lexicon::MOVE_VERBS.iter().find_map(|v| {
            let at = t.find(&format!(" {v} "))?;
            t[..at]
                .split_whitespace()
                .last()
                .filter(|w| !matches!(*w, "got" | "was" | "is" | "has" | "been" | "had"))
                .map(stem)
        });
        stems = vec![stem(event), mover?];
    }
    if stems.is_empty() {
        stems.push(stem(event));
        // ("the wedding" moves "is getting married in June")
        if event == "wedding" {
            stems.extend(["married", "marry", "marrying"].map(stem));
        }
    }
    Some(Retraction {
        who: String::new(),
        stems,
        is_subject: true,
        possession: false,
        owner: own,
        plan: true,
        habit: false,
        done_to: false,
        whole: starts,
    })
}

/// When work begins, which moves as an event does: "the builder pushed
/// the start back to May 5" moves "the builder starts on April 14".
const STARTS: &[&str] = &["start"];

/// The event an active move names ("moved the wedding to", "pushed our
/// trip back to"), as its words after the determiner.
fn moved_object(t: &str) -> Option<String> {
    let (i, verb) = crate::offline::lexicon::MOVE_VERBS.iter().find_map(|v| {
        let v = format!(" {v} ");
        t.find(&v).map(|i| (i, v))
    })?;
    let after = &t[i + verb.len()..];
    let mut words = after.split_whitespace();
    let det = words.next()?;
    if !matches!(det, "the" | "our" | "their" | "his" | "her" | "my") {
        return None;
    }
    let event: Vec<&str> = words
        .take_while(|w| !matches!(*w, "to" | "until" | "till" | "back"))
        .take(3)
        .collect();
    let last = *event.last()?;
    (EVENTS.contains(&last) || STARTS.contains(&last)).then(|| event.join(" "))
}

/// Whether `old` (normalised) reads as a plan: a date in it, or a plan's
/// wording ("is going to tokyo in october", "the wedding is on 3 june"),
/// not a mere mention ("kim's favourite city is tokyo").
pub(super) fn is_plan(old: &str) -> bool {
    let months = crate::offline::dates::MONTHS;
    old.split_whitespace().any(|w| {
        PLANNED.contains(&w)
            || w.chars().any(|c| c.is_ascii_digit())
            || months.iter().any(|m| m.eq_ignore_ascii_case(w))
    })
}

/// Phrases that end something owned.
const POSSESSION: &[&str] = &[" sold ", " gave away ", " rehomed ", " lost "];

/// Words that open a relative clause: a retraction after one is about
/// someone else ("helps people who lost their homes").
const RELATIVE: &[&str] = &["who", "whom", "whose", "which", "that"];

/// What `fact` retracts, if anything.
pub(super) fn retraction(fact: &str) -> Option<Retraction> {
    let t = super::switched::switched_object(&no_longer(&super::lapsed::lapsed(&dropped_plan(
        &format!(" {} ", normalise(fact)),
    ))));
    for (p, is_subject) in RETRACTIONS {
        let Some(i) = t.find(p) else {
            continue;
        };
        let before = t[..i].trim();
        let mut owner = None;
        let (who, thing) = if *is_subject {
            // the one who died is the possessed, not the possessor:
            // "priya's grandpa" is a grandpa
            let subject = lead_subject(before);
            let (own, thing) = owned(&subject);
            owner = own;
            (String::new(), thing.to_string())
        } else {
            if before.split_whitespace().any(|w| RELATIVE.contains(&w)) {
                continue;
            }
            let after: Vec<&str> = t[i + p.len()..].split_whitespace().collect();
            // "stopped at the shop", "lost in thought": no thing ended
            if after.first().is_some_and(|w| {
                // ("no more than 5 km": an amount, nothing ended)
                matches!(
                    *w,
                    "at" | "by" | "in" | "to" | "on" | "for" | "off" | "than"
                )
            }) {
                continue;
            }
            let thing: Vec<&str> = after
                .iter()
                .take_while(|w| {
                    !matches!(
                        **w,
                        "to" | "because"
                            | "and"
                            | "but"
                            | "so"
                            | "after"
                            | "since"
                            | "when"
                            | "as"
                            | "last"
                            | "this"
                            | "in"
                    )
                })
                .take(4)
                .copied()
                .collect();
            (lead_subject(before), thing.join(" "))
        };
        let stems: Vec<String> = thing
            .split_whitespace()
            .filter(|w| !WEAK.contains(w))
            .map(stem)
            .collect();
        if stems.is_empty() {
            continue;
        }
        // ("running the half marathon": a doing and its object)
        let thing_words: Vec<&str> = thing.split_whitespace().collect();
        let done_to = thing_words.len() >= 2
            && thing_words[0].ends_with("ing")
            && stems.len() >= 2
            && !WEAK.contains(&thing_words[0]);
        return Some(Retraction {
            done_to,
            whole: *p == " paid off ",
            who,
            stems,
            is_subject: *is_subject,
            possession: POSSESSION.contains(p),
            owner,
            // ("skipping Porto": a stop of a plan, not of a habit)
            plan: *p == " skipping ",
            habit: matches!(
                *p,
                " stopped " | " quit " | " quits " | " gave up " | " gives up "
            ) && thing
                .split_whitespace()
                .next()
                .is_some_and(|w| w.ends_with("ing")),
        });
    }
    postponement(&t)
}

/// `new`, opening with "The <thing>", said with whose thing `old` says it
/// is: "The deadline got pushed to April 30." after "The deadline for the
/// billing migration is March 15." is "The deadline for the billing
/// migration got pushed to April 30."; "The wedding was moved to 17 June."
/// after "Rosa's sister's wedding is on 3 June." is "Rosa's sister's
/// wedding was moved to 17 June.".
fn owned_thing(new: &str, old: &str) -> Option<String> {
    use crate::offline::lexicon::{verb, VerbForm, AUXILIARIES};
    let mut nw = new.split_whitespace();
    let (the, thing) = (nw.next()?, nw.next()?);
    if the != "The" || !thing.chars().all(|c| c.is_ascii_lowercase()) {
        return None;
    }
    let next = nw.next()?.to_lowercase();
    if matches!(next.as_str(), "for" | "of") {
        return None;
    }
    let rest = &new[the.len() + 1 + thing.len()..];
    let words: Vec<&str> = old.split_whitespace().collect();
    let at = words.iter().position(|w| *w == thing)?;
    // "The deadline for the billing migration is ...": up to the verb
    if at == 1 && words[0] == "The" {
        let by = words.get(2).filter(|w| matches!(**w, "for" | "of"))?;
        let end = (3..words.len()).find(|&i| {
            let w = words[i].to_lowercase();
            AUXILIARIES.contains(&w.as_str())
                || verb(&w).is_some_and(|(_, f)| f != VerbForm::Gerund)
        })?;
        let whose = words[3..end].join(" ");
        return (!whose.is_empty()).then(|| format!("The {thing} {by} {whose}{rest}"));
    }
    // "Rosa's sister's wedding is ...": the owners before the thing
    let owners: Vec<&str> = words[..at]
        .iter()
        .rev()
        .take_while(|w| w.ends_with("'s"))
        .copied()
        .collect();
    // ("The user's budget": an owner in lower case keeps its "the")
    let the = usize::from(at >= 2 && words[0] == "The");
    if owners.is_empty() || owners.len() + the != at {
        return None;
    }
    Some(format!("{} {thing}{rest}", words[..at].join(" ")))
}

/// Verbs of having, before a thing owned ("has a cat", "bought a car",
/// "drives a Honda Civic").
const HAVING: &[&str] = &[
    "has", "have", "had", "owns", "own", "owned", "got", "gets", "adopted", "bought", "keeps",
    "kept", "drives", "drive", "drove",
];

/// Whether `old` (normalised) mentions one of `stems` as a thing someone
/// has: a verb of having at most four words before it ("drives a 2015 VW
/// Golf"), with no "been" between ("has a cat", not "has been taking
/// photos").
pub(super) fn mentions_owned(old: &str, stems: &[String]) -> bool {
    let words: Vec<&str> = old.split_whitespace().collect();
    words.iter().enumerate().any(|(j, w)| {
        if !stems.contains(&stem(w)) {
            return false;
        }
        let lead = &words[j.saturating_sub(4)..j];
        lead.iter().any(|w| HAVING.contains(w)) && !lead.contains(&"been")
    })
}

/// For a fact that ends someone or something it names first ("Max passed
/// away"), how an older fact introduced them ("Tariq adopted a rescue dog
/// named Max" -> "Tariq's dog Max"): the new fact is rewritten to say so
/// ("Tariq's dog Max passed away"), so that it answers the questions the
/// old one did. `None` when the new fact is no such retraction or the old
/// one does not introduce the name.
pub fn described_subject(new: &str, old: &str) -> Option<String> {
    if let Some(said) = owned_thing(new, old)
        .or_else(|| super::finished::described(new, old))
        .or_else(|| super::doses::described(new, old))
        .or_else(|| super::instead::described(new, old))
        .or_else(|| super::moved::described(new, old))
        .or_else(|| super::outcomes::described(new, old))
        .or_else(|| super::outcomes::plan_done_described(new, old))
        .or_else(|| super::schedule::described(new, old))
        .or_else(|| super::switched::replaced_described(new, old))
    {
        return Some(said);
    }
    if !retraction(new)?.is_subject {
        return None;
    }
    let name = new.split_whitespace().next()?;
    if !name.chars().next().is_some_and(char::is_uppercase) {
        return None;
    }
    let words: Vec<&str> = old.split_whitespace().collect();
    let bare = |w: &str| {
        w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
            .to_string()
    };
    let at = words.iter().position(|w| bare(w) == name)?;
    if at < 2
        || !matches!(
            bare(words[at - 1]).to_lowercase().as_str(),
            "named" | "called"
        )
    {
        return None;
    }
    let noun = bare(words[at - 2]).to_lowercase();
    let owner = bare(words.first()?);
    let owner_is_name = owner.chars().next().is_some_and(char::is_uppercase)
        && crate::offline::is_name_word(&owner)
        && owner != name;
    if !owner_is_name || noun.is_empty() {
        return None;
    }
    let rest = &new[name.len()..];
    Some(format!("{owner}'s {noun} {name}{rest}"))
}

/// Roles one has one of at a time, each with the words that name it.
const ONE_AT_A_TIME: &[&[&str]] = &[
    &["manager", "boss", "supervisor"],
    &["landlord", "landlady"],
    &["doctor", "gp"],
    &["therapist"],
    &["dentist"],
    &["coach", "trainer"],
    &["girlfriend"],
    &["boyfriend"],
    &["partner"],
];

/// "Pia has a new manager now", "Pia's new manager is Tom": who has a new
/// one, and the words for the role ("manager", "boss", "supervisor"), of
/// which one has one at a time.
pub(super) fn new_role(fact: &str) -> Option<(String, &'static [&'static str])> {
    let t = format!(" {} ", normalise(fact));
    for p in [
        " has a new ",
        " have a new ",
        " got a new ",
        " has got a new ",
    ] {
        let Some(i) = t.find(p) else {
            continue;
        };
        let next = t[i + p.len()..].split_whitespace().next()?;
        let role = ONE_AT_A_TIME.iter().find(|r| r.contains(&next))?;
        return Some((lead_subject(t[..i].trim()), role));
    }
    // "pia's new manager is tom"
    let i = t.find("'s new ")?;
    let mut after = t[i + "'s new ".len()..].split_whitespace();
    let (next, verb) = (after.next()?, after.next()?);
    let role = ONE_AT_A_TIME.iter().find(|r| r.contains(&next))?;
    let who = t[..i].split_whitespace().last()?;
    (verb == "is").then(|| (who.to_string(), *role))
}
