//! Who "we" is, as far as a clause shows it: something done together
//! ("we met", "we went camping together"), a role only a group has ("we
//! were teammates"), or "we both". With no companion named just before, a
//! role or "both" cannot be said of the speaker alone, and "together" is
//! dropped from what the speaker did. These functions read the clause (in
//! lower case, padded with spaces) and take out a word when asked; the
//! caller decides what is dropped.

/// Whether the clause speaks of something done together, for which "we"
/// may include whoever the speaker named just before.
pub(super) fn together(lower: &str) -> bool {
    [
        " each other",
        " together",
        " met ",
        " married",
        " broke up",
        " split up",
        " dating",
        " both ",
        " engaged",
        " divorced",
    ]
    .iter()
    .chain(TAKES_TWO)
    .any(|p| lower.contains(p))
}

/// What "we" can only do with someone else.
const TAKES_TWO: &[&str] = &[" in common", " hit it off", " got along", " get along"];

/// Whether the clause says "we both" (or "both of us", "we're both"), or
/// what takes two ("had a lot in common", "hit it off").
pub(super) fn both(lower: &str) -> bool {
    let we = [" we ", " we've ", " we're ", " we'd "]
        .iter()
        .any(|w| lower.contains(w));
    lower.contains(" we both ")
        || (we && TAKES_TWO.iter().any(|p| lower.contains(p)))
        || lower.contains(" both of us ")
        || [" we're both ", " we are both ", " we were both "]
            .iter()
            .any(|p| lower.contains(p))
}

/// Whether "we" opens the clause.
pub(super) fn we_subject(lower: &str) -> bool {
    ["we ", "we're ", "we've ", "we'll ", "we'd "]
        .iter()
        .any(|p| lower.trim_start().starts_with(p))
}

/// Whether "us" is a group bound together ("brings us together", "helps
/// us stay close", "keeps us connected"): said of the speaker alone it is
/// garbled ("brings Nate together").
pub(super) fn us_together(lower: &str) -> bool {
    let us = lower
        .split_whitespace()
        .any(|w| w.trim_matches(|c: char| !c.is_alphanumeric()) == "us");
    us && [" together", " close", " connected", " each other", " bond"]
        .iter()
        .any(|p| lower.contains(p))
}

/// Roles only a group has ("we were teammates", "we're best friends"):
/// with the speaker alone for "we" the fact would be garbled.
const GROUP_ROLES: &[&str] = &[
    "teammates",
    "friends",
    "roommates",
    "classmates",
    "colleagues",
    "coworkers",
    "co-workers",
    "partners",
    "neighbors",
    "neighbours",
    "bandmates",
    "couple",
    "siblings",
];

/// Whether `lower` (the clause in lower case) says "we" are a group role
/// ("we were teammates for years", "we've been best friends"); "we're
/// friends with Ben" can be said of one person and is not meant.
pub(super) fn group_role(lower: &str) -> bool {
    let words: Vec<&str> = lower
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '-'))
        .collect();
    let be = match words.as_slice() {
        ["we", "were" | "are", ..] | ["we've" | "we'd", "been", ..] => 2,
        ["we're", ..] => 1,
        ["we", "have" | "had", "been", ..] => 3,
        _ => return false,
    };
    // the complement, up to its first preposition ("teammates for four
    // years", not "friends with the neighbors")
    let mut complement = words[be..].iter().take_while(|w| {
        !matches!(
            **w,
            "with" | "for" | "in" | "at" | "since" | "from" | "on" | "to" | "about" | "during"
        )
    });
    let is_role = complement.any(|w| GROUP_ROLES.contains(w));
    is_role
        && words.get(be..).is_some_and(|r| {
            !r.windows(2)
                .any(|p| GROUP_ROLES.contains(&p[0]) && p[1] == "with")
        })
}

/// `text` without the word `word` (its punctuation kept).
pub(super) fn without_word(text: &str, word: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    for w in text.split_whitespace() {
        let core = w.trim_matches(|c: char| !c.is_alphanumeric());
        if core.eq_ignore_ascii_case(word) {
            let trail = &w[w.find(core).map_or(w.len(), |at| at + core.len())..];
            match out.last_mut() {
                Some(last) if !trail.is_empty() => last.push_str(trail),
                _ => {}
            }
            continue;
        }
        out.push(w.to_string());
    }
    out.join(" ")
}

/// What the speaker did, of `clause` said with "we ... together" and no
/// one named: without "together" ("we went camping together": "we went
/// camping"); but "we've been together 8 years", no one named, is the
/// speaker with their partner ("I've been with my partner for 8 years").
pub(super) fn done_alone(clause: &str) -> String {
    let w: Vec<&str> = clause.split_whitespace().collect();
    let lower: Vec<String> = w.iter().map(|x| super::clauses::bare(x)).collect();
    let lead = match lower.as_slice() {
        [we, been, together, ..]
            if matches!(we.as_str(), "we've" | "weve")
                && been == "been"
                && together == "together" =>
        {
            3
        }
        [we, have, been, together, ..]
            if we == "we" && have == "have" && been == "been" && together == "together" =>
        {
            4
        }
        _ => return without_word(clause, "together"),
    };
    let rest = &w[lead..];
    let rest = match rest.first() {
        Some(f) if super::clauses::bare(f) == "for" => &rest[1..],
        _ => rest,
    };
    let years = rest.first().is_some_and(|n| {
        n.chars().all(|c| c.is_ascii_digit())
            || super::lexicon::number(&super::clauses::bare(n)).is_some()
    }) && rest.get(1).is_some_and(|u| {
        matches!(
            super::clauses::bare(u).as_str(),
            "years" | "year" | "months" | "yrs"
        )
    });
    if !years {
        return without_word(clause, "together");
    }
    format!("I've been with my partner for {}", rest.join(" "))
}

#[cfg(test)]
mod tests {
    use super::done_alone;

    #[test]
    fn together_for_years_is_with_a_partner() {
        assert_eq!(
            done_alone("we've been together 8 years"),
            "I've been with my partner for 8 years"
        );
        assert_eq!(
            done_alone("we have been together for five years now!"),
            "I've been with my partner for five years now!"
        );
        assert_eq!(done_alone("we went camping together"), "we went camping");
        assert_eq!(
            done_alone("we've been together all day"),
            "we've been all day"
        );
    }
}
