//! Restatements in plainer words: a sentence's "bike" used as a verb said
//! as "cycle" (before it is cut into clauses), and, just before a fact is
//! worded, an age said as a bare number spelt out ("Tom is 34" -> "Tom is
//! 34 years old") and a report unwrapped from what it reports ("Helena
//! mentioned Helena's team is migrating ..." -> "Helena's team is
//! migrating ..."); a date set for an event said as the event's date ("We
//! set the wedding date: June 14th" -> "Our wedding is on June 14th");
//! and someone's hometown named by its name alone ("in her hometown of
//! Ghent" -> "in Ghent"), which needs no one to know whose. Reads words
//! only.

use super::clauses;
use super::surface::upper_first;

/// "Tom is 34" (or "Tom is 34 now") says an age: "Tom is 34 years old";
/// so does "Pia's son Arjun is 7" and "Pia's daughter is 4" (a name, or
/// a relative, before "is").
pub(super) fn spell_age(fact: &str) -> String {
    let t = fact.trim_end_matches(['.', '!']);
    let t = t.strip_suffix(" now").unwrap_or(t);
    // ("Daniela's twins are seven": people, in the plural)
    let (split, plural) = match t.rsplit_once(" is ") {
        Some(p) => (Some(p), false),
        None => (t.rsplit_once(" are "), true),
    };
    if let Some((who, n)) = split {
        let last = who.rsplit(' ').next().unwrap_or(who);
        let someone = (!who.contains(' ') && !plural)
            || (who.contains("'s ")
                && ((!plural && last.chars().next().is_some_and(char::is_uppercase))
                    || super::lexicon::PERSON_NOUNS
                        .iter()
                        .any(|(noun, p)| *p == plural && *noun == last)));
        // ("Theo is four": a number word too, though not "one", which
        // says a year old)
        let word = super::lexicon::number(n).is_some_and(|k| (2..=19).contains(&k));
        if (n.parse::<u32>().is_ok_and(|n| (1..=120).contains(&n)) || word) && someone {
            let be = if plural { "are" } else { "is" };
            return format!("{who} {be} {n} years old");
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
    // "Ana's coach says Ana should add a long run": advice is a fact only
    // as someone's advice
    let advised = rest.iter().any(|w| {
        matches!(
            clauses::bare(w).as_str(),
            "should" | "could" | "might" | "must" | "ought" | "may" | "can" | "can't" | "cannot"
        )
    });
    if advised {
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

/// "We set the wedding date: June 14th next year" (also "we've set a
/// date for the wedding: ...", "Lena and I set the date for our move for
/// May 3rd") said as the event's date: "Our wedding is on June 14th next
/// year". The setting adds nothing; when the event is is the fact. The
/// subject must be "I", "we" or "X and I", the event one word.
pub(super) fn date_set(sentence: &str) -> std::borrow::Cow<'_, str> {
    use std::borrow::Cow;
    let lower = sentence.to_lowercase();
    let Some(at) = [" set the ", " set a ", " set our "]
        .iter()
        .filter_map(|k| lower.find(k).map(|i| (i, k.len())))
        .min()
    else {
        return Cow::Borrowed(sentence);
    };
    let (at, len) = at;
    let subject: Vec<&str> = lower[..at].split_whitespace().collect();
    let subject: Vec<&str> = subject
        .iter()
        .copied()
        .filter(|w| !matches!(*w, "finally" | "just" | "have" | "officially" | "already"))
        .collect();
    let written: Vec<&str> = sentence[..at].split_whitespace().collect();
    let whose = match subject.as_slice() {
        ["we" | "we've"] => "Our".to_string(),
        ["i" | "i've"] => "My".to_string(),
        // ("Lena and I": "Lena and my wedding", read as "Lena and Omar's")
        [_, "and", "i" | "i've"]
            if written
                .first()
                .is_some_and(|w| w.starts_with(char::is_uppercase)) =>
        {
            format!("{} and my", written[0])
        }
        _ => return Cow::Borrowed(sentence),
    };
    let rest = &lower[at + len..];
    let words: Vec<&str> = rest.split_whitespace().collect();
    // "wedding date", "date for the wedding", "date for our move"
    let (event, used) = match words.as_slice() {
        [event, date, ..] if date.trim_end_matches(':') == "date" => (*event, 2),
        [date, "for", "the" | "our" | "my", event, ..] if *date == "date" => (*event, 4),
        _ => return Cow::Borrowed(sentence),
    };
    let event = event.trim_end_matches(':');
    if event.is_empty() || !event.chars().all(|c| c.is_ascii_lowercase()) {
        return Cow::Borrowed(sentence);
    }
    // where the value starts, in the sentence as written
    let taken: usize = words[..used].iter().map(|w| w.len() + 1).sum();
    let mut from = at + len + rest.len() - rest.trim_start().len() + taken;
    from = from.min(sentence.len());
    let value = sentence[from..]
        .trim_start_matches([':', ' ', '-'])
        .trim_start();
    let value = value
        .strip_prefix("for ")
        .or_else(|| value.strip_prefix("as "))
        .unwrap_or(value);
    let value = value.strip_prefix("on ").unwrap_or(value);
    let first = value.split_whitespace().next().map(clauses::bare);
    let Some(first) = first else {
        return Cow::Borrowed(sentence);
    };
    let link = if matches!(first.as_str(), "next" | "this" | "in") {
        "is"
    } else {
        "is on"
    };
    Cow::Owned(format!("{whose} {event} {link} {value}"))
}

/// "in her hometown of Ghent" said as "in Ghent": whose hometown it is
/// needs someone a pronoun may mean, where the place itself needs no one.
pub(super) fn hometown_named(sentence: &str) -> std::borrow::Cow<'_, str> {
    let words: Vec<&str> = sentence.split(' ').collect();
    let at = (0..words.len().saturating_sub(4)).find(|&i| {
        clauses::bare(words[i]) == "in"
            && matches!(
                clauses::bare(words[i + 1]).as_str(),
                "his" | "her" | "their"
            )
            && matches!(clauses::bare(words[i + 2]).as_str(), "hometown" | "home")
    });
    let Some(i) = at else {
        return std::borrow::Cow::Borrowed(sentence);
    };
    let of = if clauses::bare(words[i + 2]) == "home" {
        i + 4
    } else {
        i + 3
    };
    let named = words
        .get(of + 1)
        .is_some_and(|w| w.starts_with(char::is_uppercase));
    let town = clauses::bare(words[i + 2]) == "hometown" || clauses::bare(words[i + 3]) == "town";
    if !named || !town || words.get(of).is_none_or(|w| *w != "of") {
        return std::borrow::Cow::Borrowed(sentence);
    }
    let mut out: Vec<&str> = words[..=i].to_vec();
    out.extend(&words[of + 1..]);
    std::borrow::Cow::Owned(out.join(" "))
}

/// "I report to Gareth now" said as "my manager is Gareth now": who
/// someone reports to is asked as who their manager is, and a memory in
/// those words is found by the question ("reports to" stays findable
/// through the memory's keyword context).
pub(super) fn manager_named(sentence: &str) -> std::borrow::Cow<'_, str> {
    for (said, as_) in [
        ("I report to ", "my manager is "),
        ("I now report to ", "my manager is now "),
        ("I'm reporting to ", "my manager is "),
    ] {
        let lower = sentence.to_lowercase();
        let Some(i) = lower.find(&said.to_lowercase()) else {
            continue;
        };
        // at the start, or after a comma or a conjunction
        let before = sentence[..i].trim_end();
        let opens = before.is_empty()
            || before.ends_with(',')
            || before.ends_with(" so")
            || before.ends_with(" and")
            || before.ends_with(" but");
        let named = sentence[i + said.len()..].starts_with(char::is_uppercase);
        if opens && named {
            let as_ = if before.is_empty() {
                upper_first(as_)
            } else {
                as_.to_string()
            };
            return std::borrow::Cow::Owned(format!(
                "{}{as_}{}",
                &sentence[..i],
                &sentence[i + said.len()..]
            ));
        }
    }
    std::borrow::Cow::Borrowed(sentence)
}

#[cfg(test)]
mod tests {
    use super::{bike_as_verb, date_set, hometown_named, manager_named, spell_age, unreported};

    use crate::offline::extract;
    use crate::{Role, Turn};

    #[test]
    fn a_report_is_dropped_unless_it_is_advice() {
        assert_eq!(
            unreported("Helena mentioned Helena's team is migrating to Google Cloud."),
            "Helena's team is migrating to Google Cloud."
        );
        // someone's advice is a fact only as theirs
        let advice = "Priscilla's coach says Priscilla should add a long run on Sundays.";
        assert_eq!(unreported(advice), advice);
    }

    #[test]
    fn ages_are_spelt_out_for_people() {
        assert_eq!(spell_age("Tom is 34"), "Tom is 34 years old");
        assert_eq!(spell_age("Omar is 42 now."), "Omar is 42 years old");
        assert_eq!(
            spell_age("Daniela's twins are seven."),
            "Daniela's twins are seven years old"
        );
        assert_eq!(spell_age("The Smiths are 40."), "The Smiths are 40.");
        assert_eq!(
            spell_age("Claire's son Theo is four."),
            "Claire's son Theo is four years old"
        );
        assert_eq!(spell_age("Tom is one."), "Tom is one.");
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
    fn a_date_set_is_the_events_date() {
        let check = |said: &str, want: &str| assert_eq!(date_set(said), want, "{said}");
        check(
            "We set the wedding date: June 14th next year, in Ghent.",
            "Our wedding is on June 14th next year, in Ghent.",
        );
        check(
            "We've finally set a date for the wedding: 3 May.",
            "Our wedding is on 3 May.",
        );
        check(
            "Lena and I set the date for our move for next spring.",
            "Lena and my move is next spring.",
        );
        check(
            "I set the surgery date on Friday.",
            "My surgery is on Friday.",
        );
        // not the speaker's own event, or no date set
        check(
            "They set the wedding date: May 2.",
            "They set the wedding date: May 2.",
        );
        check("We set the table.", "We set the table.");
        check("I set a goal for the year.", "I set a goal for the year.");
    }

    #[test]
    fn whom_one_reports_to_is_ones_manager() {
        let check = |said: &str, want: &str| assert_eq!(manager_named(said), want, "{said}");
        check(
            "Rita left the company, so I report to Gareth now.",
            "Rita left the company, so my manager is Gareth now.",
        );
        check("I now report to Gareth.", "My manager is now Gareth.");
        check("I report to the board.", "I report to the board.");
        check("Tom said I report to Ana.", "Tom said I report to Ana.");
    }

    #[test]
    fn a_hometown_is_named_by_its_name() {
        assert_eq!(
            hometown_named("Our wedding is in June, in her hometown of Ghent."),
            "Our wedding is in June, in Ghent."
        );
        assert_eq!(
            hometown_named("They live in his home town of Bath now."),
            "They live in Bath now."
        );
        assert_eq!(
            hometown_named("I grew up in my hometown of Leeds."),
            "I grew up in my hometown of Leeds."
        );
        assert_eq!(
            hometown_named("She is in her hometown for the week."),
            "She is in her hometown for the week."
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
