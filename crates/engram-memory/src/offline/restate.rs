//! Whole-fact restatements made just before a fact is worded: an age
//! said as a bare number spelt out ("Tom is 34" -> "Tom is 34 years
//! old"), and a report unwrapped from what it reports ("Helena mentioned
//! Helena's team is migrating ..." -> "Helena's team is migrating ...").
//! Reads the resolved fact's words only.

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

#[cfg(test)]
mod tests {
    use super::spell_age;
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
