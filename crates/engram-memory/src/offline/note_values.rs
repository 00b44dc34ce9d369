//! Labelled lines of a profile note whose value holds more than one fact,
//! or a fact that "My <label> is <value>" would say badly:
//! - "Work: backend engineer at Equinor" is "I work as a backend engineer
//!   at Equinor" (not "My work is backend engineer ...");
//! - "Family: wife Ingrid, two kids (Sofie 7, Emil 4)" is "My wife is
//!   Ingrid", "I have two kids", "My kid Sofie is 7", "My kid Emil is 4";
//! - "Diet: pescatarian, allergic to walnuts" is "My diet is pescatarian"
//!   and "I'm allergic to walnuts";
//! - a health record's "DOB: 4 March 1990", "Conditions: asthma,
//!   hypothyroidism" and "Medications: levothyroxine 75mcg daily" are "I
//!   was born on 4 March 1990", "I have asthma", "I take levothyroxine
//!   75mcg daily".
//!
//! First-person sentences, read by the extractor like any other. Reads
//! text only.

use super::clauses::bare;
use super::lexicon::PERSON_NOUNS;
use super::named::ALSO_NAMED;

/// The sentences a labelled line (`key` in lower case) says, when its
/// value is one of these; `None` otherwise.
pub(super) fn several(key: &str, value: &str) -> Option<Vec<String>> {
    match key {
        "work" | "job" | "occupation" | "role" => works_as(value).map(|s| vec![s]),
        "family" | "kids" | "children" => family(key, value),
        "diet" => diet(value),
        "dob" | "date of birth" | "born" | "birth date" => {
            let on = if value.starts_with(|c: char| c.is_ascii_digit()) {
                "on"
            } else {
                "in"
            };
            Some(vec![format!("I was born {on} {value}")])
        }
        "conditions" | "condition" | "diagnoses" | "medical conditions" => {
            Some(items(value).iter().map(|i| format!("I have {i}")).collect())
        }
        "medications" | "medication" | "meds" | "medicines" => {
            Some(items(value).iter().map(|i| format!("I take {i}")).collect())
        }
        _ => None,
    }
}

/// "backend engineer at Equinor, mostly Go" -> "I work as a backend
/// engineer at Equinor, mostly Go", when the words before "at", "for" or
/// a comma end with an occupation.
fn works_as(value: &str) -> Option<String> {
    let head_end = [" at ", " for ", ","]
        .iter()
        .filter_map(|p| value.find(p))
        .min()
        .unwrap_or(value.len());
    let head = value[..head_end].trim();
    let last = bare(head.split_whitespace().last()?);
    let first = bare(head.split_whitespace().next()?);
    if !super::lexicon::is_occupation(&last) || matches!(first.as_str(), "a" | "an" | "the") {
        return None;
    }
    let article = if first.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    Some(format!(
        "I work as {article} {}",
        super::notes::lowered(value)
    ))
}

/// `value` split at the commas outside parentheses ("41, two kids (Mia 12,
/// Sol 9)": two parts).
pub(super) fn comma_parts(value: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut current = String::new();
    for c in value.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    out.push(current);
    out
}

/// The items of a list value, split at the commas and "and"s outside
/// parentheses.
fn items(value: &str) -> Vec<String> {
    comma_parts(value)
        .iter()
        .flat_map(|i| {
            if i.contains('(') {
                vec![i.clone()]
            } else {
                i.split(" and ").map(str::to_string).collect()
            }
        })
        .map(|i| i.trim().trim_end_matches('.').to_string())
        .filter(|i| !i.is_empty())
        .collect()
}

/// One of a kind of relative ("kids" -> "kid", "children" -> "child").
fn one_of(noun: &str) -> String {
    match noun {
        "children" => "child".to_string(),
        n => n.strip_suffix('s').unwrap_or(n).to_string(),
    }
}

/// "wife Ingrid, two kids (Sofie 7, Emil 4)" as its sentences.
fn family(key: &str, value: &str) -> Option<Vec<String>> {
    let mut said = Vec::new();
    for item in items(value) {
        let words: Vec<&str> = item.split_whitespace().collect();
        let Some(first) = words.first().map(|w| bare(w)) else {
            continue;
        };
        // "wife Ingrid", "son Leo": who one of them is
        let close = PERSON_NOUNS
            .iter()
            .any(|(n, plural)| *n == first && !plural)
            || ALSO_NAMED.contains(&first.as_str());
        let name: Vec<&str> = words[1..]
            .iter()
            .copied()
            .take_while(|w| super::intro::is_name_word(w))
            .collect();
        if close && !name.is_empty() && name.len() + 1 == words.len() {
            said.push(format!("My {first} is {}", name.join(" ")));
            continue;
        }
        // "two kids (Sofie 7, Emil 4)": how many, and each one's age
        let (head, aside) = match item.split_once('(') {
            Some((h, a)) => (h.trim(), Some(a.trim_end_matches(')'))),
            None => (item.as_str(), None),
        };
        let hw: Vec<&str> = head.split_whitespace().collect();
        let counted = hw.len() == 2
            && super::lexicon::number(&bare(hw[0])).is_some()
            && PERSON_NOUNS
                .iter()
                .any(|(n, plural)| *n == bare(hw[1]) && *plural);
        if !counted {
            // ("Family: close-knit": not a list this reads)
            if key == "family" {
                return None;
            }
            // "Kids: Ada (6), Femi (3)": each one by name, and their age
            let one = one_of(key);
            let age = aside
                .or_else(|| hw.get(1).copied())
                .filter(|a| a.chars().all(|c| c.is_ascii_digit()) && !a.is_empty());
            match (hw.as_slice(), age) {
                ([name, ..], Some(age)) if super::intro::is_name_word(name) && hw.len() <= 2 => {
                    said.push(format!("My {one} {name} is {age}"));
                }
                ([name], None) if super::intro::is_name_word(name) => {
                    said.push(format!("I have a {one} named {name}"));
                }
                _ => {}
            }
            continue;
        }
        said.push(format!("I have {head}"));
        let one = one_of(&bare(hw[1]));
        for each in aside.map(items).unwrap_or_default() {
            let ew: Vec<&str> = each.split_whitespace().collect();
            if let [name, age] = ew.as_slice() {
                if super::intro::is_name_word(name) && age.chars().all(|c| c.is_ascii_digit()) {
                    said.push(format!("My {one} {name} is {age}"));
                }
            }
        }
    }
    (!said.is_empty()).then_some(said)
}

/// "pescatarian, allergic to walnuts": the diet, and what is said of the
/// writer after it.
fn diet(value: &str) -> Option<Vec<String>> {
    let all = items(value);
    let (first, rest) = all.split_first()?;
    if rest.is_empty() {
        return None;
    }
    let mut said = vec![format!("My diet is {first}")];
    for item in rest {
        let w = bare(item.split_whitespace().next()?);
        if !super::notes::SAID_OF_ME.contains(&w.as_str()) {
            return None;
        }
        said.push(format!("I'm {item}"));
    }
    Some(said)
}

/// A to-do item's closing aside of when ("renew passport (expires
/// June)", "book MOT for the Golf (due 20 March)"): the item without it,
/// and when said of the thing ("My passport expires in June", "My MOT
/// for the Golf is due on 20 March"). `None` without such an aside.
pub(super) fn dated_aside(item: &str) -> Option<(String, String)> {
    let t = item.trim_end_matches(['.', '!']);
    let open = t.rfind(" (")?;
    let aside = t[open + 2..].strip_suffix(')')?;
    let (word, when) = aside.split_once(' ')?;
    let (verb, prep) = match word.to_lowercase().as_str() {
        "due" => ("is due", "on"),
        "expires" | "expiring" => ("expires", "in"),
        "ends" | "ending" => ("ends", "on"),
        _ => return None,
    };
    let first = when.split_whitespace().next()?;
    // a day ("20 March") is on it, a month ("June") in it
    let prep = if first.starts_with(|c: char| c.is_ascii_digit()) {
        "on"
    } else if super::dates::month_number(first).is_some() {
        "in"
    } else {
        prep
    };
    // the thing: what follows the item's verb
    let head = &t[..open];
    let mut words = head.split_whitespace();
    words.next()?;
    let thing: Vec<&str> = words.collect();
    let thing = thing.join(" ");
    let thing = thing.strip_prefix("my ").unwrap_or(&thing);
    let thing = thing.strip_prefix("the ").unwrap_or(thing);
    if thing.is_empty() || thing.split_whitespace().count() > 5 {
        return None;
    }
    Some((head.to_string(), format!("My {thing} {verb} {prep} {when}")))
}

#[cfg(test)]
mod tests {
    use super::several;

    #[test]
    fn a_value_of_several_facts_is_said_as_each() {
        for (key, value, want) in [
            (
                "work",
                "backend engineer at Equinor, mostly Go and Postgres",
                Some(vec![
                    "I work as a backend engineer at Equinor, mostly Go and Postgres",
                ]),
            ),
            (
                "family",
                "wife Ingrid, two kids (Sofie 7, Emil 4)",
                Some(vec![
                    "My wife is Ingrid",
                    "I have two kids",
                    "My kid Sofie is 7",
                    "My kid Emil is 4",
                ]),
            ),
            (
                "diet",
                "pescatarian, allergic to walnuts",
                Some(vec!["My diet is pescatarian", "I'm allergic to walnuts"]),
            ),
            (
                "conditions",
                "asthma (since childhood), hypothyroidism (diagnosed 2019)",
                Some(vec![
                    "I have asthma (since childhood)",
                    "I have hypothyroidism (diagnosed 2019)",
                ]),
            ),
            (
                "medications",
                "levothyroxine 75mcg daily, salbutamol inhaler as needed",
                Some(vec![
                    "I take levothyroxine 75mcg daily",
                    "I take salbutamol inhaler as needed",
                ]),
            ),
            (
                "dob",
                "4 March 1990",
                Some(vec!["I was born on 4 March 1990"]),
            ),
            // said well already, or not such a list
            ("diet", "vegetarian", None),
            ("family", "close-knit and loud", None),
            ("work", "mostly remote", None),
        ] {
            let want = want.map(|w| w.iter().map(|s| s.to_string()).collect::<Vec<_>>());
            assert_eq!(several(key, value), want, "{key}: {value}");
        }
    }
}
