//! The shape of a fact, checked on the finished sentence (pronouns and
//! dates resolved): a memory says something about someone, in a sentence
//! that stands alone. Dropped here:
//! - no one as the subject ("Family is everything", "This was a great
//!   reminder for Tim", "Seeing Ana's family dance was awesome"), unless
//!   the subject names a thing ("The launch moved to 12 September");
//! - an evaluation without content ("Tim felt so inspired", "Nate is super
//!   proud of what Nate accomplished", "The Santa Clause is a classic");
//! - a vague complement ("Gina has got something to share", "Nate is
//!   hoping for the best", "John has been a while");
//! - one person doing something with "each other";
//! - a pointer in the predicate ("John read that book", "Melanie made this
//!   bowl", "John wants the kids to learn that too"): what it points at was
//!   said elsewhere, so the sentence does not stand alone.
//!
//! Word lists of general English; the sentence shape decides, not topic.

use super::clauses::{bare, is_verbish};
use super::lead::{after_doing, start};
use super::lexicon::{verb, VerbForm};
use super::pointers::{points_elsewhere, SAYING};
use super::predicate;
use super::vague::content;

pub(super) use super::words::{Words, COPULAS, EMPTY_VERBS, EVALUATIVE, FUNCTION, VAGUE};
use super::words::{GENERIC_SUBJECTS, LEADING, LOOSE, NOT_SO, SUBORDINATING};

/// What [`problem`] says of a speaker's evaluation of a named thing
/// ("Harry Potter is amazing"): not a fact as it stands, but an opinion the
/// speaker holds, which the caller may state as one.
pub const OPINION: &str = "an opinion";

/// Why a finished fact is not shaped like one, if it is not. `people`:
/// who takes part in the conversation (speakers and listeners); a
/// capitalised word that reads as a name counts as a person too.
pub fn problem(fact: &str, people: &[&str]) -> Option<&'static str> {
    let words: Vec<&str> = fact.split_whitespace().collect();
    let s = match start(&words) {
        0 => after_doing(&words, people),
        s => s,
    };
    let rest = &words[s.min(words.len())..];
    // "After Maria moved in 2019.": nothing after the lead
    let Some(first) = rest.first() else {
        return (!words.is_empty()).then_some("a subordinate clause alone");
    };
    if LOOSE.contains(&bare(first).as_str())
        || (SUBORDINATING.contains(&bare(first).as_str())
            && rest.iter().filter(|w| is_verbish(w)).count() <= 1)
    {
        return Some("a subordinate clause alone");
    }
    // "For Nate Nate just gets ...": a name said twice is a broken rewrite
    if rest
        .windows(2)
        .any(|p| p[0] == p[1] && p[0].chars().next().is_some_and(char::is_uppercase))
    {
        return Some("a broken sentence");
    }
    // "'Finding Home' sounds really special", "the cake looks amazing":
    // a reaction to what was told or shown
    let perceived = |w: &str| {
        matches!(
            bare(w).as_str(),
            "sounds" | "sound" | "looks" | "look" | "seems" | "seem"
        )
    };
    // (the main verb: not in a relative clause, "furniture that looks great")
    let relative = |ws: &[&str]| {
        ws.iter()
            .any(|w| matches!(bare(w).as_str(), "that" | "which" | "who"))
    };
    if let Some(p) = rest
        .iter()
        .position(|w| perceived(w))
        .filter(|&p| !relative(&rest[..p]))
    {
        let verdict = rest[p + 1..].iter().map(|w| bare(w)).find(|w| {
            !matches!(
                w.as_str(),
                "so" | "really" | "very" | "super" | "pretty" | "just"
            )
        });
        if verdict.is_some_and(|w| EVALUATIVE.contains(&w.as_str())) {
            return Some("a reaction");
        }
    }
    // "Maybe Nate will start ...": what may be
    if matches!(bare(first).as_str(), "maybe" | "perhaps" | "hopefully") {
        return Some("a possibility, not a fact");
    }
    // "Moments like that make ...", "Things like this ...": it points back
    let opening: Vec<String> = rest.iter().take(4).map(|w| bare(w)).collect();
    if opening
        .windows(2)
        .any(|p| p[0] == "like" && matches!(p[1].as_str(), "that" | "this" | "these" | "those"))
    {
        return Some("about no one");
    }
    // the subject: the words before the first verb ("Ana's sister" is a
    // possessive, not "Ana is")
    // after "X's" meaning "X is" come adjectives, articles, participles and
    // gerunds, never a bare or third-person verb: "Jon's dreams" is Jon's
    let possessive = |j: usize| {
        rest[j].ends_with("'s")
            && rest.get(j + 1).is_some_and(|n| {
                let b = bare(n);
                // ("Ana's left knee": a side, not "Ana has left")
                let side = b == "left"
                    && rest
                        .get(j + 2)
                        .is_some_and(|p| super::lexicon::BODY_PARTS.contains(&bare(p).as_str()));
                // ("Rosa's driving test": a gerund naming an event's kind)
                let kind_of_event = verb(&b).is_some_and(|(_, f)| f == VerbForm::Gerund)
                    && rest
                        .get(j + 2)
                        .is_some_and(|e| super::lexicon::is_event(&bare(e)));
                let noun_like = !is_verbish(n)
                    || n.ends_with("'s")
                    || side
                    || kind_of_event
                    || verb(&b).is_some_and(|(_, f)| matches!(f, VerbForm::Third | VerbForm::Base));
                noun_like && !FUNCTION.contains(&b.as_str())
            })
    };
    // "Dancing makes Jon happy": a gerund phrase is the subject
    // ("\"Becoming Nicole\" is a story": a quoted title, not a doing)
    let quoted = first.starts_with(['"', '\u{201c}']);
    let gerund_subject = !quoted && verb(&bare(first)).is_some_and(|(_, f)| f == VerbForm::Gerund);
    // the verb comes after the title's closing quote
    let from = if quoted {
        rest.iter()
            .position(|w| {
                w.trim_end_matches(|c: char| c.is_ascii_punctuation() && c != '"')
                    .ends_with(['"', '\u{201d}'])
                    && w.len() > 1
            })
            .map_or(1, |k| k + 1)
    } else {
        usize::from(gerund_subject)
    };
    let finite = |j: usize| {
        !(gerund_subject && verb(&bare(rest[j])).is_some_and(|(_, f)| f == VerbForm::Gerund))
    };
    // the word after a possessive is what is owned, not the verb
    let owned = |j: usize| j > 0 && possessive(j - 1);
    // one of the people, or what they own ("John's")
    let named = |w: &str| {
        let b = bare(w);
        let b = b.strip_suffix("'s").unwrap_or(&b);
        people.iter().any(|p| bare(p) == b)
    };
    // (before the verb is looked for: a verb the lexicon lacks leaves
    // the rest of these checks out)
    if super::vague::leans_elsewhere(&rest[1..]) {
        return Some("leans on something said elsewhere");
    }
    let Some(v) = (from..rest.len())
        .find(|&j| is_verbish(rest[j]) && !possessive(j) && !owned(j) && finite(j))
    else {
        // "Chasing our dreams and helping each other out": gerunds and no
        // verb of their own
        // (unless an -s word the lexicon lacks acts on someone named:
        // "Learning ... and seeing ... fascinates John")
        let unknown_verb = rest.windows(2).any(|p| {
            let b = bare(p[0]);
            b.ends_with('s')
                && verb(&b).is_none()
                && people.iter().any(|who| bare(who) == bare(p[1]))
        });
        let joined_gerunds = gerund_subject
            && !unknown_verb
            && rest.windows(2).any(|p| {
                bare(p[0]) == "and" && verb(&bare(p[1])).is_some_and(|(_, f)| f == VerbForm::Gerund)
            });
        return joined_gerunds.then_some("a fragment");
    };
    if v == 0 {
        return Some("no subject");
    }
    // "From a distance Jo means, since ...": "I mean" said in passing
    if matches!(bare(rest[v]).as_str(), "means" | "meant" | "mean")
        && (rest[v].ends_with([',', '.', '!']) || v + 1 == rest.len())
    {
        return Some("talk about the talk");
    }
    // "Knowing Jo has people cheering her on makes it easier": a long
    // gerund phrase is a reflection, not a subject
    // (what it is to someone named is their taste: "Cuddling up with a
    // book is John's chill time")
    let names_someone = rest[v..].iter().any(|w| named(w));
    if gerund_subject && v > 3 && !super::subjects::coordinated_gerunds(rest) && !names_someone {
        return Some("no subject");
    }
    if super::subjects::list_before_verb(rest, v, gerund_subject) {
        return Some("a list, not a sentence");
    }
    let subject = rest[..v].join(" ");
    // "Moments like that", "This necklace", "One of those": a subject that
    // points back. Only where a determiner stands: a "that" further in is
    // a relative clause ("The script that Jo wrote") or a verb the
    // lexicon does not know ("Nate discovered that ..."), not a pointer.
    let points_back = |w: &str| {
        matches!(
            bare(w).as_str(),
            "this" | "that" | "these" | "those" | "such" | "it" | "everyone" | "everything"
        )
    };
    let subject_words = &rest[..v];
    // "Nate probably has ...": a guess, not a fact
    if subject_words
        .iter()
        .any(|w| matches!(bare(w).as_str(), "probably" | "possibly"))
    {
        return Some("a possibility, not a fact");
    }
    // "Crazy things have been going on", "Some stuff happened": things
    // with nothing said of what they were
    if subject_words
        .last()
        .is_some_and(|w| matches!(bare(w).as_str(), "things" | "stuff"))
        && subject_words[..subject_words.len() - 1].iter().all(|w| {
            let b = bare(w);
            EVALUATIVE.contains(&b.as_str())
                || matches!(
                    b.as_str(),
                    "crazy"
                        | "some"
                        | "so"
                        | "many"
                        | "lots"
                        | "of"
                        | "interesting"
                        | "cool"
                        | "weird"
                        | "the"
                        | "all"
                        | "these"
                        | "those"
                )
        })
    {
        return Some("about no one");
    }
    // "One is more adventurous while the other ...": which one is said
    // elsewhere
    if subject_words.len() == 1 && matches!(bare(subject_words[0]).as_str(), "one" | "other") {
        return Some("about no one");
    }
    if points_back(subject_words[0])
        || subject_words.windows(2).any(|p| {
            matches!(bare(p[0]).as_str(), "of" | "like" | "all" | "both") && points_back(p[1])
        })
    {
        return Some("about no one");
    }
    let head = bare(first);
    let head = head.strip_suffix("'s").unwrap_or(&head);
    let capitalised = |w: &str| {
        let (_, core, _) = super::coref::parts(w);
        core.chars().next().is_some_and(char::is_uppercase)
    };
    let the_user = rest.len() > 1 && head == "the" && bare(rest[1]).starts_with("user");
    let is_person = the_user
        || people.iter().any(|p| bare(p) == head)
        || (capitalised(first)
            && super::is_name_word(first)
            && verb(head).is_none()
            && !GENERIC_SUBJECTS.contains(&head)
            && !head.ends_with("ing"));
    // a thing is a subject when it is named ("The Nike deal ..."), or a
    // definite one with a date or number ("The launch moved to 12
    // September"); "this", "that" and the like point back, never at a thing
    let named_thing = !gerund_subject
        && rest[1..v]
            .iter()
            .any(|w| capitalised(w) || w.chars().any(|c| c.is_ascii_digit()));
    // "The shelter gave Maria a medal": a body acting on someone named
    let body_acting = matches!(head, "the" | "a" | "an")
        && rest[v - 1..v]
            .iter()
            .any(|w| super::pronoun_words::is_body(&bare(w)))
        && rest
            .get(v + 1)
            .is_some_and(|w| people.iter().any(|p| bare(p) == bare(w)));
    let dated_thing = matches!(head, "the" | "their" | "our")
        && rest[v..]
            .iter()
            .any(|w| w.chars().any(|c| c.is_ascii_digit()));
    // "Family is so important to Melanie", "Dancing makes Jon happy": a
    // thing as the subject, a person as the object
    let person_in = |ws: &[&str]| {
        ws.iter().any(|w| {
            let b = bare(w);
            let b = b.strip_suffix("'s").unwrap_or(&b);
            named(w) || (capitalised(w) && super::is_name_word(w) && verb(b).is_none())
        })
    };
    // ... with a verb of being, making or giving: a taste or a value
    // (past the auxiliaries: "has been a part of John's life")
    let main = (v..rest.len())
        .find(|&j| {
            !matches!(
                bare(rest[j]).as_str(),
                "has" | "have" | "had" | "will" | "would" | "always" | "really" | "still"
            )
        })
        .unwrap_or(v);
    let taste_verb = rest.get(main).is_some_and(|w| {
        let b = bare(w);
        COPULAS.contains(&b.as_str())
            || verb(&b).is_some_and(|(base, _)| {
                matches!(base, "make" | "help" | "bring" | "give" | "keep" | "mean")
            })
    });
    // "Camping under the stars relaxes Tom": a thing doing something to
    // a person, named right after the verb
    // ("Hiking has opened up a new world for Joanna": a doing, for them)
    // ("The old lighthouse is special to Ana": what a thing is to someone,
    // said right after the verb of being)
    let dear_to = rest
        .get(main)
        .is_some_and(|w| COPULAS.contains(&bare(w).as_str()))
        && rest.get(main + 1).is_some_and(|w| {
            matches!(
                bare(w).as_str(),
                "special" | "important" | "dear" | "precious" | "meaningful" | "everything"
            )
        })
        && rest
            .get(main + 2)
            .is_some_and(|w| matches!(bare(w).as_str(), "to" | "for"))
        && rest
            .get(main + 3)
            .is_some_and(|w| person_in(std::slice::from_ref(w)));
    // ("Contemporary dance really speaks to Gina": what appeals to them)
    let speaks_to = rest[v..].windows(3).any(|p| {
        verb(&bare(p[0])).is_some_and(|(base, _)| matches!(base, "speak" | "appeal" | "matter"))
            && bare(p[1]) == "to"
            && person_in(&p[2..])
    });
    let to_someone = rest
        .get(main + 1)
        .is_some_and(|w| person_in(std::slice::from_ref(w)))
        || dear_to
        || speaks_to
        || (gerund_subject
            && rest[main..]
                .windows(2)
                .any(|p| matches!(bare(p[0]).as_str(), "for" | "to") && person_in(&p[1..])));
    // ("Watching that game was a first for Tim": which game, said before)
    let doing_that = gerund_subject && subject_words.get(1).is_some_and(|w| points_back(w));
    // ("The vet thinks Sofia's dog has arthritis": what a professional
    // said of someone's)
    let reported = super::pronoun_words::reported_of(subject_words, rest.get(main))
        && person_in(&rest[main + 1..]);
    let about_someone = reported
        || (taste_verb || to_someone)
            && !doing_that
            && !matches!(
                head,
                "this"
                    | "that"
                    | "these"
                    | "those"
                    | "it"
                    | "everyone"
                    | "everything"
                    | "there"
                    | "here"
            )
            && (!FUNCTION.contains(&head) || (dear_to && matches!(head, "the" | "a" | "an")))
            && !LEADING.contains(&head)
            && person_in(&rest[v..]);
    // "The poetry reading that Ana went to was ...": a thing someone
    // named did something with is theirs
    let identified = matches!(head, "the" | "a" | "an")
        && rest.iter().take(6).collect::<Vec<_>>().windows(2).any(|p| {
            matches!(bare(p[0]).as_str(), "that" | "which")
                && people.iter().any(|n| bare(n) == bare(p[1]))
        });
    // "The airline cancelled Amara's flight": a thing done, in the past,
    // to what someone has
    let to_theirs = matches!(head, "the" | "a" | "an")
        && !taste_verb
        && rest
            .get(main)
            .is_some_and(|w| matches!(verb(&bare(w)), Some((_, VerbForm::Past))))
        && rest
            .get(main + 1)
            .is_some_and(|w| bare(w).ends_with("'s") && person_in(std::slice::from_ref(w)));
    if matches!(head, "there" | "here")
        || !is_person
            && !named_thing
            && !dated_thing
            && !about_someone
            && !body_acting
            && !identified
            && !to_theirs
            && !super::lexicon::moves_an_event(fact)
    {
        return Some("about no one");
    }
    let singular = !subject.contains(" and ") && !subject.contains(" & ");
    let lower = fact.to_lowercase();
    if singular && (lower.contains("each other") || lower.contains("eachother")) {
        return Some("no one to do it with");
    }
    // the predicate; auxiliaries before another verb are skipped
    let pred = &rest[v..];
    // "Tim likes Tim got a new lease of life": a verb, a name and another
    // verb with nothing to join them is a broken rewrite (a verb of saying
    // takes a clause: "Tim thinks John would love ...")
    if pred.windows(3).any(|p| {
        let takes_clause = verb(&bare(p[0])).is_some_and(|(base, _)| SAYING.contains(&base));
        is_verbish(p[0])
            && !takes_clause
            && capitalised(p[1])
            && super::is_name_word(p[1])
            // ("changing Caroline's lives": whose, then a noun)
            && !p[1].ends_with("'s")
            && verb(&bare(p[2])).is_some_and(|(_, f)| matches!(f, VerbForm::Third | VerbForm::Past))
    }) {
        return Some("a broken sentence");
    }
    // "Veggies are Veggies's fave": the subject owns itself (as what it
    // is, not as someone acted on: "Maria is helping Maria's cousin")
    let owns_itself = pred
        .iter()
        .skip(1)
        .take_while(|w| verb(&bare(w)).is_none() && !bare(w).ends_with("ing"))
        .any(|w| bare(w).strip_suffix("'s") == Some(head));
    if subject_words.len() == 1
        && pred
            .first()
            .is_some_and(|w| COPULAS.contains(&bare(w).as_str()))
        && owns_itself
    {
        return Some("a broken sentence");
    }
    if points_elsewhere(pred) {
        return Some("refers back");
    }
    let i = predicate::main_verb_at(pred);
    // "should", "could", "would love to": what may be, not what is
    if pred
        .first()
        .is_some_and(|w| NOT_SO.contains(&bare(w).as_str()))
    {
        return Some("a possibility, not a fact");
    }
    // "can" states a skill ("Ana can play the violin"), or a possibility
    // ("Gina can reach more people")
    if pred.first().is_some_and(|w| bare(w) == "can") && !predicate::can_is_a_skill(pred) {
        return Some("a possibility, not a fact");
    }
    // "Tim is sure John will succeed": a belief about what will be
    if pred
        .first()
        .is_some_and(|w| COPULAS.contains(&bare(w).as_str()))
        && pred
            .get(1)
            .is_some_and(|w| matches!(bare(w).as_str(), "sure" | "certain" | "convinced"))
    {
        return Some("a belief, not a fact");
    }
    let copula = pred
        .get(i)
        .is_some_and(|w| COPULAS.contains(&bare(w).as_str()));
    // "John's favorite was when ...": a favourite of what, said elsewhere
    if copula
        && subject_words
            .last()
            .is_some_and(|w| matches!(bare(w).as_str(), "favorite" | "favourite" | "fave"))
        && pred.get(i + 1).is_some_and(|w| bare(w) == "when")
    {
        return Some("leans on something said elsewhere");
    }
    // what follows the verb, up to a free relative ("proud of what she
    // did" says nothing of what), without the verb of an infinitive
    let complement = predicate::complement(pred, i);
    // the people talking are no content of their own ("shared something
    // with Maria" says nothing)
    // (or, after a copula, who a relative is, or what state someone's
    // event is in: "Femi's surgery is done")
    // ("Rosa's back has been hurting": a complaint of the body)
    let aching = predicate::aches(subject_words, pred, i);
    let has_content = aching
        || (copula
            && (predicate::names_relative(subject_words, &complement)
                || predicate::state_of_theirs(subject_words, &complement)))
        || complement.iter().any(|w| {
            let b = bare(w);
            let b = b.strip_suffix("'s").unwrap_or(&b);
            content(w, &subject) && !people.iter().any(|p| bare(p) == b)
        });
    // what a thing is to someone is their value or taste ("Family is so
    // important to Melanie"), not an empty evaluation
    // "Sam is special to Tim", "\"Harry Potter\" is dear to John": what
    // someone or something is to another person is that person's value
    let valued = copula
        && complement
            .iter()
            .map(|w| bare(w))
            .skip_while(|w| FUNCTION.contains(&w.as_str()) && w != "to")
            .collect::<Vec<_>>()
            .windows(3)
            .next()
            .is_some_and(|p| {
                matches!(p[0].as_str(), "special" | "important" | "dear" | "precious")
                    && p[1] == "to"
                    && people.iter().any(|who| bare(who) == p[2] && p[2] != head)
            });
    let taste = (!is_person && about_someone) || valued;
    // "Barcelona is a must-visit city": a judgement of a place or a work
    if copula
        && !taste
        && !people.iter().any(|p| bare(p) == head)
        && super::verdicts::judged_kind(&complement)
    {
        return Some(OPINION);
    }
    if copula && !taste {
        let adjective = complement
            .iter()
            .map(|w| bare(w))
            .find(|w| !FUNCTION.contains(&w.as_str()) && !w.ends_with("ly"));
        if adjective.is_some_and(|a| EVALUATIVE.contains(&a.as_str())) && !has_content {
            return Some(if named_thing && !is_person && !about_someone {
                OPINION
            } else {
                "an evaluation"
            });
        }
    }
    // "Nate has had a few offers", "Maria ate yummy food": an object of a
    // kind, with nothing said of which
    let main_base = pred
        .get(i)
        .and_then(|w| verb(&bare(w)))
        .map(|(base, _)| base);
    if main_base.is_some_and(|b| super::vague::PLAIN_VERBS.contains(&b))
        && super::vague::generic_object(&complement)
    {
        return Some("says nothing in particular");
    }
    // "Gina got the tattoo a few years ago", "Joanna will need the
    // recipe": which one was said before
    if main_base.is_some_and(|b| super::vague::HAVING_VERBS.contains(&b))
        && super::vague::bare_definite(&complement)
    {
        return Some("leans on something said elsewhere");
    }
    // "Tim is watching some movies afterwards": after what, said
    // elsewhere ("later" is mostly later than now, and stays)
    if matches!(
        words.last().map(|w| bare(w)).as_deref(),
        Some("afterwards" | "afterward" | "beforehand")
    ) {
        return Some("leans on something said elsewhere");
    }
    // "got a physical copy", "goes a few times a week", "tried one":
    // of what, where, which one
    let having =
        |b: &str| super::vague::HAVING_VERBS.contains(&b) || super::vague::PLAIN_VERBS.contains(&b);
    if (main_base.is_some_and(having) && super::vague::part_of_unsaid(&complement))
        || (main_base == Some("go") && super::vague::going_nowhere(&complement))
        || super::vague::pronoun_object(&pred[i..])
        || super::vague::advice_taken(&pred[i..])
    {
        return Some("leans on something said elsewhere");
    }
    if !has_content && !taste && predicate::says_nothing(pred, i, &complement) {
        return Some("says nothing in particular");
    }
    if (super::vague::bare_activity(pred, &subject) && !aching)
        || super::vague::empty_period(pred)
        || super::vague::object_left_out(&pred[i..])
        || super::vague::bare_resolve(pred)
    {
        return Some("says nothing in particular");
    }
    if super::verdicts::feeling_idiom(&rest[v..]) || super::verdicts::judged_doing(rest) {
        return Some("an evaluation");
    }
    if super::verdicts::forecast(&rest[v..]) {
        return Some("a forecast, not a fact");
    }
    // "Tim is figuring out ideas", "John was stumped about something": the
    // fact ends where what it is about would be said (also with a
    // comparative after it: "part of something bigger")
    if predicate::vague_end(rest) {
        return Some("vague");
    }
    None
}

#[cfg(test)]
#[path = "shape_tests.rs"]
mod tests;
