//! Clauses joined by a comma alone, the second with its subject left out:
//! "I'm job hunting, got interviews lined up with Spotify", "he's 5,
//! loves dinosaurs and drawing", "I'm at Pixelworks, been there 3 years".
//! The verb after the comma is the subject's too, so
//! [`super::clauses::split`] cuts there and says the subject again. Only a
//! verb that agrees with the subject and has an object after it ("I'm at
//! home, exhausted" and "tired of work" are states said of the first
//! clause). An aim after a comma ("..., trying to get under 27") is the
//! speaker's when the clause before spoke of theirs. Reads words only.

use super::clauses::bare;
use super::coordination::opens_object;
use super::lexicon::{verb, VerbForm, AUXILIARIES};

/// Adverbs of habit that may stand before the verb left its subject.
const HABITS: &[&str] = &[
    "mostly",
    "mainly",
    "usually",
    "always",
    "often",
    "sometimes",
    "now",
    "also",
    "only",
];

/// Words that follow a state or a verb with no object of its own.
const NO_OBJECT: &[&str] = &[
    "of", "from", "with", "about", "for", "at", "in", "on", "by", "as", "and", "but", "so", "too",
    "very", "really", "that",
];

/// The subject of the clause `body` opens with, as said again before a
/// verb it left out, and whether a verb in -s agrees with it: "I'm ..." ->
/// ("I", false), "he's ..." -> ("he", true), "Leo is ..." -> ("Leo",
/// true). An adverb may come first ("currently I'm at ..."). A chat
/// clause that opens with a past verb has left out "I" ("sold the Golf
/// last weekend, picked up a Tesla instead").
fn subject_of(body: &[&str]) -> Option<(String, bool)> {
    let named = body.iter().take(2).find_map(|w| {
        let w = w.replace('\u{2019}', "'");
        match w.as_str() {
            "I" | "I'm" | "I've" | "I'd" | "I'll" => Some(("I".to_string(), false)),
            "he" | "He" | "he's" | "He's" => Some(("he".to_string(), true)),
            "she" | "She" | "she's" | "She's" => Some(("she".to_string(), true)),
            _ => None,
        }
    });
    // "my back has been hurting, saw a physio": a part of the body does
    // nothing, its owner does
    let part = body.first().is_some_and(|m| bare(m) == "my")
        && body
            .get(1)
            .is_some_and(|p| super::lexicon::body_part(&bare(p)));
    if named.is_none() && part {
        return Some(("I".to_string(), false));
    }
    named.or_else(|| {
        let first = bare(body.iter().find(|w| bare(w) != "just")?);
        let past = matches!(verb(&first), Some((_, VerbForm::Past)))
            && !AUXILIARIES.contains(&first.as_str())
            && !matches!(first.as_str(), "was" | "were" | "had" | "did");
        past.then(|| ("I".to_string(), false))
    })
}

/// The subject to say again before `words[i]`, a verb after a comma that
/// goes on from the clause `body` with its subject left out (see the
/// module docs); `None` when `words[i]` is no such verb.
/// Whether `rest` is a verb of beginning with only a time after it
/// ("started Monday", "starts next week", "began on 3 March").
fn began_then(rest: &[&str]) -> bool {
    let Some((first, after)) = rest.split_first() else {
        return false;
    };
    let began = matches!(
        bare(first).as_str(),
        "started" | "starts" | "starting" | "began" | "begins" | "beginning"
    );
    let time = |w: &&str| {
        let b = bare(w);
        super::dates::names_a_day(&b)
            || b.chars().all(|c| c.is_ascii_digit())
            || b.trim_end_matches(|c: char| c.is_ascii_alphabetic())
                .parse::<u32>()
                .is_ok()
            || matches!(
                b.as_str(),
                "on" | "in"
                    | "next"
                    | "last"
                    | "this"
                    | "week"
                    | "month"
                    | "today"
                    | "tomorrow"
                    | "yesterday"
                    | "the"
                    | "of"
                    | "at"
                    | "morning"
                    | "afternoon"
            )
    };
    began && !after.is_empty() && after.iter().all(time)
}

pub(super) fn left_out_subject(body: &[&str], words: &[&str], i: usize) -> Option<String> {
    let b = bare(words[i]);
    // "got a job at Spotify, started Monday": when the thing just said
    // began, part of its clause (alone it would say nothing of what)
    if began_then(&words[i..]) {
        return None;
    }
    // "my 5k PB is 28:10, trying to get under 27": an aim, the speaker's
    // whatever the clause before was about, when it spoke of theirs
    let aim = matches!(b.as_str(), "trying" | "hoping" | "aiming" | "planning")
        && words.get(i + 1).is_some_and(|n| bare(n) == "to");
    let speakers = body
        .iter()
        .any(|w| matches!(bare(w).as_str(), "my" | "i" | "i'm" | "i've"));
    if aim && speakers && !words[i].ends_with([',', '.', '!', '?']) {
        return Some("I'm".to_string());
    }
    // "I've decided to leave nursing, starting a masters in September": a
    // step ahead, after a clause of the speaker's
    let ahead = matches!(b.as_str(), "starting" | "beginning" | "joining" | "moving");
    let own = body
        .first()
        .is_some_and(|w| matches!(bare(w).as_str(), "i" | "i'm" | "i've" | "i'll"));
    if ahead
        && own
        && words
            .get(i + 1)
            .is_some_and(|n| opens_object(n) || super::clauses::capitalised(n))
        && !words[i].ends_with([',', '.', '!', '?'])
    {
        return Some("I'm".to_string());
    }
    // "my therapist suggested journaling, been doing it for two weeks":
    // a doing under way, "I've" left out, after a clause of the speaker's
    if b == "been"
        && speakers
        && words
            .get(i + 1)
            .is_some_and(|n| matches!(bare(n).as_str(), "doing" | "trying" | "using"))
    {
        return Some("I've".to_string());
    }
    let (subject, third) = subject_of(body)?;
    if words[i].ends_with([',', '.', '!', '?']) {
        return None;
    }
    // "I've got type 1 diabetes, diagnosed when I was 12": done to them
    if matches!(
        b.as_str(),
        "diagnosed" | "hospitalised" | "hospitalized" | "born"
    ) {
        let be = match subject.as_str() {
            "I" => "I was".to_string(),
            "we" | "they" => format!("{subject} were"),
            s => format!("{s} was"),
        };
        return Some(be);
    }
    // "got promoted last week, still at Monzo": where one still is
    if b == "still"
        && subject == "I"
        && words
            .get(i + 1)
            .is_some_and(|n| matches!(bare(n).as_str(), "at" | "in" | "with"))
        && words
            .get(i + 2)
            .is_some_and(|n| super::clauses::capitalised(n))
    {
        return Some("I'm".to_string());
    }
    // "cancelled Netflix, mostly watch YouTube now": an adverb of habit,
    // then the verb (a bare one is the speaker's present)
    if HABITS.contains(&b.as_str()) && i + 1 < words.len() {
        if let Some(s) = left_out_subject(body, words, i + 1) {
            return Some(s);
        }
        let next = bare(words[i + 1]);
        let present = subject == "I"
            && matches!(verb(&next), Some((_, VerbForm::Base)))
            && !AUXILIARIES.contains(&next.as_str())
            && !words[i + 1].ends_with([',', '.', '!', '?'])
            && words
                .get(i + 2)
                .is_some_and(|n| opens_object(n) || super::clauses::capitalised(n));
        return present.then_some(subject);
    }
    // "I'm the best man, need to write a speech": what the speaker needs
    // or hopes to do
    if subject == "I"
        && matches!(b.as_str(), "need" | "want" | "hope" | "plan")
        && words.get(i + 1).is_some_and(|n| bare(n) == "to")
        && words.get(i + 2).is_some_and(|n| verb(&bare(n)).is_some())
    {
        return Some(subject);
    }
    // "..., been there 3 years": how long, "I've" left out
    if b == "been" {
        let stay = subject == "I"
            && words.get(i + 1).is_some_and(|n| {
                matches!(bare(n).as_str(), "there" | "here" | "doing" | "at" | "with")
            });
        return stay.then(|| "I've".to_string());
    }
    let form = match verb(&b) {
        Some((_, f)) if !matches!(b.as_str(), "was" | "were" | "had" | "did" | "has") => f,
        _ => return None,
    };
    // "I'm 29, turning 30 in March": a doing under way, after a clause
    // that opened with "I'm" (or "he's", "she's")
    let be = body.first().map(|w| w.replace('\u{2019}', "'"));
    // (not a stance: "I'm reading a book, hoping it helps")
    let stance = verb(&b).is_some_and(|(base, _)| {
        matches!(
            base,
            "hope"
                | "wish"
                | "think"
                | "feel"
                | "wonder"
                | "guess"
                | "know"
                | "want"
                | "try"
                | "plan"
                | "aim"
                | "love"
                | "like"
                | "hate"
                | "need"
                | "seem"
                | "look"
        )
    });
    // (a clause with a doing of its own goes on with the gerund: "I'm
    // working on my store, growing the customer base")
    let doing_before = body.iter().skip(1).any(|w| super::clauses::is_verbish(w));
    if form == VerbForm::Gerund
        && !stance
        && !doing_before
        && matches!(
            be.as_deref(),
            Some("I'm" | "he's" | "she's" | "He's" | "She's")
        )
        && words
            .get(i + 1)
            .is_some_and(|n| !NO_OBJECT.contains(&bare(n).as_str()))
    {
        return be.map(|b| b.to_lowercase().replace("i'm", "I'm"));
    }
    let agrees = form == VerbForm::Past || (third && form == VerbForm::Third);
    // the object: an article, a number, a particle, a name or a noun (not
    // "tired of work": a state and what it is of)
    // ("got about £12k so far": "about" a number)
    let about_amount = words.get(i + 1).is_some_and(|n| {
        matches!(
            bare(n).as_str(),
            "about" | "around" | "roughly" | "nearly" | "almost" | "over"
        )
    }) && words.get(i + 2).is_some_and(|a| {
        a.trim_start_matches(['$', '\u{20ac}', '\u{a3}'])
            .starts_with(|c: char| c.is_ascii_digit())
    });
    let object = about_amount
        || words.get(i + 1).is_some_and(|n| {
            let nb = bare(n);
            opens_object(n)
                || matches!(nb.as_str(), "up" | "back" | "out" | "into" | "to")
                || !(nb.is_empty()
                    || AUXILIARIES.contains(&nb.as_str())
                    || matches!(verb(&nb), Some((_, VerbForm::Past | VerbForm::Gerund)))
                    || NO_OBJECT.contains(&nb.as_str()))
        });
    (agrees && object).then_some(subject)
}

#[cfg(test)]
mod tests {
    use super::left_out_subject;

    fn check(sentence: &str, at: &str, want: Option<&str>) {
        let words: Vec<&str> = sentence.split_whitespace().collect();
        let i = words.iter().position(|w| *w == at).unwrap();
        assert_eq!(
            left_out_subject(&words[..i], &words, i).as_deref(),
            want,
            "{sentence}"
        );
    }

    #[test]
    fn the_verb_after_a_comma_takes_the_subject_before() {
        check("I'm job hunting, got interviews lined up", "got", Some("I"));
        check(
            "I'm saving for a house deposit, got about £12k so far",
            "got",
            Some("I"),
        );
        check("I'm saving up, got about as far as", "got", None);
        check(
            "I'm the best man, need to write a speech",
            "need",
            Some("I"),
        );
        check(
            "I've decided to leave nursing, starting a masters in September",
            "starting",
            Some("I'm"),
        );
        check("I've been busy, starting to relax now", "starting", None);
        check("I'm the best man, need to go", "need", Some("I"));
        check("I'm the best man, need a drink", "need", None);
        check(
            "my 5k PB is 28:10, trying to get under 27",
            "trying",
            Some("I'm"),
        );
        check("the team is strong, trying to win", "trying", None);
        check("he's 5, loves dinosaurs and drawing", "loves", Some("he"));
        check(
            "I'm at Pixelworks, been there 3 years",
            "been",
            Some("I've"),
        );
        // a state, a verb that does not agree, or no object
        check("I'm at home, exhausted.", "exhausted.", None);
        check("I'm so tired, tired of work", "tired", None);
        check("I'm happy, loves it", "loves", None);
        check("the kids loved it, laughed a lot", "laughed", None);
        check(
            "my back has been hurting, saw a physio today",
            "saw",
            Some("I"),
        );
        // "I" left out of both
        check(
            "sold the Golf last weekend, picked up a used Tesla",
            "picked",
            Some("I"),
        );
        check("was tired, went to bed", "went", None);
        check(
            "my therapist suggested journaling, been doing it daily",
            "been",
            Some("I've"),
        );
        check("the team suggested it, been doing it", "been", None);
        check(
            "cancelled Netflix, mostly watch YouTube now",
            "mostly",
            Some("I"),
        );
        check("I'm tired, mostly sleep", "mostly", None);
        check(
            "got promoted last week, still at Monzo though",
            "still",
            Some("I'm"),
        );
        check("I moved, still in touch", "still", None);
        check("I'm 29, turning 30 in March", "turning", Some("I'm"));
        check("he's at the park, walking the dog", "walking", Some("he's"));
        check("I went out, buying milk", "buying", None);
        check("I'm working on my store, growing sales", "growing", None);
    }
}
