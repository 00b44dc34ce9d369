//! The thing a question asks about, and the "it" that answers it. When
//! the listener asks "That plate is awesome! Did you make it?", the answer
//! "Yeah, I made it in pottery class" made the plate; when they ask "What
//! was it about?" after the speaker said "I went to a poetry reading last
//! Fri", the answer "It was a transgender poetry reading ..." is about the
//! poetry reading the speaker went to.
//!
//! Only that one step, and only when the question itself says "it": the
//! thing is named in the question (after "that", "this", "the" or "your")
//! or, failing that, is the one thing the speaker's own turn before it did
//! something with ("I finished my first screenplay", "I made this window").
//! Only the answer's first sentences are read so, and only an "it" that
//! opens one or is a verb's object; "It's amazing how ..." and "It was
//! special to watch ..." point at nothing. Reads text only.

use super::clauses::{bare, is_verbish};
use super::lexicon::{past_of, verb, VerbForm};
use super::words::{CALENDAR, EVALUATIVE, VAGUE};

/// How many of the answer's sentences an "it" is read in.
pub(super) const ANSWER_SENTENCES: usize = 2;

/// What an answer's "it" means.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Asked {
    /// The thing, written to stand alone.
    pub(super) thing: String,
    /// Only what a picture showed: it stands in for the object of making
    /// or getting alone ("I made it with coconut milk"), never for a
    /// subject (a description is loose).
    pub(super) shown: bool,
    /// Named by a question that did not say "it": it stands in for a
    /// verb's object alone ("How long have you had your bike?" - "I've had
    /// it for two years"), never for an opening "It" (which may be about
    /// anything: "How's your week? - It's been a blast").
    pub(super) object_only: bool,
}

/// What `speaker`'s answer's "it" means, given the listener's turn before
/// (`question`) and the speaker's own turn before that (`before`), written
/// so that it stands alone: "Melanie's new hair color", "the poetry reading
/// Caroline went to", "the plate".
pub(super) fn asked_about(question: &str, before: Option<&str>, speaker: &str) -> Option<Asked> {
    let said = |thing: String| {
        Some(Asked {
            thing,
            shown: false,
            object_only: false,
        })
    };
    let q = super::without_attachments(question);
    let asked = sentences(&q);
    // the last question that says "it"; else the last question, when it
    // names one thing itself ("How long have you had your bike?" - "I've
    // had it for two years")
    let Some(at) = asked
        .iter()
        .rposition(|s| s.ends_with('?') && words(s).iter().any(|w| bare(w) == "it"))
    else {
        let last = asked.last().filter(|s| s.ends_with('?'))?;
        // (one determiner in all: "your bike faster than your car" has two)
        let dets = words(last)
            .iter()
            .filter(|w| {
                matches!(
                    bare(w).as_str(),
                    "that" | "this" | "your" | "the" | "my" | "his" | "her" | "their" | "a" | "an"
                )
            })
            .count();
        if dets != 1 {
            return None;
        }
        let (det, noun) = only_thing(&words(last))?;
        let thing = if det == "your" {
            format!("{speaker}'s {noun}")
        } else {
            format!("the {noun}")
        };
        return Some(Asked {
            thing,
            shown: false,
            object_only: true,
        });
    };
    // a thing the question names, in it or in the sentence before it
    let from = at.saturating_sub(1);
    let asking = words(asked[at]);
    let it = asking.iter().position(|x| bare(x) == "it").unwrap_or(0);
    // "What concert was it?": the kind asked for is the thing
    if it >= 3
        && matches!(bare(asking[it - 3]).as_str(), "what" | "which")
        && matches!(bare(asking[it - 1]).as_str(), "was" | "is")
        && thing_noun(asking[it - 2])
    {
        return said(format!("the {}", bare(asking[it - 2])));
    }
    // the last one before the "it", or the one thing the sentence before
    // names ("That skyline looks amazing - I want to visit NYC. How was
    // it?" names two)
    let named = pointed_thing(&asking[..it]).or_else(|| {
        let w = words(asked[from]);
        // (a name other than the speaker's: "... visit NYC")
        let names = w.iter().skip(1).any(|x| {
            let core = super::coref::parts(x).1;
            super::clauses::capitalised(x) && !(core.len() >= 2 && speaker.starts_with(core))
        });
        (from < at && !names).then(|| only_thing(&w)).flatten()
    });
    if let Some((det, noun)) = named {
        return said(if det == "your" {
            format!("{speaker}'s {noun}")
        } else {
            format!("the {noun}")
        });
    }
    let before = before?;
    let text = super::without_attachments(before);
    // a title, or the one thing the speaker did something with
    let titles: Vec<String> = sentences(&text)
        .iter()
        .filter_map(|s| super::titles::title_in(s))
        .collect();
    if let [title] = titles.as_slice() {
        return said(title.clone());
    }
    if let Some(thing) = done_thing(&text, speaker) {
        return said(thing);
    }
    super::shown::thing_shown(before).map(|thing| Asked {
        thing,
        shown: true,
        object_only: true,
    })
}

/// The one thing `w` points at ("that note"; "the deal with that note"
/// points at the note), or the one it names with "the"; `None` for none or
/// several.
fn only_thing(w: &[&str]) -> Option<(String, String)> {
    let with = |dets: &[&str]| -> Vec<(String, String)> {
        (0..w.len())
            .filter(|&j| dets.contains(&bare(w[j]).as_str()))
            .filter_map(|j| phrase_after(w, j).map(|p| (bare(w[j]), p)))
            .collect()
    };
    let pointed = with(&["that", "this", "your"]);
    let some = with(&["a", "an", "my"]);
    match (pointed.as_slice(), some.is_empty()) {
        ([one], true) => Some(one.clone()),
        ([], true) => match with(&["the"]).as_slice() {
            [one] => Some(one.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// `clause` with an "It" that opens it read as the one thing the clause
/// before it did something with ("I got a new job - it's at a startup":
/// "Ana's new job is at a startup"); `None` otherwise, and when all it says
/// of "it" is a judgement ("I lost my phone - it was awful" judges the
/// losing, not the phone).
pub(super) fn it_from_before(clause: &str, before: &str, speaker: &str) -> Option<String> {
    let w = words(clause);
    let first = w.first()?.replace('\u{2019}', "'");
    if !matches!(first.as_str(), "It" | "it" | "It's" | "it's") {
        return None;
    }
    let judged = w.iter().skip(1).all(|x| {
        let b = bare(x);
        EVALUATIVE.contains(&b.as_str())
            || super::words::FUNCTION.contains(&b.as_str())
            || matches!(
                b.as_str(),
                "so" | "really"
                    | "truly"
                    | "super"
                    | "such"
                    | "pretty"
                    | "blast"
                    | "fun"
                    | "success"
                    | "dream"
                    | "experience"
                    | "adventure"
                    | "time"
                    | "lot"
            )
    });
    if judged {
        return None;
    }
    let thing = done_thing(before, speaker)?;
    answered(
        clause,
        &Asked {
            thing,
            shown: false,
            object_only: false,
        },
    )
}

/// `sentence` with its "it" read as `thing`, when it opens the sentence
/// ("It was made for a local church") or is a verb's object ("I made it
/// in pottery class"); `None` when it has neither.
pub(super) fn answered(sentence: &str, asked: &Asked) -> Option<String> {
    let thing = asked.thing.as_str();
    let w = words(sentence);
    let first = w.first()?.replace('\u{2019}', "'");
    let next = w.get(1).map(|n| bare(n)).unwrap_or_default();
    let capital = |s: &str| {
        let mut c = s.chars();
        c.next()
            .map(|f| format!("{}{}", f.to_uppercase(), c.as_str()))
            .unwrap_or_default()
    };
    let opening = match first.as_str() {
        _ if asked.shown || asked.object_only => None,
        "It's" | "it's" if !dummy(&w[1..]) && next != "been" => {
            // "It's helped me": "has"
            let has = matches!(verb(&next), Some((_, VerbForm::Past)));
            let be = if has { "has" } else { "is" };
            Some(format!("{} {be} {}", capital(thing), w[1..].join(" ")))
        }
        "It" | "it"
            if is_verbish(w.get(1).copied().unwrap_or(""))
                && !dummy(&w[2.min(w.len())..])
                && !matches!(
                    next.as_str(),
                    "seems" | "sounds" | "looks" | "feels" | "felt"
                ) =>
        {
            Some(format!("{} {}", capital(thing), w[1..].join(" ")))
        }
        _ => None,
    };
    // an impersonal "It ..." is no answer at all
    if opening.is_some() || matches!(first.as_str(), "It" | "It's" | "it" | "it's") {
        return opening;
    }
    // "I made it in pottery class": the object of a verb of doing, not a
    // way of speaking ("make it work", "take it easy", "love it")
    let mut out: Vec<String> = Vec::with_capacity(w.len());
    let mut changed = false;
    for (i, word) in w.iter().enumerate() {
        let (lead, core, trail) = super::coref::parts(word);
        let verbs = if asked.shown { MAKING } else { DOING };
        let object = core == "it"
            && i > 0
            && verb(&bare(w[i - 1])).is_some_and(|(base, _)| verbs.contains(&base))
            && w.get(i + 1)
                .is_none_or(|n| !is_verbish(n) && bare(n) != "easy");
        if object {
            out.push(format!("{lead}{thing}{trail}"));
            changed = true;
        } else {
            out.push(word.to_string());
        }
    }
    changed.then(|| out.join(" "))
}

/// Verbs whose object "it" is the thing asked about.
const DOING: &[&str] = &[
    "make", "paint", "draw", "build", "bake", "cook", "knit", "sew", "design", "create", "write",
    "buy", "get", "find", "finish", "craft", "carve", "decorate", "plant", "grow", "frame",
    "print", "sculpt", "adopt", "pick", "win", "read", "watch", "see", "visit", "sign", "use",
    "wear", "hang", "give", "send", "submit", "share", "show", "start", "discuss", "choose",
    "name", "call", "take", "keep", "play", "have", "own", "love", "like", "enjoy", "miss", "need",
    "want", "fix", "clean", "sell", "lose", "bring", "ride", "drive", "try", "taste", "eat",
];

/// Verbs after which the thing is the doer's own ("I made this window":
/// "Caroline's window").
const MAKING: &[&str] = &[
    "make", "paint", "draw", "build", "bake", "cook", "knit", "sew", "design", "create", "write",
    "buy", "get", "craft", "carve", "decorate", "plant", "grow", "frame", "print", "sculpt",
    "adopt", "win", "record", "publish", "launch", "open",
];

/// Whether a predicate after "it" is an impersonal one ("was special to
/// watch ...", "'s amazing how ...", "was like a dream"): "it" points at
/// nothing then.
fn dummy(rest: &[&str]) -> bool {
    let lower: Vec<String> = rest.iter().map(|w| bare(w)).collect();
    let adjective = lower
        .iter()
        .position(|w| EVALUATIVE.contains(&w.as_str()) || w.ends_with("ing"));
    let after_adjective = adjective.and_then(|a| lower.get(a + 1));
    after_adjective.is_some_and(|n| {
        matches!(
            n.as_str(),
            "to" | "how" | "that" | "when" | "what" | "seeing" | "knowing" | "being" | "having"
        )
    }) || lower
        .first()
        .is_some_and(|w| matches!(w.as_str(), "like" | "what" | "time" | "okay" | "ok"))
        // "such a great feeling to give back": what the feeling is of
        || lower.windows(2).any(|p| {
            matches!(
                p[0].as_str(),
                "feeling" | "way" | "thing" | "honor" | "honour" | "privilege" | "pleasure"
                    | "relief" | "joy" | "blast"
            ) && matches!(
                p[1].as_str(),
                "to" | "when" | "that" | "knowing" | "seeing" | "being" | "having"
            )
        })
}

/// The sentences of a turn, with their closing punctuation.
fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in text.char_indices() {
        if matches!(c, '.' | '!' | '?') {
            let end = i + c.len_utf8();
            let s = text[start..end].trim();
            if !s.is_empty() {
                out.push(s);
            }
            start = end;
        }
    }
    let tail = text[start..].trim();
    if !tail.is_empty() {
        out.push(tail);
    }
    out
}

fn words(s: &str) -> Vec<&str> {
    s.split_whitespace().collect()
}

/// A head noun a thing can be: a lowercase word, not a vague word, a time,
/// a person or a picture (a question about a picture is about what it
/// shows, which the answer names itself).
fn thing_noun(w: &str) -> bool {
    let b = bare(w);
    b.len() > 2
        && b.chars().all(|c| c.is_ascii_lowercase() || c == '-')
        && !VAGUE.contains(&b.as_str())
        && !CALENDAR.contains(&b.as_str())
        && !EVALUATIVE.contains(&b.as_str())
        && !super::lexicon::PERSON_NOUNS.iter().any(|(p, _)| *p == b)
        && !matches!(
            b.as_str(),
            "pic" | "picture" | "photo" | "photos" | "pics" | "week" | "month" | "year" | "day"
                | "life" | "mind" | "heart" | "weekend" | "morning" | "night" | "evening"
                | "favorite" | "favourite"
                | "time" | "news" | "idea" | "chance" | "way" | "lot"
        )
        && (!b.ends_with('s')
            || b.ends_with("ss")
            || matches!(
                b.as_str(),
                "series" | "species" | "bus" | "lens" | "campus" | "canvas" | "thesis" | "status"
                    | "atlas" | "tennis" | "chess" | "bonus" | "virus" | "cactus" | "walrus"
            ))
        // ("that painting", "a poetry reading": after a determiner an
        // -ing form is a noun)
        && verb(&b).is_none_or(|(_, f)| {
            f == VerbForm::Gerund || (f == VerbForm::Base && !is_verbish_only(&b))
        })
}

/// Words the lexicon knows as verbs that are rarely nouns after a
/// determiner.
fn is_verbish_only(b: &str) -> bool {
    matches!(
        b,
        "be" | "do" | "go" | "get" | "make" | "take" | "have" | "say"
    )
}

/// The last "that/this/the/your" + up to two modifiers + a thing noun in
/// `w`: `(determiner, "modifiers noun")`.
fn pointed_thing(w: &[&str]) -> Option<(String, String)> {
    (0..w.len()).rev().find_map(|j| {
        let det = bare(w[j]);
        if !matches!(det.as_str(), "that" | "this" | "the" | "your") || w[j].ends_with([',', '.']) {
            return None;
        }
        // "how does that sound": after an auxiliary it is the subject
        if j > 0 && super::lexicon::AUXILIARIES.contains(&bare(w[j - 1]).as_str()) {
            return None;
        }
        phrase_after(w, j).map(|p| (det, p))
    })
}

/// Words that end a thing's phrase when they follow it: joining words,
/// prepositions, times, pronouns.
const PHRASE_ENDS: &[&str] = &[
    "",
    "and",
    "or",
    "but",
    "for",
    "with",
    "in",
    "on",
    "at",
    "from",
    "to",
    "of",
    "you",
    "is",
    "was",
    "that",
    "last",
    "yesterday",
    "today",
    "tonight",
    "tomorrow",
    "this",
    "next",
    "recently",
    "again",
    "together",
    "so",
    "because",
    "'cause",
    "myself",
    "himself",
    "herself",
    "themselves",
    "yourself",
    "ourselves",
    "me",
    "us",
    "him",
    "her",
    "them",
    "it",
    "too",
    "alone",
    "there",
    "here",
    "now",
    "though",
    "while",
    "when",
];

/// The words after the determiner at `j` up to and including a thing
/// noun ending the phrase (at most three words, lowercase, no verb).
fn phrase_after(w: &[&str], j: usize) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    for k in j + 1..(j + 4).min(w.len()) {
        let b = bare(w[k]);
        let ends = w[k].ends_with([',', '.', '!', '?', ';'])
            || w.get(k + 1).is_none_or(|n| {
                let nb = bare(n);
                // ("a poetry reading": an -ing form goes on with the noun)
                (is_verbish(n) && verb(&nb).is_none_or(|(_, f)| f != VerbForm::Gerund))
                    || PHRASE_ENDS.contains(&nb.as_str())
            });
        if b.is_empty()
            || !b
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '-' || c == '+')
        {
            return None;
        }
        // (as written: "LGBTQ+ counseling workshop")
        parts.push(
            w[k].trim_matches(|c: char| c.is_ascii_punctuation() && c != '+' && c != '-')
                .to_string(),
        );
        // "a mix of emotions", "a piece of cake": the thing comes after
        if w.get(k + 1).is_some_and(|n| bare(n) == "of") {
            return None;
        }
        if ends {
            return thing_noun(w[k]).then(|| parts.join(" "));
        }
        if is_verbish(w[k]) && verb(&b).is_some_and(|(_, f)| f != VerbForm::Base) {
            return None;
        }
    }
    None
}

/// The one thing `speaker` said they did something with, in their turn
/// before the question: "I went to a poetry reading last Fri" -> "the
/// poetry reading Caroline went to", "I finished my first full
/// screenplay" -> "Joanna's first full screenplay".
fn done_thing(before: &str, speaker: &str) -> Option<String> {
    let mut found: Option<String> = None;
    for s in sentences(before) {
        let w = words(s);
        for (i, word) in w.iter().enumerate() {
            let b = bare(word);
            let Some((base, form)) = verb(&b) else {
                continue;
            };
            // (a stance is no doing: "I felt a mix of emotions")
            if !matches!(form, VerbForm::Past | VerbForm::Base)
                || matches!(
                    base,
                    "be" | "have"
                        | "feel"
                        | "think"
                        | "know"
                        | "want"
                        | "need"
                        | "hope"
                        | "wish"
                        | "seem"
                        | "look"
                        | "mean"
                        | "guess"
                        | "say"
                        | "tell"
                        | "hear"
                )
            {
                continue;
            }
            // said of the speaker: "I", "I just", "I finally"
            let own = (1..=3).any(|k| {
                i >= k
                    && bare(w[i - k]) == "i"
                    && !w[i - k..i].iter().any(|x| x.ends_with([',', '.']))
            });
            if !own {
                continue;
            }
            // the verb's object, after a particle ("went to a reading")
            let mut j = i + 1;
            let particle = w
                .get(j)
                .map(|p| bare(p))
                .filter(|p| matches!(p.as_str(), "to" | "at" | "on" | "into" | "up"));
            if particle.is_some() {
                j += 1;
            }
            let Some(det) = w.get(j).map(|d| bare(d)) else {
                continue;
            };
            if !matches!(det.as_str(), "a" | "an" | "my" | "this" | "our") {
                continue;
            }
            let Some(noun) = phrase_after(&w, j) else {
                continue;
            };
            // two things: which one the question means is not said
            if found.is_some() {
                return None;
            }
            // a taste holds now ("the series that Nate loves"); a doing is
            // past ("the reading that Ana went to")
            let taste = matches!(base, "love" | "like" | "enjoy" | "adore");
            let past = match form {
                VerbForm::Base if taste => format!("{base}s"),
                VerbForm::Past => b.clone(),
                _ => past_of(base).unwrap_or_else(|| b.clone()),
            };
            let particle = particle.map(|p| format!(" {p}")).unwrap_or_default();
            // what one made or got is theirs; an event was gone to
            let theirs = det == "my" || (particle.is_empty() && MAKING.contains(&base));
            found = Some(if theirs {
                format!("{speaker}'s {noun}")
            } else {
                format!("the {noun} that {speaker} {past}{particle}")
            });
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(before: Option<&str>, question: &str, answer: &str, expect: Option<&str>) {
        let thing = asked_about(question, before, "Ana");
        let got = thing.as_ref().and_then(|t| answered(answer, t));
        assert_eq!(got.as_deref(), expect, "{question} | {answer} ({thing:?})");
    }

    #[test]
    fn the_thing_a_question_names() {
        check(
            None,
            "That vase is lovely! Did you make it?",
            "Yeah, I made it at the studio last week.",
            Some("Yeah, I made the vase at the studio last week."),
        );
        check(
            None,
            "Your new bike looks fast! Where did you get it?",
            "It was a gift from my uncle.",
            Some("Ana's new bike was a gift from my uncle."),
        );
    }

    #[test]
    fn the_thing_the_speaker_did_before() {
        check(
            Some("I finally finished my first novel last night!"),
            "Congrats! What's it about?",
            "It's a mystery set in a lighthouse.",
            Some("Ana's first novel is a mystery set in a lighthouse."),
        );
        check(
            Some("I went to a poetry reading on Friday - it was powerful."),
            "Never been to one. What was it about?",
            "It was a reading by refugee poets.",
            Some("The poetry reading that Ana went to was a reading by refugee poets."),
        );
    }

    #[test]
    fn a_title_or_a_picture_before() {
        check(
            Some("By the way, I loved \"Piranesi\" by Susanna Clarke."),
            "Oh nice, what did you like about it?",
            "It has the strangest house I've ever read about.",
            Some("\"Piranesi\" has the strangest house I've ever read about."),
        );
        // a picture stands in for what was made, and for nothing else
        check(
            Some("Want to try some of this? [image: a photo of a bowl of lemon sorbet]"),
            "Yum! Is it vegan?",
            "Yep, I made it with coconut water.",
            Some("Yep, I made a bowl of lemon sorbet with coconut water."),
        );
        check(
            Some("Want to try some of this? [image: a photo of a bowl of lemon sorbet]"),
            "Yum! Is it vegan?",
            "It's totally vegan.",
            None,
        );
    }

    #[test]
    fn it_after_the_clause_before() {
        let check = |clause: &str, before: &str, expect: Option<&str>| {
            assert_eq!(
                it_from_before(clause, before, "Ana").as_deref(),
                expect,
                "{before} | {clause}"
            );
        };
        check(
            "it's at a startup in Porto.",
            "I got a new job",
            Some("Ana's new job is at a startup in Porto."),
        );
        check(
            "It was a reading by refugee poets.",
            "I went to a poetry reading on Friday.",
            Some("The poetry reading that Ana went to was a reading by refugee poets."),
        );
        // a judgement of what happened, not of the thing
        check("it was awful.", "I lost my phone", None);
        check("It's so cool!", "I bought a new bike.", None);
        check("It was a blast!", "I decorated a tree myself.", None);
    }

    #[test]
    fn what_someone_loves_is_a_thing_too() {
        assert_eq!(
            it_from_before(
                "It has dragons, magic and great characters.",
                "I love this series.",
                "Ana"
            )
            .as_deref(),
            Some("The series that Ana loves has dragons, magic and great characters.")
        );
    }

    #[test]
    fn a_question_that_names_one_thing() {
        check(
            None,
            "Nice! How long have you had your bike?",
            "I've had it for two years.",
            Some("I've had Ana's bike for two years."),
        );
        // two things named: which one is not said
        check(
            None,
            "Is your bike faster than your car?",
            "It's much faster.",
            None,
        );
    }

    #[test]
    fn what_is_left_alone() {
        // the sentence before names two things
        check(
            None,
            "That skyline looks amazing - I've been wanting to visit Lima. How was it?",
            "It was a blast.",
            None,
        );
        // no "it" in the question
        check(
            Some("I finished my first novel."),
            "Congrats! What are you doing next?",
            "It's a long story.",
            None,
        );
        // an "it" that points at nothing
        check(
            Some("I finished my first novel."),
            "How did it feel?",
            "It was amazing to see it printed.",
            None,
        );
        check(
            Some("I finished my first novel."),
            "How did it feel?",
            "It felt great.",
            None,
        );
        check(
            None,
            "That vase is lovely! Did you make it?",
            "I wish I could take it easy.",
            None,
        );
        // two things done: which one is asked about is not said
        check(
            Some("I baked a cake and I painted a mural."),
            "Wow! How did it go?",
            "It was fun.",
            None,
        );
    }
}
