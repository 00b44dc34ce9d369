//! A title in quotes, or a name, and the "it" that opens the next
//! sentence (see [`name_in`] for names): "I loved
//! "Becoming Nicole" by Amy Ellis Nutt. It's a true story about a trans
//! girl" says the story is "Becoming Nicole". The title must be the only
//! quoted title of the sentence before, written as a title (its words
//! capitalised, a few of them), and not a quotation ("The sign says,
//! "Always look on the bright side"" is what the sign says; the "it" after
//! it is the sign). Reads text only; nothing is guessed beyond that one
//! step.

use super::clauses::bare;

/// The one quoted title `sentence` names, with its quotes: `"Dune"`.
pub(super) fn title_in(sentence: &str) -> Option<String> {
    let mut found = None;
    let mut at = 0;
    while let Some((open, close)) = next_quote(&sentence[at..]) {
        let open = at + open;
        let inner_start = open + sentence[open..].chars().next().map_or(1, char::len_utf8);
        let end = inner_start + sentence[inner_start..].find(close)?;
        let inner = &sentence[inner_start..end];
        // a quotation, or a second title: which one "it" is, is not said
        if !is_title(inner) || quoted_speech(&sentence[..open]) || found.is_some() {
            return None;
        }
        let after = end + close.len_utf8();
        found = Some(sentence[open..after].to_string());
        at = after;
    }
    found
}

/// A name `sentence` is about, which an "It" opening the next sentence
/// means: what "It's ..." identifies ("It's Seattle, I'm ..."), a name
/// said alone ("Definitely Star Wars!", after its opener), or an acronym
/// or a name of several words that is the subject ("NYC is amazing!").
/// Never one of the people talking, nor a word that only opens a sentence;
/// a one-word subject may be a person ("Sam is great!"), who is no "it".
pub(super) fn name_in(sentence: &str, people: &[&str]) -> Option<String> {
    let w: Vec<&str> = sentence.split_whitespace().collect();
    let first = w.first()?.replace('\u{2019}', "'");
    // "Here's my cork board. It's got quotes ...": the speaker's thing
    if matches!(first.as_str(), "Here's" | "Heres") && w.get(1).is_some_and(|m| bare(m) == "my") {
        let phrase: Vec<&str> = w[1..]
            .iter()
            .take_while(|x| !super::clauses::is_verbish(x))
            .copied()
            .collect();
        let last = phrase.last()?;
        return (phrase.len() >= 2 && phrase.len() == w.len() - 1 && last.ends_with(['.', '!']))
            .then(|| phrase.join(" ").trim_end_matches(['.', '!']).to_string());
    }
    let start = match (first.as_str(), w.get(1).map(|b| bare(b))) {
        ("It's", _) => 1,
        ("It", Some(be)) if matches!(be.as_str(), "is" | "was") => 2,
        _ => 0,
    };
    let run = capital_run(&w[start.min(w.len())..]);
    if run == 0 {
        return None;
    }
    let parts = &w[start..start + run];
    let name = parts
        .iter()
        .map(|p| p.trim_matches(|c: char| !c.is_alphanumeric() && c != '\''))
        .collect::<Vec<_>>()
        .join(" ");
    let opener =
        super::entities::common_opener(parts[0].trim_matches(|c: char| !c.is_alphanumeric()));
    // ("When I was younger": words that open clauses are no name)
    let plain = parts.iter().enumerate().any(|(k, p)| {
        let b = bare(p);
        // ("Bank of America", "The Minnesota Wolves" join or open a name)
        let joins = b == "the" || (k > 0 && matches!(b.as_str(), "of" | "and"));
        b == "i"
            || (super::words::FUNCTION.contains(&b.as_str()) && !joins)
            || super::words::SUBORDINATING.contains(&b.as_str())
    });
    if name.is_empty()
        || plain
        || (start == 0 && opener)
        || people
            .iter()
            .any(|p| name == *p || p.starts_with(name.as_str()))
    {
        return None;
    }
    let last = parts[run - 1];
    let ends_here = start + run == w.len() || last.ends_with([',', '.', '!', '?', ';']);
    let acronym = name.len() >= 2 && name.chars().all(|c| c.is_ascii_uppercase());
    let subject = !last.ends_with(',')
        && w.get(start + run)
            .is_some_and(|v| matches!(bare(v).as_str(), "is" | "was" | "has" | "are" | "were"))
        && (run >= 2 || acronym);
    let found = match start {
        0 => (start + run == w.len()) || subject,
        _ => ends_here,
    };
    found.then_some(name)
}

/// How many words at the start of `w` make a capitalised name ("Star
/// Wars", "The Minnesota Wolves", "Bank of America").
fn capital_run(w: &[&str]) -> usize {
    let capital = |x: &str| {
        x.trim_start_matches(|c: char| !c.is_alphanumeric())
            .chars()
            .next()
            .is_some_and(char::is_uppercase)
    };
    let mut n = 0;
    while n < w.len() {
        let joins = n > 0
            && matches!(w[n], "of" | "the" | "and")
            && w.get(n + 1).is_some_and(|x| capital(x))
            && !w[n - 1].ends_with([',', '.', '!', '?']);
        if !capital(w[n]) && !joins {
            break;
        }
        n += 1;
        if w[n - 1].ends_with([',', '.', '!', '?', ';']) {
            break;
        }
    }
    n
}

/// `sentence` ("It's Seattle, I'm stoked for my game there") with the
/// "there" after the name it identifies said as "in Seattle"; `None` when
/// it identifies no name or has no such "there" ("there's", "there are"
/// are no place).
pub(super) fn there_as_named(sentence: &str, name: &str) -> Option<String> {
    let w: Vec<&str> = sentence.split_whitespace().collect();
    let first = w.first()?.replace('\u{2019}', "'");
    if !(first == "It's" || first == "It") {
        return None;
    }
    let head = name.split(' ').next()?;
    let at = w.iter().position(|x| x.contains(head))?;
    there_said_as(&w, at + 2, name)
}

/// How many turns back a place may be that a "there" points at.
pub(super) const PLACE_TURNS: usize = 2;

/// The places `sentence` names, in order.
pub(super) fn places_in(sentence: &str, people: &[&str]) -> Vec<String> {
    super::entities::find(sentence, people)
        .into_iter()
        .filter(|e| e.kind == crate::EntityKind::Place)
        .map(|e| e.name)
        .collect()
}

/// `sentence` with a "there" that points at a place said before ("Zara
/// wants to try surfing there", after "staying in Lagos") said as "in
/// Lagos"; `None` when it has no such "there".
pub(super) fn there_as_place(sentence: &str, place: &str) -> Option<String> {
    let w: Vec<&str> = sentence.split_whitespace().collect();
    there_said_as(&w, 1, place)
}

/// The words `w` with each "there" from `from` on that is a place ("my
/// game there", not "there's", "there are", "out there") said as "in
/// `place`" ("to `place`" after a verb of going); `None` when none is.
fn there_said_as(w: &[&str], from: usize, place: &str) -> Option<String> {
    let mut changed = false;
    let out: Vec<String> = w
        .iter()
        .enumerate()
        .map(|(i, x)| {
            let (lead, core, trail) = super::coref::parts(x);
            let existential = w
                .get(i + 1)
                .is_some_and(|n| matches!(bare(n).as_str(), "is" | "are" | "was" | "were"));
            // "out there", "in there": no place of its own
            let placed = i > 0
                && matches!(
                    bare(w[i - 1]).as_str(),
                    "out" | "in" | "up" | "down" | "over" | "from" | "around" | "and"
                );
            if i >= from && core == "there" && !existential && !placed {
                changed = true;
                // "flying there": to it; "my game there": in it
                let motion = i > 0
                    && super::lexicon::verb(&bare(w[i - 1])).is_some_and(|(base, _)| {
                        matches!(
                            base,
                            "go" | "fly" | "travel" | "head" | "move" | "come" | "drive" | "get"
                        )
                    });
                // ("been there 2 years": a stay, not a visit)
                let next = w.get(i + 1).map(|n| bare(n)).unwrap_or_default();
                let unit = w.get(i + 2).map(|n| bare(n)).unwrap_or_default();
                let amount = super::lexicon::number(&next).is_some()
                    && matches!(
                        unit.trim_end_matches('s'),
                        "year" | "month" | "week" | "day" | "decade"
                    );
                let stay = bare(w[i - 1]) == "been"
                    && (amount || matches!(next.as_str(), "for" | "since"));
                let to = if stay {
                    "at"
                } else if motion || bare(w[i - 1]) == "been" {
                    "to"
                } else {
                    "in"
                };
                let for_ = if stay && amount { " for" } else { "" };
                format!("{lead}{to} {place}{trail}{for_}")
            } else {
                x.to_string()
            }
        })
        .collect();
    changed.then(|| out.join(" "))
}

/// `sentence` with its opening "It" (the subject: "It's", "It was", "It
/// made me ...") replaced by `title`; `None` when it does not open so.
pub(super) fn it_as_title(sentence: &str, title: &str) -> Option<String> {
    let (first, rest) = sentence.split_once(' ')?;
    let first = first.replace('\u{2019}', "'");
    let next = bare(rest.split_whitespace().next().unwrap_or(""));
    // "It's been a while", "It is what it is": the time or the talk
    if matches!(next.as_str(), "been" | "what" | "like") {
        return None;
    }
    // "It's got so much to see": "has"
    let has = matches!(
        super::lexicon::verb(&next),
        Some((_, super::lexicon::VerbForm::Past))
    );
    let said = match first.as_str() {
        "It's" if has => format!("{title} has {rest}"),
        "It's" => format!("{title} is {rest}"),
        "It" if super::clauses::is_verbish(&next) => format!("{title} {rest}"),
        _ => return None,
    };
    Some(said)
}

/// Where the next opening quote is, and the quote that closes it.
fn next_quote(s: &str) -> Option<(usize, char)> {
    s.char_indices().find_map(|(i, c)| match c {
        '"' => Some((i, '"')),
        '\u{201c}' => Some((i, '\u{201d}')),
        _ => None,
    })
}

/// Whether quoted text reads as a title: one to eight words, the first
/// capitalised, and every longer word capitalised too ("Harry Potter and
/// the Philosopher's Stone", not "Always look on the bright side of
/// life"), with no sentence punctuation inside.
fn is_title(inner: &str) -> bool {
    let words: Vec<&str> = inner.split_whitespace().collect();
    let capital = |w: &str| w.chars().next().is_some_and(char::is_uppercase);
    !words.is_empty()
        && words.len() <= 8
        && capital(words[0])
        && words.iter().all(|w| {
            w.chars().count() < 4
                || capital(w)
                || w.chars().next().is_some_and(|c| !c.is_alphabetic())
        })
        && !inner.contains(['.', '!', '?', ','])
}

/// Whether the quote after `lead` is something said or written ("says,",
/// "the motto:", "like"): after a verb of saying or a colon.
fn quoted_speech(lead: &str) -> bool {
    let lead = lead.trim_end();
    if lead.ends_with(':') {
        return true;
    }
    let last = lead.split_whitespace().last().map(bare).unwrap_or_default();
    matches!(
        last.as_str(),
        "says" | "said" | "say" | "reads" | "wrote" | "writes" | "like" | "goes" | "went" | "motto"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(prev: &str, sentence: &str, expect: Option<&str>) {
        let got = title_in(prev).and_then(|t| it_as_title(sentence, &t));
        assert_eq!(got.as_deref(), expect, "{prev} | {sentence}");
    }

    #[test]
    fn it_after_a_title_is_the_title() {
        check(
            "I loved \"Becoming Nicole\" by Amy Ellis Nutt.",
            "It's a real inspiring true story about a trans girl and her family.",
            Some("\"Becoming Nicole\" is a real inspiring true story about a trans girl and her family."),
        );
        check(
            "I'm reading \u{201c}Dune\u{201d} by Frank Herbert.",
            "It made me think about ecology.",
            Some("\u{201c}Dune\u{201d} made me think about ecology."),
        );
        check(
            "Yeah, \"Harry Potter and the Philosopher's Stone\" is special to me.",
            "It was the first movie from the series.",
            Some(
                "\"Harry Potter and the Philosopher's Stone\" was the first movie from the series.",
            ),
        );
    }

    #[test]
    fn a_name_said_and_the_it_after_it() {
        let people = ["Ana", "Ben"];
        let check = |prev: &str, sentence: &str, expect: Option<&str>| {
            let got = name_in(prev, &people).and_then(|n| it_as_title(sentence, &n));
            assert_eq!(got.as_deref(), expect, "{prev} | {sentence}");
        };
        check(
            "It's Lisbon, I'm flying there next week!",
            "It's one of my favorite cities.",
            Some("Lisbon is one of my favorite cities."),
        );
        check(
            "Star Wars!",
            "It's my favorite and never gets old.",
            Some("Star Wars is my favorite and never gets old."),
        );
        check(
            "NYC is amazing!",
            "It's got so much to check out.",
            Some("NYC has got so much to check out."),
        );
        // a one-word subject may be a person; the speakers are no "it"
        check("Sam is great!", "It's a long story.", None);
        check("Ben!", "It's been ages.", None);
        check("Ana is here.", "It was fun.", None);
        assert_eq!(
            there_as_named("It's Lisbon, I'm flying there next week!", "Lisbon").as_deref(),
            Some("It's Lisbon, I'm flying to Lisbon next week!")
        );
        assert_eq!(
            there_as_named("It's Lisbon, there's a lot to see.", "Lisbon"),
            None
        );
    }

    #[test]
    fn quotations_and_other_its_are_left() {
        // what a sign says is no title; the "it" is the sign
        check(
            "The sign says, \"Always look on the bright side of life\".",
            "It reminds us to smile.",
            None,
        );
        check("My motto is \"Carpe Diem\".", "It's been a while.", None);
        // two titles: which one is not said
        check(
            "I watched \"Elf\" and \"The Santa Clause\".",
            "It was fun.",
            None,
        );
        // "it" not opening the sentence
        check("I read \"Dune\".", "Then it rained.", None);
        check("I read \"Dune\".", "Its cover is blue.", None);
    }
}
