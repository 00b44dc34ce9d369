//! The thing a question asks about, and the "it" that answers it. When
//! the listener asks "That plate is awesome! Did you make it?", the answer
//! "Yeah, I made it in pottery class" made the plate; when they ask "What
//! was it about?" after the speaker said "I went to a poetry reading last
//! Fri", the answer "It was a transgender poetry reading ..." is about the
//! poetry reading the speaker went to.
//!
//! Only that one step, and only when the question itself says "it" (or
//! the listener only reacted, "That looks really good!"): the thing is
//! named in the question (after "that", "this", "the" or "your") or,
//! failing that, is the one thing the speaker's own turn before it did
//! something with ("I finished my first screenplay", "I made this window",
//! "a cake I made").
//! Only the answer's first sentences are read so, and only an "it" that
//! opens one or is a verb's object; "It's amazing how ..." and "It was
//! special to watch ..." point at nothing. Reads text only.

use super::clauses::{bare, is_verbish};
use super::doing_it;
use super::lexicon::{verb, VerbForm};
use super::things::{done_thing, only_thing, pointed_thing, thing_i_made, thing_noun, MAKING};
use super::words::EVALUATIVE;
use crate::Turn;

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
    /// The verb the question did it with ("hold" in "How long do you hold
    /// that pose?"): the answer's "hold it" is that thing too.
    pub(super) verb: Option<&'static str>,
}

/// A thing named plainly: an answer's opening "It" or a verb's "it" may
/// stand for it.
fn said(thing: String) -> Option<Asked> {
    Some(Asked {
        thing,
        shown: false,
        object_only: false,
        verb: None,
    })
}

/// What `speaker`'s answer's "it" means, given the listener's turn before
/// (`question`) and the speaker's own turn before that (`before`), written
/// so that it stands alone: "Melanie's new hair color", "the poetry reading
/// Caroline went to", "the plate".
pub(super) fn asked_about(question: &str, before: Option<&str>, speaker: &str) -> Option<Asked> {
    let q = super::without_attachments(question);
    let asked = sentences(&q);
    // the last question that says "it"; else the last question, when it
    // names one thing itself ("How long have you had your bike?" - "I've
    // had it for two years")
    let Some(at) = asked
        .iter()
        .rposition(|s| s.ends_with('?') && words(s).iter().any(|w| bare(w) == "it"))
    else {
        // "That looks really good!" - "Thanks! It's dairy-free vanilla
        // ...": a reaction to what the speaker said before, asking nothing
        let Some(last) = asked.last().filter(|s| s.ends_with('?')) else {
            return (!q.contains('?') && reacted(&asked))
                .then(|| own_thing(before?, speaker))
                .flatten();
        };
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
        let w = words(last);
        let (det, noun) = only_thing(&w)?;
        let thing = if det == "your" {
            format!("{speaker}'s {noun}")
        } else {
            format!("the {noun}")
        };
        // the verb just before the thing ("hold that pose")
        let verb = w
            .iter()
            .position(|x| bare(x) == det)
            .and_then(|d| d.checked_sub(1))
            .and_then(|v| verb(&bare(w[v])))
            .map(|(base, _)| base);
        // "Did the quote change?", "Is your knee better?": the thing is
        // what the question is about, so an answer's opening "It" is it
        let subject = w.len() > 2
            && matches!(bare(w[0]).as_str(), "did" | "does" | "has" | "is" | "was")
            && bare(w[1]) == det;
        return Some(Asked {
            thing,
            shown: false,
            object_only: !subject,
            verb,
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
    // ("What's the name of it?": of the thing itself, said before)
    let of_it = it >= 1 && bare(asking[it - 1]) == "of";
    let named = (!of_it)
        .then(|| pointed_thing(&asking[..it]))
        .flatten()
        .or_else(|| {
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
    own_thing(before?, speaker)
}

/// Whether a turn that asks nothing opens with a reaction to what it
/// points at ("That looks really good!", "Wow, looks delicious").
fn reacted(turn: &[&str]) -> bool {
    turn.iter().take(2).any(|s| {
        let w: Vec<String> = words(s).iter().take(2).map(|w| bare(w)).collect();
        matches!(
            w.iter().map(String::as_str).collect::<Vec<_>>().as_slice(),
            ["that" | "this", "looks" | "sounds" | "is"]
                | ["that's" | "looks" | "sounds", _]
                | [
                    "nice" | "wow" | "ooh" | "lovely" | "cool" | "awesome" | "amazing" | "yum",
                    ..
                ]
        )
    })
}

/// The one thing the speaker's turn before (`before`) is about: a title,
/// the one thing they did something with, or what its picture shows.
fn own_thing(before: &str, speaker: &str) -> Option<Asked> {
    let text = super::without_attachments(before);
    // a title, or the one thing the speaker did something with
    let titles: Vec<String> = sentences(&text)
        .iter()
        .filter_map(|s| super::titles::title_in(s))
        .collect();
    if let [title] = titles.as_slice() {
        return said(title.clone());
    }
    if let Some(work) = super::things::work_taken_in(&text) {
        return said(work);
    }
    if let Some(thing) = done_thing(&text, speaker).or_else(|| thing_i_made(&text, speaker)) {
        return said(thing);
    }
    super::shown::thing_shown(before).map(|thing| Asked {
        thing,
        shown: true,
        object_only: true,
        verb: None,
    })
}

/// `clause` with an "It" that opens it read as the one thing the clause
/// before it did something with ("I got a new job - it's at a startup":
/// "Ana's new job is at a startup"); `None` otherwise, and when all it says
/// of "it" is a judgement ("I lost my phone - it was awful" judges the
/// losing, not the phone).
pub(super) fn it_from_before(clause: &str, before: &str, speaker: &str) -> Option<String> {
    let w = words(clause);
    let first = w.first()?.replace('\u{2019}', "'");
    // "I'm the tech lead on it": the role's "it" closes the clause
    let role_on_it = matches!(bare(&first).as_str(), "i'm" | "im")
        && w.len() >= 4
        && bare(w[w.len() - 1]) == "it"
        && matches!(bare(w[w.len() - 2]).as_str(), "on" | "for");
    if role_on_it {
        let thing = done_thing(before, speaker)?;
        let last = w[w.len() - 1];
        let tail = &last[last.find(['.', '!']).unwrap_or(last.len())..];
        return Some(format!("{} {thing}{tail}", w[..w.len() - 1].join(" ")));
    }
    if !matches!(first.as_str(), "It" | "it" | "It's" | "it's") {
        // "Painting is great ..., I find it relaxing": the doing the clause
        // before opened with
        // ("my favourite film is Spirited Away, I've seen it 10 times":
        // the name)
        let (thing, verb) = match doing_it::doing_subject(before) {
            Some(doing) => (doing, Some("do")),
            None => (doing_it::favourite_named(before)?, None),
        };
        let asked = Asked {
            thing,
            shown: false,
            object_only: true,
            verb,
        };
        return answered(clause, &asked);
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
    let thing = done_thing(before, speaker).or_else(|| owned_subject(before))?;
    answered(
        clause,
        &Asked {
            thing,
            shown: false,
            object_only: false,
            verb: None,
        },
    )
}

/// The thing someone's that `before` opens with, as its subject ("Rosa's
/// first quilt took me three months"): whose, then up to three words in
/// lower case ending in a thing, then a verb. Not a person ("Rosa's
/// mum") or a part of the body.
fn owned_subject(before: &str) -> Option<String> {
    let w = words(before);
    let whose = w
        .first()
        .filter(|f| f.ends_with("'s") && f.starts_with(char::is_uppercase))?;
    let end = (2..w.len().min(5)).find(|&k| is_verbish(w[k]))?;
    let phrase = &w[1..end];
    let lower = phrase
        .iter()
        .all(|x| x.chars().all(|c| c.is_ascii_lowercase() || c == '-'));
    // (a body part's "it" is what happened to it: "my ankle ... it was
    // frustrating")
    let head = bare(phrase[phrase.len() - 1]);
    let body = super::lexicon::BODY_PARTS.contains(&head.as_str());
    (lower && !body && thing_noun(&head)).then(|| format!("{whose} {}", phrase.join(" ")))
}

/// `sentence` with its "it" read as `thing`, when it opens the sentence
/// ("It was made for a local church") or is a verb's object ("I made it
/// in pottery class"); `None` when it has neither.
pub(super) fn answered(sentence: &str, asked: &Asked) -> Option<String> {
    let thing = asked.thing.as_str();
    let w = words(sentence);
    let first = w.first()?.replace('\u{2019}', "'");
    let next = w.get(1).map(|n| bare(n)).unwrap_or_default();
    let opening = match first.as_str() {
        _ if asked.shown || asked.object_only => None,
        "It's" | "it's" if !dummy(&w[1..]) && next != "been" => {
            // "It's helped me": "has"
            let has = matches!(verb(&next), Some((_, VerbForm::Past)));
            let be = if has { "has" } else { "is" };
            Some(format!(
                "{} {be} {}",
                super::surface::upper_first(thing),
                w[1..].join(" ")
            ))
        }
        "It" | "it"
            if is_verbish(w.get(1).copied().unwrap_or(""))
                && !dummy(&w[2.min(w.len())..])
                && !matches!(
                    next.as_str(),
                    "seems" | "sounds" | "looks" | "feels" | "felt"
                ) =>
        {
            Some(format!(
                "{} {}",
                super::surface::upper_first(thing),
                w[1..].join(" ")
            ))
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
            && verb(&bare(w[i - 1]))
                .is_some_and(|(base, _)| verbs.contains(&base) || asked.verb == Some(base))
            // (after a comma the next word starts a phrase of its own:
            // "I love it, reading way more"; "find it relaxing" says how)
            && (trail.starts_with(',')
                || bare(w[i - 1]) == "find"
                || w.get(i + 1)
                    .is_none_or(|n| (!is_verbish(n) || bare(n) == "like") && bare(n) != "easy"));
        // ("been doing it", "I do it every evening": the doing is the one
        // said before, in the form of the "do")
        let redone = (object && asked.verb == Some("do"))
            .then(|| doing_it::done_again(&bare(w[i - 1]), thing))
            .flatten();
        if let Some(again) = redone {
            out.pop();
            let (doing_lead, _, _) = super::coref::parts(w[i - 1]);
            out.push(format!("{doing_lead}{again}{trail}"));
            changed = true;
        } else if object {
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

/// Whether a predicate after "it" is an impersonal one ("was special to
/// watch ...", "'s amazing how ...", "was like a dream"): "it" points at
/// nothing then.
fn dummy(rest: &[&str]) -> bool {
    let lower: Vec<String> = rest.iter().map(|w| bare(w)).collect();
    let adjective = lower
        .iter()
        .position(|w| EVALUATIVE.contains(&w.as_str()) || w.ends_with("ing"));
    let after_adjective = adjective.and_then(|a| lower.get(a + 1));
    // ("always fun experimenting in the kitchen": a judgement of doing)
    let judged_doing = lower.windows(2).take(3).any(|p| {
        (EVALUATIVE.contains(&p[0].as_str()) || p[0] == "fun")
            && (matches!(verb(&p[1]), Some((_, VerbForm::Gerund)))
                || (p[1].len() > 5 && p[1].ends_with("ing")))
    });
    judged_doing
        || after_adjective.is_some_and(|n| {
            matches!(
                n.as_str(),
                "to" | "how" | "that" | "when" | "what" | "seeing" | "knowing" | "being" | "having"
            )
        })
        || lower
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

/// The sentences of a turn, with their closing punctuation (the
/// extractor's own splitter: abbreviations and initials stay whole).
pub(super) fn sentences(text: &str) -> Vec<&str> {
    engram_extract::split_sentences(text, 0, text.len())
        .into_iter()
        .map(|(s, e)| &text[s..e])
        .collect()
}

pub(super) fn words(s: &str) -> Vec<&str> {
    s.split_whitespace().collect()
}

/// Whether the turn before `ti`, by someone else, speaks of people with a
/// pronoun that leans back ("How did they like it?", "Their support
/// certainly helps"): who it means was named before it, so the turn
/// before stays in reach. Not when that turn brings in people of its own
/// first ("Kids are resilient. They bounce back").
pub(super) fn asked_back(turns: &[Turn], ti: usize) -> bool {
    use super::lexicon::PERSON_NOUNS;
    use super::pronoun_words::GROUPS;
    let Some(q) = said_before_by_another(turns, ti) else {
        return false;
    };
    let mut own_people = false;
    for s in q.text.split_inclusive(['.', '!', '?']) {
        own_people |= super::pronoun_words::plural_subject(s.trim());
        for w in s.split_whitespace() {
            let b = bare(w);
            if GROUPS.contains(&b.as_str()) || PERSON_NOUNS.iter().any(|(p, many)| *many && *p == b)
            {
                own_people = true;
            }
            let pronoun = matches!(
                b.as_str(),
                "they" | "them" | "their" | "he" | "she" | "him" | "her" | "his"
            );
            // (a question's pronoun always leans back; a statement's only
            // when the turn named no people before it)
            if pronoun && (s.trim_end().ends_with('?') || !own_people) {
                return true;
            }
        }
    }
    false
}

/// The turn just before turn `ti`, when someone else said it (the
/// listener's turn a question or an answer may lean on).
pub(super) fn said_before_by_another<'a>(turns: &'a [Turn<'a>], ti: usize) -> Option<&'a Turn<'a>> {
    let q = turns.get(ti.checked_sub(1)?)?;
    (q.speaker != turns.get(ti)?.speaker).then_some(q)
}

/// What the question in the turn before turn `ti` asks about, when
/// another person asked it: see [`asked_about`].
pub(super) fn asked_in(turns: &[Turn], ti: usize) -> Option<Asked> {
    let t = &turns[ti];
    let speaker = t.speaker?;
    let q = said_before_by_another(turns, ti)?;
    let before = ti
        .checked_sub(2)
        .and_then(|i| turns.get(i))
        .filter(|p| p.speaker == t.speaker)
        .map(|p| p.text);
    asked_about(q.text, before, speaker).or_else(|| {
        // "How long have you been doing it?" after "I've been learning
        // the guitar": the doing itself
        let q = q.text.to_lowercase();
        // ("How's it going?" - "I love it")
        (q.contains("doing it") || q.contains("doing that") || q.contains("it going"))
            .then(|| before.and_then(doing_it::activity))
            .flatten()
            .map(|thing| Asked {
                thing,
                shown: false,
                object_only: true,
                verb: Some("do"),
            })
    })
}

#[cfg(test)]
#[path = "topic_tests.rs"]
mod tests;
