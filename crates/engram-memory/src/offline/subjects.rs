//! A clause's left-out subject put back: the speaker's "I" before "Lost
//! my job yesterday" or "Finishing my thesis", "I'm" before "Originally
//! from Nairobi"; and the shapes that tell a left-out subject from a
//! command, from "it" left out ("Sounds fun", "Took ages") and from a
//! gerund that is itself the subject ("Camping relaxes me").

use super::classify;
use super::clauses;
use super::lexicon::{verb, VerbForm};
use super::surface::lowered;

/// A clause that leaves its subject out ("Lost my job yesterday",
/// "Finishing my thesis") with the speaker's "I" put back; `None` for a
/// command ("Check out my garden") or an opening that leaves out "it"
/// ("Sounds fun").
pub(super) fn with_subject(clause: &str) -> Option<String> {
    let words: Vec<&str> = clause.split_whitespace().collect();
    // "Just got a puppy": adverbs before the verb
    let skip = words
        .iter()
        .take_while(|w| {
            matches!(
                clauses::bare(w).as_str(),
                "just"
                    | "recently"
                    | "finally"
                    | "also"
                    | "actually"
                    | "really"
                    | "totally"
                    | "still"
                    | "currently"
                    | "literally"
                    | "already"
            )
        })
        .count();
    let first = clauses::bare(words.get(skip)?);
    if first == "been" {
        // "Been a long road", "Been a few days since we chatted": "it"
        // left out, which points elsewhere
        let next = words.get(skip + 1).map(|w| clauses::bare(w));
        if matches!(
            next.as_deref(),
            Some("a" | "an" | "ages" | "forever" | "too")
        ) {
            return None;
        }
        // "Been hectic for me lately": whoever it was for is not what
        // was left out
        let lower: Vec<String> = words.iter().map(|w| clauses::bare(w)).collect();
        if lower
            .windows(2)
            .any(|p| matches!(p[0].as_str(), "for" | "to") && p[1] == "me")
        {
            return None;
        }
        return Some(format!("I've {}", lowered(clause)));
    }
    // "sprained paw", "broken wrist": an injury named, no doing of the
    // speaker's (whose paw is said elsewhere)
    if matches!(verb(&first), Some((_, VerbForm::Past)))
        && words
            .get(skip + 1)
            .map(|w| clauses::bare(w))
            .is_some_and(|w| w != "side" && super::lexicon::BODY_PARTS.contains(&w.as_str()))
    {
        return None;
    }
    // "Took some trial and error", "Takes a lot of patience": "it" left
    // out; what took the effort is not said here
    if matches!(first.as_str(), "took" | "takes") && costs_effort(&words[skip + 1..]) {
        return None;
    }
    // "Meeting notes 12 March": a title, no doing
    if matches!(verb(&first), Some((_, VerbForm::Gerund)))
        && words.get(skip + 1).is_some_and(|w| {
            matches!(
                clauses::bare(w).as_str(),
                "notes" | "minutes" | "agenda" | "summary" | "plan" | "plans" | "list"
            )
        })
    {
        return None;
    }
    // "Seeing those cliffs ...": a gerund pointing at what is shown
    if matches!(verb(&first), Some((_, VerbForm::Gerund)))
        && words.get(skip + 1).is_some_and(|w| {
            matches!(
                clauses::bare(w).as_str(),
                "this" | "that" | "these" | "those"
            )
        })
    {
        return None;
    }
    // "Having my family around helps": a gerund that is the subject
    let gerund_subject = coordinated_gerunds(&words[skip..])
        || words[skip + 1..].iter().any(|w| {
            let b = clauses::bare(w);
            // a finite verb later on: "Being a pro must be quite a journey",
            // "Seeing this pic just made me smile"
            matches!(
                b.as_str(),
                "is" | "was"
                    | "isn't"
                    | "wasn't"
                    | "doesn't"
                    | "didn't"
                    | "won't"
                    | "can't"
                    | "helps"
                    | "makes"
                    | "means"
                    | "keeps"
                    | "gives"
                    | "must"
                    | "can"
                    | "could"
                    | "will"
                    | "would"
                    | "has"
                    | "had"
                    | "should"
                    | "might"
                    | "sounds"
                    | "looks"
                    | "seems"
                    | "feels"
            ) || matches!(verb(&b), Some((_, VerbForm::Third | VerbForm::Past)))
        })
        // "Searching for the perfect studio's a tough job": "'s" before an
        // article or a degree word is "is"
        || words[skip + 1..].windows(2).any(|p| {
            let b = clauses::bare(p[0]);
            b.ends_with("'s")
                && matches!(
                    clauses::bare(p[1]).as_str(),
                    "a" | "an" | "the" | "so" | "such" | "really" | "not" | "never" | "always"
                )
        })
        // "Camping under the stars relaxes me": a verb the lexicon lacks,
        // read by its -s before the speaker as its object
        || words[skip + 1..].windows(2).any(|p| {
            let b = clauses::bare(p[0]);
            b.ends_with('s') && !b.ends_with("ss") && matches!(clauses::bare(p[1]).as_str(), "me" | "us")
        });
    // "Really made me think", "Got me thinking": the speaker is the object,
    // so what was left out is the thing before ("I made me" is no English)
    let me_next = words
        .get(skip + 1)
        .is_some_and(|w| matches!(clauses::bare(w).as_str(), "me" | "us"));
    // "Love and acceptance can be found everywhere": a noun joined to
    // another, not a verb whose "I" was left out
    let joined = words
        .get(skip + 1)
        .is_some_and(|w| matches!(clauses::bare(w).as_str(), "and" | "&"))
        || words[skip].ends_with(',');
    // "launch is planned for May 15", "launch slipped to June 2", "launch
    // got pushed to May 5": a word
    // that could be a verb is the noun before the clause's own verb
    // ("launch got pushed to May 5": a move said with "got")
    let got_moved = words
        .get(2)
        .is_some_and(|m| super::lexicon::MOVE_VERBS.contains(&clauses::bare(m).as_str()));
    let noun_first = skip == 0
        && words.get(1).is_some_and(|n| {
            let n = clauses::bare(n);
            matches!(n.as_str(), "is" | "was")
                || super::lexicon::MOVE_VERBS.contains(&n.as_str())
                || (n == "got" && got_moved)
        });
    match verb(&first) {
        // (an event said bare is "the" one: "the launch is planned ...")
        Some((_, VerbForm::Base))
            if noun_first && skip == 0 && super::lexicon::is_event(&first) =>
        {
            Some(format!("the {}", lowered(clause)))
        }
        Some((_, VerbForm::Base)) if (joined || noun_first) && skip == 0 => {
            Some(clause.to_string())
        }
        Some((_, VerbForm::Past)) if me_next => None,
        Some((_, VerbForm::Past)) if !matches!(first.as_str(), "was" | "were") => {
            Some(format!("I {}", lowered(clause)))
        }
        Some((_, VerbForm::Gerund)) if gerund_subject => Some(clause.to_string()),
        Some((_, VerbForm::Gerund)) => Some(format!("I'm {}", lowered(clause))),
        Some((base, VerbForm::Base)) if classify::STANCE_VERBS.contains(&base) => {
            Some(format!("I {}", lowered(clause)))
        }
        Some((_, VerbForm::Base | VerbForm::Third)) => None,
        _ => match first.as_str() {
            "don't" | "never" | "please" | "let's" | "lets" => None,
            // ("Gonna be a big change": "it" left out before a judgement)
            "gonna" if judged_next(&words[skip + 1..]) => None,
            "gonna" => Some(format!("I'm {}", lowered(clause))),
            // "on crutches for 2 weeks", "on antibiotics": a state one is in
            "on" if on_a_state(&words[skip + 1..]) => Some(format!("I'm {}", lowered(clause))),

            "wanna" | "gotta" | "haven't" | "hadn't" | "didn't" | "can't" | "couldn't"
            | "won't" | "wouldn't" | "hope" => Some(format!("I {}", lowered(clause))),
            _ => Some(clause.to_string()),
        },
    }
}

/// `text` with the subject put back where a sentence left it out and the
/// words show whose it is: "I'm" before being back from somewhere ("just
/// back from two weeks in Vietnam, Hoi An was the highlight"), so that it
/// has a verb before its comma; and the "she" or "he" of the sentence
/// before before a verb that agrees with it ("she got into Edinburgh!!
/// starts in September"). `None` when no sentence left one out.
pub(super) fn left_out_openings(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len() + 8);
    let mut changed = false;
    let mut rest = text;
    // the "she" or "he" the sentence before opened with
    let mut before: Option<&str> = None;
    loop {
        let lead = rest.len() - rest.trim_start().len();
        out.push_str(&rest[..lead]);
        rest = &rest[lead..];
        let lower = rest.to_lowercase();
        let first = lower.split_whitespace().next().unwrap_or("");
        let opens = [
            "just back from ",
            "back from ",
            "just home from ",
            "home from ",
        ]
        .iter()
        .any(|p| lower.starts_with(p));
        let agrees = matches!(
            verb(clauses::bare(first).as_str()),
            Some((_, VerbForm::Third))
        ) && !matches!(first, "is" | "was" | "has");
        if opens {
            out.push_str("I'm ");
        } else if let Some(pronoun) = before.filter(|_| agrees) {
            out.push_str(pronoun);
            out.push(' ');
        }
        let carried = before.is_some() && agrees;
        if opens || carried {
            out.push_str(&lowered(&rest[..1]));
            rest = &rest[1..];
            changed = true;
        }
        if !carried && first.chars().any(char::is_alphabetic) {
            before = match first {
                "she" | "she's" => Some("she"),
                "he" | "he's" => Some("he"),
                _ => None,
            };
        }
        match rest.find(['.', '!', '?']) {
            Some(end) => {
                out.push_str(&rest[..=end]);
                rest = &rest[end + 1..];
            }
            None => {
                out.push_str(rest);
                break;
            }
        }
    }
    changed.then_some(out)
}

/// Whether `rest` ("be a big change", "be so fun") judges what is to
/// come rather than says what the speaker will be: "be", then within
/// three words an evaluative word or a word for an experience.
fn judged_next(rest: &[&str]) -> bool {
    rest.first().is_some_and(|w| clauses::bare(w) == "be")
        && rest.iter().skip(1).take(3).any(|w| {
            let b = clauses::bare(w);
            super::words::EVALUATIVE.contains(&b.as_str())
                || matches!(
                    b.as_str(),
                    "change"
                        | "blast"
                        | "fun"
                        | "ride"
                        | "challenge"
                        | "journey"
                        | "adventure"
                        | "hectic"
                        | "busy"
                        | "crazy"
                        | "wild"
                )
        })
}

/// Whether the words after "took" name time or effort it took: "some
/// trial and error", "a lot of patience", "ages", "a while".
fn costs_effort(rest: &[&str]) -> bool {
    const QUANTITIES: &[&str] = &[
        "a", "an", "some", "lot", "lots", "of", "bit", "little", "long", "few", "so", "much",
        "quite", "loads", "tons", "real", "serious", "plenty", "more", "many",
    ];
    const EFFORT: &[&str] = &[
        "while",
        "time",
        "ages",
        "forever",
        "years",
        "months",
        "weeks",
        "days",
        "hours",
        "minutes",
        "practice",
        "patience",
        "effort",
        "courage",
        "guts",
        "trial",
        "work",
        "tries",
        "attempts",
        "persistence",
        "dedication",
        "energy",
        "convincing",
        "getting",
    ];
    rest.iter()
        .map(|w| clauses::bare(w))
        .find(|w| !QUANTITIES.contains(&w.as_str()))
        .is_some_and(|w| EFFORT.contains(&w.as_str()))
}

/// "Playing games and watching movies are my hobbies", "Dancing and
/// running my biz need hard work": gerunds joined by "and", then a plural
/// verb ("are", "were", a bare form), are the subject of that verb.
pub(super) fn coordinated_gerunds(words: &[&str]) -> bool {
    let gerund = |w: &str| matches!(verb(&clauses::bare(w)), Some((_, VerbForm::Gerund)));
    if !words.first().is_some_and(|w| gerund(w)) {
        return false;
    }
    let Some(and) = words
        .windows(2)
        .position(|p| clauses::bare(p[0]) == "and" && gerund(p[1]))
    else {
        // "Writing and creative projects are what gets me through": a
        // gerund and a noun, then "are"
        let and = words
            .iter()
            .take(4)
            .position(|w| matches!(clauses::bare(w).as_str(), "and" | "or"));
        return and.is_some_and(|a| {
            words[a + 1..].iter().take(5).any(|w| {
                matches!(
                    clauses::bare(w).as_str(),
                    "are" | "were" | "aren't" | "weren't"
                )
            })
        });
    };
    words[and + 2..].iter().any(|w| {
        let b = clauses::bare(w);
        matches!(
            b.as_str(),
            "are" | "were" | "aren't" | "weren't" | "don't" | "didn't"
        ) || matches!(verb(&b), Some((_, VerbForm::Base)))
            // "Hiking ... and camping ... relaxes me": two activities as
            // one, with a singular verb
            || matches!(verb(&b), Some((_, VerbForm::Third))) && b != "is"
    })
}

/// Whether the words before `words[v]`, the first verb found, are a list
/// rather than a subject: "John's family, exercise, and spending time
/// with friends". A comma right before a bare verb form, or a gerund after
/// "and" that ends a list with commas, is the list's last item, not a
/// verb.
pub(super) fn list_before_verb(words: &[&str], v: usize, gerund_subject: bool) -> bool {
    let here = clauses::bare(words[v]);
    let form = verb(&here).map(|(_, f)| f);
    let comma_then_bare = words[v - 1].ends_with(',')
        && form == Some(VerbForm::Base)
        && !super::lexicon::AUXILIARIES.contains(&here.as_str());
    let gerund_ends_list = !gerund_subject
        && form == Some(VerbForm::Gerund)
        && matches!(clauses::bare(words[v - 1]).as_str(), "and" | "or")
        && words[..v - 1].iter().any(|w| w.ends_with(','));
    comma_then_bare || gerund_ends_list
}

/// An answer that leaves out "I'm" before where the speaker is from
/// ("Originally from Nairobi, but ...", "Born and raised in Leeds"): the
/// subject put back, so the clause states a fact and the rest can split.
pub(super) fn with_origin_subject(sentence: &str, has_speaker: bool) -> String {
    let lower = sentence.to_ascii_lowercase();
    if !has_speaker {
        return sentence.to_string();
    }
    for (opening, subject) in [
        ("originally from ", "I'm"),
        ("born and raised in ", "I was"),
        ("born in ", "I was"),
        ("raised in ", "I was"),
        // "back to normal eating", "back at work since Monday"
        ("back to ", "I'm"),
        ("back at ", "I'm"),
    ] {
        if lower.starts_with(opening) {
            return format!("{subject} {}", lowered(sentence));
        }
    }
    sentence.to_string()
}

/// Whether the words after a clause-opening "on" name a state one is in
/// ("crutches", "antibiotics", "the mend", "paternity leave"), with no
/// verb after them.
fn on_a_state(words: &[&str]) -> bool {
    let w: Vec<String> = words.iter().map(|x| clauses::bare(x)).collect();
    let state = match w.as_slice() {
        [a, ..]
            if matches!(
                a.as_str(),
                "crutches"
                    | "antibiotics"
                    | "meds"
                    | "medication"
                    | "leave"
                    | "holiday"
                    | "vacation"
                    | "call"
                    | "steroids"
                    | "painkillers"
            ) =>
        {
            true
        }
        [a, b, ..] => matches!(
            (a.as_str(), b.as_str()),
            ("the", "mend")
                | ("a", "diet")
                | ("bed", "rest")
                | ("maternity" | "paternity" | "sick" | "parental", "leave")
        ),
        _ => false,
    };
    state && !words.iter().any(|x| clauses::is_verbish(x))
}
