//! Whose "the kids" are: when one person of a conversation spoke of "my
//! kids" (or was asked about "your kids"), "the kids" later in it are
//! theirs, so "The kids loved it" is about Melanie's kids and a "they"
//! after it has someone to mean. Only for relatives, groups and animals,
//! and only when one person alone owns that kind; when both speak of
//! "my kids", "the kids" stay nobody's. What a speaker does with "the
//! kids" ("I took the kids to the zoo") makes them theirs too, unless
//! someone's were spoken of before. Also whose piece of work "the
//! deadline" is (`projects`). Reads text only.

use super::clauses::bare;
use super::lexicon::PERSON_NOUNS;
use super::pronoun_words::animal;
use std::collections::HashMap;

/// Who owns each kind of relative, group or animal spoken of in a
/// conversation: `kids` -> `Melanie`.
#[derive(Debug, Default, Clone)]
pub struct Owners {
    of: HashMap<String, Option<String>>,
    /// Whose piece of work "the deadline" is of.
    projects: super::projects::Projects,
    /// Where each speaker said they live, which their "here" means.
    homes: HashMap<String, String>,
}

/// Whether `noun` is a kind someone has: a relative or group of people, or
/// an animal.
fn owned_kind(noun: &str) -> bool {
    PERSON_NOUNS.iter().any(|(p, _)| *p == noun) || animal(noun).is_some()
}

impl Owners {
    /// Note the owners `text` names: "my X"/"our X" are `speaker`'s, "your
    /// X" are `listener`'s.
    pub fn note(&mut self, text: &str, speaker: Option<&str>, listener: Option<&str>) {
        self.projects.note(text, speaker);
        let words: Vec<&str> = text.split_whitespace().collect();
        if let Some((home, speaker)) = super::home::home_said(&words).zip(speaker) {
            self.homes.insert(speaker.to_string(), home);
        }
        for pair in words.windows(2) {
            let owner = match bare(pair[0]).as_str() {
                "my" | "our" => speaker,
                "your" => listener,
                _ => continue,
            };
            let (Some(owner), noun) = (owner, bare(pair[1])) else {
                continue;
            };
            if !owned_kind(&noun) || noun == "family" || noun == "fam" {
                continue;
            }
            let entry = self
                .of
                .entry(noun)
                .or_insert_with(|| Some(owner.to_string()));
            // two owners: whose is not said
            if entry.as_deref() != Some(owner) {
                *entry = None;
            }
        }
        // "I've got a monstera and two pothos": a thing the speaker says
        // they have is what "the monstera" later means
        for (noun, owner) in super::had::had_things(&words, speaker) {
            let entry = self.of.entry(noun).or_insert_with(|| Some(owner.clone()));
            if entry.as_deref() != Some(owner.as_str()) {
                *entry = None;
            }
        }
        // "I took the kids to the museum": what the speaker does with "the
        // kids" of their own accord, when no one has claimed them, are theirs
        for w in words.windows(4) {
            let (Some(owner), true) = (speaker, matches!(bare(w[0]).as_str(), "i" | "we")) else {
                continue;
            };
            let noun = bare(w[3]);
            let doing = matches!(
                super::lexicon::verb(&bare(w[1])),
                Some((
                    _,
                    super::lexicon::VerbForm::Past | super::lexicon::VerbForm::Base
                ))
            );
            if doing
                && bare(w[2]) == "the"
                && owned_kind(&noun)
                && !matches!(noun.as_str(), "family" | "fam")
            {
                self.of
                    .entry(noun)
                    .or_insert_with(|| Some(owner.to_string()));
            }
        }
    }

    /// `clause` with each "the X" of a kind its speaker alone owns said as
    /// "my X" (the speakers' pronouns are resolved after this).
    /// `clause` with what belongs to the one piece of work said so ("the
    /// builder" -> "the builder for the kitchen"), for a clause whose
    /// pronouns were just read as such things.
    pub fn of_work(&self, clause: &str, speaker: &str) -> String {
        self.projects.rewrite(clause, speaker)
    }

    pub fn rewrite(&self, clause: &str, speaker: &str) -> String {
        let clause = super::owned_event::own_event(clause)
            .or_else(|| super::home::own_room(clause))
            .unwrap_or_else(|| clause.to_string());
        let clause = kin_named(&clause).unwrap_or(clause);
        let clause = match self.homes.get(speaker) {
            Some(home) => super::home::here_as_home(&clause, home),
            None => super::home::here_left_out(&clause),
        }
        .unwrap_or(clause);
        let clause = bare_own(&clause)
            .or_else(|| bare_aim(&clause))
            .or_else(|| bare_term(&clause))
            .unwrap_or(clause);
        // ("my budget" is then the one piece of work's)
        let clause = self.projects.rewrite(&clause, speaker);
        if self.of.is_empty() {
            return clause;
        }
        let words: Vec<&str> = clause.split_whitespace().collect();
        let mut out: Vec<String> = Vec::with_capacity(words.len());
        for (i, w) in words.iter().enumerate() {
            let the = bare(w) == "the" && !w.ends_with([',', '.', '!', '?']);
            // ("the 2 younger kids", "the little ones": which of them)
            let which = words[i + 1..]
                .iter()
                .take(2)
                .take_while(|m| {
                    let m = bare(m);
                    m.chars().all(|c| c.is_ascii_digit())
                        || matches!(
                            m.as_str(),
                            "two"
                                | "three"
                                | "four"
                                | "younger"
                                | "older"
                                | "little"
                                | "eldest"
                                | "youngest"
                                | "oldest"
                                | "big"
                        )
                })
                .count();
            let owner = words
                .get(i + 1 + which)
                .filter(|_| the && !words[i + 1..i + 1 + which].iter().any(|m| m.ends_with(',')))
                .and_then(|n| self.of.get(&bare(n)))
                .and_then(|o| o.as_deref());
            // (only the owner's own "the kids" are theirs: the listener's
            // "the kids" may be any kids, "a talent show for the kids")
            let word = match owner {
                Some(o) if o == speaker => "my",
                _ => {
                    out.push(w.to_string());
                    continue;
                }
            };
            // keep the capital of a sentence's first word
            out.push(if w.starts_with('T') {
                super::surface::upper_first(word)
            } else {
                word.to_string()
            });
        }
        out.join(" ")
    }
}

/// Whose a thing is, read from a clause's subject (the words before its
/// verb): the speaker's for "I" or "we" ("my"), a relative's or an
/// animal's said with "my" or "our" ("my sister's", "our dog Churro's"),
/// or someone's named alone ("Priya's"); `None` for a pronoun or a longer
/// subject.
pub(super) fn whose_subject(subject: &[&str]) -> Option<String> {
    let first = bare(subject.first()?);
    match first.as_str() {
        "i" | "i'm" | "i've" | "we" | "we're" | "we've" if subject.len() <= 2 => {
            Some("my".to_string())
        }
        "my" | "our" if subject.len() <= 4 => Some(format!("{}'s", subject.join(" "))),
        "he" | "she" | "they" | "it" => None,
        _ if subject.len() == 1 && super::clauses::capitalised(subject[0]) => {
            Some(format!("{}'s", subject[0]))
        }
        _ => None,
    }
}

/// Kin a speaker calls by what they are to them, as a name ("we moved
/// Dad into a care home", "Mum's neurologist"): their own.
const KIN_NAMES: &[&str] = &[
    "Dad", "Mom", "Mum", "Mommy", "Mummy", "Daddy", "Grandma", "Grandpa", "Granny", "Nana",
    "Grandad", "Granddad", "Gran", "Nan",
];

/// A clause in which a speaker calls their kin "Dad" or "Mum" (or opens
/// with a bare "dad"), said with "my": "we moved my dad into a care
/// home".
fn kin_named(clause: &str) -> Option<String> {
    let words: Vec<&str> = clause.split_whitespace().collect();
    let mut changed = false;
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    for (i, w) in words.iter().enumerate() {
        let core = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'');
        let (name, tail) = match core.strip_suffix("'s") {
            Some(n) => (n, "'s"),
            None => (core, ""),
        };
        // ("my Dad", "Grandma Rose": already someone's, or a name)
        let owned = i > 0
            && matches!(
                bare(words[i - 1]).as_str(),
                "my" | "our" | "your" | "his" | "her" | "their" | "the" | "a"
            );
        let named = words
            .get(i + 1)
            .is_some_and(|n| super::intro::is_name_word(n) && !w.ends_with([',', '.']));
        // ("dad is retiring", "mum's surgery went well": in chat a bare
        // "dad" opening the clause is the speaker's too, and so is one right
        // after a verb or a preposition: "we moved gran into a care home")
        let after_verb = i > 0 && {
            let b = bare(words[i - 1]);
            matches!(
                b.as_str(),
                "with" | "to" | "for" | "into" | "at" | "from" | "about" | "visit" | "visited"
            ) || super::lexicon::verb(&b).is_some_and(|(_, f)| {
                matches!(
                    f,
                    super::lexicon::VerbForm::Past
                        | super::lexicon::VerbForm::Base
                        | super::lexicon::VerbForm::Third
                )
            })
        };
        let kin = KIN_NAMES.contains(&name)
            || ((i == 0 || after_verb) && KIN_NAMES.iter().any(|k| k.to_lowercase() == name));
        if !kin || owned || named {
            out.push(w.to_string());
            continue;
        }
        let at = w.find(core).unwrap_or(0);
        let my = if i == 0 { "My" } else { "my" };
        out.push(format!(
            "{}{my} {}{tail}{}",
            &w[..at],
            name.to_lowercase(),
            &w[at + core.len()..]
        ));
        changed = true;
    }
    changed.then(|| out.join(" "))
}

/// What someone has one of and speaks of with no "my" in chat ("rent is
/// 1450", "budget is around 25k"), besides the people who work for them.
const OWN_AMOUNTS: &[&str] = &[
    "rent", "budget", "salary", "income", "mortgage", "commute", "deadline",
];

/// A clause that opens with a bare noun for someone's own person or
/// amount and "is" ("contractor is Bruno from BuildRight", "budget is
/// around 25k"), said with "my": whose it is.
fn bare_own(clause: &str) -> Option<String> {
    // ("the commute is only 20 minutes", "the rent is 1450": an amount of
    // one's own said with "the")
    if let Some(rest) = clause
        .strip_prefix("the ")
        .or_else(|| clause.strip_prefix("The "))
    {
        let noun = rest.split_whitespace().next().map(bare).unwrap_or_default();
        // (not "the deadline" or "the budget": those are a piece of
        // work's, which `projects` reads)
        if OWN_AMOUNTS.contains(&noun.as_str()) && !matches!(noun.as_str(), "deadline" | "budget") {
            let said = bare_own(rest)?;
            return Some(if clause.starts_with('T') {
                super::surface::upper_first(&said)
            } else {
                said
            });
        }
    }
    let all: Vec<&str> = clause.split_whitespace().collect();
    // ("new tutor is Aiko": a new one, as bare)
    let new = all.len() > 2 && bare(all[0]) == "new" && !all[0].ends_with([',', '.']);
    let words = &all[usize::from(new)..];
    let [first, be, ..] = words else {
        return None;
    };
    let noun = bare(first);
    let rest_lower = first.chars().skip(1).all(|c| c.is_lowercase());
    // an amount said ("around 25k"), or who by name ("Bruno from ...")
    let after = &words[2..];
    let amount = after
        .iter()
        .take(3)
        .any(|w| w.chars().any(|c| c.is_ascii_digit()));
    let named = after.first().is_some_and(|w| {
        super::intro::is_name_word(w) || matches!(*w, "Dr." | "Dr" | "Mr." | "Mrs." | "Ms.")
    });
    // ("migraines are down to once a month": one's own symptoms)
    let symptoms = super::lexicon::SYMPTOMS.contains(&noun.as_str())
        && matches!(bare(be).as_str(), "are" | "were");
    let own = (OWN_AMOUNTS.contains(&noun.as_str()) && amount)
        || symptoms
        || (named
            && (super::lexicon::is_occupation(&noun)
                || matches!(
                    noun.as_str(),
                    "boss"
                        | "manager"
                        | "landlord"
                        | "landlady"
                        | "doctor"
                        | "dentist"
                        | "vet"
                        | "coach"
                )));
    if !own
        || !rest_lower
        || first.ends_with([',', '.'])
        || !(symptoms || matches!(bare(be).as_str(), "is" | "was"))
    {
        return None;
    }
    if new && amount && !named {
        return None;
    }
    let new = if new { "new " } else { "" };
    Some(format!(
        "{} {new}{noun} {}",
        my_as(all[0]),
        words[1..].join(" ")
    ))
}

/// Agreements someone holds for a term, spoken of with no "my" in chat
/// ("lease ends in June", "visa expires in March").
const OWN_TERMS: &[&str] = &[
    "lease",
    "tenancy",
    "contract",
    "visa",
    "passport",
    "subscription",
    "membership",
    "probation",
    "internship",
    "residency",
];

/// A clause that opens with a bare noun for an agreement of one's own and
/// a verb of its term starting or ending ("lease ends in June anyway",
/// "contract expires in August"), said with "my": whose it is.
fn bare_term(clause: &str) -> Option<String> {
    let words: Vec<&str> = clause.split_whitespace().collect();
    let [first, verb, _, ..] = words.as_slice() else {
        return None;
    };
    let ends = matches!(
        bare(verb).as_str(),
        "ends"
            | "expires"
            | "starts"
            | "begins"
            | "renews"
            | "runs"
            | "finishes"
            | "ended"
            | "expired"
            | "started"
            | "began"
            | "renewed"
    );
    let lower = first.chars().skip(1).all(|c| c.is_lowercase());
    (ends && lower && !first.ends_with([',', '.']) && OWN_TERMS.contains(&bare(first).as_str()))
        .then(|| format!("{} {}", my_as(first), super::notes::lower_first(clause)))
}

/// A clause that opens with a bare noun phrase for an aim or a best of
/// one's own and "is" ("next goal is a full marathon in spring",
/// "longest run so far is 16k"), said with "my": whose it is.
fn bare_aim(clause: &str) -> Option<String> {
    let words: Vec<&str> = clause.split_whitespace().collect();
    let v = (1..words.len().min(5)).find(|&i| matches!(bare(words[i]).as_str(), "is" | "was"))?;
    // ("... so far is": said before the verb)
    let end = match words[..v] {
        [.., a, b] if bare(a) == "so" && bare(b) == "far" => v - 2,
        _ => v,
    };
    let phrase = &words[..end];
    if phrase.len() < 2
        || phrase.len() > 3
        || words.len() < v + 2
        || phrase.iter().enumerate().any(|(i, w)| {
            w.ends_with([',', '.', '!', '?'])
                || !w
                    .chars()
                    .skip(usize::from(i == 0))
                    .all(|c| c.is_lowercase() || c == '-')
        })
    {
        return None;
    }
    let head = bare(phrase[phrase.len() - 1]);
    let amount = words[v + 1..]
        .iter()
        .take(3)
        .any(|w| w.chars().any(|c| c.is_ascii_digit()));
    let own = super::lexicon::OWN_AIMS.contains(&head.as_str())
        || (amount
            && phrase[..phrase.len() - 1]
                .iter()
                .any(|w| super::lexicon::OWN_BESTS.contains(&bare(w).as_str())));
    // ("the next goal", "a plan": someone's already, or any)
    let first = bare(phrase[0]).to_lowercase();
    let determiner = matches!(
        first.as_str(),
        "the" | "a" | "an" | "my" | "our" | "his" | "her" | "their" | "your" | "this" | "that"
    );
    // ("the goal is to pass N5 in July": the speaker's aim, said so)
    let the_aim = first == "the" && super::lexicon::OWN_AIMS.contains(&head.as_str());
    if !own || (determiner && !the_aim) {
        return None;
    }
    // ("the goal is ..." -> "my goal is ...", "next goal is ..." -> "my
    // next goal is ...")
    let kept = if the_aim {
        String::new()
    } else {
        format!("{first} ")
    };
    Some(format!(
        "{} {kept}{}",
        my_as(words[0]),
        words[1..].join(" ")
    ))
}

/// "my", capitalised as `opening` is (it takes that word's place at the
/// front of the clause).
pub(super) fn my_as(opening: &str) -> &'static str {
    if opening.starts_with(char::is_uppercase) {
        "My"
    } else {
        "my"
    }
}

#[cfg(test)]
#[path = "owners_tests.rs"]
mod tests;
