//! Restatements in plainer words: a sentence's "bike" used as a verb said
//! as "cycle" (before it is cut into clauses), and, just before a fact is
//! worded, an age said as a bare number spelt out ("Tom is 34" -> "Tom is
//! 34 years old") and a report unwrapped from what it reports ("Helena
//! mentioned Helena's team is migrating ..." -> "Helena's team is
//! migrating ..."). Reads words only.

use super::clauses;

/// "Tom is 34" (or "Tom is 34 now") says an age: "Tom is 34 years old";
/// so does "Pia's son Arjun is 7" and "Pia's daughter is 4" (a name, or
/// a relative, before "is").
pub(super) fn spell_age(fact: &str) -> String {
    let t = fact.trim_end_matches(['.', '!']);
    let t = t.strip_suffix(" now").unwrap_or(t);
    if let Some((who, n)) = t.rsplit_once(" is ") {
        let last = who.rsplit(' ').next().unwrap_or(who);
        let someone = !who.contains(' ')
            || (who.contains("'s ")
                && (last.chars().next().is_some_and(char::is_uppercase)
                    || super::lexicon::PERSON_NOUNS
                        .iter()
                        .any(|(noun, plural)| !plural && *noun == last)));
        if n.parse::<u32>().is_ok_and(|n| (1..=120).contains(&n)) && someone {
            return format!("{who} is {n} years old");
        }
    }
    fact.to_string()
}

/// What a fact reports, when it stands alone: "Helena mentioned Helena's
/// team is migrating to Google Cloud" says "Helena's team is migrating to
/// Google Cloud"; "Ana told me (that) Ana's sister lives in Rome", "Ana's
/// sister lives in Rome". The report itself ("mentioned", "said") adds
/// nothing a memory needs. Only when what follows opens with a name or a
/// determiner and has a verb of its own ("Ana said goodbye" stays).
pub(super) fn unreported(fact: &str) -> String {
    let words: Vec<&str> = fact.split_whitespace().collect();
    let Some(v) = words.iter().take(4).position(|w| {
        matches!(
            clauses::bare(w).as_str(),
            "mentioned" | "mentions" | "said" | "says" | "told" | "tells" | "explained" | "noted"
        )
    }) else {
        return fact.to_string();
    };
    let capital = |w: &str| w.chars().next().is_some_and(char::is_uppercase);
    if v == 0 || !capital(words[0]) {
        return fact.to_string();
    }
    let mut r = v + 1;
    if matches!(clauses::bare(words[v]).as_str(), "told" | "tells") {
        match words.get(r) {
            Some(w) if matches!(clauses::bare(w).as_str(), "me" | "us") || capital(w) => r += 1,
            _ => return fact.to_string(),
        }
    }
    if words.get(r).is_some_and(|w| clauses::bare(w) == "that") {
        r += 1;
    }
    let rest = &words[r.min(words.len())..];
    let opens = rest.first().is_some_and(|w| {
        capital(w)
            || matches!(
                clauses::bare(w).as_str(),
                "the" | "a" | "an" | "their" | "his" | "her"
            )
    });
    if rest.len() < 3 || !opens || !rest[1..].iter().any(|w| clauses::is_verbish(w)) {
        return fact.to_string();
    }
    rest.join(" ")
}

/// `sentence` with "bike" said as a verb ("I bike to work now", "she
/// biked home") written as "cycle": the lexicon knows "bike" only as a
/// noun ("my new bike"), so the clause would have no verb. A verb here
/// is a form of "bike" right after a subject pronoun or "to" (adverbs
/// between allowed).
pub(super) fn bike_as_verb(sentence: &str) -> std::borrow::Cow<'_, str> {
    let words: Vec<&str> = sentence.split(' ').collect();
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    let mut changed = false;
    for (i, w) in words.iter().enumerate() {
        let b = clauses::bare(w);
        let cycled = match b.as_str() {
            "bike" => "cycle",
            "bikes" => "cycles",
            "biked" => "cycled",
            "biking" => "cycling",
            _ => "",
        };
        let before = words[..i].iter().rev().map(|x| clauses::bare(x)).find(|x| {
            !matches!(
                x.as_str(),
                "now"
                    | "usually"
                    | "always"
                    | "often"
                    | "still"
                    | "also"
                    | "sometimes"
                    | "mostly"
                    | "just"
                    | "never"
                    | "even"
            )
        });
        let verb_place = matches!(
            before.as_deref(),
            Some("i" | "we" | "you" | "they" | "he" | "she" | "to")
        ) && b != "biking";
        if !cycled.is_empty() && verb_place {
            let at = w.to_lowercase().find(&b).unwrap_or(0);
            out.push(format!("{}{cycled}{}", &w[..at], &w[at + b.len()..]));
            changed = true;
        } else {
            out.push(w.to_string());
        }
    }
    if changed {
        std::borrow::Cow::Owned(out.join(" "))
    } else {
        std::borrow::Cow::Borrowed(sentence)
    }
}

#[cfg(test)]
mod tests {
    use super::{bike_as_verb, spell_age};
    use crate::offline::extract;
    use crate::{Role, Turn};

    #[test]
    fn ages_are_spelt_out_for_people() {
        assert_eq!(spell_age("Tom is 34"), "Tom is 34 years old");
        assert_eq!(spell_age("Omar is 42 now."), "Omar is 42 years old");
        assert_eq!(
            spell_age("Priya's son Arjun is 7"),
            "Priya's son Arjun is 7 years old"
        );
        assert_eq!(
            spell_age("Priya's daughter is 4"),
            "Priya's daughter is 4 years old"
        );
        assert_eq!(
            spell_age("Priya's flat number is 7"),
            "Priya's flat number is 7"
        );
    }

    #[test]
    fn bike_as_a_verb_is_cycling() {
        assert_eq!(bike_as_verb("I bike to work now."), "I cycle to work now.");
        assert_eq!(
            bike_as_verb("She usually bikes home."),
            "She usually cycles home."
        );
        assert_eq!(
            bike_as_verb("I want to bike more."),
            "I want to cycle more."
        );
        assert_eq!(
            bike_as_verb("Check out my new bike!"),
            "Check out my new bike!"
        );
        assert_eq!(bike_as_verb("I love biking."), "I love biking.");
    }

    /// The memories of a document (no speaker: its subjects are named).
    fn document(text: &str) -> Vec<String> {
        let turns = [Turn {
            role: Role::User,
            speaker: None,
            listener: None,
            text,
            date: chrono::NaiveDate::from_ymd_opt(2024, 5, 8),
            generic: false,
        }];
        extract(&turns).into_iter().map(|c| c.content).collect()
    }

    #[test]
    fn what_was_reported_is_the_fact() {
        assert_eq!(
            document(
                "Helena is the CTO of Brightwave. She mentioned her team is migrating \
                 from AWS to Google Cloud this quarter."
            ),
            [
                "Helena is the CTO of Brightwave.",
                "Helena's team is migrating from AWS to Google Cloud this quarter."
            ]
        );
        assert_eq!(
            document("Helena told me her sister lives in Rome."),
            ["Helena's sister lives in Rome."]
        );
        assert_eq!(
            document("Helena said that she is moving to Berlin."),
            ["Helena is moving to Berlin."]
        );
        // nothing reported that stands alone: the report stays
        assert_eq!(
            document("Helena said goodbye to Marco at the station."),
            ["Helena said goodbye to Marco at the station."]
        );
    }
}
