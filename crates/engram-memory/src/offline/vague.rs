//! Predicates that say nothing in particular although they have a verb and
//! a subject: an activity going on with nothing said about it ("Nate was
//! competing"), a period had with nothing in it ("John had a wild week").
//! Also facts that lean on what was said before them ("submitted a few
//! more", "has similar interests", "didn't do too great") and objects of a
//! kind with nothing said of which ("had a few offers").
//! [`super::shape::problem`] refuses facts these describe; this module only
//! recognises them and changes no text.

use super::clauses::bare;
use super::lexicon::{verb, VerbForm};
use super::shape::{Words, EMPTY_VERBS, EVALUATIVE, FUNCTION, VAGUE};

/// A word of content: not a function, vague, evaluative or empty word, and
/// not a name of the subject.
pub(super) fn content(w: &str, subject: &str) -> bool {
    if w.is_empty() {
        return false;
    }
    let b = bare(w);
    let b = b.strip_suffix("'s").unwrap_or(&b);
    if b.chars().any(|c| c.is_ascii_digit()) {
        return true;
    }
    // a name is content ("Finn's best friend is Jo")
    let (_, core, _) = super::coref::parts(w);
    if core.chars().next().is_some_and(char::is_uppercase)
        && !subject.split_whitespace().any(|s| bare(s) == b)
    {
        return true;
    }
    if b.len() < 3
        || FUNCTION.contains(&b)
        || VAGUE.contains(&b)
        || EVALUATIVE.contains(&b)
        || b.ends_with("ly")
        || subject.split_whitespace().any(|s| bare(s) == b)
    {
        return false;
    }
    match verb(b) {
        Some((base, _)) => !EMPTY_VERBS.contains(&base),
        None => true,
    }
}

/// Verbs whose going on is news by itself ("Tim is retiring").
const LIFE_EVENTS: Words = Words(
    "retire graduate move marry divorce resign quit relocate emigrate wed \
     propose adopt",
);

/// Symptoms, going on, that say how someone is ("has been limping").
const SYMPTOMS: Words = Words(
    "limping coughing sneezing vomiting wheezing itching scratching bleeding \
     shaking fainting snoring sleepwalking",
);

/// Forms of "be", "have", "do" and "will" (with their contractions) that
/// stand before a predicate's verb. Not [`super::lexicon::AUXILIARIES`]:
/// that list has no contractions, and it has negations ("isn't") that
/// must stop the skip here, or "Nate isn't competing" would count as
/// an activity going on.
const BEFORE_VERB: Words = Words(
    "is are was were be been being am 's 're has have had do does did will \
     would 'll 'd",
);

/// Pastimes: done once with nothing said of it ("John hiked"), no news.
const PASTIMES: &[&str] = &[
    "hike", "swim", "run", "walk", "jog", "dance", "cook", "bake", "read", "paint", "draw", "sing",
    "ski", "surf", "climb", "cycle", "shop", "relax", "rest", "exercise", "train", "practice",
    "practise", "sketch", "camp", "fish", "garden", "chill",
];

/// An activity going on or done as a habit, with nothing said about it:
/// "Nate was competing", "John practices", "Tim is plowing through", or a
/// pastime done once ("John hiked"). A finished event stands alone
/// ("Caroline graduated"), and so does a change of life ("Tim is
/// retiring").
pub(super) fn bare_activity(pred: &[&str], subject: &str) -> bool {
    let mut rest = pred.iter().skip_while(|w| {
        let b = bare(w);
        BEFORE_VERB.contains(&b.as_str())
            || b.ends_with("ly")
            || FUNCTION.contains(&b.as_str())
            || matches!(b.as_str(), "now" | "still")
    });
    let Some(main) = rest.next() else {
        return false;
    };
    let main = bare(main);
    // "Biscuit has been limping": a symptom is news by itself
    if SYMPTOMS.contains(&main.as_str()) {
        return false;
    }
    let ongoing = match verb(&main) {
        // ("John hiked": a pastime done once, with nothing said of it)
        Some((base, VerbForm::Past)) => PASTIMES.contains(&base),
        Some((base, form)) => {
            matches!(form, VerbForm::Gerund | VerbForm::Third)
                && !EMPTY_VERBS.contains(&base)
                && !LIFE_EVENTS.contains(&base)
        }
        // "has been decompressing": a gerund the lexicon lacks is one still
        None => main.len() > 5 && main.ends_with("ing"),
    };
    // a particle belongs to the verb ("is plowing through")
    ongoing
        && !eats_all(pred)
        && !rest.any(|w| content(w, subject) && !PARTICLES.contains(&bare(w).as_str()))
}

/// "eats everything", "will eat anything": no diet kept, which is said in
/// particular though its object is a vague word.
pub(super) fn eats_all(pred: &[&str]) -> bool {
    let words: Vec<String> = pred.iter().map(|w| bare(w)).collect();
    words.windows(2).any(|p| {
        verb(&p[0]).is_some_and(|(base, _)| base == "eat")
            && matches!(p[1].as_str(), "everything" | "anything")
    })
}

/// Particles that finish a phrasal verb and say nothing of their own.
const PARTICLES: Words = Words("through along around ahead on over");

/// Nouns of a stretch of time or an experience ("had a wild week").
const PERIODS: Words = Words("week weekend day month year time night morning ride summer");

/// A period had, with nothing said of it: "John had a wild week", "had a
/// great time". What made it so is the fact, when it is said.
pub(super) fn empty_period(pred: &[&str]) -> bool {
    let Some(first) = pred.first() else {
        return false;
    };
    if !matches!(bare(first).as_str(), "had" | "has" | "have") {
        return false;
    }
    let rest: Vec<String> = pred[1..].iter().map(|w| bare(w)).collect();
    matches!(rest.first().map(String::as_str), Some("a" | "an"))
        && (2..=4).contains(&rest.len())
        && rest.last().is_some_and(|w| PERIODS.contains(&w.as_str()))
}

/// How something went, with what went unsaid: "didn't do too great",
/// "did really well". The event is named elsewhere in the conversation.
const HOW_IT_WENT: Words = Words("well great good badly bad fine okay ok amazing awful terrible");

/// Quantities whose noun was said elsewhere ("submitted a few more",
/// "got another one") and comparisons with nothing to compare to ("has
/// similar interests"): the fact leans on what came before it.
pub(super) fn leans_elsewhere(pred: &[&str]) -> bool {
    let words: Vec<String> = pred.iter().map(|w| bare(w)).collect();
    let ends = |i: usize| {
        // the quantity ends the clause or a preposition follows it
        words.get(i).is_none_or(|w| {
            matches!(
                w.as_str(),
                "in" | "on"
                    | "at"
                    | "for"
                    | "with"
                    | "from"
                    | "to"
                    | "of"
                    | "since"
                    | "last"
                    | "this"
                    | "today"
                    | "yesterday"
                    | "too"
                    | "now"
                    | "already"
            )
        }) || pred
            .get(i - 1)
            .is_some_and(|w| w.ends_with([',', '.', '!']))
    };
    // where a clause of its own begins ("started on a book since my movie
    // did well": how the movie did is the reason, not the fact)
    let subordinate = words
        .iter()
        .position(|w| matches!(w.as_str(), "since" | "because" | "after" | "when" | "as"))
        .filter(|&s| s > 0)
        .unwrap_or(words.len());
    for (i, w) in words.iter().enumerate() {
        let next = words.get(i + 1).map(String::as_str);
        // "a few more", "some more", "one more", "many more", "two more"
        if w == "more"
            && i > 0
            && matches!(
                words[i - 1].as_str(),
                "few" | "some" | "one" | "many" | "couple" | "two" | "three" | "several"
            )
            && ends(i + 1)
        {
            return true;
        }
        if w == "another" && next == Some("one") {
            return true;
        }
        // "similar interests" with no "to"
        if w == "similar" && !words[i + 1..].iter().any(|x| x == "to") {
            return true;
        }
        // "do/did ... great": how something went
        let doing = matches!(
            w.as_str(),
            "do" | "did" | "didn't" | "does" | "doing" | "done"
        );
        if doing && i < subordinate {
            let how = (i + 1..words.len()).find(|&j| {
                !matches!(
                    words[j].as_str(),
                    "too" | "so" | "really" | "very" | "pretty" | "super"
                )
            });
            // ... and nothing after it says at what ("did well in the
            // exam" does)
            let bare_how = how.is_some_and(|h| {
                HOW_IT_WENT.contains(&words[h].as_str())
                    && (pred[h].ends_with([',', '.', '!'])
                        || words.get(h + 1).is_none_or(|n| {
                            matches!(
                                n.as_str(),
                                "even" | "though" | "but" | "because" | "and" | "so"
                            )
                        }))
            });
            if bare_how {
                return true;
            }
        }
    }
    // "Nate won.", "John lost.": won or lost what
    matches!(
        words
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .as_slice(),
        ["won" | "lost"]
    )
}

/// Verbs whose object must say which one for the fact to say anything
/// ("had a few offers", "heard of a series"); a verb of taste is
/// different: "loves movies" is a taste.
pub(super) const PLAIN_VERBS: Words =
    Words("have get face hear eat use find see watch read tell go take do");

/// Nouns of a kind that say nothing without saying which.
const GENERIC_HEADS: Words = Words(
    "story stories offer offers food hurdle hurdles recipe recipes series idea ideas \
     project projects app apps resource resources challenge challenges issue issues \
     problem problems news deal deals movie movies show shows game games song songs \
     trouble questions question thoughts plan plans stuff things opportunity opportunities \
     book books tour tours trip trips place places skills talents sources colors colours",
);

/// Verbs of having and getting: their object is the fact ("got a tattoo
/// in 2019"), so a bare "the" before it leans on where it was named.
pub(super) const HAVING_VERBS: Words = Words("get have need bring buy keep");

/// Words after a bare definite object that add nothing of which one it is.
const AFTERWARDS: Words = Words(
    "a few years ago too now already yesterday today soon anyway again still last week \
     month year recently",
);

/// Whether `complement` is "the" (or "that", "whole") and one noun, maybe
/// with an adjective, and then nothing but a time: "the tattoo a few
/// years ago", "the whole collection", "the dairy-free recipe".
pub(super) fn bare_definite(complement: &[&str]) -> bool {
    let words: Vec<String> = complement.iter().map(|w| bare(w)).collect();
    if words.first().map(String::as_str) != Some("the") {
        return false;
    }
    // "got the idea from a magazine": an idea says nothing until it
    // says of what ("the idea for a script", "the idea of a studio")
    if words.get(1).is_some_and(|w| w == "idea")
        && words
            .get(2)
            .is_none_or(|w| matches!(w.as_str(), "from" | "when" | "while" | "after"))
    {
        return true;
    }
    // the noun phrase runs to the first word of time (or the end)
    let end = words
        .iter()
        .position(|w| AFTERWARDS.contains(&w.as_str()))
        .unwrap_or(words.len());
    let phrase = &words[1..end];
    let ends_at_time = words[end..]
        .iter()
        .all(|w| AFTERWARDS.contains(&w.as_str()) || w.chars().all(|c| c.is_ascii_digit()));
    let hoped_for = matches!(phrase, [one] if HOPED_FOR.contains(&one.as_str()));
    // "the" and a capital is a name ("the Eiffel Tower"); "of" says which
    !phrase.is_empty()
        && phrase.len() <= 2
        && ends_at_time
        && !complement[1..end]
            .iter()
            .any(|w| w.chars().next().is_some_and(char::is_uppercase))
        && !phrase.iter().any(|w| w == "of")
        // "got the promotion", "got the job": the one hoped for, which
        // stands as news of its own
        && !hoped_for
}

/// What one hopes to get and, got, tells as "the" one: news that stands
/// alone.
const HOPED_FOR: &[&str] = &[
    "promotion",
    "job",
    "offer",
    "role",
    "position",
    "scholarship",
    "visa",
    "internship",
    "raise",
    "part",
    "lead",
    "apartment",
    "house",
    "mortgage",
    "loan",
];

/// Whether `complement` is only a generic noun with quantities and
/// evaluations ("a few offers", "yummy food", "all kinds of hurdles").
pub(super) fn generic_object(complement: &[&str]) -> bool {
    let mut heads = 0;
    for w in complement {
        let b = bare(w);
        if FUNCTION.contains(&b.as_str())
            || EVALUATIVE.contains(&b.as_str())
            || VAGUE.contains(&b.as_str())
            || matches!(
                b.as_str(),
                "kinds"
                    | "couple"
                    | "yummy"
                    | "funny"
                    | "tasty"
                    | "delicious"
                    | "big"
                    | "huge"
                    | "small"
                    | "anyway"
                    // ("has different skills", "their own special sources")
                    | "different"
                    | "various"
                    | "several"
                    | "cool"
                    | "own"
            )
        {
            continue;
        }
        if GENERIC_HEADS.contains(&b.as_str()) {
            heads += 1;
            continue;
        }
        return false;
    }
    heads > 0
}

/// Verbs that say what only with their object ("plays", "practises"):
/// without one the object was said before ("I've been playing for four
/// months", answering "how long have you played the piano?").
const OBJECT_VERBS: Words =
    Words("play practise practice learn study make build start begin join finish try celebrate");

/// Whether the predicate's verb (`pred[0]`) needs an object it does not
/// have: what follows it is only a time, a frequency or nothing.
pub(super) fn object_left_out(pred: &[&str]) -> bool {
    let Some(main) = pred.first() else {
        return false;
    };
    let needs = verb(&bare(main)).is_some_and(|(base, _)| OBJECT_VERBS.contains(&base));
    let next = pred.get(1).map(|w| bare(w));
    needs
        && !main.ends_with([',', ';'])
        && next.as_deref().is_none_or(|n| {
            matches!(
                n,
                "for"
                    | "since"
                    | "every"
                    | "again"
                    | "now"
                    | "lately"
                    | "recently"
                    | "daily"
                    | "when"
                    | "in"
                    | "too"
                    // ("celebrated by making a treat": what, not said)
                    | "by"
            ) && !(n == "in" && pred.len() > 2)
        })
}

/// A resolve with nothing resolved on: "Jon won't quit", "Tim will never
/// give up", "Gina keeps pushing". What is not given up is the fact,
/// when it is said ("won't quit dancing").
pub(super) fn bare_resolve(pred: &[&str]) -> bool {
    let words: Vec<String> = pred.iter().map(|w| bare(w)).collect();
    let tail: Vec<&str> = words.iter().rev().take(2).map(String::as_str).collect();
    let negated = words.iter().any(|w| {
        matches!(
            w.as_str(),
            "won't" | "never" | "not" | "don't" | "can't" | "wouldn't" | "isn't" | "ain't"
        )
    });
    // "won't quit on their dreams", "never gave up on it"
    let on = words.windows(2).any(|p| p[0] == "quit" && p[1] == "on")
        || words.windows(3).any(|p| {
            matches!(p[0].as_str(), "give" | "giving" | "gave") && p[1] == "up" && p[2] == "on"
        });
    if on && negated {
        return true;
    }
    match tail.as_slice() {
        ["quit", ..] | ["up", "give"] | ["up", "giving"] | ["stop", ..] => negated,
        ["going", "keep" | "keeps" | "keeping"] | ["pushing", "keep" | "keeps"] => true,
        _ => false,
    }
}

/// Advice taken, with what it was said elsewhere: "took Nate's
/// recommendation", "followed your advice" (`pred` opens with the verb).
pub(super) fn advice_taken(pred: &[&str]) -> bool {
    let words: Vec<String> = pred.iter().map(|w| bare(w)).collect();
    let taken = matches!(
        words.first().map(String::as_str),
        Some("took" | "take" | "takes" | "followed" | "follow" | "follows" | "tried")
    );
    let rest = &words[1..];
    let advice = |w: &str| {
        matches!(
            w,
            "advice"
                | "recommendation"
                | "reccomendation"
                | "recommendations"
                | "suggestion"
                | "suggestions"
                | "tip"
                | "tips"
        )
    };
    // ("Nate's recommendation", "your advice", "the tip"): nothing after
    taken
        && rest.len() <= 3
        && rest.last().is_some_and(|w| advice(w))
        && rest[..rest.len() - 1]
            .iter()
            .all(|w| w.ends_with("'s") || FUNCTION.contains(&w.as_str()))
}

/// Words of how often or when, which say nothing of where.
const FREQUENCY: Words = Words(
    "often usually once twice time times every week weeks month months year years day \
     days daily weekly monthly sometimes regularly lot few couple several now then still",
);

/// "goes a few times a week", "doesn't go often": going, with where said
/// elsewhere. `complement` follows a form of "go".
pub(super) fn going_nowhere(complement: &[&str]) -> bool {
    complement.iter().all(|w| {
        let b = bare(w);
        FREQUENCY.contains(&b.as_str()) || FUNCTION.contains(&b.as_str()) || b.ends_with("ly")
    })
}

/// A pronoun "one" or "any" where the object would be: "tried one for
/// themself", "is working on one with their group", "can find any that
/// help". Which one was said before; "one of the paintings", "one dog"
/// say it.
pub(super) fn pronoun_object(pred: &[&str]) -> bool {
    let words: Vec<String> = pred.iter().map(|w| bare(w)).collect();
    // in a relative clause "one" is what the clause is about ("a family
    // for kids who need one")
    let main_clause = words
        .iter()
        .position(|w| matches!(w.as_str(), "who" | "which" | "that"))
        .unwrap_or(words.len());
    (1..main_clause).any(|i| {
        let before = &words[i - 1];
        let object_slot = super::clauses::is_verbish(pred[i - 1])
            || matches!(before.as_str(), "on" | "for" | "with" | "about" | "into");
        let ends = pred[i].ends_with([',', '.', '!', '?'])
            || words.get(i + 1).is_none_or(|a| {
                matches!(
                    a.as_str(),
                    "for"
                        | "with"
                        | "that"
                        | "which"
                        | "who"
                        | "cause"
                        | "'cause"
                        | "because"
                        | "too"
                        | "yet"
                        | "now"
                        | "today"
                        | "at"
                        | "in"
                        | "from"
                        | "to"
                        | "since"
                        | "so"
                        | "and"
                        | "but"
                )
            });
        matches!(words[i].as_str(), "one" | "any" | "some") && object_slot && ends
    })
}

/// Nouns that are a part or a copy of something: without "of" it is
/// elsewhere ("got a physical copy").
const RELATIONAL: Words = Words("copy copies version versions sequel edition episode chapter");

/// Whether `complement` is a thing had or got that is a copy or part of
/// something not named: "a physical copy", "the new version".
pub(super) fn part_of_unsaid(complement: &[&str]) -> bool {
    let words: Vec<String> = complement.iter().map(|w| bare(w)).collect();
    // (the article opening the phrase is no time: "a few years ago")
    let end = words
        .iter()
        .skip(1)
        .position(|w| AFTERWARDS.contains(&w.as_str()))
        .map_or(words.len(), |p| p + 1);
    words[..end]
        .last()
        .is_some_and(|w| RELATIONAL.contains(&w.as_str()))
        && !words.iter().any(|w| w == "of")
        && !complement[..end]
            .iter()
            .any(|w| w.chars().next().is_some_and(char::is_uppercase))
}

/// Whether a clause tells what happens in a story ("Frodo changes so much
/// over the course of the story", "he grows throughout the book"): about a
/// character, not about anyone in the conversation.
pub(super) fn story_events(text: &str) -> bool {
    // narrative works only: "in the game", "in the show", "in the play"
    // and "in the series" are as often matches and stages people were in
    const STORIES: &[&str] = &[
        "story", "book", "books", "movie", "movies", "film", "novel", "saga", "trilogy", "plot",
        "episode",
    ];
    let words: Vec<String> = text.split_whitespace().map(bare).collect();
    words.windows(3).any(|w| {
        let over = matches!(w[0].as_str(), "throughout" | "in" | "during")
            || (w[0] == "of" && words.windows(2).any(|p| p[0] == "course" && p[1] == "of"));
        over && w[1] == "the" && STORIES.contains(&w[2].as_str())
    })
}
