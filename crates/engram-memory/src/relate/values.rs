//! Values: a new amount of something someone has that is measured by one
//! ("Maya's rent went up to 1550" after "Maya's rent is 1450", "Leo's
//! salary is now 62k" after "Leo's salary is 58k"). The same owner and the
//! same thing, a different amount: the next version however the change is
//! worded. Reads the two facts' words only.

use super::slots::normalise;

/// Wordings between the thing and its amount.
const TO: &[&[&str]] = &[
    &["is", "now"],
    &["is"],
    &["was"],
    &["went", "up", "to"],
    &["went", "down", "to"],
    &["rose", "to"],
    &["dropped", "to"],
    &["fell", "to"],
    &["increased", "to"],
    &["decreased", "to"],
    &["has", "gone", "up", "to"],
    &["has", "gone", "down", "to"],
    &["is", "going", "up", "to"],
    &["now"],
];

/// `fact` as (owner, thing, amount): "maya's rent went up to 1550" ->
/// (Some("maya"), "rent", "1550"), "the budget went up to 28k" -> (None,
/// "budget", "28k"); `None` unless it opens with a thing and says its
/// amount.
fn value(fact: &str) -> Option<(Option<String>, String, String)> {
    let t = normalise(fact);
    let mut w: Vec<&str> = t.split_whitespace().collect();
    // ("the user's rent", "the budget")
    let the = w.first() == Some(&"the");
    if the {
        w.remove(0);
    }
    // "lucía set a new 10k pb of 50:10": a best beaten
    if let ["set" | "has" | "got", "a", "new", ..] = w.get(1..).unwrap_or_default() {
        let of = (5..w.len().min(7)).find(|&i| w[i] == "of")?;
        let amount = w.get(of + 1)?;
        return amount.starts_with(|c: char| c.is_ascii_digit()).then(|| {
            (
                Some(w[0].to_string()),
                w[4..of].join(" "),
                amount.to_string(),
            )
        });
    }
    if let Some(said) = rate_set(&w) {
        return Some(said);
    }
    // "the builder for the kitchen quoted £18k": the quote's amount
    if let Some(q) = w.iter().position(|x| *x == "quoted") {
        let amount = w
            .get(q + 1)?
            .trim_start_matches(['$', '\u{20ac}', '\u{a3}']);
        return amount
            .starts_with(|c: char| c.is_ascii_digit())
            .then(|| (None, "quote".to_string(), amount.to_string()));
    }
    let owner = w.first()?.strip_suffix("'s").map(str::to_string);
    if owner.is_none() && !the {
        return None;
    }
    let from = usize::from(owner.is_some());
    // the thing: one or two words up to the wording
    for len in 1..=2 {
        let Some(rest) = w.get(from + len..) else {
            break;
        };
        // ("budget for the kitchen is 25k": which work's, said after it)
        let says = |r: &[&str]| TO.iter().any(|to| r.starts_with(to));
        let which = matches!(rest.first(), Some(&("for" | "of")))
            .then(|| (2..=4).find(|&k| rest.get(k..).is_some_and(says)))
            .flatten()
            .unwrap_or(0);
        let rest = &rest[which..];
        let Some(to) = TO.iter().find(|to| rest.starts_with(to)) else {
            continue;
        };
        let mut at = to.len();
        if rest
            .get(at)
            .is_some_and(|x| matches!(*x, "around" | "about" | "roughly" | "approximately"))
        {
            at += 1;
        }
        let amount = rest.get(at)?;
        let amount = amount.trim_start_matches(['$', '\u{20ac}', '\u{a3}']);
        if !amount.starts_with(|c: char| c.is_ascii_digit()) {
            return None;
        }
        let thing = w[from..from + len].join(" ");
        return Some((owner, thing, amount.to_string()));
    }
    None
}

/// What someone charges, said by the rate ("ines charges 400 a day") or
/// by setting it ("ines raised their day rate to 450"): (owner, "day
/// rate", amount).
fn rate_set(w: &[&str]) -> Option<(Option<String>, String, String)> {
    let owner = Some(w.first()?.to_string());
    let amount = |a: &str| {
        let a = a.trim_start_matches(['$', '\u{20ac}', '\u{a3}']);
        a.starts_with(|c: char| c.is_ascii_digit())
            .then(|| a.to_string())
    };
    let per = |p: &str| match p {
        "day" => Some("day rate"),
        "hour" => Some("hourly rate"),
        "week" => Some("weekly rate"),
        "month" => Some("monthly rate"),
        _ => None,
    };
    match w.get(1..)? {
        ["charges" | "charge", a, "a" | "an" | "per", p, ..] => {
            Some((owner, per(p)?.to_string(), amount(a)?))
        }
        ["raised" | "increased" | "lowered" | "cut" | "dropped" | "put", rest @ ..] => {
            let rest = rest.strip_prefix(&["up"]).unwrap_or(rest);
            let [whose, thing @ .., "to", a] =
                rest.get(..rest.iter().position(|x| *x == "to")? + 2)?
            else {
                return None;
            };
            let thing = match thing {
                ["daily", "rate"] => "day rate".to_string(),
                ["rate"] => return None,
                _ => thing.join(" "),
            };
            (matches!(*whose, "their" | "his" | "her" | "my") && thing.ends_with("rate"))
                .then(|| (owner, thing, amount(a)))
                .and_then(|(o, t, a)| Some((o, t, a?)))
        }
        _ => None,
    }
}

/// Whether `new` gives a new amount of what `old` says someone's thing is
/// ("the budget went up to 28k" says it of the one thing of that name;
/// "Lucía set a new 10k PB of 50:10" gives her 10k PB's new time).
pub(super) fn new_value(new: &str, old: &str) -> bool {
    match (value(new), value(old)) {
        (Some((o1, t1, a1)), Some((o2, t2, a2))) => {
            (o1.is_none() || o1 == o2) && t1 == t2 && a1 != a2
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::new_value;

    #[test]
    fn a_budget_said_of_its_work_is_the_budget() {
        assert!(new_value(
            "The budget went up to 28k because of plumbing issues.",
            "The user's budget for the kitchen is around 25k."
        ));
        assert!(new_value(
            "Priya's final cost for the kitchen was 28k.",
            "Priya's final cost is 30k."
        ));
    }

    #[test]
    fn a_new_amount_of_the_same_thing() {
        assert!(new_value(
            "The user's rent went up to 1550 which sucks.",
            "The user's rent is 1450."
        ));
        assert!(new_value(
            "Leo's salary is now $62k.",
            "Leo's salary is $58k."
        ));
        assert!(new_value(
            "Ines raised their day rate to 450.",
            "Ines charges 400 a day."
        ));
        assert!(new_value(
            "Ines charges 60 an hour now.",
            "Ines charges 50 an hour."
        ));
        assert!(!new_value(
            "Ines raised their day rate to 450.",
            "Ines charges 50 an hour."
        ));
        assert!(!new_value("Leo's rent is 900.", "Leo's salary is 58k."));
        assert!(!new_value("Leo's rent is 900.", "Mia's rent is 800."));
        assert!(new_value(
            "The budget went up to 28k because of plumbing issues.",
            "The user's budget is around 25k."
        ));
        assert!(!new_value(
            "Leo's rent is 900.",
            "Leo's rent is 900 a month."
        ));
    }
}
