//! Third-person pronouns ("she", "him", "their", "it") resolved to who
//! was just mentioned, or reported unresolved so the clause is not kept as
//! a memory: "My sister lives in Denver and she convinced me" gives "Ben's
//! sister convinced Ben", while "Audrey's furry friends love them" (who?)
//! gives nothing.
//!
//! Antecedents are people named in the same turn or the one before:
//! names, and relatives or groups by a possessive ("Ben's sister",
//! "Melanie's kids"); and animals someone has ("Sven's puppy"), which
//! "he", "she" and, within the same turn, "it" may mean. Other things
//! ("it", "this", "that") are never guessed.

use super::carried::{carries_subject, thing_subject};
use super::clauses::{bare, is_verbish};
use super::coref::parts as strip;
use super::lexicon::PERSON_NOUNS;
pub(super) use super::pronoun_cues::thing_before;
use super::pronoun_cues::{
    agrees, anticipatory_it, arrived, lets_act, named_as, names_someones, object_at, object_it,
    owned_at, subject_it, topic, unnamed_person_before,
};
use super::pronoun_words::{
    animal, plural_subject, whole_animal, BODIES, GROUPS, NOT_NOUNS, THIRD,
};
use super::surface::upper_first;

/// How many turns back who the talk is about stays in reach, while no one
/// else is named.
const CENTER_TURNS: usize = 4;

/// What a mention is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A person ("Ben's sister", "Sam").
    One,
    /// A group of people ("Melanie's kids", "Sam and Ben").
    Many,
    /// An animal someone has ("Sven's puppy"); `true` when plural.
    Animal(bool),
    /// People spoken of as a kind ("the kids", "friends", "my mentors"):
    /// never what a pronoun is resolved to, but after them "they" is not a
    /// body; `true` when someone's ("my friends, family and mentors").
    Crowd(bool),
    /// A place that acts as a body ("the homeless shelter", "a tech
    /// company"), which "they" may mean in the same turn when no people
    /// were named since.
    Body,
}

/// People (and animals) mentioned recently, newest last.
#[derive(Debug, Default, Clone)]
pub struct Antecedents {
    /// `(text, turn, kind)`.
    mentions: Vec<(String, usize, Kind)>,
    /// Whose "the kids" are, in this conversation.
    pub owners: std::sync::Arc<super::owners::Owners>,
    /// The thing the clause last observed was about ("Flowers bring
    /// joy"), which an "it" or "they" opening the next clause of the same
    /// turn carries on: `(thing, turn, plural)`.
    last_thing: Option<(String, usize, bool)>,
    /// Who the last "he" or "she" meant, while every clause since that
    /// spoke of someone spoke of them again: the one the talk is about
    /// ("My son Theo starts school. His best friend is a boy called Arjun.
    /// ... he loves his new uniform": Theo, not Arjun).
    center: Option<String>,
}

/// Whether `name` is `person` or a short form of it ("Mel" for "Melanie",
/// "Jo" for "Joanna"): the speaker or listener called by a nickname is
/// still not someone else a "she" could mean.
fn same_person(person: &str, name: &str) -> bool {
    person == name
        || (name.chars().count() >= 2
            && person.len() > name.len()
            && person.starts_with(name)
            && !person.contains(' '))
}

impl Antecedents {
    /// None yet, in a conversation whose owners of "the kids" are `owners`.
    pub fn with_owners(owners: super::owners::Owners) -> Self {
        Antecedents {
            mentions: Vec::new(),
            owners: std::sync::Arc::new(owners),
            last_thing: None,
            center: None,
        }
    }

    /// Forget mentions older than the turn before `turn` (the two turns
    /// before when `asked_back`: the turn before asked about them with a
    /// pronoun, "What were they so stoked about?"; and one person, not a
    /// group, an animal or a thing, when the turn before named no one:
    /// "Lena and I got engaged!" - "How did you propose?" - "She said yes
    /// before I finished").
    ///
    /// Who the talk is about (the last "he" or "she" meant) stays in reach
    /// up to [`CENTER_TURNS`] turns while no one else was named since: "her
    /// name is Elif, she's a vet" - "Have you met up yet?" - "first date is
    /// friday" - "she has a greyhound" is still Elif.
    pub fn age(&mut self, turn: usize, asked_back: bool) {
        let quiet = turn > 0 && !self.mentions.iter().any(|(_, t, _)| *t + 1 == turn);
        let reach = 1 + usize::from(asked_back);
        let newest = self
            .mentions
            .iter()
            .filter(|(_, _, k)| matches!(k, Kind::One | Kind::Many))
            .map(|(_, t, _)| *t)
            .max();
        let center = self.center.clone();
        let talked_of = |x: &str, t: usize, k: Kind| {
            k == Kind::One
                && center.as_deref() == Some(x)
                && Some(t) == newest
                && t + CENTER_TURNS >= turn
        };
        // (one person only: "them" two turns on is as likely things)
        self.mentions.retain(|(x, t, k)| {
            t + reach >= turn || (quiet && t + 2 >= turn && *k == Kind::One) || talked_of(x, *t, *k)
        });
    }

    /// Note animals of `owner` that turn `turn` showed ("Nate's turtles").
    pub fn note_animals(&mut self, owner: &str, animals: &str, turn: usize) {
        self.push(format!("{owner}'s {animals}"), turn, Kind::Animal(true));
    }

    fn push(&mut self, text: String, turn: usize, kind: Kind) {
        self.mentions.push((text, turn, kind));
    }

    /// The newest mention that `fits`, from the turn `same_turn` if given.
    fn latest(&self, fits: impl Fn(Kind) -> bool) -> Option<(&str, usize, usize)> {
        self.mentions
            .iter()
            .enumerate()
            .rev()
            .find(|(_, (_, _, k))| fits(*k))
            .map(|(i, (t, turn, _))| (t.as_str(), *turn, i))
    }

    /// Who "we" means in turn `turn`: the speaker and whoever they named
    /// last in this turn ("my parents visited; we went to the zoo"), else
    /// the speaker alone.
    pub fn we(&self, turn: usize) -> super::coref::We {
        let companion = self
            .latest(|k| matches!(k, Kind::One | Kind::Many))
            .filter(|(_, t, _)| *t == turn)
            .map(|(text, _, _)| text.to_string());
        super::coref::We { companion }
    }

    /// Who "we" means in something done together ("we're seeing each
    /// other again"): as [`Self::we`], else who the talk is about, while in
    /// reach ("date went really well! we're seeing each other again" after
    /// "her name is Elif, she's a vet").
    pub fn we_together(&self, turn: usize) -> super::coref::We {
        let we = self.we(turn);
        if we.companion.is_some() {
            return we;
        }
        let companion = self
            .center
            .as_deref()
            .filter(|c| {
                self.mentions
                    .iter()
                    .any(|(t, _, k)| t == c && *k == Kind::One)
            })
            .map(str::to_string);
        super::coref::We { companion }
    }

    /// Note what clause `text` of turn `turn` is about, if a thing
    /// ("Flowers bring joy"), for an "it" or "they" opening the next clause
    /// to carry on; a clause about something else breaks the chain.
    pub fn note_subject(&mut self, text: &str, turn: usize, names: &[String]) {
        let words: Vec<&str> = text.split_whitespace().collect();
        self.last_thing = thing_subject(&words, names)
            .or_else(|| super::carried::liked_things(&words, names))
            .map(|(thing, plural)| (thing, turn, plural));
    }

    /// The clause with the "it" or "they" that opens it replaced by the
    /// thing the clause before in this turn was about, when it carries
    /// that subject on:
    /// "Flowers bring joy. They were part of my wedding decor" -> "Flowers
    /// were part of my wedding decor".
    pub fn carried(&self, clause: &str, turn: usize) -> Option<String> {
        let words: Vec<&str> = clause.split_whitespace().collect();
        let (lead, core, trail) = strip(words.first()?);
        let plural = match core.to_lowercase().as_str() {
            "it" => false,
            "they" => true,
            _ => return None,
        };
        let (thing, _, _) = self
            .last_thing
            .as_ref()
            .filter(|(_, t, p)| *t == turn && *p == plural)?;
        // (people or animals of this turn are what "they" means)
        let people_here = plural
            && self
                .mentions
                .iter()
                .any(|(_, t, k)| *t == turn && matches!(k, Kind::Many | Kind::Animal(true)));
        if people_here || !carries_subject(&words, plural) {
            return None;
        }
        let thing = upper_first(thing);
        let rest = words[1..].join(" ");
        Some(format!("{lead}{thing}{trail} {rest}"))
    }

    /// The clause with its third-person pronouns replaced by who they
    /// mean; `None` when one cannot be resolved. A pronoun may also point
    /// back to someone named earlier in the clause itself ("my brother Dev
    /// plays for his county"), never to someone named after it.
    #[cfg(test)]
    pub fn resolve(
        &self,
        clause: &str,
        turn: usize,
        names: &[String],
        exclude: &[&str],
    ) -> Option<String> {
        self.resolve_centered(clause, turn, names, exclude)
            .map(|(text, _)| text)
    }

    /// [`Self::resolve`], and whom its last "he" or "she" meant.
    pub fn resolve_centered(
        &self,
        clause: &str,
        turn: usize,
        names: &[String],
        exclude: &[&str],
    ) -> Option<(String, Option<String>)> {
        let mut center = None;
        // (whether the pronoun that set `center` was a "she")
        let mut she: Option<bool> = None;
        let female = |p: &str| p.starts_with("she") || p.starts_with("her");
        let words: Vec<&str> = clause.split_whitespace().collect();
        let mut out: Vec<String> = Vec::with_capacity(words.len());
        // the verb after a "they" read as one ("the builder starts")
        let mut agree_at = None;
        for (i, w) in words.iter().enumerate() {
            let (lead, core, trail) = strip(w);
            if agree_at == Some(i) {
                if let Some(said) = super::coref::singular_verb(w) {
                    out.push(said);
                    continue;
                }
            }
            let lower = core.to_lowercase().replace('\u{2019}', "'");
            // ("the Head of IT": IT in capitals inside a clause is the trade)
            let trade = core == "IT" && i > 0 && words[i - 1].chars().any(char::is_lowercase);
            if !THIRD.contains(&lower.as_str()) || trade {
                out.push(w.to_string());
                continue;
            }
            // a kind of people just mentioned in this clause (not owned by
            // anyone: "my kids" is someone's, and resolved below)
            // (or a body: "a tech company that needs my skills for their
            // hardware team"; or one person named, as "they" may mean one:
            // "Laura wrote us a letter expressing their gratitude")
            if matches!(lower.as_str(), "their" | "theirs" | "them" | "themselves")
                && (1..i).any(|j| {
                    let b = bare(words[j]);
                    let named = names.iter().any(|n| *n == strip(words[j]).1)
                        && !exclude.iter().any(|e| same_person(e, &b));
                    let whose = matches!(lower.as_str(), "their" | "theirs");
                    // ("helping my neighbours move their furniture": a
                    // possessive right after people of someone's is theirs)
                    let own_people = whose
                        && j + 3 >= i
                        && super::lexicon::PERSON_NOUNS.iter().any(|(p, many)| {
                            *many && *p == b && !matches!(*p, "team" | "crew" | "family" | "fam")
                        });
                    if own_people {
                        return true;
                    }
                    (GROUPS.contains(&b.as_str())
                        || (whose && (super::pronoun_words::is_body(&b) || named)))
                        && !matches!(
                            bare(words[j - 1]).as_str(),
                            "my" | "our" | "his" | "her" | "their" | "your"
                        )
                        && !words[j - 1].ends_with("'s")
                })
            {
                out.push(w.to_string());
                continue;
            }
            // someone not named, brought in earlier in this clause ("a
            // story about a trans girl and her family", "met a woman and her
            // dog"): the pronoun is theirs, and the clause says so itself
            if matches!(
                lower.as_str(),
                "he" | "she" | "him" | "her" | "his" | "hers" | "himself" | "herself"
            ) && unnamed_person_before(&words[..i])
            {
                out.push(w.to_string());
                continue;
            }
            // who was named before this word, in this clause or earlier
            let mut seen = self.clone();
            if i > 0 {
                seen.observe(&words[..i].join(" "), turn, names, exclude);
            }
            let mut latest = seen.latest(|k| matches!(k, Kind::One | Kind::Animal(false)));
            // (someone named in this clause before the pronoun is who it
            // means: "my brother Dev plays for his county")
            let mut in_clause = latest.is_some_and(|(_, _, at)| at >= self.mentions.len());
            // ... but an object is never the clause's own subject ("my aunt
            // Siobhan moved in with her", "Edinburgh is her first choice")
            let copular = i > 0 && matches!(bare(words[i - 1]).as_str(), "is" | "was");
            if in_clause && (object_at(&words, i, &lower) || copular) {
                let subject_end = words
                    .iter()
                    .position(|w| super::clauses::is_verbish(w))
                    .unwrap_or(0);
                let is_subject = latest.is_some_and(|(t, _, _)| {
                    let last = t.rsplit(' ').next().unwrap_or(t);
                    words[..subject_end].iter().any(|w| strip(w).1 == last)
                });
                if is_subject {
                    latest = self.latest(|k| matches!(k, Kind::One | Kind::Animal(false)));
                    in_clause = false;
                }
            }
            // who the talk is about, if still in reach, over someone only
            // brought in since
            let centered = self.center.as_deref().filter(|c| {
                agrees(&lower, c)
                    && self
                        .mentions
                        .iter()
                        .any(|(t, _, k)| t == c && matches!(k, Kind::One | Kind::Animal(false)))
            });
            let one = match centered {
                Some(c) if !in_clause => Some(c.to_string()),
                _ => latest.map(|(t, _, _)| t.to_string()),
            }
            // ("My sister had a baby, his name is Leo": not the sister)
            .filter(|t| agrees(&lower, t));
            // ("she says he's doing great": he is not who she was)
            let one = match (&center, she) {
                (Some(c), Some(was)) if one.as_ref() == Some(c) && was != female(&lower) => {
                    seen.latest_but(c, &lower)
                }
                _ => one,
            };
            // ("my gran still loves her crosswords": the subject's own, which
            // the clause already names; "her" says it)
            let subject_own = in_clause
                && matches!(lower.as_str(), "her" | "his")
                && one.as_deref().is_some_and(|t| t.contains("'s "))
                && words
                    .first()
                    .is_some_and(|f| matches!(bare(f).as_str(), "my" | "our"))
                // ("my sister told me her boss is mean": a report, whose
                // clause stands alone later)
                && !words[..i].iter().any(|w| {
                    matches!(
                        bare(w).as_str(),
                        "told" | "said" | "says" | "mentioned" | "thinks" | "thought" | "tells"
                    )
                })
                && !object_at(&words, i, &lower);
            if subject_own {
                out.push(w.to_string());
                continue;
            }
            // ("for when I have kids. I look forward to reading to them":
            // people of no one's, spoken of since in this turn, are who
            // "them" means, not the ones named before)
            let crowd_since = |(many, mt, at): (&str, usize, usize)| {
                seen.mentions[at + 1..].iter().any(|(c, ct, k)| {
                    *k == Kind::Crowd(false)
                        && *ct == turn
                        && !(*ct == mt && many.rsplit(' ').next() == Some(c.as_str()))
                })
            };
            let many = seen
                .latest(|k| matches!(k, Kind::Many | Kind::Animal(true)))
                .filter(|m| !crowd_since(*m))
                .map(|(t, _, _)| t.to_string());
            // "it" is an animal named in this very turn, or nothing
            let it = seen
                .latest(|k| k == Kind::Animal(false))
                .filter(|(_, t, _)| *t == turn)
                .map(|(t, _, _)| t.to_string());
            // a body named in a turn that spoke of no group of people or
            // animals: "I volunteered at the shelter and they gave me a
            // medal" (but not "we took the kids to the museum and they ...")
            let crowd = seen.mentions.iter().any(|(_, t, k)| {
                *t == turn && matches!(k, Kind::Many | Kind::Animal(true) | Kind::Crowd(_))
            });
            let body = seen
                .latest(|k| k == Kind::Body)
                .filter(|(_, t, _)| *t == turn && !crowd)
                .map(|(t, _, _)| t.to_string());
            let (one, many, it) = (one.as_deref(), many.as_deref(), it.as_deref());
            let body = body.as_deref();
            let next = words.get(i + 1).map(|n| bare(n)).unwrap_or_default();
            // a possessive "her" comes before a noun, an object "her" does not
            let acts = i > 0 && lets_act(&bare(words[i - 1]), &next);
            // ("her first choice", "his last day": an order before a noun)
            let ordered = matches!(next.as_str(), "first" | "last" | "next")
                && words
                    .get(i + 2)
                    .is_some_and(|n| !NOT_NOUNS.contains(&bare(n).as_str()) && !is_verbish(n));
            let noun_follows = !next.is_empty()
                && !trail.starts_with([',', '.', '!', '?', ';'])
                && (!NOT_NOUNS.contains(&next.as_str()) || ordered)
                && !acts;
            // "they" as a body only before what bodies do, in the past
            // (which agrees with it): "they gave me a medal", never "they
            // got food" (the people there)
            let past_next = matches!(
                next.as_str(),
                "gave"
                    | "sent"
                    | "offered"
                    | "hired"
                    | "accepted"
                    | "rejected"
                    | "invited"
                    | "awarded"
                    | "approved"
                    | "paid"
                    | "published"
                    | "selected"
                    | "chose"
                    | "contacted"
                    | "emailed"
                    | "called"
                    | "featured"
                    | "announced"
                    | "donated"
                    | "asked"
                    | "told"
            );
            // ("he's already made a best friend": past an adverb too)
            let after_adverbs = words[i + 1..]
                .iter()
                .map(|n| bare(n))
                .find(|n| !super::coref::is_adverb(n))
                .unwrap_or_default();
            let participle = matches!(
                after_adverbs.as_str(),
                "been"
                    | "gone"
                    | "done"
                    | "had"
                    | "got"
                    | "seen"
                    | "made"
                    | "taken"
                    | "become"
                    | "started"
                    | "finished"
                    | "found"
                    | "joined"
                    | "decided"
                    | "booked"
            );
            // "Emma Watson, she's a big supporter of ...": the name before
            // the comma is the subject; the pronoun only repeats it
            let appositive =
                (1..=3).contains(&i) && words[i - 1].ends_with(',') && topic(&words[..i]);
            if appositive
                && matches!(
                    lower.as_str(),
                    "he" | "she" | "he's" | "she's" | "they" | "they're"
                )
            {
                if let Some(last) = out.last_mut() {
                    *last = last.trim_end_matches(',').to_string();
                }
                match lower.as_str() {
                    "he's" | "she's" if participle => out.push(format!("has{trail}")),
                    "he's" | "she's" => out.push(format!("is{trail}")),
                    "they're" => out.push(format!("are{trail}")),
                    _ => {}
                }
                continue;
            }
            let with = |who: &str, s: &str| format!("{lead}{who}{s}{trail}");
            // "Theo loves his new uniform": whose, when it is the subject's
            // own, reads as said (not "Theo loves Theo's new uniform")
            let subject_own = i > 1
                && one.is_some_and(|o| out.first().is_some_and(|f| strip(f).1 == o))
                && (lower == "his" || (lower == "her" && noun_follows))
                // (not the subject of a clause within: "she mentioned her
                // team is migrating")
                && !words[i + 1..].iter().any(|w| is_verbish(w));
            if subject_own {
                center = one.map(str::to_string);
                out.push(w.to_string());
                continue;
            }
            if matches!(
                lower.as_str(),
                "he" | "she"
                    | "him"
                    | "his"
                    | "her"
                    | "hers"
                    | "he's"
                    | "she's"
                    | "he'd"
                    | "she'd"
                    | "he'll"
                    | "she'll"
                    | "himself"
                    | "herself"
            ) {
                center = one.map(str::to_string);
                she = Some(female(&lower));
            }
            let new = match lower.as_str() {
                "he" | "she" | "him" | "himself" | "herself" => with(one?, ""),
                "her" if noun_follows => with(one?, "'s"),
                "her" => with(one?, ""),
                "his" | "hers" => with(one?, "'s"),
                "he's" | "she's" if participle => with(one?, " has"),
                "he's" | "she's" => with(one?, " is"),
                "he'd" | "she'd" => with(one?, " would"),
                "he'll" | "she'll" => with(one?, " will"),
                "they"
                    if (past_next || body.is_some_and(super::pronoun_words::hired))
                        && body.is_some() =>
                {
                    if body.is_some_and(|b| !b.ends_with('s')) {
                        agree_at = Some(i + 1);
                    }
                    with(body?, "")
                }
                "they" | "them" | "themselves" => with(many?, ""),
                // ("Melanie's kids'": a plural in -s takes the apostrophe alone)
                "their" | "theirs" if many?.ends_with('s') => with(many?, "'"),
                "their" | "theirs" => with(many?, "'s"),
                "they're" => with(many?, " are"),
                "they've" => with(many?, " have"),
                "they'd" => with(many?, " would"),
                "they'll" => with(many?, " will"),
                // "finished my first screenplay and printed it": a thing
                // named earlier in the clause itself, which then stands alone
                // (as an object only: "it feels like ..." and "made it
                // easier" point at nothing)
                "it" | "itself" if it.is_none() && object_it(&words, i) => w.to_string(),
                // "made it home by midnight": arriving, no thing made
                "it" if arrived(&words, i) => w.to_string(),
                // "I love it when you bake": the "when" clause is the "it"
                "it" if anticipatory_it(&words, i) => w.to_string(),
                // "The mural is important to me as it reflects ..."
                "it" if subject_it(&words, i) => w.to_string(),
                "it" | "itself" => with(it?, ""),
                "its" => with(it?, "'s"),
                "it's" if participle => with(it?, " has"),
                "it's" => with(it?, " is"),
                // other things are never guessed
                _ => return None,
            };
            out.push(new);
        }
        Some((out.join(" "), center))
    }
}

#[path = "pronoun_mentions.rs"]
mod mentions;

#[cfg(test)]
#[path = "pronouns_tests.rs"]
mod tests;
