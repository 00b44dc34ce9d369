//! Outcomes: an event that was ahead and is now told as done. "Leo got a
//! 68 in the genetics exam" ends "Leo has a genetics exam on May 12": the
//! plan is past, and its outcome is what a question about it wants. Only
//! the same event of the same subject ("genetics exam", not "chemistry
//! exam"), told in the past tense, ends a fact that still has it ahead.
//! A race or game told by its place ("Lucía finished Valencia in
//! 1:56:40") is the outcome of the one planned there ("Lucía's first half
//! marathon is on 12 October 2025 in Valencia"). An aim reached is the
//! outcome of the aim ("Greta passed the N5" ends "Greta's goal is to
//! pass JLPT N5 in July"), and a plan told done is its outcome too ("Jess
//! moved out" ends "Jess is moving out in March 2025 to live with her
//! boyfriend", and says "Jess moved out in March 2025 to live with her
//! boyfriend"). Admission ends the applying ("got into Edinburgh" ends
//! "is applying to unis").

use super::slots::{lead_subject, normalise, same_subject};
use crate::offline::lexicon::{verb, VerbForm, AUXILIARIES, EVENTS, PERSONAL_EVENTS};

/// Words that say an event is still ahead.
const AHEAD: &[&str] = &[
    "has",
    "have",
    "will",
    "going",
    "wants",
    "plans",
    "planning",
    "scheduled",
    "planned",
    "upcoming",
    "next",
    "booked",
    "hopes",
];

/// Words before an event noun that do not say which event it is.
const DETERMINERS: &[&str] = &[
    "a", "an", "the", "my", "his", "her", "their", "our", "this", "that", "first", "big",
];

/// Determiners that point back at a known event ("the exam", "my
/// surgery"), where "an exam" may be any.
const DEFINITE: &[&str] = &["the", "my", "his", "her", "their", "our", "that"];

/// The event a fact names: its noun, the word naming which ("genetics"
/// of "genetics exam"), and whether it is pointed at as a known one.
fn event(words: &[&str]) -> Option<(String, Option<String>, bool)> {
    let i = words.iter().position(|w| EVENTS.contains(w))?;
    // ("their next dream trip": after a determiner a word that could be a
    // verb names which one; "had the exam" is no such word)
    let determined = |j: usize| {
        j.checked_sub(1).is_some_and(|k| {
            DETERMINERS.contains(&words[k]) || words[k].ends_with("'s") || AHEAD.contains(&words[k])
        })
    };
    let which = i.checked_sub(1).map(|j| (j, words[j])).filter(|&(j, w)| {
        !DETERMINERS.contains(&w)
            && !w.ends_with("'s")
            && (verb(w).is_none_or(|(_, f)| f == VerbForm::Gerund) || determined(j))
    });
    let which = which.map(|(_, w)| w);
    let det = i
        .checked_sub(1 + usize::from(which.is_some()))
        .map(|j| words[j]);
    let known = det.is_some_and(|d| DEFINITE.contains(&d) || d.ends_with("'s"));
    Some((words[i].to_string(), which.map(str::to_string), known))
}

/// Whether `new` tells the outcome of the event `old` has ahead.
pub(super) fn outcome_of(new: &str, old: &str) -> bool {
    let (n, o) = (normalise(new), normalise(old));
    let (nw, ow): (Vec<&str>, Vec<&str>) = (
        n.split_whitespace().collect(),
        o.split_whitespace().collect(),
    );
    let (Some((e1, w1, known)), Some((e2, w2, _))) = (event(&nw), event(&ow)) else {
        return false;
    };
    // the same event: the same noun, and the same "which" where both say
    // it; else the new fact points at a known one ("the exam", not "an
    // exam": "went to a concert" may be another concert)
    let same = match (&w1, &w2) {
        (Some(a), Some(b)) => a == b,
        (None, None) => known,
        // ("my final went ok": the one known, whichever it was)
        (None, Some(_)) => known && PERSONAL_EVENTS.contains(&e1.as_str()),
        // ("the mountaineering trip" is not "a trip to the East Coast")
        _ => false,
    };
    if e1 != e2 || !same {
        return false;
    }
    // the old fact has it ahead; the new one tells it in the past
    // ("has just been helping at the tournament": "has" of the perfect is
    // no event ahead)
    let ahead = ow.iter().enumerate().any(|(i, w)| {
        let perfect = matches!(*w, "has" | "have")
            && ow[i + 1..]
                .iter()
                .find(|x| !matches!(**x, "just" | "already" | "recently" | "finally"))
                .is_some_and(|x| *x == "been" || verb(x).is_some_and(|(_, f)| f == VerbForm::Past));
        AHEAD.contains(w) && !perfect
    });
    let subject = lead_subject(&n);
    // (past the event when it is the subject: "aiko's interview went")
    let skip = match nw.iter().position(|w| *w == e1) {
        Some(i) if i < 3 && nw[..i].iter().any(|w| w.ends_with("'s") || *w == "my") => i + 1,
        _ => subject.split_whitespace().count(),
    };
    let first_verb = nw
        .iter()
        .skip(skip)
        .find(|w| AUXILIARIES.contains(w) || verb(w).is_some());
    // ("had the surgery", "was hard": past, though auxiliaries too)
    let past = first_verb.is_some_and(|w| {
        matches!(*w, "had" | "did" | "was" | "were")
            || (!AUXILIARIES.contains(w) && verb(w).is_some_and(|(_, f)| f == VerbForm::Past))
    });
    // ("femi's surgery is done": told done, in the present)
    let past = past
        || nw.windows(2).any(|p| {
            matches!(p[0], "is" | "are") && crate::offline::lexicon::TOLD_DONE.contains(&p[1])
        });
    // (the subject itself, not "the trip that john went on")
    let plain = !subject
        .split_whitespace()
        .any(|w| matches!(w, "that" | "which" | "who"));
    // ("aiko's final went ok": the event's owner is its subject)
    let owner = subject
        .strip_suffix(e1.as_str())
        .and_then(|s| s.trim_end().strip_suffix("'s"))
        // (or someone's kin: "rosa's mum's surgery went well")
        .filter(|o| !o.contains(' ') || o.split_whitespace().count() == 2 && o.contains("'s "));
    let whole = subject.clone();
    let subject = owner.map_or(subject.clone(), str::to_string);
    // (or the event itself the old subject: "femi's surgery is booked")
    let old_subject = lead_subject(&o);
    ahead
        && past
        && plain
        && (same_subject(&subject, &old_subject) || same_subject(&whole, &old_subject))
}

/// Verbs that tell a race, a game or an exam done, by the name of where
/// it was ("finished Valencia", "ran London", "won Wimbledon").
const DONE_AT: &[&str] = &["finished", "completed", "ran", "won", "raced", "did"];

/// Whether `new` tells done, by its place's name, the event `old` has
/// planned there: the same subject, a verb of [`DONE_AT`] and a name
/// right after it that `old` says, while `old` names an event and a date.
pub(super) fn outcome_named(new: &str, old: &str) -> bool {
    let (n, o) = (normalise(new), normalise(old));
    let raw: Vec<&str> = new.split_whitespace().collect();
    let nw: Vec<&str> = n.split_whitespace().collect();
    let ow: Vec<&str> = o.split_whitespace().collect();
    let subject = lead_subject(&n);
    let at = subject.split_whitespace().count();
    let (Some(v), Some(name)) = (nw.get(at), raw.get(at + 1)) else {
        return false;
    };
    let name = name
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase();
    let named = raw[at + 1].starts_with(char::is_uppercase) && !name.is_empty();
    // (the old fact's owner is its subject: "lucía's first half marathon")
    let old_subject = lead_subject(&o);
    let owner = ow
        .first()
        .and_then(|w| w.strip_suffix("'s"))
        .unwrap_or(&old_subject);
    let planned = ow.iter().any(|w| EVENTS.contains(w))
        && ow.iter().any(|w| w.chars().any(|c| c.is_ascii_digit()));
    DONE_AT.contains(v)
        && named
        && planned
        && ow
            .iter()
            .any(|w| w.trim_matches(|c: char| !c.is_alphanumeric()) == name)
        && same_subject(&subject, owner)
}

/// The outcome `new` tells by a place's name, said with the event `old`
/// planned there ("Lucía finished Valencia in 1:56:40" after "Lucía's
/// first half marathon is on 12 October 2025 in Valencia": "Lucía finished
/// their first half marathon in Valencia in 1:56:40."), so that it answers
/// what a question about the event asks. `None` unless [`outcome_named`]
/// holds and `old` opens with whose event it is.
pub(super) fn described(new: &str, old: &str) -> Option<String> {
    if !outcome_named(new, old) {
        return None;
    }
    let ow: Vec<&str> = old.split_whitespace().collect();
    if !ow.first()?.ends_with("'s") {
        return None;
    }
    let end = ow
        .iter()
        .position(|w| matches!(*w, "is" | "was" | "will"))?;
    let event = ow.get(1..end).filter(|e| !e.is_empty())?.join(" ");
    if !EVENTS.contains(&event.rsplit(' ').next()?.to_lowercase().as_str()) {
        return None;
    }
    let nw: Vec<&str> = new.split_whitespace().collect();
    let at = lead_subject(&normalise(new)).split_whitespace().count();
    let (said, place, rest) = (nw[..=at].join(" "), nw.get(at + 1)?, &nw[at + 2..]);
    let place = place.trim_end_matches(['.', ',', '!']);
    let rest = if rest.is_empty() {
        ".".to_string()
    } else {
        format!(" {}", rest.join(" "))
    };
    Some(format!("{said} their {event} in {place}{rest}"))
}

/// Wordings of an aim before its verb ("'s goal is to", "wants to").
const AIMING: &[&str] = &[
    "'s goal is to ",
    "'s dream is to ",
    "'s plan is to ",
    "'s aim is to ",
    " wants to ",
    " hopes to ",
    " is hoping to ",
    " plans to ",
    " is planning to ",
    " is trying to ",
];

/// Whether `new` tells done what `old` aims at: the same subject, the
/// aim's verb told in the past ("passed", "pass"), and a word of its
/// object said again ("the N5", "JLPT N5").
pub(super) fn aim_reached(new: &str, old: &str) -> bool {
    let (n, o) = (normalise(new), normalise(old));
    let Some((whose, aim)) = AIMING.iter().find_map(|a| o.split_once(a)) else {
        return false;
    };
    let aim: Vec<&str> = aim.split_whitespace().collect();
    let Some((base, VerbForm::Base)) = aim.first().and_then(|v| verb(v)) else {
        return false;
    };
    let subject = lead_subject(&n);
    let nw: Vec<&str> = n.split_whitespace().collect();
    let at = subject.split_whitespace().count();
    let done = nw
        .get(at)
        .and_then(|v| verb(v))
        .is_some_and(|(b, f)| b == base && f == VerbForm::Past);
    let clean = |w: &str| w.trim_matches(|c: char| !c.is_alphanumeric()).to_string();
    let object = |w: &str| {
        w.len() > 1 && !DETERMINERS.contains(&w) && !matches!(w, "in" | "on" | "by" | "at")
    };
    let said_again = nw
        .iter()
        .skip(at + 1)
        .map(|w| clean(w))
        .filter(|w| object(w))
        .any(|w| aim[1..].iter().any(|a| clean(a) == w));
    let whose = lead_subject(whose);
    done && said_again && same_subject(&subject, whose.trim_end_matches("'s"))
}

/// Particles a plan's verb may take ("moving out", "settling in").
const PARTICLES: &[&str] = &["out", "in", "up", "back", "away", "over", "abroad", "home"];

/// A plan `old` has ahead, "X is V-ing [particle] ...": the verb's base,
/// its particle and where the plan's words after them start.
fn plan_ahead(o: &[&str]) -> Option<(&'static str, Option<String>, usize)> {
    let is = o.iter().position(|w| matches!(*w, "is" | "are"))?;
    let (base, form) = verb(o.get(is + 1)?)?;
    if form != VerbForm::Gerund {
        return None;
    }
    let particle = o.get(is + 2).filter(|p| PARTICLES.contains(p));
    let rest = is + 2 + usize::from(particle.is_some());
    // ahead: a month, a year or a purpose said ("in march 2025", "to
    // live with"), not an amount ("280 a month")
    let months = crate::offline::dates::MONTHS;
    let ahead = o[rest..].iter().any(|w| {
        let w = w.trim_matches(|c: char| !c.is_alphanumeric());
        months.iter().any(|m| m.eq_ignore_ascii_case(w))
            || (w.len() == 4 && (w.starts_with("19") || w.starts_with("20")))
            || matches!(w, "to" | "next")
    });
    ahead.then(|| (base, particle.map(|p| p.to_string()), rest))
}

/// The plan `old` told done by `new`: the verb `new` tells in the past
/// and its particle, and whether `new` says nothing else.
fn plan_done_by(new: &str, old: &str) -> Option<(bool, usize)> {
    let (n, o) = (normalise(new), normalise(old));
    let nw: Vec<&str> = n.split_whitespace().collect();
    let ow: Vec<&str> = o.split_whitespace().collect();
    let (base, particle, rest) = plan_ahead(&ow)?;
    let subject = lead_subject(&n);
    // ("Lia just turned 30", "finally moved out")
    let at = subject.split_whitespace().count()
        + nw[subject.split_whitespace().count()..]
            .iter()
            .take_while(|w| matches!(**w, "just" | "finally" | "officially" | "now"))
            .count();
    let (b, f) = verb(nw.get(at)?)?;
    if b != base || f != VerbForm::Past {
        return None;
    }
    let said = nw
        .get(at + 1)
        .filter(|p| PARTICLES.contains(p))
        .map(|p| p.to_string());
    if said != particle || !same_subject(&subject, &lead_subject(&o)) {
        return None;
    }
    let tail = at + 1 + usize::from(said.is_some());
    // ("went to a concert" may be another concert than the one planned)
    let after: Vec<&str> = nw[tail.min(nw.len())..].to_vec();
    if after
        .iter()
        .take(2)
        .any(|w| matches!(*w, "a" | "an" | "another" | "some"))
    {
        return None;
    }
    // ("moved out on the weekend of 15 March": when, not what)
    let timed = after.first().is_some_and(|w| {
        matches!(
            *w,
            "on" | "in" | "at" | "last" | "this" | "over" | "during" | "yesterday" | "today"
        )
    });
    if timed {
        return Some((false, rest));
    }
    // ("paid off the car loan": what was done is in the plan)
    let object = nw[tail.min(nw.len())..]
        .iter()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .find(|w| !w.is_empty() && !DETERMINERS.contains(w));
    if object.is_some_and(|x| {
        !ow[rest..]
            .iter()
            .any(|w| w.trim_matches(|c: char| !c.is_alphanumeric()) == x)
    }) {
        return None;
    }
    Some((tail >= nw.len(), rest))
}

/// Whether `new` tells done the plan `old` has ahead (see the module
/// docs).
pub(super) fn plan_done(new: &str, old: &str) -> bool {
    plan_done_by(new, old).is_some()
}

/// The plan `old` told as done, when `new` ("Jess moved out.") says
/// nothing but that it was: "Jess moved out in March 2025 to live with
/// her boyfriend."
pub(super) fn plan_done_described(new: &str, old: &str) -> Option<String> {
    let (bare, rest) = plan_done_by(new, old)?;
    if !bare {
        return None;
    }
    let ow: Vec<&str> = old.split_whitespace().collect();
    let head = new.trim_end_matches(['.', '!']);
    Some(format!("{head} {}", ow.get(rest..)?.join(" ")))
}

/// Wordings of how an interview or an audition turned out.
const HIRED: &[&str] = &[
    " got the job",
    " got the role",
    " got the part",
    " got the position",
    " got the offer",
    " got an offer",
    " got a job offer",
    " was offered the job",
    " was offered the role",
    " didn't get the job",
    " didn't get the role",
    " didn't get the part",
    " got rejected",
    " was rejected",
];

/// Whether `new` tells how the interview or audition `old` had ahead
/// turned out ("Anya got the job at Google" after "Anya has a
/// final-round interview at Google on 11 March 2025"): the same subject,
/// and the same place when both name one.
pub(super) fn hired(new: &str, old: &str) -> bool {
    let (n, o) = (format!(" {} ", normalise(new)), normalise(old));
    let Some(at) = HIRED.iter().find_map(|h| n.find(h)) else {
        return false;
    };
    let ow: Vec<&str> = o.split_whitespace().collect();
    let interview = ow.iter().any(|w| {
        matches!(
            w.trim_end_matches(['.', ',']),
            "interview" | "interviews" | "audition" | "auditions"
        )
    }) && ow.iter().any(|w| AHEAD.contains(w));
    // the places each names ("at google")
    let place = |t: &str| -> Option<String> {
        let words: Vec<&str> = t.split_whitespace().collect();
        let i = words
            .iter()
            .position(|w| matches!(*w, "at" | "with" | "for"))?;
        words
            .get(i + 1)
            .map(|w| w.trim_end_matches(['.', ',']).to_string())
    };
    let places_agree = match (place(&n[at..]), place(&o)) {
        (Some(a), Some(b)) => a == b,
        _ => true,
    };
    interview && places_agree && same_subject(&lead_subject(n.trim()), &lead_subject(&o))
}

/// Wordings of being admitted somewhere one applied.
const ADMITTED: &[&str] = &[
    " got into ",
    " was accepted to ",
    " was accepted into ",
    " was accepted at ",
    " got accepted to ",
    " got accepted into ",
    " got accepted at ",
    " got a place at ",
    " got a place on ",
    " got an offer from ",
];

/// Wordings of applying.
const APPLYING: &[&str] = &[
    " is applying to ",
    " is applying for ",
    " applied to ",
    " applied for ",
    " has applied to ",
    " has applied for ",
];

/// Whether `new` tells how the applying `old` told of turned out ("Ken's
/// daughter got into Edinburgh" after "Ken's daughter is applying to
/// unis"): the same subject.
pub(super) fn admitted(new: &str, old: &str) -> bool {
    let (n, o) = (
        format!(" {} ", normalise(new)),
        format!(" {} ", normalise(old)),
    );
    ADMITTED.iter().any(|a| n.contains(a))
        && APPLYING.iter().any(|a| o.contains(a))
        && same_subject(&lead_subject(n.trim()), &lead_subject(o.trim()))
}
