//! A name corrected: "Correction: my sister's name is Priyanka, not
//! Priya" says every memory that calls her Priya should say Priyanka. The
//! engine renames them (each a new version); this module reads the
//! correction and does the renaming of one text. Reads words only.

/// The wrong name and the right one a correction gives: "X's name is A,
/// not B", "X is named A, not B", "X is called A, not B", "it's A, not
/// B" (both names capitalised, one word or two).
pub fn renamed(fact: &str) -> Option<(String, String)> {
    let t = fact.trim().trim_end_matches(['.', '!']);
    let (head, wrong) = t.rsplit_once(", not ")?;
    let right = ["'s name is ", " is named ", " is called ", "it's ", "It's "]
        .iter()
        .find_map(|p| head.rsplit_once(p).map(|(_, r)| r))?;
    // ("Sol & Sal": an ampersand may join two words)
    let name = |s: &str| {
        let words: Vec<&str> = s.split_whitespace().collect();
        let amp = words.iter().filter(|w| **w == "&").count();
        (1..=2 + amp).contains(&words.len())
            && words.first().is_some_and(|w| *w != "&")
            && words.iter().all(|w| {
                *w == "&"
                    || (w.starts_with(char::is_uppercase)
                        && w.chars().all(|c| c.is_alphabetic() || c == '-'))
            })
    };
    (name(right) && name(wrong) && right != wrong).then(|| (wrong.to_string(), right.to_string()))
}

/// `text` with the whole word (or words) `wrong` said as `right`, if it
/// holds them ("Lucy's sister Priya lives in Bristol" -> "... Priyanka
/// ..."); a longer name that starts the same ("Priyanka") is not `wrong`.
pub fn rename(text: &str, wrong: &str, right: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len() + right.len());
    let mut rest = text;
    let mut changed = false;
    while let Some(i) = rest.find(wrong) {
        let before_ok = rest[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric());
        let after = &rest[i + wrong.len()..];
        let after_ok = after.chars().next().is_none_or(|c| !c.is_alphanumeric());
        out.push_str(&rest[..i]);
        if before_ok && after_ok {
            out.push_str(right);
            changed = true;
        } else {
            out.push_str(wrong);
        }
        rest = after;
    }
    out.push_str(rest);
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::{rename, renamed};

    #[test]
    fn a_name_corrected() {
        let pair = |w: &str, r: &str| Some((w.to_string(), r.to_string()));
        assert_eq!(
            renamed("Lucy's sister is named Priyanka, not Priya."),
            pair("Priya", "Priyanka")
        );
        assert_eq!(
            renamed("Lucy's sister's name is Priyanka, not Priya."),
            pair("Priya", "Priyanka")
        );
        assert_eq!(
            renamed("Nadia's studio is called Sol & Sal, not Sol Yoga."),
            pair("Sol Yoga", "Sol & Sal")
        );
        assert_eq!(
            renamed("The dog is called Max, not Rex!"),
            pair("Rex", "Max")
        );
        assert_eq!(renamed("Lucy is vegetarian, not vegan."), None);
        assert_eq!(renamed("Her name is Ana, not the one you think."), None);
    }

    #[test]
    fn a_name_is_renamed_as_a_whole_word() {
        assert_eq!(
            rename("Lucy's sister Priya lives in Bristol.", "Priya", "Priyanka").as_deref(),
            Some("Lucy's sister Priyanka lives in Bristol.")
        );
        assert_eq!(
            rename("Priya's cat is Priyanka's too.", "Priya", "Priyanka").as_deref(),
            Some("Priyanka's cat is Priyanka's too.")
        );
        assert_eq!(rename("Priyanka lives in Bath.", "Priya", "Priyanka"), None);
    }
}
