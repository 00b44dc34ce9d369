//! What something costs, said with "it" after the clause that named it:
//! "my dog Churro needs knee surgery, the vet says it'll cost about £800"
//! is "my dog Churro's knee surgery will cost about £800"; "we bought a
//! new sofa, it cost £1200" is "my new sofa cost £1200". The thing is the
//! object of the clause before, whose is its subject's (the speaker's for
//! "I" and "we"); who reckoned the cost ("the vet says") is left out, the
//! amount and its hedge ("about") kept. Reads text only.

use super::clauses::bare;
use super::lexicon::{verb, VerbForm};

/// "it'll cost", "it cost", "it's going to cost": the verb group said of
/// the thing, and how many words it takes.
fn costing(words: &[String]) -> Option<(&'static str, usize)> {
    Some(match words {
        [it, c, ..] if it == "it'll" && c == "cost" => ("will cost", 2),
        [it, c, ..] if it == "it'd" && c == "cost" => ("would cost", 2),
        [it, w, c, ..] if it == "it" && w == "will" && c == "cost" => ("will cost", 3),
        [it, c, ..] if it == "it" && c == "cost" => ("cost", 2),
        [it, c, ..] if it == "it" && c == "costs" => ("costs", 2),
        [it, g, t, c, ..] if it == "it's" && g == "going" && t == "to" && c == "cost" => {
            ("is going to cost", 4)
        }
        _ => return None,
    })
}

/// Whether `words` open with an amount of money, perhaps hedged ("about
/// £800", "3 grand", "over 2k").
fn priced(words: &[&str]) -> bool {
    let hedged = words.first().is_some_and(|w| {
        matches!(
            bare(w).as_str(),
            "about" | "around" | "roughly" | "nearly" | "almost" | "over" | "under" | "like"
        )
    });
    let words = &words[usize::from(hedged)..];
    let Some(first) = words.first() else {
        return false;
    };
    let signed = first.starts_with(['$', '\u{20ac}', '\u{a3}']);
    let unit = words.get(1).is_some_and(|u| {
        matches!(
            bare(u).as_str(),
            "grand" | "quid" | "euros" | "dollars" | "pounds" | "bucks" | "k"
        )
    });
    super::gapped::amount(first)
        && (signed
            || unit
            || first
                .trim_end_matches([',', '.', '!'])
                .ends_with(['k', 'K']))
}

/// The clause before's object, said as whose it is: "my dog Churro needs
/// knee surgery" -> "my dog Churro's knee surgery"; "we bought a new sofa"
/// -> "my new sofa".
fn owned_object(before: &str) -> Option<String> {
    let words: Vec<&str> = super::strip_openers(before).split_whitespace().collect();
    let lower: Vec<String> = words.iter().map(|w| bare(w)).collect();
    let v = lower.iter().position(|w| {
        matches!(
            verb(w),
            Some((base, VerbForm::Past | VerbForm::Third | VerbForm::Base | VerbForm::Gerund))
                if !matches!(base, "be" | "have" | "do" | "feel" | "think" | "say" | "love" | "like")
        )
    })?;
    let whose = super::owners::whose_subject(&words[..v])?;
    let mut j = v + 1;
    if lower
        .get(j)
        .is_some_and(|d| matches!(d.as_str(), "a" | "an" | "the" | "some" | "my" | "our"))
    {
        j += 1;
    }
    let object: Vec<&str> = words[j..]
        .iter()
        .take(4)
        .take_while(|w| {
            let b = bare(w);
            !super::words::FUNCTION.contains(&b.as_str())
                && !super::clauses::is_verbish(w)
                && !super::dates::names_a_day(&b)
                && !matches!(b.as_str(), "next" | "this" | "last" | "tomorrow" | "today")
        })
        .copied()
        .collect();
    let object = super::surface::to_first_stop(&object);
    let head = bare(object.rsplit(' ').next()?);
    if object.is_empty() || super::words::VAGUE.contains(&head.as_str()) {
        return None;
    }
    Some(format!("{whose} {object}"))
}

/// `clause` ("the vet says it'll cost about £800") said of the thing the
/// clause `before` it named: "my dog Churro's knee surgery will cost about
/// £800". `None` unless the clause says "it" costs an amount.
pub(super) fn cost_of(clause: &str, before: &str) -> Option<String> {
    let words: Vec<&str> = clause.split_whitespace().collect();
    let lower: Vec<String> = words
        .iter()
        .map(|w| bare(w).replace('\u{2019}', "'"))
        .collect();
    // (who reckoned it: "the vet says", "they said", "apparently")
    let at = (0..lower.len().min(4)).find(|&i| costing(&lower[i..]).is_some())?;
    let reported = at == 0
        || matches!(
            lower[at - 1].as_str(),
            "says" | "said" | "reckons" | "thinks" | "apparently" | "quoted"
        );
    if !reported {
        return None;
    }
    let (cost, took) = costing(&lower[at..])?;
    let rest = &words[at + took..];
    if !priced(rest) {
        return None;
    }
    let thing = owned_object(before)?;
    Some(format!(
        "{} {cost} {}",
        super::surface::upper_first(&thing),
        rest.join(" ")
    ))
}

#[cfg(test)]
mod tests {
    use super::cost_of;

    #[test]
    fn what_it_costs_is_of_the_thing_named_before() {
        for (clause, before, want) in [
            (
                "the vet says it'll cost about £800",
                "my dog Churro needs knee surgery",
                Some("My dog Churro's knee surgery will cost about £800"),
            ),
            (
                "it cost £1200!",
                "we bought a new sofa",
                Some("My new sofa cost £1200!"),
            ),
            (
                "it's going to cost 3 grand",
                "we're getting a new boiler next week",
                Some("My new boiler is going to cost 3 grand"),
            ),
            (
                "apparently it'll cost over 2k",
                "my car needs a new clutch",
                Some("My car's new clutch will cost over 2k"),
            ),
            // no amount, no thing, or someone not the speaker's
            ("it'll cost a fortune", "my car needs a new clutch", None),
            ("it cost £5", "I went out", None),
            ("it cost £5", "she bought a lamp", None),
            ("it cost me £5 to park", "I drove in", None),
        ] {
            assert_eq!(cost_of(clause, before).as_deref(), want, "{clause}");
        }
    }
}
