//! Clauses that point at a shared picture ("Here's a pic of my garden"):
//! what, if anything, they say besides pointing. A picture alone is not
//! a fact; where it was taken, or what it shows happening, is.
//!
//! Owns the picture words and these readings; whether the rest is a fact
//! is for the shape checks, not for this module.

use super::classify::content;

/// Words for pictures: a clause that only points at one shares nothing.
const PICTURES: &[&str] = &[
    "photo",
    "photos",
    "pic",
    "pics",
    "picture",
    "pictures",
    "snap",
    "snapshot",
    "selfie",
    "screenshot",
    "image",
];

/// What to keep of a clause that points at a shared picture: `None` when
/// it does not, `Some(None)` when it only points at one ("Here's a pic of
/// my garden"), `Some(Some(rest))` when it goes on to say something ("that
/// pic's from when my crew won a comp" -> "my crew won a comp").
pub fn picture_lead(clause: &str) -> Option<Option<String>> {
    let w: Vec<&str> = clause.split_whitespace().collect();
    let lower: Vec<String> = w
        .iter()
        .map(|x| {
            x.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
                .to_lowercase()
                .replace('\u{2019}', "'")
        })
        .collect();
    let pic = lower.iter().take(6).position(|x| {
        PICTURES.contains(&x.as_str())
            || PICTURES
                .iter()
                .any(|p| x.strip_suffix("'s").is_some_and(|y| y == *p))
    })?;
    let opens = matches!(
        lower.first().map(String::as_str),
        Some(
            "here"
                | "here's"
                | "heres"
                | "this"
                | "that"
                | "these"
                | "those"
                | "that's"
                | "this's"
                | "check"
                | "look"
                | "see"
                | "attached"
                | "sharing"
                | "sent"
                | "a"
                | "the"
                | "took"
                | "i"
                | "i'm"
        )
    );
    if !opens {
        return None;
    }
    // "I took plenty of beach pics", "I took so many photos": a doing of
    // the speaker's, not a pointer at one shared
    let counted = lower[..pic].iter().any(|x| {
        matches!(
            x.as_str(),
            "plenty" | "lots" | "loads" | "tons" | "many" | "hundreds" | "dozens" | "thousands"
        )
    });
    let pointed = lower[..pic].iter().any(|x| {
        matches!(
            x.as_str(),
            "this" | "that" | "these" | "those" | "here" | "here's"
        )
    });
    if counted && !pointed {
        return None;
    }
    // "... pic's from when X" / "... photo of when X": X is the fact
    if let Some(k) = lower[pic..].iter().position(|x| x == "when") {
        let rest = w[pic + k + 1..].join(" ");
        if content(&rest) >= 2 {
            return Some(Some(rest));
        }
    }
    // "I took this pic on a hike near Fort Wayne": where the speaker was
    if let Some(place) = where_taken(&w, &lower, pic) {
        return Some(Some(place));
    }
    // "a pic of my family camping at the beach": what it shows happening
    if let Some(scene) = of_doing(&w, &lower, pic) {
        return Some(Some(scene));
    }
    // "a photo of my horse painting I did recently": what the speaker did
    if let Some(done) = of_own_doing(&w, &lower, pic) {
        return Some(Some(done));
    }
    // "Here's a pic from my walk last week": where the speaker was
    if let Some(event) = from_event(&w, &lower, pic) {
        return Some(Some(event));
    }
    Some(None)
}

/// "I took/snapped this photo at/on/in X" -> "I was at/on/in X", unless X
/// is a time ("at sunset", "in 2019", "on Monday").
fn where_taken(w: &[&str], lower: &[String], pic: usize) -> Option<String> {
    let took = lower.first().is_some_and(|x| x == "i")
        && lower
            .get(1)
            .is_some_and(|x| matches!(x.as_str(), "took" | "snapped" | "shot" | "captured"))
        && (2..=3).contains(&pic);
    let prep = lower.get(pic + 1)?;
    if !took || !matches!(prep.as_str(), "on" | "at" | "in") {
        return None;
    }
    // the first word after the preposition and its determiners
    let head = lower[pic + 2..].iter().find(|x| {
        !matches!(
            x.as_str(),
            "the" | "a" | "an" | "my" | "our" | "this" | "that" | "last" | "early" | "late"
        )
    })?;
    let time = super::words::CALENDAR.contains(&head.as_str())
        || head.starts_with(|c: char| c.is_ascii_digit());
    let rest = w[pic + 1..].join(" ");
    (!time && content(&rest) >= 2).then(|| format!("I was {rest}"))
}

/// Outings one is on ("on a hike"), for [`from_event`].
const ON: &[&str] = &[
    "trip",
    "vacation",
    "holiday",
    "hike",
    "walk",
    "cruise",
    "tour",
    "getaway",
    "retreat",
    "honeymoon",
    "ride",
    "run",
    "adventure",
    "excursion",
    "journey",
    "outing",
];

/// Occasions one is at ("at a concert"), for [`from_event`].
const AT: &[&str] = &[
    "game",
    "match",
    "concert",
    "party",
    "wedding",
    "festival",
    "show",
    "event",
    "conference",
    "ceremony",
    "graduation",
    "recital",
    "parade",
    "fair",
    "exhibition",
    "gig",
    "tournament",
    "competition",
    "race",
    "reunion",
    "celebration",
    "picnic",
    "barbecue",
    "bbq",
    "fundraiser",
    "convention",
    "workshop",
    "meetup",
    "performance",
    "rally",
    "marathon",
    "gala",
];

/// "a pic (I got) from my walk last week" -> "I was on a walk last week":
/// a picture from an outing or occasion puts the speaker there. Only when
/// the noun after "from" is one (a picture "from my sister" or "from
/// last Friday" says nothing of where).
fn from_event(w: &[&str], lower: &[String], pic: usize) -> Option<String> {
    let from = pic
        + 1
        + lower
            .get(pic + 1..)?
            .iter()
            .take(3)
            .position(|x| x == "from")?;
    // the noun phrase after "from": up to the first word that ends it
    let start = from + 1;
    let end = (start..lower.len())
        .find(|&k| {
            matches!(
                lower[k].as_str(),
                "in" | "at"
                    | "on"
                    | "near"
                    | "with"
                    | "last"
                    | "this"
                    | "when"
                    | "and"
                    | "to"
                    | "of"
                    | "that"
                    | "where"
                    | "yesterday"
                    | "today"
                    | "ago"
            ) || w[k - 1].ends_with([',', '.', '!', '?', ';'])
        })
        .unwrap_or(lower.len());
    let head = lower.get(start..end)?.last()?;
    let prep = if ON.contains(&head.as_str()) {
        "on"
    } else if AT.contains(&head.as_str()) {
        "at"
    } else {
        return None;
    };
    // the speaker's own outing is "a" one: "on my walk" would read as
    // someone else's once "my" is resolved
    let phrase: Vec<&str> = w[start..]
        .iter()
        .enumerate()
        .map(|(k, x)| match (k, lower[start + k].as_str()) {
            (0, "my" | "our") => "a",
            _ => x,
        })
        .collect();
    Some(format!("I was {prep} {}", phrase.join(" ")))
}

/// "a pic of my family camping at the beach" -> "my family was camping at
/// the beach": a picture of someone doing something says they did it.
/// The someone is "me", "us", or one to three words owned by the speaker
/// ("my kids", "our dog") or named (a capitalised word); the doing is an
/// -ing verb the lexicon knows.
fn of_doing(w: &[&str], lower: &[String], pic: usize) -> Option<String> {
    if lower.get(pic + 1).map(String::as_str) != Some("of") {
        return None;
    }
    let start = pic + 2;
    let ing = (start + 1..(start + 4).min(lower.len())).find(|&k| {
        matches!(
            super::lexicon::verb(&lower[k]),
            Some((_, super::lexicon::VerbForm::Gerund))
        )
    })?;
    // -ing words that are mostly nouns ("my horse painting I did"), and
    // an -ing word a new clause follows, are not what anyone was doing
    let noun = matches!(
        lower[ing].as_str(),
        "painting"
            | "drawing"
            | "building"
            | "wedding"
            | "meeting"
            | "setting"
            | "recording"
            | "carving"
            | "writing"
            | "reading"
            | "clothing"
            | "opening"
            | "feeling"
    );
    let clause_follows = lower.get(ing + 1).is_none_or(|n| {
        matches!(
            n.as_str(),
            "i" | "we" | "you" | "he" | "she" | "they" | "that" | "which" | "is" | "was"
        )
    });
    if noun || clause_follows {
        return None;
    }
    let who = &lower[start..ing];
    let named = |k: usize| w[k].starts_with(|c: char| c.is_uppercase());
    let owned = matches!(who[0].as_str(), "my" | "our");
    let subject = match who {
        [me] if me == "me" => "I was".to_string(),
        [us] if us == "us" => "we were".to_string(),
        _ if owned || (start..ing).all(named) => {
            let many = who.iter().any(|x| x == "and")
                || (who.len() > 1 && who[who.len() - 1].ends_with('s'));
            format!(
                "{} {}",
                w[start..ing].join(" "),
                if many { "were" } else { "was" }
            )
        }
        _ => return None,
    };
    let rest = w[ing..].join(" ");
    (content(&rest) >= 2).then(|| format!("{subject} {rest}"))
}

/// "a photo of my horse painting I did recently" -> "I did a horse
/// painting recently": a picture of a thing the speaker (or "we") did
/// something to, said in a relative clause, says they did it. The thing
/// is one to three lowercase words after "my", "our", "the" or "this";
/// the doing a past verb the lexicon knows.
fn of_own_doing(w: &[&str], lower: &[String], pic: usize) -> Option<String> {
    use super::lexicon::{verb, VerbForm, AUXILIARIES};
    if lower.get(pic + 1).map(String::as_str) != Some("of")
        || !matches!(
            lower.get(pic + 2).map(String::as_str),
            Some("my" | "our" | "the" | "this" | "that" | "these" | "those")
        )
    {
        return None;
    }
    let start = pic + 3;
    let who = (start + 1..=(start + 4).min(lower.len().saturating_sub(2)))
        .find(|&k| matches!(lower[k].as_str(), "i" | "we"))?;
    let end = if matches!(lower[who - 1].as_str(), "that" | "which") {
        who - 1
    } else {
        who
    };
    let np = &w[start..end];
    let plain = |x: &&str| {
        x.chars().all(|c| c.is_lowercase() || c == '-')
            && !AUXILIARIES.contains(&x.to_lowercase().as_str())
    };
    if np.is_empty() || np.len() > 3 || !np.iter().all(plain) {
        return None;
    }
    let v = &lower[who + 1];
    if !matches!(verb(v), Some((_, VerbForm::Past))) || matches!(v.as_str(), "was" | "were") {
        return None;
    }
    let np = np.join(" ");
    let article = super::salvage::article_for(&np, false);
    let subject = if lower[who] == "i" { "I" } else { "we" };
    let mut fact = vec![format!("{subject} {v} {article}{np}")];
    fact.extend(w[who + 2..].iter().map(|x| x.to_string()));
    Some(fact.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(clause, what is kept)`: "-" not a picture clause, "" a picture
    /// alone, else the fact it gives.
    const CASES: &[(&str, &str)] = &[
        ("Here's a photo of my garden.", ""),
        ("Check out this pic!", ""),
        (
            "That pic's from when my crew won a dance comp.",
            "my crew won a dance comp.",
        ),
        ("I took up photography last year.", "-"),
        ("My photo won a prize at the fair.", "-"),
        // where it was taken is where the speaker was
        (
            "I took that pic on a hike last summer near Fort Wayne.",
            "I was on a hike last summer near Fort Wayne.",
        ),
        (
            "I snapped this photo at a lake called Whispering Falls.",
            "I was at a lake called Whispering Falls.",
        ),
        ("I took this photo at sunset.", ""),
        ("I took this pic in May.", ""),
        // a picture from an outing or occasion puts the speaker there
        (
            "Here's a pic I got from my walk last week.",
            "I was on a walk last week.",
        ),
        (
            "I have a picture from a vacation in Florida.",
            "I was on a vacation in Florida.",
        ),
        (
            "Here's a pic from a recent game.",
            "I was at a recent game.",
        ),
        ("Here's a photo from my sister.", ""),
        ("Here's a pic from last Friday with some veterans.", ""),
        // a picture of someone doing something says they did it
        (
            "Here's a pic of my family camping at the beach.",
            "my family was camping at the beach.",
        ),
        (
            "This is a photo of my kids playing in the waves.",
            "my kids were playing in the waves.",
        ),
        (
            "Here's a photo of me hiking in the Alps.",
            "I was hiking in the Alps.",
        ),
        ("Here's a photo of the view.", ""),
        // ("painting" is the thing here, not a doing) ... and what the
        // speaker did to it is said
        (
            "Here's a photo of my horse painting I did recently.",
            "I did a horse painting recently.",
        ),
        (
            "A pic of the cookies that we baked for the bake sale.",
            "we baked cookies for the bake sale.",
        ),
        ("Here's a photo of the lake I love.", ""),
        // pictures counted are taken, not shown
        ("I took plenty of beach pics.", "-"),
        ("I took so many photos at the wedding", "-"),
        ("Here are lots of pics from this trip", ""),
    ];

    #[test]
    fn pictures_keep_only_what_they_say() {
        for (clause, want) in CASES {
            let want = match *want {
                "-" => None,
                "" => Some(None),
                fact => Some(Some(fact.to_string())),
            };
            assert_eq!(picture_lead(clause), want, "{clause}");
        }
    }
}
