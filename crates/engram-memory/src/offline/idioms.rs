//! Idioms said plainly before a sentence is cut into clauses, where the
//! speaker's "me" or "it" in them would be read wrong: "my back has been
//! killing me" (pain, not a killing), "great for expressing myself"
//! (self-expression, not "expressing Rosa"), "if it's a girl" (the baby),
//! "a comp near me" (nearby). Each leaves a sentence it does not fit as
//! it was. Reads text only.

use super::clauses;

/// "my back has been killing me" said as "my back has been hurting": the
/// idiom of pain, whose "me" would be read as the one killed. Only after
/// a form of "be", with a part of the body among the three words before.
pub(super) fn killing_me(sentence: &str) -> std::borrow::Cow<'_, str> {
    let words: Vec<&str> = sentence.split(' ').collect();
    let at = (2..words.len().saturating_sub(1)).find(|&i| {
        clauses::bare(words[i]) == "killing"
            && clauses::bare(words[i + 1]) == "me"
            && matches!(
                clauses::bare(words[i - 1]).as_str(),
                "been" | "is" | "are" | "was" | "were"
            )
            && words[i.saturating_sub(4)..i - 1]
                .iter()
                .any(|p| super::lexicon::body_part(&clauses::bare(p)))
    });
    let Some(i) = at else {
        return std::borrow::Cow::Borrowed(sentence);
    };
    // (what follows "me": a comma, a stop)
    let me = words[i + 1];
    let tail = me.find("me").map_or("", |at| &me[at + 2..]);
    let mut out: Vec<String> = words[..i].iter().map(|w| w.to_string()).collect();
    out.push(format!("hurting{tail}"));
    out.extend(words[i + 2..].iter().map(|w| w.to_string()));
    std::borrow::Cow::Owned(out.join(" "))
}

/// "a dance comp near me" said as "a dance comp nearby": the speaker's
/// "me" here says where, not who ("near Jon" reads as beside him).
pub(super) fn near_me(sentence: &str) -> std::borrow::Cow<'_, str> {
    // (a word goes on: "near me and my mum" is about people)
    swapped(
        sentence,
        &[(" near me", " nearby"), (" close to me", " nearby")],
        |rest| !(rest.starts_with(|c: char| c.is_alphanumeric()) || rest.starts_with(" and ")),
    )
}

/// "we'll call the baby Iris if it's a girl" said as "... if the baby is a
/// girl": the idiom's "it" is the baby on the way.
pub(super) fn if_a_girl(sentence: &str) -> std::borrow::Cow<'_, str> {
    swapped(
        sentence,
        &[
            (" if it's a girl", " if the baby is a girl"),
            (" if it's a boy", " if the baby is a boy"),
            (" if it is a girl", " if the baby is a girl"),
            (" if it is a boy", " if the baby is a boy"),
        ],
        |_| true,
    )
}

/// `sentence` with the first of `pairs` it says (whose rest `fits`) said
/// as its plain wording; as it was when it says none.
fn swapped<'a>(
    sentence: &'a str,
    pairs: &[(&str, &str)],
    fits: impl Fn(&str) -> bool,
) -> std::borrow::Cow<'a, str> {
    for (said, plain) in pairs {
        if let Some(at) = sentence.find(said) {
            let rest = &sentence[at + said.len()..];
            if fits(rest) {
                return std::borrow::Cow::Owned(format!("{}{plain}{rest}", &sentence[..at]));
            }
        }
    }
    std::borrow::Cow::Borrowed(sentence)
}

/// "Painting is great for expressing myself" said as "... for my
/// self-expression": the idiom's "myself" would be read as the speaker's
/// name, the one expressed ("expressing Rosa").
pub(super) fn self_expression(sentence: &str) -> std::borrow::Cow<'_, str> {
    const SAID: &[(&str, &str)] = &[
        ("for expressing myself", "for my self-expression"),
        ("to express myself", "for my self-expression"),
        (
            "helps me express myself",
            "helps me with my self-expression",
        ),
        ("help me express myself", "help me with my self-expression"),
        ("I express myself", "I find self-expression"),
        ("expressing myself", "self-expression"),
    ];
    let lower = sentence.to_lowercase();
    // (byte offsets of the lower case are the sentence's only if it kept
    // its length)
    if lower.len() != sentence.len() {
        return std::borrow::Cow::Borrowed(sentence);
    }
    let Some((at, (from, to))) = SAID
        .iter()
        .find_map(|p| lower.find(&p.0.to_lowercase()).map(|at| (at, p)))
    else {
        return std::borrow::Cow::Borrowed(sentence);
    };
    std::borrow::Cow::Owned(format!(
        "{}{to}{}",
        &sentence[..at],
        &sentence[at + from.len()..]
    ))
}

#[cfg(test)]
mod tests {
    use super::{if_a_girl, killing_me, near_me, self_expression};

    #[test]
    fn a_part_of_the_body_killing_someone_hurts() {
        assert_eq!(
            killing_me("my back has been killing me, saw a physio today"),
            "my back has been hurting, saw a physio today"
        );
        assert_eq!(
            killing_me("my knees are killing me!"),
            "my knees are hurting!"
        );
        // not pain
        let job = "this job is killing me";
        assert_eq!(killing_me(job), job);
        let joke = "my brother was killing me with his jokes";
        assert_eq!(killing_me(joke), joke);
    }

    #[test]
    fn near_me_is_nearby() {
        assert_eq!(
            near_me("I'm getting ready for a dance comp near me in March"),
            "I'm getting ready for a dance comp nearby in March"
        );
        assert_eq!(near_me("there's a gym near me."), "there's a gym nearby.");
        let people = "she sat near me and my mum";
        assert_eq!(near_me(people), people);
    }

    #[test]
    fn if_it_is_a_girl_is_the_baby() {
        assert_eq!(
            if_a_girl("we've decided to call the baby Iris if it's a girl"),
            "we've decided to call the baby Iris if the baby is a girl"
        );
        let plain = "it's a girl!";
        assert_eq!(if_a_girl(plain), plain);
    }

    #[test]
    fn expressing_oneself_is_self_expression() {
        let check = |s: &str, want: &str| assert_eq!(self_expression(s), want, "{s}");
        check(
            "Painting is great for expressing myself",
            "Painting is great for my self-expression",
        );
        check(
            "Art is a way to express myself.",
            "Art is a way for my self-expression.",
        );
        check(
            "dancing helps me express myself",
            "dancing helps me with my self-expression",
        );
        check(
            "I express myself through music",
            "I find self-expression through music",
        );
        check("I hurt myself", "I hurt myself");
        check(
            "singing lets me express myself",
            "singing lets me express myself",
        );
    }
}
