//! Someone (or a pet) brought in by a clause and named by the next: "I
//! have a new manager now, his name is Tom" -> "My new manager is Tom",
//! "we adopted a puppy, her name is Luna" -> "My puppy is named Luna".
//! Alone, "his name is Tom" leans on a pronoun and is dropped, and the
//! name is lost. Reads the two clauses' words only; the first-person
//! result goes through the extractor like any clause.

use super::clauses::bare;
use super::intro::is_name_word;
use super::lexicon::{verb, PERSON_NOUNS};
use super::surface::upper_first;

/// Who may be named besides the relatives of [`PERSON_NOUNS`] and pets.
pub(super) const ALSO_NAMED: &[&str] = &[
    "manager",
    "boss",
    "supervisor",
    "landlord",
    "landlady",
    "coach",
    "tutor",
    "trainer",
    "dentist",
    "doctor",
    "therapist",
    "roommate",
    "flatmate",
    "baby",
];

/// Pets among them, which are named rather than are their name.
pub(super) const ANIMALS: &[&str] = &[
    "puppy", "dog", "kitten", "cat", "parrot", "rabbit", "hamster", "horse", "bird", "fish",
];

/// `clause` ("his name is Tom", "she's called Luna") said of the one the
/// clause `before` brought in with "my" or "a" ("I have a new manager
/// now"), said as a first-person fact ("My new manager is Tom");
/// `None` otherwise.
pub(super) fn named(clause: &str, before: &str) -> Option<String> {
    let raw: Vec<&str> = clause.split_whitespace().collect();
    let w: Vec<String> = raw.iter().map(|x| bare(x)).collect();
    let at = match w.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["his" | "her" | "their", "name", "is" | "was", ..] => 3,
        ["his" | "her" | "their", "name's", ..] => 2,
        ["he's" | "she's", "called" | "named", ..] => 2,
        ["he" | "she", "is", "called" | "named", ..] => 3,
        _ => return None,
    };
    // one name, or a first and a last name, and nothing after it
    // (only the last word loses its full stop: "Dr. Lee")
    let mut name: Vec<&str> = raw[at..].to_vec();
    if let Some(last) = name.last_mut() {
        *last = last.trim_end_matches(|c: char| !c.is_alphanumeric());
    }
    let capitalised = |x: &&str| x.chars().next().is_some_and(char::is_uppercase);
    if name.is_empty() || name.len() > 2 || !name.iter().all(capitalised) {
        return None;
    }
    let who = introduced(before)?;
    // a person is who the name says ("My new manager is Tom", which answers
    // "who is my manager?"); a pet is named
    let noun = who.rsplit(' ').next().unwrap_or(&who);
    let named = if ANIMALS.contains(&noun) {
        "is named"
    } else {
        "is"
    };
    Some(format!("My {who} {named} {}", name.join(" ")))
}

/// An animal named in apposition, "we also have a younger cat, Tofu, he's
/// 3": "we also have a younger cat named Tofu, he's 3", so the name stays
/// with the animal it names. Only an animal brought in with "a" or "an",
/// and a one-word name between commas (or ending the sentence).
pub(super) fn animal_named(sentence: &str) -> std::borrow::Cow<'_, str> {
    use std::borrow::Cow;
    let words: Vec<&str> = sentence.split_whitespace().collect();
    let Some(i) = words
        .iter()
        .position(|w| w.ends_with(',') && ANIMALS.contains(&bare(w).as_str()))
    else {
        return Cow::Borrowed(sentence);
    };
    let brought_in = words[i.saturating_sub(3)..i]
        .iter()
        .any(|w| matches!(bare(w).as_str(), "a" | "an"));
    let Some(name) = words.get(i + 1) else {
        return Cow::Borrowed(sentence);
    };
    let core = name.trim_end_matches([',', '.', '!']);
    let closes = name.ends_with([',', '.', '!']) || i + 2 == words.len();
    if !brought_in || !closes || !is_name_word(core) || verb(&bare(core)).is_some() {
        return Cow::Borrowed(sentence);
    }
    let noun = words[i].trim_end_matches(',');
    let tail = &name[core.len()..];
    let mut out: Vec<String> = words[..i].iter().map(|w| w.to_string()).collect();
    out.push(format!("{noun} named {core}{tail}"));
    out.extend(words[i + 2..].iter().map(|w| w.to_string()));
    Cow::Owned(out.join(" "))
}

/// Someone brought in without a name and named in the clause after it:
/// "I matched with someone on Hinge, her name is Elif, she's a vet" is
/// "I matched with Elif on Hinge, she's a vet". Only "someone", "a
/// girl", "this guy" and the like, said once before the naming clause; a
/// kind of person ("a new colleague") keeps its noun ("a new colleague
/// named Ana").
pub(super) fn someone_named(sentence: &str) -> std::borrow::Cow<'_, str> {
    use std::borrow::Cow;
    let lower = sentence.to_lowercase();
    let Some((at, len)) = [
        ", her name is ",
        ", his name is ",
        ", their name is ",
        ", her name's ",
        ", his name's ",
        ", their name's ",
        ", she's called ",
        ", he's called ",
    ]
    .iter()
    .find_map(|p| lower.find(p).map(|i| (i, p.len()))) else {
        return Cow::Borrowed(sentence);
    };
    let after = &sentence[at + len..];
    let name_len = after.find([',', '.', '!', '?', ';']).unwrap_or(after.len());
    let name = after[..name_len].trim();
    let words: Vec<&str> = name.split_whitespace().collect();
    if words.is_empty() || words.len() > 2 || !words.iter().all(|w| is_name_word(w)) {
        return Cow::Borrowed(sentence);
    }
    let before: Vec<&str> = sentence[..at].split_whitespace().collect();
    let found: Vec<(usize, usize)> = (0..before.len())
        .filter_map(|i| {
            let w = bare(before[i]);
            let next = before.get(i + 1).map(|n| bare(n));
            match (w.as_str(), next.as_deref()) {
                // ("someone new": the adjective goes with it)
                (
                    "someone" | "somebody",
                    Some("new" | "special" | "else" | "nice" | "lovely" | "great" | "amazing"),
                ) => Some((i, 2)),
                ("someone" | "somebody", _) => Some((i, 1)),
                ("a" | "this", Some("girl" | "guy" | "woman" | "man" | "lady" | "bloke")) => {
                    Some((i, 2))
                }
                _ => None,
            }
        })
        .collect();
    let [(i, n)] = found.as_slice() else {
        return Cow::Borrowed(sentence);
    };
    // (the indefinite's punctuation stays: "someone, ..." keeps its comma)
    let last = before[i + n - 1];
    let tail = &last[last.trim_end_matches([',', '.', '!', '?']).len()..];
    let mut out: Vec<String> = before[..*i].iter().map(|w| w.to_string()).collect();
    out.push(format!("{name}{tail}"));
    out.extend(before[i + n..].iter().map(|w| w.to_string()));
    Cow::Owned(format!("{}{}", out.join(" "), &after[name_len..]))
}

/// A fragment with no verb that names someone close ("Just me and my
/// partner Dana", "me, my wife Sara and the kids"): "My partner is Dana".
/// Only one such person, named by one or two capitalised words right
/// after the noun; pets are named ("My dog is named Rex").
pub(super) fn in_fragment(fragment: &str) -> Option<String> {
    let words: Vec<&str> = fragment.split_whitespace().collect();
    let mut found = None;
    for k in 1..words.len() {
        let noun = bare(words[k]);
        let close = ALSO_NAMED.contains(&noun.as_str())
            || ANIMALS.contains(&noun.as_str())
            || PERSON_NOUNS.iter().any(|(n, plural)| *n == noun && !plural);
        if !close || bare(words[k - 1]) != "my" || words[k].ends_with(',') {
            continue;
        }
        let name: Vec<&str> = words[k + 1..]
            .iter()
            .take(2)
            .map(|w| w.trim_end_matches([',', '.', '!']))
            .take_while(|w| is_name_word(w))
            .collect();
        if name.is_empty() || found.is_some() {
            return None;
        }
        let is = if ANIMALS.contains(&noun.as_str()) {
            "is named"
        } else {
            "is"
        };
        found = Some(format!("My {noun} {is} {}", name.join(" ")));
    }
    found
}

/// Partners: one at a time, and worth remembering on their own.
const PARTNERS: &[&str] = &[
    "girlfriend",
    "boyfriend",
    "wife",
    "husband",
    "partner",
    "fiance",
    "fiancee",
];

/// A partner a clause names in passing ("I'm planning a trip to Japan
/// with my girlfriend Mia"): "My girlfriend is Mia", a fact that outlives
/// the trip (a change of plans supersedes the trip, not who Mia is). Not
/// when the partner is what the clause is about ("My wife Sara is a
/// nurse": that fact names her already).
pub(super) fn partner_in_passing(clause: &str) -> Option<String> {
    let words: Vec<&str> = clause.split_whitespace().collect();
    // (or an animal of the speaker's: "which our dog Bailey will love")
    let k = (2..words.len()).find(|&k| {
        let noun = bare(words[k - 1]);
        matches!(bare(words[k - 2]).as_str(), "my" | "our")
            && (PARTNERS.contains(&noun.as_str()) || ANIMALS.contains(&noun.as_str()))
    })?;
    if k == 2 {
        return None;
    }
    named_at(&words, k, &upper_first(&bare(words[k - 2])))
}

/// Whether `fact` says who someone's partner is ("Rosa's partner is
/// Luis."): kept beside what the clause says of them, as who they are
/// outlasts it ("... is still in Madrid until June").
pub(super) fn partner_named(fact: &str) -> bool {
    let w: Vec<&str> = fact.split_whitespace().collect();
    matches!(w.as_slice(), [whose, partner, "is", name] if whose.ends_with("'s")
        && PARTNERS.contains(&bare(partner).as_str())
        && is_name_word(name.trim_end_matches(['.', '!'])))
}

/// "My girlfriend is Bia" for a clause that opens with the speaker's
/// partner, best friend or someone they live with by name ("my girlfriend
/// Bia is coming too", "my flatmate Ola wants to stay", "her best friend
/// Maisie goes too"), for when what the clause says of them is no fact;
/// `None` otherwise.
pub(super) fn partner_leading(clause: &str) -> Option<String> {
    let words: Vec<&str> = clause.split_whitespace().collect();
    let whose = words.first().map(|w| bare(w)).unwrap_or_default();
    if words.len() < 4 || !matches!(whose.as_str(), "my" | "our" | "his" | "her" | "their") {
        return None;
    }
    let whose = upper_first(&whose);
    // ("best friend Maisie": two words for one)
    if bare(words[1]) == "best" && bare(words[2]) == "friend" {
        let name = words[3].trim_end_matches([',', '.', '!', '?']);
        return is_name_word(name).then(|| format!("{whose} best friend is {name}"));
    }
    let close = PARTNERS.contains(&bare(words[1]).as_str())
        || matches!(
            bare(words[1]).as_str(),
            "flatmate"
                | "housemate"
                | "roommate"
                | "mum"
                | "mom"
                | "mother"
                | "dad"
                | "father"
                | "boss"
                | "manager"
        );
    if close {
        return named_at(&words, 2, &whose);
    }
    // "my sister Mia has been really supportive": one of several, so "I
    // have a sister named Mia"
    let kin = bare(words[1]);
    if !MANY_KIN.contains(&kin.as_str()) {
        return None;
    }
    let name = words[2].trim_end_matches([',', '.', '!', '?']);
    let (who, have) = match whose.as_str() {
        "My" => ("I", "have"),
        "Our" => ("We", "have"),
        "His" => ("He", "has"),
        "Her" => ("She", "has"),
        _ => ("They", "have"),
    };
    is_name_word(name).then(|| format!("{who} {have} a {kin} named {name}"))
}

/// Kin and friends one may have several of, named at the head of a clause.
const MANY_KIN: &[&str] = &[
    "sister",
    "brother",
    "son",
    "daughter",
    "cousin",
    "aunt",
    "uncle",
    "niece",
    "nephew",
    "grandson",
    "granddaughter",
    "friend",
    "colleague",
    "coworker",
];

/// "<whose> girlfriend is Mia" (a pet "is named") for the name at `k`
/// after the partner or pet word at `k - 1`; `None` when no name is there.
fn named_at(words: &[&str], k: usize, whose: &str) -> Option<String> {
    let name = words.get(k)?.trim_end_matches([',', '.', '!', '?']);
    let noun = bare(words[k - 1]);
    // (an animal "is named" Bailey, as a fragment says it)
    let is = if ANIMALS.contains(&noun.as_str()) {
        "is named"
    } else {
        "is"
    };
    is_name_word(name).then(|| format!("{whose} {noun} {is} {name}"))
}

/// Whether `before` does nothing but bring someone in ("I have a new
/// manager now", "I've got a new boss"): the naming clause after it says
/// all it says, and more.
pub(super) fn only_introduces(before: &str) -> bool {
    let w: Vec<String> = before.split_whitespace().map(bare).collect();
    let w: Vec<&str> = w.iter().map(String::as_str).collect();
    let rest = match w.as_slice() {
        ["i", "have" | "got", rest @ ..] | ["i've", "got", rest @ ..] => rest,
        ["i've", rest @ ..] => rest,
        _ => return false,
    };
    let rest = rest.strip_suffix(&["now"]).unwrap_or(rest);
    matches!(rest, ["a" | "an", "new", _] | ["a" | "an", _]) && introduced(before).is_some()
}

/// The one `before` brings in: "a new manager" in "I have a new manager
/// now", "puppy" in "we got a puppy" (with at most two words before the
/// noun, and only one such noun).
fn introduced(before: &str) -> Option<String> {
    let w: Vec<String> = before.split_whitespace().map(bare).collect();
    let is_one = |x: &str| {
        ALSO_NAMED.contains(&x)
            || ANIMALS.contains(&x)
            || PERSON_NOUNS.iter().any(|(n, plural)| *n == x && !plural)
    };
    let mut found: Option<String> = None;
    for (k, x) in w.iter().enumerate() {
        if !is_one(x) {
            continue;
        }
        let Some(det) = (1..=3)
            .filter(|d| k >= *d)
            .find(|d| matches!(w[k - d].as_str(), "a" | "an" | "my" | "our"))
        else {
            continue;
        };
        if found.is_some() {
            return None;
        }
        found = Some(w[k + 1 - det..=k].join(" "));
    }
    found
}

/// Whether `fact` speaks of an animal kept as a pet ("a grey Maine Coon
/// named Pixel" is a cat only by breed, but "adopting a cat" says it):
/// it answers "does Mateo have a pet?" though it says no "pet".
pub fn names_a_pet(fact: &str) -> bool {
    fact.split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .any(|w| {
            let one = w.strip_suffix('s').unwrap_or(&w);
            ANIMALS.contains(&one)
                || matches!(
                    one,
                    "puppie" | "turtle" | "tortoise" | "guinea" | "pony" | "lizard"
                )
        })
}

#[cfg(test)]
mod tests {
    use super::{named, partner_leading, someone_named};

    #[test]
    fn a_partner_leading_a_clause_is_named() {
        assert_eq!(
            partner_leading("my girlfriend Bia is coming too").as_deref(),
            Some("My girlfriend is Bia")
        );
        assert_eq!(
            partner_leading("my flatmate Ola wants to stay").as_deref(),
            Some("My flatmate is Ola")
        );
        assert_eq!(
            partner_leading("her best friend Maisie goes too").as_deref(),
            Some("Her best friend is Maisie")
        );
        assert_eq!(
            partner_leading("my sister Ana is coming").as_deref(),
            Some("I have a sister named Ana")
        );
        assert_eq!(
            partner_leading("my mum Linda is visiting").as_deref(),
            Some("My mum is Linda")
        );
        assert_eq!(partner_leading("my sister is coming"), None);
        assert_eq!(partner_leading("my girlfriend is coming"), None);
    }

    #[test]
    fn an_animal_named_in_apposition_keeps_its_name() {
        use super::animal_named;
        assert_eq!(
            animal_named("we also have a younger cat, Tofu, he's 3"),
            "we also have a younger cat named Tofu, he's 3"
        );
        assert_eq!(
            animal_named("I have a dog, Max."),
            "I have a dog named Max."
        );
        // not a name, or not brought in
        assert_eq!(
            animal_named("I have a dog, but he's old"),
            "I have a dog, but he's old"
        );
        assert_eq!(animal_named("the cat, Tofu, is 3"), "the cat, Tofu, is 3");
    }

    #[test]
    fn someone_named_after_is_that_one() {
        for (said, want) in [
            (
                "so I matched with someone on Hinge, her name is Elif, she's a vet",
                "so I matched with Elif on Hinge, she's a vet",
            ),
            (
                "I met a guy at the climbing gym, his name is Tariq.",
                "I met Tariq at the climbing gym.",
            ),
            (
                "so I've started seeing someone new, his name is Andre, he's a chef",
                "so I've started seeing Andre, he's a chef",
            ),
            (
                "I've started seeing someone new, her name's Ava, we met at the gym",
                "I've started seeing Ava, we met at the gym",
            ),
            // no one brought in, or two, or no name
            (
                "my sister has a new job, her name is Ana",
                "my sister has a new job, her name is Ana",
            ),
            (
                "someone told someone else, her name is Ana",
                "someone told someone else, her name is Ana",
            ),
            (
                "I met someone, her name is hard to say",
                "I met someone, her name is hard to say",
            ),
        ] {
            assert_eq!(someone_named(said), want, "{said}");
        }
    }

    fn check(before: &str, clause: &str, expect: Option<&str>) {
        assert_eq!(
            named(clause, before).as_deref(),
            expect,
            "{before} / {clause}"
        );
    }

    #[test]
    fn a_partner_named_in_passing() {
        use super::partner_in_passing as p;
        assert_eq!(
            p("I am planning a trip to Japan in April with my girlfriend Mia.").as_deref(),
            Some("My girlfriend is Mia")
        );
        assert_eq!(p("My wife Sara is a nurse."), None);
        assert_eq!(p("I went hiking with my friend Tom."), None);
        assert_eq!(p("I went hiking with my partner."), None);
        assert_eq!(
            p("it has a garden, which our dog Bailey is going to love.").as_deref(),
            Some("Our dog is named Bailey")
        );
    }

    #[test]
    fn a_fragment_names_someone_close() {
        use super::in_fragment;
        for (fragment, want) in [
            ("Just me and my partner Dana", Some("My partner is Dana")),
            (
                "Me, my wife Sara Lee and the kids",
                Some("My wife is Sara Lee"),
            ),
            ("My dog Rex!", Some("My dog is named Rex")),
            ("Just me and my partner", None),
            ("My sister Ana and my brother Leo", None),
            ("So much fun with my friends", None),
        ] {
            assert_eq!(in_fragment(fragment).as_deref(), want, "{fragment}");
        }
    }

    #[test]
    fn a_name_goes_to_the_one_just_brought_in() {
        check(
            "I have a new manager now,",
            "his name is Tom.",
            Some("My new manager is Tom"),
        );
        check(
            "We adopted a puppy last week!",
            "She's called Luna",
            Some("My puppy is named Luna"),
        );
        check(
            "We finally got a dog",
            "his name is Biscuit Junior!",
            Some("My dog is named Biscuit Junior"),
        );
        check(
            "I started seeing a therapist",
            "her name is Dr. Lee.",
            Some("My therapist is Dr. Lee"),
        );
    }

    #[test]
    fn a_bare_introduction_says_nothing_the_name_does_not() {
        use super::only_introduces;
        assert!(only_introduces("I have a new manager now,"));
        assert!(only_introduces("I've got a new boss"));
        assert!(!only_introduces("We adopted a puppy last week!"));
        assert!(!only_introduces("I have a new manager who is strict"));
        assert!(!only_introduces("I have a new car"));
    }

    #[test]
    fn otherwise_nothing_changes() {
        // two who could be meant (the baby is the sister's)
        check("My sister met my boss", "her name is Ana", None);
        check("My sister just had a baby", "his name is Leo", None);
        // nobody brought in
        check("I went to the park", "his name is Tom", None);
        // not a name
        check("I have a new manager", "his name is hard to say", None);
        // not about a name
        check("I have a new manager", "he is strict", None);
    }

    #[test]
    fn pets_are_recognised() {
        use super::names_a_pet;
        assert!(names_a_pet("Mateo is adopting a cat named Pixel."));
        assert!(names_a_pet("Nate's turtles get so hyped."));
        assert!(names_a_pet("We got two puppies."));
        assert!(!names_a_pet("Mateo's best friend Yusuf lives in Leeds."));
        assert!(!names_a_pet("Ana works at Catalyst."));
    }
}
