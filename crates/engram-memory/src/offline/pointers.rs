//! Pointers after the verb: "this", "that", "these" and "those" in a
//! fact's predicate point at something said elsewhere. As determiners
//! ("made this bowl") they are made indefinite, so the fact stands alone;
//! used as pronouns ("learn that too") they make the fact one that does not
//! ([`super::shape::problem`] refuses it). A "that" opening a clause or a
//! relative, and a time ("this summer"), are not pointers.

use super::clauses::{bare, is_verbish};
use super::lexicon::{verb, AUXILIARIES};
use super::shape::{Words, COPULAS, FUNCTION, VAGUE};

/// Nouns after "this", "these" or "those" that make a time, not a pointer
/// ("this week"; dates are resolved before the shape is checked, but not
/// every one has a date).
const TIME_NOUNS: Words = Words(
    "week weekend month year morning afternoon evening night day time summer \
     winter spring fall autumn season semester term days weeks weekends months \
     years mornings evenings nights quarter quarters decade hour minute \
     sprint",
);

/// Words that open a clause's subject: after them a "that" is a
/// conjunction ("said that she ..."), not a pointer.
const OPENS_SUBJECT: Words = Words(
    "i you he she it we they the a an his her their my our its your this these \
     those there some many most all every each no one someone everyone people",
);

/// Verbs that take a "that" clause ("believes that education matters").
pub(super) const SAYING: Words = Words(
    "say tell think believe know realise realize feel hope discover learn mean \
     notice hear understand agree promise decide admit guess wish find show \
     prove remember forget suppose suggest explain mention claim expect \
     imagine worry doubt argue insist assume reckon figure note confirm",
);

/// Whether a predicate points at something said elsewhere: "this",
/// "these" or "those" (not of a time, not "those who"), or a "that" right
/// after a verb that is neither a conjunction ("thinks that turtles are")
/// nor a relative ("the book that ...").
pub(super) fn points_elsewhere(pred: &[&str]) -> bool {
    let capitalised = |w: &str| {
        let (_, core, _) = super::coref::parts(w);
        core.chars().next().is_some_and(char::is_uppercase)
    };
    // "knows DIYs does too", "Jon did as well": an auxiliary standing for
    // a verb phrase said elsewhere
    let tail: Vec<String> = pred.iter().rev().take(3).map(|w| bare(w)).collect();
    let elided = |aux: &str| AUXILIARIES.contains(&aux);
    if pred.len() >= 2
        && ((matches!(tail[0].as_str(), "too" | "either") && elided(&tail[1]))
            || (tail.len() == 3 && tail[1] == "as" && tail[0] == "well" && elided(&tail[2])))
    {
        return true;
    }
    for (j, w) in pred.iter().enumerate() {
        let next = pred.get(j + 1).map(|n| bare(n));
        match bare(w).as_str() {
            "this" | "these" | "those" => {
                let time = next.as_deref().is_some_and(|n| TIME_NOUNS.contains(&n));
                if !time && next.as_deref() != Some("who") {
                    return true;
                }
            }
            // "hasn't been there yet", "a trip there": a place said elsewhere
            // (not "there's a trail", "there are")
            "there" if j > 0 => {
                let existential = next.as_deref().is_some_and(|n| {
                    COPULAS.contains(&n) || matches!(n, "'s" | "isn't" | "aren't")
                }) || w.ends_with("'s");
                if !existential {
                    return true;
                }
            }
            // "doesn't want to get any", "will check some out"
            "any" | "some" if j > 0 => {
                let last = next
                    .as_deref()
                    .is_none_or(|n| matches!(n, "out" | "up" | "too" | "either" | "more"));
                if last && pred.len() - j <= 2 {
                    return true;
                }
            }
            // "will make a list of the ones that suit John": which ones, said
            // elsewhere (after a copula they are its subject: "Ana's sisters
            // are the ones who ...")
            "ones"
                if j > 0
                    && bare(pred[j - 1]) == "the"
                    && !COPULAS.contains(&bare(pred[0]).as_str()) =>
            {
                return true
            }
            // "is planning a few"
            "few" if j == pred.len() - 1 && j > 0 && bare(pred[j - 1]) == "a" => return true,
            "that" if j > 0 => {
                let prev = bare(pred[j - 1]);
                if !is_verbish(pred[j - 1]) || COPULAS.contains(&prev.as_str()) {
                    continue;
                }
                let Some(n1) = pred.get(j + 1) else {
                    return true;
                };
                let b1 = bare(n1);
                let saying = verb(&prev).is_some_and(|(base, _)| SAYING.contains(&base));
                if saying && !matches!(b1.as_str(), "too" | "again" | "also" | "either") {
                    continue;
                }
                // "found that she", "saw that Nate", "heard that running"
                if OPENS_SUBJECT.contains(&b1.as_str())
                    || capitalised(n1)
                    || (is_verbish(n1) && !matches!(b1.as_str(), "too" | "again" | "also"))
                {
                    continue;
                }
                // "thinks that turtles are ...": a clause follows
                if pred.get(j + 2).is_some_and(|n2| is_verbish(n2)) {
                    continue;
                }
                return true;
            }
            _ => {}
        }
    }
    false
}

/// Verbs of liking: with a pointer as their whole object they react to
/// something in front of the speaker ("Love this map!").
const LIKING: Words = Words("love like enjoy adore dig prefer hate");

/// Whether a fact only reacts to something shown or said: a verb of liking
/// (or "a fan of") whose whole object is a pointer and one noun ("John
/// loves this map", "Tim is a huge fan of this genre"). Made indefinite it
/// would say nothing ("John loves a map"); with more after the noun it
/// says something ("loves this map of Middle-earth" is left to
/// [`indefinite`]).
pub fn reaction(fact: &str) -> bool {
    let words: Vec<&str> = fact.split_whitespace().collect();
    let n = words.len();
    if n < 3 {
        return false;
    }
    let (pointer, noun) = (bare(words[n - 2]), bare(words[n - 1]));
    if !matches!(pointer.as_str(), "this" | "that" | "these" | "those")
        || TIME_NOUNS.contains(&noun.as_str())
        || FUNCTION.contains(&noun.as_str())
    {
        return false;
    }
    let before = bare(words[n - 3]);
    let liking = verb(&before).is_some_and(|(base, _)| LIKING.contains(&base));
    let fan = before == "of" && n >= 4 && matches!(bare(words[n - 4]).as_str(), "fan" | "fans");
    liking || fan
}

/// Nouns that say nothing once their pointer is gone: "with that name",
/// "escaping to this world", "loved this spot" made indefinite ("a name",
/// "a world", "a spot") state nothing; what was named is elsewhere.
const HOLLOW: Words = Words("name spot area point stage level part side");

/// Whether a fact points with "this", "that", "these" or "those" at a
/// thing it names only by a hollow noun ([`HOLLOW`], or a vague one that
/// ends the fact: "this world", "that place"), with nothing after it
/// saying which ("of ...", "called ...").
pub fn hollow_pointer(fact: &str) -> bool {
    let words: Vec<String> = fact.split_whitespace().map(bare).collect();
    words.windows(2).enumerate().any(|(i, p)| {
        let pointer = matches!(p[0].as_str(), "this" | "that" | "these" | "those");
        // a vague noun ("this world", "that book") is hollow where the
        // fact ends with it; "that book about whales" says which
        let last = words[i + 2..]
            .iter()
            .all(|w| FUNCTION.contains(&w.as_str()));
        let hollow = HOLLOW.contains(&p[1].as_str()) || (VAGUE.contains(&p[1].as_str()) && last);
        let which = words
            .get(i + 2)
            .is_some_and(|n| matches!(n.as_str(), "of" | "called" | "named"));
        // "that" after a verb opening a clause ("said that one ...") is no
        // pointer; a pointer here follows a verb or a preposition
        let after =
            i > 0 && (is_verbish(&words[i - 1]) || PREPOSITIONS.contains(&words[i - 1].as_str()));
        pointer && hollow && !which && after && !FUNCTION.contains(&p[1].as_str())
    })
}

/// Whether a turn remarks on a picture ("that photo's amazing!", "Great
/// pic"): then a definite thing it likes is most likely in the picture.
pub fn remarks_on_picture(turn: &str) -> bool {
    let words: Vec<String> = turn.split_whitespace().map(bare).collect();
    words.iter().enumerate().any(|(i, w)| {
        let w = w.strip_suffix("'s").unwrap_or(w);
        let picture = matches!(
            w,
            "photo" | "photos" | "pic" | "pics" | "picture" | "pictures" | "shot" | "snap"
        );
        // whose picture: not "my photo", "a photo of my ..." (the speaker's
        // own, described)
        picture && i > 0 && !matches!(words[i - 1].as_str(), "my" | "our" | "a" | "an")
    })
}

/// Whether a fact likes a definite thing the sentence does not place:
/// "Caroline loves all the yellow leaves", "Ben likes those colours",
/// said of a picture ([`remarks_on_picture`]): the leaves in it. "Loves
/// the flowers in Ana's garden" places them, and stays.
pub fn liking_shown(fact: &str) -> bool {
    let words: Vec<String> = fact.split_whitespace().map(bare).collect();
    let Some(v) = words
        .iter()
        .position(|w| verb(w).is_some_and(|(base, _)| LIKING.contains(&base)))
    else {
        return false;
    };
    let mut rest = &words[v + 1..];
    if rest.first().is_some_and(|w| w == "all") {
        rest = &rest[1..];
    }
    let definite = rest
        .first()
        .is_some_and(|w| matches!(w.as_str(), "the" | "this" | "that" | "these" | "those"));
    let placed = rest.iter().skip(1).any(|w| {
        PREPOSITIONS.contains(&w.as_str()) || matches!(w.as_str(), "who" | "which" | "that")
    });
    definite && rest.len() <= 5 && !placed
}

/// Whether a fact is the speaker liking how the listener did something,
/// said to them: "Caroline loves how Melanie caught the horse's grace",
/// "Ben loves the details and how Ana painted them". Praise, not the
/// speaker's taste.
pub fn praise(fact: &str, speaker: &str, listener: &str) -> bool {
    let words: Vec<String> = fact.split_whitespace().map(bare).collect();
    let Some(first) = fact.split_whitespace().next() else {
        return false;
    };
    let liking = words
        .get(1)
        .and_then(|w| verb(w))
        .is_some_and(|(base, _)| LIKING.contains(&base));
    let how_they_did = words
        .windows(2)
        .any(|p| p[0] == "how" && p[1] == listener.to_lowercase());
    first == speaker && liking && how_they_did
}

/// A fact with each demonstrative determiner after its verb made
/// indefinite: "Melanie made this bowl in class" -> "Melanie made a bowl in
/// class", "Nate feeds those turtles" -> "Nate feeds turtles", "read that
/// other series" -> "read another series". What was pointed at is then
/// stated as a thing of its kind, and the sentence stands alone. A pointer
/// used as a pronoun ("learn that too", "painted this") is left for
/// [`super::shape::problem`] to refuse.
pub fn indefinite(fact: &str) -> String {
    let words: Vec<&str> = fact.split_whitespace().collect();
    let Some(v) = words.iter().position(|w| is_verbish(w)) else {
        return fact.to_string();
    };
    let mut out: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    // "On that whiteboard, John wrote ...": a place put first is pointed
    // at too (not "in that case", "at that point": ways of speaking)
    let lead = words.len() > 2
        && PREPOSITIONS.contains(&bare(words[0]).as_str())
        && !matches!(
            bare(words[2]).as_str(),
            "case" | "way" | "sense" | "moment" | "point" | "regard" | "note" | "end" | "spirit"
        );
    let from = if lead { 1 } else { v + 1 };
    for j in from..words.len() {
        if j <= v && j != 1 {
            continue;
        }
        let b = bare(words[j]);
        if !matches!(b.as_str(), "this" | "that" | "these" | "those") || words[j] != b {
            continue; // a pointer at the end of a clause carries its punctuation
        }
        let Some(next) = words.get(j + 1) else {
            continue;
        };
        let n = bare(next);
        // a word that can be the noun after a determiner: no function
        // word, preposition, time or name
        let plain = |w: &str| {
            let b = bare(w);
            !FUNCTION.contains(&b.as_str())
                && !PREPOSITIONS.contains(&b.as_str())
                && !TIME_NOUNS.contains(&b.as_str())
                && b.chars().all(|c| c.is_alphabetic() || c == '-')
                && !super::coref::parts(w)
                    .1
                    .chars()
                    .next()
                    .is_some_and(char::is_uppercase)
        };
        // "this inspiring book", "this amazing woman": an -ing adjective
        // before a noun (the pointer is a determiner, not a pronoun)
        let adjective_before_noun = n.ends_with("ing")
            && words
                .get(j + 2)
                .is_some_and(|a| !is_verbish(a) && plain(a) && bare(a).len() > 2);
        // "this super cool book": a degree word, an adjective and a noun
        let degree_before_noun = matches!(n.as_str(), "super" | "really" | "pretty")
            && words.get(j + 2).is_some_and(|a| !is_verbish(a) && plain(a))
            && words.get(j + 3).is_some_and(|a| !is_verbish(a) && plain(a));
        // "those little guys", "these cuties": a fond name for what was
        // shown or said before, which "a"/"some" would not name at all
        let fond = words[j + 1..]
            .iter()
            .take(3)
            .any(|w| FOND.contains(&bare(w).as_str()));
        if fond {
            continue;
        }
        let noun = degree_before_noun
            || (!is_verbish(next) || adjective_before_noun)
                && plain(next)
                && !matches!(
                    n.as_str(),
                    "one"
                    | "ones"
                    | "who"
                    | "too"
                    | "also"
                    | "again"
                    // adverbs after a pointer used as a pronoun ("had that
                    // before")
                    | "before"
                    | "yet"
                    | "already"
                    | "anymore"
                    | "ever"
                    | "either"
                    | "though"
                    | "lately"
                    | "enough"
                    | "much"
                    | "well"
                    | "so"
                    | "now"
                    | "here"
                    | "there"
                );
        // "that" after a noun is a relative; after a verb or a preposition
        // it is a determiner
        let prev = bare(words[j - 1]);
        let after = is_verbish(words[j - 1]) || PREPOSITIONS.contains(&prev.as_str());
        // "how this impacts ...": after a question word the pointer is a
        // pronoun, whatever follows
        let asked = matches!(prev.as_str(), "how" | "what" | "why" | "when" | "where");
        // "discovered that turtles love lettuce": "that" opens a clause
        // when a verb follows its noun
        let opens_clause = b == "that"
            && words
                .get(j + 2)
                .is_some_and(|w| is_verbish(w) && !bare(w).ends_with("ing"));
        if !noun || (b == "that" && !after) || asked || opens_clause {
            continue;
        }
        out[j] = match (b.as_str(), n.as_str()) {
            // "that same magic": the same as something said; "the" keeps it
            // readable and the shape check has the last word
            (_, "same" | "very" | "exact") => "the".into(),
            (_, "other") => {
                out[j + 1] = String::new();
                "another".into()
            }
            ("these" | "those", _) => String::new(),
            _ if n.starts_with(['a', 'e', 'i', 'o']) => "an".into(),
            _ => "a".into(),
        };
    }
    out.retain(|w| !w.is_empty());
    out.join(" ")
}

/// Fond names for creatures or things pointed at ("these little guys").
pub(super) const FOND: &[&str] = &[
    "guys", "guy", "ones", "one", "babies", "baby", "cuties", "cutie", "critters", "critter",
    "dudes", "fellas", "buddies", "buddy", "beauties", "beauty", "darlings",
];

/// Prepositions after which "that" is a determiner ("on that trip").
const PREPOSITIONS: Words =
    Words("on in at for with from about during after before into onto to of by near");

/// Whether `text` names `person` (as a word, or possessive): a remark on
/// a thing that names the listener is said to them.
pub(super) fn mentions(text: &str, person: &str) -> bool {
    text.split_whitespace().any(|w| {
        let core = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'');
        core == person || core.strip_suffix("'s") == Some(person)
    })
}

#[cfg(test)]
mod tests {
    use super::super::shape::problem;
    use super::*;

    #[test]
    fn reactions_to_what_is_shown() {
        for fact in [
            "John loves this map.",
            "Melanie loved that painting!",
            "Tim is a huge fan of this genre.",
            "Joanna really likes these colours.",
        ] {
            assert!(reaction(fact), "{fact}");
        }
        for fact in [
            "John loves this map of Middle-earth.",
            "Melanie made this bowl.",
            "Tim loves this time of year.",
            "Nate loves that week.",
            "Joanna likes hiking.",
        ] {
            assert!(!reaction(fact), "{fact}");
        }
    }

    #[test]
    fn an_elided_verb_phrase_points_elsewhere() {
        for fact in [
            "Joanna knows DIYs does too.",
            "Nate thinks Tim did as well.",
            "Maria hopes John can too.",
        ] {
            assert!(problem(fact, &[]).is_some(), "{fact}");
        }
        for fact in [
            "Caroline loves hiking too.",
            "Tim has been to Paris as well.",
            "Nate plays the guitar and the drums too.",
        ] {
            assert_eq!(problem(fact, &[]), None, "{fact}");
        }
    }

    #[test]
    fn pointers_become_indefinite() {
        for (fact, want) in [
            (
                "Melanie made this bowl in class.",
                "Melanie made a bowl in class.",
            ),
            (
                "Nate feeds those turtles every day.",
                "Nate feeds turtles every day.",
            ),
            (
                "John has read that other fantasy series.",
                "John has read another fantasy series.",
            ),
            (
                "Tim took a trip on that island.",
                "Tim took a trip on an island.",
            ),
            (
                "John has been reading this inspiring book.",
                "John has been reading an inspiring book.",
            ),
            // not determiners: a relative, a clause, a pronoun, a time
            (
                "Jo loves doing this cooking.",
                "Jo loves doing this cooking.",
            ),
            (
                "Tim bought the book that John recommended.",
                "Tim bought the book that John recommended.",
            ),
            (
                "Nate discovered that turtles love lettuce.",
                "Nate discovered that turtles love lettuce.",
            ),
            (
                "John wants to learn that too.",
                "John wants to learn that too.",
            ),
            ("Jo paints this week.", "Jo paints this week."),
            ("Caroline painted this.", "Caroline painted this."),
            // a place put first; a way of speaking is no place
            (
                "On that whiteboard, John wrote down some quotes.",
                "On a whiteboard, John wrote down some quotes.",
            ),
            (
                "In that case, John stayed home.",
                "In that case, John stayed home.",
            ),
        ] {
            assert_eq!(indefinite(fact), want, "{fact}");
            assert_eq!(
                problem(&indefinite(fact), &["Melanie"]).is_none(),
                problem(want, &["Melanie"]).is_none()
            );
        }
        assert_eq!(
            problem(
                &indefinite("Melanie made this bowl in class."),
                &["Melanie"]
            ),
            None
        );
    }
}
