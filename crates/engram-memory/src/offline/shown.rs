//! What a picture attached to a turn ("[image: a photo of a cup with a
//! dog face on it]") says a bare pointer in that turn means: "I made this!"
//! -> "I made a cup with a dog face on it", "Here's one I did last week" ->
//! "I did a painting of a sunset last week".
//!
//! Only for a turn with one picture, and only for a pointer that is the
//! object of making, finishing or getting something: a description says
//! what was shown, often loosely, so it never becomes a memory on its own
//! and stands in for nothing else.

use super::clauses::bare;

/// Verbs whose object a picture can show: making, finishing, getting.
const MAKING: &[&str] = &[
    "made",
    "painted",
    "drew",
    "did",
    "built",
    "baked",
    "cooked",
    "knitted",
    "sewed",
    "designed",
    "created",
    "wrote",
    "bought",
    "got",
    "found",
    "finished",
    "crafted",
    "carved",
    "decorated",
    "planted",
    "grew",
    "caught",
    "framed",
    "printed",
    "sculpted",
    "adopted",
    "picked",
    "won",
];

/// How descriptions open before the thing they show.
const LEADS: &[&str] = &[
    "a photo of ",
    "a photography of ",
    "a photograph of ",
    "a picture of ",
    "an image of ",
    "a close up of ",
    "a closeup of ",
    "a drawing of ",
];

/// The thing the turn's one attached picture shows ("a cup with a dog
/// face on it"); `None` without exactly one, or when it shows no thing.
pub(super) fn thing_shown(text: &str) -> Option<String> {
    let thing = shown(text)?;
    let words = thing.split_whitespace().count();
    // a thing, with its article, in a few words
    ((thing.starts_with("a ") || thing.starts_with("an ")) && (2..=12).contains(&words))
        .then_some(thing)
}

/// What the turn's one attached picture shows, after its lead ("two
/// rabbits in a hutch"); `None` without exactly one described picture.
fn shown(text: &str) -> Option<String> {
    let mut found = text.match_indices("[image:").map(|(i, _)| {
        let rest = &text[i + "[image:".len()..];
        rest[..rest.find(']').unwrap_or(rest.len())].trim()
    });
    let caption = found.next()?;
    if found.next().is_some() {
        return None;
    }
    let lower = caption.to_lowercase();
    let lead = LEADS.iter().find(|l| lower.starts_with(*l))?;
    Some(lower[lead.len()..].trim().trim_end_matches('.').to_string())
}

/// The clause with a pointer that the picture shows replaced by `thing`;
/// `None` when it has none.
pub(super) fn with_thing(clause: &str, thing: &str) -> Option<String> {
    let words: Vec<&str> = clause.split_whitespace().collect();
    let lower: Vec<String> = words.iter().map(|w| bare(w)).collect();
    // "Here's a pic I got from my walk": what was got is the picture
    if lower.iter().any(|w| {
        matches!(
            w.trim_end_matches('s'),
            "pic" | "photo" | "picture" | "image" | "snap" | "shot" | "selfie"
        )
    }) {
        return None;
    }
    // "Here's one I did last week": what was done is what is shown
    if matches!(
        lower.first().map(String::as_str),
        Some("here's" | "heres" | "here")
    ) {
        let i = lower.iter().position(|w| w == "i")?;
        let made = lower.get(i + 1)?;
        if !MAKING.contains(&made.as_str()) || i > 4 {
            return None;
        }
        let mut out = vec!["I".to_string(), words[i + 1].to_string(), thing.to_string()];
        out.extend(words[i + 2..].iter().map(|w| w.to_string()));
        return Some(out.join(" "));
    }
    // "I just revised an old recipe and made this!"
    let j = (1..words.len()).find(|&j| {
        matches!(lower[j].as_str(), "this" | "it" | "these")
            && MAKING.contains(&lower[j - 1].as_str())
            && (j + 1 == words.len() || words[j].ends_with(['.', '!', ',', ';']))
    })?;
    let trail = &words[j][words[j].trim_end_matches(['.', '!', ',', ';']).len()..];
    let mut out: Vec<String> = words[..j].iter().map(|w| w.to_string()).collect();
    out.push(format!("{thing}{trail}"));
    out.extend(words[j + 1..].iter().map(|w| w.to_string()));
    Some(out.join(" "))
}

/// The animals a turn's picture shows when the turn speaks of them fondly
/// as its own ("these little guys", "my little ones" with a picture of a
/// turtle): the plural of the animal ("turtles"), which a "they" or "them"
/// after it may mean. `None` without exactly one picture of an animal, or
/// without such words.
pub(super) fn fond_animals(text: &str) -> Option<String> {
    let caption = shown(text)?;
    let said = super::without_attachments(text);
    let words: Vec<String> = said.split_whitespace().map(bare).collect();
    let fond = words.windows(3).any(|w| {
        matches!(w[0].as_str(), "these" | "those" | "my")
            && (super::pointers::FOND.contains(&w[1].as_str())
                || (w[1] == "little" && super::pointers::FOND.contains(&w[2].as_str())))
    });
    if !fond {
        return None;
    }
    caption
        .split_whitespace()
        .map(bare)
        .find_map(|w| match super::pronoun_words::animal(&w) {
            Some(true) => Some(w),
            Some(false) if w != "guinea" && w != "fish" => Some(format!("{w}s")),
            _ => None,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pictures_thing() {
        for (text, want) in [
            (
                "I made this! [image: a photo of a cup with a dog face on it]",
                Some("a cup with a dog face on it"),
            ),
            (
                "Look [image: a photography of a painting of a sunset.]",
                Some("a painting of a sunset"),
            ),
            (
                "Look [image: a photo of a cat] [image: a photo of a dog]",
                None,
            ),
            ("Look [image: two people on a bench]", None),
            ("Nothing attached", None),
        ] {
            assert_eq!(thing_shown(text).as_deref(), want, "{text}");
        }
    }

    /// Through the whole extractor, with the picture attached as the
    /// bench and the API's conversation routes pass it.
    #[test]
    fn a_made_thing_shown_is_remembered() {
        let got = crate::offline::tests::chat(&[
            "Ines: Here's one I finished last week. [image: a photo of a blue bowl with white dots]",
            "Tom: Nice!",
            "Ines: I made this too! [image: a photo of a cat]",
            "Ines: Here's a pic I got from my walk. [image: a photo of a lake]",
        ]);
        // ("I made this too!": the pointer is not the last word, so not
        // surely the object; the walk's picture stays a walk)
        assert_eq!(
            got,
            [
                "Ines finished a blue bowl with white dots in the week of 1 May 2023.",
                "Ines was on a walk."
            ]
        );
    }

    #[test]
    fn a_pointer_the_picture_shows() {
        let thing = "a cake with strawberries";
        for (clause, want) in [
            (
                "I just revised one of my old recipes and made this!",
                Some("I just revised one of my old recipes and made a cake with strawberries!"),
            ),
            (
                "Here's one I did last week.",
                Some("I did a cake with strawberries last week."),
            ),
            ("I baked it yesterday", None),
            ("I love this!", None),
            ("Here's what I think", None),
            ("Here's a pic I got from my walk", None),
        ] {
            assert_eq!(with_thing(clause, thing).as_deref(), want, "{clause}");
        }
    }
}
