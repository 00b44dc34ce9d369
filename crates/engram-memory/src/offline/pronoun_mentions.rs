//! Who a resolved clause mentions, noted as the antecedents a later
//! pronoun may mean ([`Antecedents::observe`]): names, relatives and
//! groups by a possessive ("Ben's sister", "Melanie's kids"), the
//! speaker's own kin ("my gran"), animals someone has, kinds of people
//! spoken of ("Movers are pricey") and bodies ("the homeless shelter"),
//! and who the talk stays about after a clause ([`Antecedents::recenter`]).
//! Reads the clause's words only.

use super::*;

impl Antecedents {
    /// After clause `text` (resolved, `center`: whom its "he" or "she"
    /// meant): who the talk stays about. A clause that speaks of someone
    /// else without a pronoun for them moves it on.
    pub fn recenter(
        &mut self,
        text: &str,
        center: Option<String>,
        names: &[String],
        exclude: &[&str],
    ) {
        if let Some(c) = center {
            // ("Her name is Shadow": the name is who the talk is about)
            self.center = Some(named_as(text, &c).unwrap_or(c));
            return;
        }
        // ("Dad's neurologist is Dr. Patel": who someone of theirs is
        // names a newcomer, and the talk stays on them)
        if names_someones(text) {
            // (still in reach, as if spoken of again)
            let now = self.mentions.iter().map(|(_, t, _)| *t).max();
            if let (Some(c), Some(now)) = (self.center.clone(), now) {
                for m in self.mentions.iter_mut().filter(|(t, _, _)| *t == c) {
                    m.1 = now;
                }
            }
            return;
        }
        let mut fresh = Antecedents::default();
        fresh.observe(text, 0, names, exclude);
        let people: Vec<&str> = fresh
            .mentions
            .iter()
            .filter(|(_, _, k)| matches!(k, Kind::One | Kind::Many))
            .map(|(t, _, _)| t.as_str())
            .collect();
        if !people.is_empty() && !people.iter().any(|p| Some(*p) == self.center.as_deref()) {
            self.center = None;
        }
    }

    /// The latest single person or animal `pronoun` may mean other than
    /// `not` ("she says he's doing great": he is not who she was).
    pub(super) fn latest_but(&self, not: &str, pronoun: &str) -> Option<String> {
        self.mentions
            .iter()
            .rev()
            .find(|(t, _, k)| {
                matches!(k, Kind::One | Kind::Animal(false)) && t != not && agrees(pronoun, t)
            })
            .map(|(t, _, _)| t.clone())
    }

    /// Note who the space's previous document spoke of (`prior`: its facts,
    /// as remembered), as if said just before this one: the one person,
    /// the one group and the one animal it mentions, each only when it
    /// mentions one of that kind, so that "she got into Edinburgh!!"
    /// opening a new conversation after "Ken's daughter is applying to
    /// unis" is the daughter, and a pronoun is never guessed between two.
    /// `names`: who is a person in a fact; `exclude`: the speakers.
    pub fn seed(
        &mut self,
        prior: &[String],
        names: impl Fn(&str) -> Vec<String>,
        exclude: &[&str],
    ) {
        // someone's people and animals ("Ken's daughter"); a name said
        // after its first word and not right after whose it is ("Ken met
        // Sarah", not "Vic's brother Tariq" or "Edinburgh is ...") is one
        // more person, whom "she" may as well mean
        let mut seen = Antecedents::default();
        let mut named = false;
        for text in prior {
            seen.observe(text, 0, &[], exclude);
            let words: Vec<&str> = text.split_whitespace().collect();
            named |= names(text).iter().any(|n| {
                words.iter().enumerate().skip(1).any(|(i, w)| {
                    strip(w).1 == n
                        && !exclude.iter().any(|e| same_person(e, n))
                        && !PERSON_NOUNS.iter().any(|(p, _)| *p == bare(words[i - 1]))
                })
            });
        }
        for kind in [
            Kind::One,
            Kind::Many,
            Kind::Animal(false),
            Kind::Animal(true),
        ] {
            if named && kind == Kind::One {
                continue;
            }
            let mut of_kind: Vec<&String> = seen
                .mentions
                .iter()
                .filter(|(_, _, k)| *k == kind)
                .map(|(x, _, _)| x)
                .collect();
            of_kind.sort_unstable();
            of_kind.dedup();
            if let [one] = of_kind.as_slice() {
                self.push((*one).clone(), 0, kind);
            }
        }
    }

    /// Note the speaker's own people `text` names, said as theirs ("my
    /// kids" as "Mel's kids"): whom a later "they" or "he" means, however
    /// a fact words them later ("Mel took their kids"), and even when
    /// `text` is no fact ("what's a good gift for my dad?").
    pub fn observe_own(
        &mut self,
        text: &str,
        turn: usize,
        speaker: Option<&str>,
        listener: Option<&str>,
    ) {
        let Some(speaker) = speaker else { return };
        let exclude: Vec<&str> = std::iter::once(speaker).chain(listener).collect();
        let owned: Vec<String> = text
            .split_whitespace()
            .map(|w| match w {
                "my" | "My" => format!("{speaker}'s"),
                _ => w.to_string(),
            })
            .collect();
        self.observe(&owned.join(" "), turn, &[], &exclude);
    }

    /// Note the people (and animals) a resolved clause mentions (`exclude`:
    /// the speaker and listener, whom "he" and "she" never mean).
    pub fn observe(&mut self, text: &str, turn: usize, names: &[String], exclude: &[&str]) {
        let words: Vec<&str> = text.split_whitespace().collect();
        for (i, w) in words.iter().enumerate() {
            let (_, core, _) = strip(w);
            // "Ben's sister", "Melanie's kids", "Sven's puppy"
            if let Some(owner) = core.strip_suffix("'s").or(core.strip_suffix("\u{2019}s")) {
                // ("the user's dad": an owner in lower case keeps its "the")
                let the = i > 0
                    && bare(words[i - 1]) == "the"
                    && owner.starts_with(|c: char| c.is_lowercase());
                // ("Rosa's partner's family": the partner is Rosa's)
                let owned_by = (i > 0)
                    .then(|| strip(words[i - 1]).1)
                    .filter(|o| o.ends_with("'s") || o.ends_with("\u{2019}s"));
                let owner = if the {
                    format!("the {owner}")
                } else if let Some(o) = owned_by {
                    format!("{o} {owner}")
                } else {
                    owner.to_string()
                };
                // ("Rosa's mum's surgery": the mum, whose surgery it is)
                let next = words.get(i + 1).map(|n| {
                    let n = bare(n);
                    n.strip_suffix("'s").map(str::to_string).unwrap_or(n)
                });
                if let Some(noun) = next {
                    if let Some((_, plural)) = PERSON_NOUNS.iter().find(|(p, _)| *p == noun) {
                        let kind = if *plural { Kind::Many } else { Kind::One };
                        self.push(format!("{owner}'s {noun}"), turn, kind);
                        continue;
                    }
                    if let Some(plural) = animal(&noun) {
                        let noun = whole_animal(&noun, words.get(i + 2));
                        // ("Sofia's dog Biscuit has been limping": Biscuit)
                        let after = i + 1 + noun.split_whitespace().count();
                        let name = words
                            .get(after)
                            .map(|w| w.trim_end_matches([',', '.', '!', '?']))
                            .filter(|w| !plural && crate::offline::is_name_word(w));
                        let said = match name {
                            Some(name) => name.to_string(),
                            None => format!("{owner}'s {noun}"),
                        };
                        self.push(said, turn, Kind::Animal(plural));
                        continue;
                    }
                    // "John's one-year-old"
                    if noun.ends_with("-year-old") || noun.ends_with("-month-old") {
                        self.push(format!("{owner}'s {noun}"), turn, Kind::One);
                        continue;
                    }
                }
            }
            // ("my gran still loves her crosswords": the speaker's gran)
            if let (Some(speaker), true) = (
                exclude.first(),
                i + 1 < words.len() && matches!(bare(w).as_str(), "my" | "our"),
            ) {
                let noun = bare(words[i + 1]);
                if PERSON_NOUNS.iter().any(|(p, plural)| *p == noun && !plural)
                    && !words[i + 1].ends_with("'s")
                {
                    self.push(format!("{speaker}'s {noun}"), turn, Kind::One);
                    continue;
                }
            }
            let name = core.trim_end_matches("'s");
            // ("Ms Park": a title alone is no one)
            let title =
                name.starts_with(char::is_uppercase) && crate::offline::lexicon::is_title(name);
            if !title
                && names.iter().any(|n| n == name)
                && !exclude.iter().any(|e| same_person(e, name))
            {
                // "Luna and Oliver": two names together are a group
                let pair = i >= 2
                    && bare(words[i - 1]) == "and"
                    && names.iter().any(|n| n == strip(words[i - 2]).1);
                self.push(name.to_string(), turn, Kind::One);
                if pair {
                    let first = strip(words[i - 2]).1;
                    self.push(format!("{first} and {name}"), turn, Kind::Many);
                }
            }
        }
        // "Movers are pricey": a kind a "they" after it may mean
        // (animals of a kind someone has stay theirs: "turtles are like zen
        // masters! They always remind me ...")
        if plural_subject(text) && animal(&bare(words[0])).is_none() {
            self.push(bare(words[0]), turn, Kind::Crowd(false));
        }
        // "at the homeless shelter", "a tech company": a body "they" may
        // mean, unless people were spoken of since
        for (i, w) in words.iter().enumerate() {
            let b = bare(w);
            if GROUPS.contains(&b.as_str())
                || PERSON_NOUNS.iter().any(|(p, plural)| *plural && *p == b)
            {
                self.push(b.clone(), turn, Kind::Crowd(owned_at(&words, i)));
                continue;
            }
            if !matches!(bare(w).as_str(), "the" | "a" | "an") {
                continue;
            }
            for k in 1..=3 {
                let Some(n) = words.get(i + k) else { break };
                let b = bare(n);
                // the head noun, not a modifier ("the shelter residents")
                let head = n.ends_with([',', '.', '!', '?', ';'])
                    || words.get(i + k + 1).is_none_or(|m| {
                        let m = bare(m);
                        is_verbish(&m) || NOT_NOUNS.contains(&m.as_str()) || m == "of"
                    });
                if BODIES.contains(&b.as_str()) && head {
                    let phrase: Vec<&str> = words[i..=i + k].iter().map(|w| strip(w).1).collect();
                    self.push(phrase.join(" "), turn, Kind::Body);
                    break;
                }
                // adjectives in lower case only, up to the noun
                if n.ends_with([',', '.', '!', '?', ';']) || b != strip(n).1 || is_verbish(n) {
                    break;
                }
            }
        }
        // "Sven got a puppy": the subject's animal
        let first = words.first().map(|w| strip(w).1).unwrap_or("");
        let owner = names.iter().any(|n| n == first) || exclude.contains(&first);
        if owner {
            for (i, w) in words.iter().enumerate().skip(1) {
                let b = bare(w);
                if !matches!(
                    b.as_str(),
                    "a" | "an" | "this" | "two" | "three" | "some" | "new"
                ) {
                    continue;
                }
                // "a new rescue puppy": the noun within three words
                for (j, next) in words.iter().enumerate().skip(i + 1).take(3) {
                    let n = bare(next);
                    if let Some(plural) = animal(&n) {
                        // ("a younger cat named Tofu, he's 3": Tofu)
                        let name = words
                            .get(j + 1)
                            .filter(|c| matches!(bare(c).as_str(), "named" | "called"))
                            .and_then(|_| words.get(j + 2))
                            .map(|w| w.trim_end_matches([',', '.', '!', '?']))
                            .filter(|w| crate::offline::is_name_word(w));
                        let said = match name {
                            Some(name) if !plural => name.to_string(),
                            _ => format!("{first}'s {}", whole_animal(&n, words.get(j + 1))),
                        };
                        self.push(said, turn, Kind::Animal(plural));
                        break;
                    }
                }
            }
        }
    }
}
