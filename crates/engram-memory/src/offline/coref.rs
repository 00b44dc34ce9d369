//! First and second person resolved to names: "I love my dog" said by
//! Caroline becomes "Caroline loves Caroline's dog"; "you" becomes the
//! listener. Verbs after a rewritten subject agree with it ("I go" ->
//! "Caroline goes", "I'm" -> "Caroline is").

/// Words that may sit between a subject and its verb.
const ADVERBS: &[&str] = &[
    "only",
    "really",
    "also",
    "just",
    "still",
    "always",
    "never",
    "actually",
    "usually",
    "often",
    "sometimes",
    "definitely",
    "totally",
    "absolutely",
    "finally",
    "recently",
    "even",
    "already",
    "now",
    "truly",
    "honestly",
    "mostly",
    "kind",
    "sort",
    "then",
    "later",
    "soon",
    "once",
    "first",
    "eventually",
    "probably",
    "maybe",
    "barely",
    "hardly",
    "rarely",
    "seriously",
    "literally",
    "all",
    "both",
    // "I no longer work there"
    "no",
    "longer",
];

/// Whether `lower` may sit between a subject and its verb: a listed
/// adverb, or one in -ly ("I slowly formed"; "absolutley", misspelt).
pub(super) fn is_adverb(lower: &str) -> bool {
    let ly_adverb = lower.len() > 4
        && (lower.ends_with("ly") || (lower.len() > 6 && lower.ends_with("ley")))
        && !lower.ends_with("ply")
        && super::lexicon::verb(lower).is_none();
    ADVERBS.contains(&lower) || ly_adverb
}

/// Words that follow an object pronoun, never a subject's verb.
const NOT_VERBS: &[&str] = &[
    "soon", "too", "all", "both", "guys", "so", "and", "or", "but", "for", "to", "in", "at", "on",
    "with", "from", "about", "later", "again", "there", "here", "now", "today", "tomorrow", "back",
    "out", "up", "down", "off", "more", "much", "a", "an", "the", "this", "that", "my", "your",
    "our", "their", "his", "her", "its", "as", "than", "if", "when", "because", "while", "who",
    "which", "what", "how", "by", "of", "into", "over", "after", "before", "through",
];

/// Verbs that do not take an -s with a third person subject (modals and
/// past forms).
const INVARIANT: &[&str] = &[
    "can",
    "could",
    "will",
    "would",
    "shall",
    "should",
    "may",
    "might",
    "must",
    "did",
    "didn't",
    "was",
    "wasn't",
    "had",
    "hadn't",
    "went",
    "got",
    "made",
    "took",
    "saw",
    "came",
    "felt",
    "thought",
    "knew",
    "told",
    "said",
    "found",
    "gave",
    "left",
    "met",
    "bought",
    "brought",
    "began",
    "ran",
    "wrote",
    "read",
    "won",
    "lost",
    "kept",
    "spent",
    "built",
    "sent",
    "heard",
    "became",
    "grew",
    "drew",
    "ate",
    "drove",
    "flew",
    "taught",
    "caught",
    "fell",
    "held",
    "can't",
    "couldn't",
    "won't",
    "wouldn't",
    "shouldn't",
    "used",
    "is",
    "has",
    "does",
    "gonna",
    // adverbs that stand where a verb would ("we last talked")
    "last",
    "first",
    "also",
    "just",
    "still",
    // past forms spelled like their base: in a story they are past
    "quit",
    "put",
    "cut",
    "hit",
    "let",
    "set",
    "shut",
    "hurt",
    "cost",
    "split",
    "spread",
    "bet",
    "upset",
];

/// The third person singular of a present-tense verb.
/// A verb said after "they" as said after one ("start" -> "starts",
/// "are" -> "is"), punctuation kept; `None` when `w` is no such verb.
pub(super) fn singular_verb(w: &str) -> Option<String> {
    let (lead, core, trail) = parts(w);
    let b = core.to_lowercase();
    let said = match b.as_str() {
        "are" => "is".to_string(),
        "have" => "has".to_string(),
        "were" => "was".to_string(),
        _ if matches!(
            super::lexicon::verb(&b),
            Some((_, super::lexicon::VerbForm::Base))
        ) =>
        {
            third_person(&b)
        }
        _ => return None,
    };
    Some(format!("{lead}{said}{trail}"))
}

pub(super) fn third_person(verb: &str) -> String {
    match verb {
        "am" | "are" => return "is".into(),
        "have" => return "has".into(),
        "do" => return "does".into(),
        "don't" => return "doesn't".into(),
        "aren't" => return "isn't".into(),
        "haven't" => return "hasn't".into(),
        "go" => return "goes".into(),
        "were" => return "was".into(),
        "weren't" => return "wasn't".into(),
        // "I wanna start a studio": "Jon wants to start a studio"
        "wanna" => return "wants to".into(),
        "gotta" => return "has to".into(),
        _ => {}
    }
    use super::lexicon::VerbForm;
    let form = super::lexicon::verb(verb).map(|(_, f)| f);
    // "need", "feed", "succeed" are bases, not past forms in -ed
    let eed_base = verb.ends_with("eed")
        && form.is_none_or(|f| f == VerbForm::Base)
        && !matches!(
            verb,
            "agreed" | "freed" | "guaranteed" | "decreed" | "refereed"
        );
    // a past or an already agreeing form stays ("the needs and hopes of":
    // not "hopeses")
    // "retook", "overslept", "rewrote": a prefix before a past form
    let prefixed_past = ["re", "over", "under", "out", "mis", "un", "fore"]
        .iter()
        .filter_map(|p| verb.strip_prefix(p))
        .any(|rest| super::lexicon::verb(rest).is_some_and(|(_, f)| f == VerbForm::Past));
    let settled = matches!(form, Some(VerbForm::Past | VerbForm::Third)) || prefixed_past;
    if INVARIANT.contains(&verb)
        || settled
        || (verb.ends_with("ed") && !eed_base)
        || !verb.chars().all(|c| c.is_ascii_alphabetic())
    {
        return verb.into();
    }
    let b = verb.as_bytes();
    let consonant_y = verb.len() > 1
        && verb.ends_with('y')
        && !matches!(b[b.len() - 2], b'a' | b'e' | b'i' | b'o' | b'u');
    if consonant_y {
        format!("{}ies", &verb[..verb.len() - 1])
    } else if ["s", "sh", "ch", "x", "z", "o"]
        .iter()
        .any(|e| verb.ends_with(e))
    {
        format!("{verb}es")
    } else {
        format!("{verb}s")
    }
}

/// Split a word into leading punctuation, the word, trailing punctuation.
pub(crate) fn parts(w: &str) -> (&str, &str, &str) {
    let start = w.find(|c: char| c.is_alphanumeric()).unwrap_or(w.len());
    let end = w
        .char_indices()
        .rev()
        .find(|(_, c)| c.is_alphanumeric())
        .map_or(start, |(i, c)| i + c.len_utf8());
    (&w[..start], &w[start..end.max(start)], &w[end.max(start)..])
}

/// Who "we" means: the speaker alone (the verb agrees: "we have two kids"
/// -> "Omar has two kids"), or the speaker and a companion just named ("I'm
/// dating Sam, we met at a gym" -> "Eva and Sam met at a gym").
#[derive(Debug, Clone, Default)]
pub struct We {
    pub companion: Option<String>,
}

/// What a pronoun becomes, and whether the next verb must agree with a
/// third person subject. `named` lists who was already named in the
/// sentence: their possessives read "their" ("Ben ran their race").
fn replace(
    word: &str,
    speaker: &str,
    listener: Option<&str>,
    named: &[&str],
    we: &We,
) -> Option<(String, bool)> {
    let lower = word.to_ascii_lowercase().replace('\u{2019}', "'");
    let s = speaker;
    let reflexive = |who: &str| {
        if named.contains(&who) {
            "themself".to_string()
        } else {
            who.to_string()
        }
    };
    let whose = |who: &str| {
        if named.contains(&who) {
            "their".to_string()
        } else {
            format!("{who}'s")
        }
    };
    Some(match lower.as_str() {
        "i" => (s.into(), true),
        "i'm" => (format!("{s} is"), false),
        "i've" => (format!("{s} has"), false),
        "i'd" => (format!("{s} would"), false),
        "i'll" => (format!("{s} will"), false),
        "me" => (s.into(), false),
        "myself" => (reflexive(s), false),
        "my" => (whose(s), false),
        "mine" => (format!("{s}'s"), false),
        "we" | "we're" | "we've" | "we'll" | "we'd" | "us" | "ourselves" => {
            let group = we.companion.as_ref().map(|c| format!("{s} and {c}"));
            let (who, plural) = match &group {
                Some(g) => (g.clone(), true),
                None => (s.to_string(), false),
            };
            match lower.as_str() {
                "we" => (who, !plural),
                "we're" => (
                    format!("{who} {}", if plural { "are" } else { "is" }),
                    false,
                ),
                "we've" => (
                    format!("{who} {}", if plural { "have" } else { "has" }),
                    false,
                ),
                "we'll" => (format!("{who} will"), false),
                "we'd" => (format!("{who} would"), false),
                "ourselves" if !plural => (reflexive(s), false),
                "ourselves" => ("themselves".to_string(), false),
                _ => (who, false),
            }
        }
        "our" => (whose(s), false),
        "ours" => (format!("{s}'s"), false),
        _ => {
            let l = listener?;
            match lower.as_str() {
                "you" => (l.into(), true),
                "you're" => (format!("{l} is"), false),
                "you've" => (format!("{l} has"), false),
                "you'll" => (format!("{l} will"), false),
                "you'd" => (format!("{l} would"), false),
                "your" => (whose(l), false),
                "yours" => (format!("{l}'s"), false),
                "yourself" => (reflexive(l), false),
                _ => return None,
            }
        }
    })
}

/// The text with first (and, given a listener, second) person resolved;
/// and whether any pronoun was.
pub fn resolve(text: &str, speaker: &str, listener: Option<&str>, we: &We) -> (String, bool) {
    // ("for both of us" with no one named beside the speaker: the two)
    let both;
    let text = if we.companion.is_none() && text.contains("both of us") {
        both = text.replace("both of us", "the two of them");
        both.as_str()
    } else {
        text
    };
    let words: Vec<&str> = text.split(' ').collect();
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    let mut changed = false;
    let mut agree = false;
    // whether the pronoun that wants agreement was "I" (always a subject)
    let mut subject_is_i = false;
    // whether the word before was a "we're" that means the speaker alone
    let mut we_alone = false;
    let mut named: Vec<&str> = Vec::new();
    for w in words {
        let (lead, core, trail) = parts(w);
        if core.is_empty() {
            out.push(w.to_string());
            continue;
        }
        if let Some((new, needs_agreement)) = replace(core, speaker, listener, &named, we) {
            // "Sam and I broke up": a compound subject, the verb stays
            // (", and I feel ..." after a comma joins clauses instead)
            let compound = out
                .last()
                .is_some_and(|w| w.eq_ignore_ascii_case("and") || w.eq_ignore_ascii_case("&"))
                && out.len() >= 2
                && !out[out.len() - 2].ends_with(',');
            let needs_agreement = needs_agreement && !compound;
            for who in std::iter::once(speaker).chain(listener) {
                if new.starts_with(who) && !named.contains(&who) {
                    named.push(who);
                }
            }
            out.push(format!("{lead}{new}{trail}"));
            changed = true;
            // agreement only inside the clause
            agree = needs_agreement && trail.is_empty();
            subject_is_i = core.eq_ignore_ascii_case("i") || core.eq_ignore_ascii_case("we");
            // "we're all eating less sugar" said by one speaker: "Nadia is
            // eating less sugar" (the group's "all" has no group left)
            let lower = core.to_ascii_lowercase().replace('\u{2019}', "'");
            we_alone = we.companion.is_none()
                && trail.is_empty()
                && matches!(lower.as_str(), "we're" | "we've" | "we'll" | "we'd");
            continue;
        }
        // "we all made wishes" said by one speaker: "Melanie made wishes"
        let quantifier = matches!(core.to_ascii_lowercase().as_str(), "all" | "both");
        let after_we = std::mem::take(&mut we_alone);
        if quantifier
            && ((after_we && trail.is_empty())
                || (agree && subject_is_i && out.last().is_some_and(|w| !w.contains(' '))))
        {
            continue;
        }
        if agree {
            let lower = core.to_ascii_lowercase().replace('\u{2019}', "'");
            // "I slowly formed": an adverb in -ly waits with the verb
            // ("absolutley": a misspelt one too)
            if is_adverb(&lower) {
                out.push(w.to_string());
                continue;
            }
            agree = false;
            // "you" is an object as often as a subject: only a following
            // verb makes it one ("Melanie likes", not "Melanie soons")
            let known_verb = super::lexicon::verb(&lower)
                .is_some_and(|(_, f)| f == super::lexicon::VerbForm::Base)
                || super::lexicon::AUXILIARIES.contains(&lower.as_str());
            if NOT_VERBS.contains(&lower.as_str()) || (!known_verb && !subject_is_i) {
                out.push(w.to_string());
                continue;
            }
            if core.chars().next().is_some_and(|c| c.is_ascii_lowercase()) {
                out.push(format!("{lead}{}{trail}", third_person(&lower)));
                continue;
            }
        }
        out.push(w.to_string());
    }
    (out.join(" "), changed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, want: &str) {
        let (got, _) = resolve(text, "Caroline", Some("Melanie"), &We::default());
        assert_eq!(got, want, "{text}");
    }

    #[test]
    fn pronouns_become_names_and_verbs_agree() {
        check("I love my dog.", "Caroline loves their dog.");
        check("I'm a counselor", "Caroline is a counselor");
        check("I really enjoy painting", "Caroline really enjoys painting");
        check("I only have an air fryer", "Caroline only has an air fryer");
        check("I go hiking", "Caroline goes hiking");
        check(
            "I no longer work at Google.",
            "Caroline no longer works at Google.",
        );
        check("I have two kids", "Caroline has two kids");
        check(
            "I went to a support group",
            "Caroline went to a support group",
        );
        check("I finished the race", "Caroline finished the race");
        check("I study art", "Caroline studies art");
        check("I don't eat meat", "Caroline doesn't eat meat");
        check("I can't wait", "Caroline can't wait");
        check("I've been there", "Caroline has been there");
        check(
            "We went camping with our kids",
            "Caroline went camping with their kids",
        );
        check("We have two kids", "Caroline has two kids");
        check("we all made wishes", "Caroline made wishes");
        check(
            "we're all eating less sugar now",
            "Caroline is eating less sugar now",
        );
        check("we're both tired", "Caroline is tired");
        check(
            "we're going to all the shows",
            "Caroline is going to all the shows",
        );
        check("we're heartbroken", "Caroline is heartbroken");
        check("Sam and I broke up", "Sam and Caroline broke up");
        check("I quit Google", "Caroline quit Google");
        check("I need a new car", "Caroline needs a new car");
        check("I slowly formed bonds", "Caroline slowly formed bonds");
        check("I usually run", "Caroline usually runs");
        check("I succeed at chess", "Caroline succeeds at chess");
        check("I agreed to help", "Caroline agreed to help");
        check("I wanna start a studio", "Caroline wants to start a studio");
        check("I gotta sell my bike", "Caroline has to sell their bike");
        check("I'm gonna move", "Caroline is gonna move");
        let (got, _) = resolve(
            "we met at a climbing gym",
            "Eva",
            None,
            &We {
                companion: Some("Sam".into()),
            },
        );
        assert_eq!(got, "Eva and Sam met at a climbing gym");
        check("Your painting is lovely", "Melanie's painting is lovely");
        check("you run marathons", "Melanie runs marathons");
        check(
            "My friend gave me a book",
            "Caroline's friend gave Caroline a book",
        );
        check("I, too, play", "Caroline, too, play");
        check("Talk to you soon", "Talk to Melanie soon");
        check("I hope you like it", "Caroline hopes Melanie likes it");
        check(
            "It made me accept myself",
            "It made Caroline accept themself",
        );
        check("Nothing personal here", "Nothing personal here");
    }

    #[test]
    fn second_person_stays_without_a_listener() {
        let (got, changed) = resolve("you should try it", "Caroline", None, &We::default());
        assert_eq!(got, "you should try it");
        assert!(!changed);
    }
}
