//! Baby news told in passing ("Carmen found out it's a girl, they're
//! naming her Lucía"): a gender reveal and a name said of the baby, whose
//! it is said too, so that neither "it" nor "her" is left to resolve.
//! Reads text only.

/// Baby news said as a gender reveal and a name ("Carmen found out it's a
/// girl, they're naming her Lucía"): whose baby it is, said of the baby,
/// "Carmen's baby is a girl, Carmen's baby will be named Lucía". The
/// baby is the finder's, by name; the speaker's when "I" or "we" found
/// out, unless the turn says someone named is pregnant ("my sister Carmen
/// is pregnant! we found out it's a boy"). `None` when `text` has no such
/// news.
pub(super) fn baby_news(text: &str) -> Option<String> {
    let lower = text.to_lowercase().replace('\u{2019}', "'");
    let (at, len, gender) = [
        (" found out it's a girl", "girl"),
        (" found out it's a boy", "boy"),
        (" found out it is a girl", "girl"),
        (" found out it is a boy", "boy"),
    ]
    .iter()
    .find_map(|(p, g)| lower.find(p).map(|i| (i, p.len(), *g)))?;
    // who found out: the word before
    let before = &text[..at];
    let finder_start = before.rfind([' ', ',', '.', '!', '?']).map_or(0, |i| i + 1);
    let finder = &before[finder_start..];
    let pregnant = lower.find(" is pregnant").and_then(|i| {
        let w = text[..i].split_whitespace().last()?;
        super::intro::is_name_word(w).then(|| w.to_string())
    });
    let owner = match finder.to_lowercase().as_str() {
        "i" | "we" => match &pregnant {
            Some(name) => format!("{name}'s"),
            None => "my".to_string(),
        },
        _ if super::intro::is_name_word(finder) => format!("{finder}'s"),
        _ => return None,
    };
    let opening = if finder_start == 0 || text[..finder_start].trim_end().ends_with(['.', '!', '?'])
    {
        super::surface::upper_first(&owner)
    } else {
        owner.clone()
    };
    let mut out = format!(
        "{}{opening} baby is a {gender}{}",
        &text[..finder_start],
        &text[at + len..]
    );
    // "..., they're naming her Lucía": the baby's name
    let naming = [
        "they're naming her ",
        "they're naming him ",
        "they're calling her ",
        "they're calling him ",
        "we're naming her ",
        "we're naming him ",
        "we're calling her ",
        "we're calling him ",
        "she's naming her ",
        "he's naming him ",
    ];
    // ("we're thinking of calling her Asha": a name being weighed)
    let weighing = [
        "we're thinking of calling her ",
        "we're thinking of calling him ",
        "we're thinking of naming her ",
        "we're thinking of naming him ",
    ];
    let lower_out = out.to_lowercase().replace('\u{2019}', "'");
    let named = naming
        .iter()
        .find_map(|p| lower_out.find(p).map(|i| (i, *p, "will")))
        .or_else(|| {
            weighing
                .iter()
                .find_map(|p| lower_out.find(p).map(|i| (i, *p, "might")))
        });
    if let Some((i, p, modal)) = named {
        let name_follows = out[i + p.len()..]
            .split_whitespace()
            .next()
            .is_some_and(super::intro::is_name_word);
        if name_follows {
            let lead = if out[..i].trim_end().ends_with(['.', '!', '?']) || i == 0 {
                super::surface::upper_first(&owner)
            } else {
                owner.clone()
            };
            // (a name weighed is no name yet: "we're thinking of naming
            // my baby Asha")
            out = if modal == "might" {
                format!(
                    "{}{} {owner} baby {}",
                    &out[..i],
                    p.trim_end().rsplit_once(' ').map_or(p, |(a, _)| a),
                    &out[i + p.len()..]
                )
                .replace("thinking of calling", "thinking of naming")
            } else {
                format!(
                    "{}{lead} baby {modal} be named {}",
                    &out[..i],
                    &out[i + p.len()..]
                )
            };
        }
    }
    Some(out)
}

/// "Do you know if it's a boy or girl?" - "a girl, we're thinking of
/// calling her Asha": the answer said as the news it is ("my baby is a
/// girl, my baby might be named Asha"). `None` for any other question or
/// answer.
pub(super) fn gender_answer(question: &str, answer: &str) -> Option<String> {
    let q = question.to_lowercase();
    if ![
        "boy or girl",
        "boy or a girl",
        "girl or boy",
        "girl or a boy",
        // ("Do you know what you're having?")
        "what you're having",
        "what you are having",
        "what are you having",
    ]
    .iter()
    .any(|p| q.contains(p))
    {
        return None;
    }
    let a = super::strip_openers(answer);
    let lower = a.to_lowercase().replace('\u{2019}', "'");
    let (gender, len) = [
        "it's a girl",
        "it's a boy",
        "a girl",
        "a boy",
        "girl",
        "boy",
    ]
    .iter()
    .find(|p| lower.starts_with(*p) && lower[p.len()..].starts_with(|c: char| !c.is_alphanumeric()))
    .map(|p| (p.rsplit(' ').next().unwrap_or(p), p.len()))?;
    baby_news(&format!("we found out it's a {gender}{}", &a[len..]))
}

#[cfg(test)]
mod tests {
    use super::{baby_news, gender_answer};

    #[test]
    fn a_gender_asked_about_is_the_babys() {
        let q = "Congratulations! Do you know if it's a boy or girl?";
        assert_eq!(
            gender_answer(q, "a girl, we're thinking of calling her Asha").as_deref(),
            Some("My baby is a girl, we're thinking of naming my baby Asha")
        );
        assert_eq!(
            gender_answer(q, "Boy! so excited").as_deref(),
            Some("My baby is a boy! so excited")
        );
        assert_eq!(gender_answer(q, "not yet, we want a surprise"), None);
        assert_eq!(gender_answer("How are you?", "a girl"), None);
        assert_eq!(
            gender_answer(
                "Congratulations!! Do you know what you're having?",
                "a girl!"
            )
            .as_deref(),
            Some("My baby is a girl!")
        );
        assert_eq!(
            gender_answer("What are you having for dinner?", "pasta"),
            None
        );
    }

    #[test]
    fn baby_news_is_said_of_the_baby() {
        for (said, want) in [
            (
                "Carmen found out it's a girl, they're naming her Lucía",
                Some("Carmen's baby is a girl, Carmen's baby will be named Lucía"),
            ),
            (
                "we found out it's a girl! we're naming her Ada",
                Some("My baby is a girl! My baby will be named Ada"),
            ),
            (
                "my sister Carmen is pregnant! we found out it's a boy, they're calling him Mateo",
                Some("my sister Carmen is pregnant! Carmen's baby is a boy, Carmen's baby will be named Mateo"),
            ),
            ("we found out it's a scam", None),
        ] {
            assert_eq!(baby_news(said).as_deref(), want, "{said}");
        }
    }
}
