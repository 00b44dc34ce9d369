//! Named things in a sentence: runs of capitalised words, sorted into
//! people, places, organisations and others by the words around them.

use crate::{Entity, EntityKind};

/// Capitalised words that are not names.
const NOT_NAMES: &[&str] = &[
    "I",
    "I'm",
    "I've",
    "I'd",
    "I'll",
    "The",
    "A",
    "An",
    "My",
    "Our",
    "We",
    "You",
    "Your",
    "It",
    "It's",
    "This",
    "That",
    "These",
    "Those",
    "He",
    "She",
    "They",
    "His",
    "Her",
    "Their",
    "And",
    "But",
    "Or",
    "So",
    "If",
    "When",
    "What",
    "Why",
    "How",
    "Where",
    "Who",
    "Yes",
    "No",
    "Oh",
    "Hey",
    "Hi",
    "Hello",
    "Thanks",
    "Wow",
    "Yeah",
    "OK",
    "Okay",
    "Also",
    "Just",
    "Then",
    "There",
    "Here",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
    "In",
    "On",
    "At",
    "For",
    "With",
    "After",
    "Before",
    "Last",
    "Next",
    "Today",
    "Yesterday",
    "Tomorrow",
    "Sure",
    "Great",
    "Awesome",
    "Well",
];

/// Apps and sites people meet, post and watch on ("matched with someone
/// on Hinge"): organisations, never who a "she" means.
const PLATFORMS: &[&str] = &[
    "Hinge",
    "Tinder",
    "Bumble",
    "Instagram",
    "TikTok",
    "Facebook",
    "Twitter",
    "YouTube",
    "Reddit",
    "LinkedIn",
    "Netflix",
    "Spotify",
    "WhatsApp",
    "Discord",
    "Twitch",
    "Slack",
    "Zoom",
    "Etsy",
    "Vinted",
    "Duolingo",
    "Strava",
    "Airbnb",
    "Craigslist",
    "Meetup",
];

const ORG_WORDS: &[&str] = &[
    "Inc",
    "Corp",
    "Corporation",
    "LLC",
    "Ltd",
    "University",
    "College",
    "School",
    "Company",
    "Bank",
    "Hospital",
    "Foundation",
    "Institute",
    "Association",
    "Club",
    "Church",
    "Center",
    "Centre",
    "Museum",
    "Library",
    "Agency",
    "Group",
    "Studio",
    "Studios",
    "Team",
];

const PLACE_CUES: &[&str] = &[
    "in", "to", "from", "at", "near", "visited", "visit", "around", "across",
];

/// Words before "to" that make what follows someone, not somewhere
/// ("said goodbye to Max", "talked to Anna", "married to Ben").
const TO_SOMEONE: &[&str] = &[
    "goodbye",
    "hello",
    "hi",
    "bye",
    "say",
    "said",
    "says",
    "talk",
    "talked",
    "talking",
    "speak",
    "spoke",
    "speaking",
    "write",
    "wrote",
    "writing",
    "married",
    "engaged",
    "introduced",
    "give",
    "gave",
    "given",
    "send",
    "sent",
    "listen",
    "listened",
    "listening",
    "close",
    "next",
    "thanks",
    "letter",
    "message",
    "reply",
    "replied",
    "explained",
    "mentioned",
    "show",
    "showed",
    "lent",
    "sold",
    "handed",
    "read",
    "belongs",
    "belonged",
    "related",
    "dedicated",
    "tribute",
    "kind",
    "nice",
    "mean",
    "apologised",
    "apologized",
    "sang",
    "sing",
    "wave",
    "waved",
    "cheers",
];

/// Whether the words before a name end with "<verb> to" that speaks to
/// or of a person.
fn to_someone(before: &[&str]) -> bool {
    match before {
        [.., v, to] if core(to).eq_ignore_ascii_case("to") => {
            TO_SOMEONE.contains(&core(v).to_ascii_lowercase().as_str())
        }
        _ => false,
    }
}

/// Conditions named after who described them ("early-stage Alzheimer's",
/// "Crohn's"): the name with "'s" is an illness, no one spoken of.
const CONDITIONS: &[&str] = &[
    "Alzheimer",
    "Parkinson",
    "Crohn",
    "Huntington",
    "Asperger",
    "Tourette",
    "Hodgkin",
    "Hashimoto",
    "Raynaud",
    "Addison",
    "Cushing",
    "Meniere",
];

/// Whether `word` (as written) is an illness named after someone.
pub(super) fn condition(word: &str) -> bool {
    let w = word.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'');
    let w = w.replace('\u{2019}', "'");
    w.strip_suffix("'s")
        .is_some_and(|name| CONDITIONS.contains(&name))
}

/// Capitalised, but not a name (months are dates, not entities).
fn not_name(w: &str) -> bool {
    NOT_NAMES.contains(&w) || super::dates::MONTHS.contains(&w)
}

pub(super) fn core(w: &str) -> &str {
    w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
        .trim_end_matches("'s")
}

/// Common nouns and adjectives that open chat sentences in capitals and
/// are no one's name ("Life's been wild", "Blessed we both ...").
const COMMON_OPENERS: &[&str] = &[
    "life",
    "things",
    "work",
    "school",
    "family",
    "everything",
    "nothing",
    "everyone",
    "today",
    "tonight",
    "tomorrow",
    "yesterday",
    "mom",
    "dad",
    "music",
    "art",
    "nature",
    "blessed",
    "lucky",
    "crazy",
    "nice",
    "cool",
    "awesome",
    "amazing",
    "congrats",
    "congratulations",
    "kudos",
    "props",
    "bravo",
    "cheers",
    "definitely",
    "totally",
    "exactly",
    "absolutely",
    "sounds",
    "looks",
    "seems",
    "time",
    "better",
    "worse",
    "mostly",
    "honestly",
    "pretty",
    "big",
    "good",
    "fine",
];

/// Whether a capitalised first word only opens the sentence: a verb ("Let
/// me know ...") or a common word chat opens with ("Life's been wild").
pub(super) fn common_opener(word: &str) -> bool {
    let lower = word.to_lowercase().replace('\u{2019}', "'");
    let stem = lower.strip_suffix("'s").unwrap_or(&lower);
    super::lexicon::verb(stem).is_some() || COMMON_OPENERS.contains(&stem)
}

/// The entities of `sentence`; `people` are names known to be people (the
/// speakers).
/// Groups someone is introduced by ("Mark from the platform team").
const GROUPS: &[&str] = &[
    "team",
    "department",
    "office",
    "lab",
    "class",
    "club",
    "gym",
    "church",
    "work",
    "school",
    "choir",
    "band",
    "squad",
    "group",
];

/// The named entities of a fact (people, places, organisations, ...).
pub fn entities_of(text: &str) -> Vec<crate::Entity> {
    find(text, &[])
}

/// Whether the sentence opens with someone introduced by where they belong:
/// "Mark from the platform team ...", "Sara from Google ..." (a capitalised
/// first word before "from" and a group or a name).
fn affiliated(words: &[&str]) -> bool {
    if words.get(1).map(|w| super::clauses::bare(w)).as_deref() != Some("from") {
        return false;
    }
    words.iter().skip(2).take(4).any(|w| {
        let b = super::clauses::bare(w);
        GROUPS.contains(&b.as_str()) || core(w).chars().next().is_some_and(char::is_uppercase)
    })
}

pub fn find(sentence: &str, people: &[&str]) -> Vec<Entity> {
    let words: Vec<&str> = sentence.split_whitespace().collect();
    let mut out: Vec<Entity> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = core(words[i]);
        let capital = w.chars().next().is_some_and(|c| c.is_uppercase());
        if !capital || not_name(w) || condition(words[i]) {
            i += 1;
            continue;
        }
        // a run of capitalised words (allowing "of" inside: "Bank of America")
        let start = i;
        let mut end = i + 1;
        while end < words.len() {
            let prev_ends = words[end - 1].ends_with([',', '.', '!', '?', ';', ':']);
            let n = core(words[end]);
            if prev_ends {
                break;
            }
            if n.chars().next().is_some_and(|c| c.is_uppercase()) && !not_name(n) {
                end += 1;
            } else if n == "of"
                && words
                    .get(end + 1)
                    .is_some_and(|x| core(x).chars().next().is_some_and(|c| c.is_uppercase()))
            {
                end += 2;
            } else {
                break;
            }
        }
        let name: Vec<&str> = words[start..end].iter().map(|w| core(w)).collect();
        let name = name.join(" ");
        i = end;
        // a lone capitalised first word is usually just a sentence start,
        // unless a verb follows it ("Ada prefers tea", "Zara just started
        // swimming lessons", "Wen will run the survey")
        let after_adverbs = words[1..]
            .iter()
            .take(2)
            .position(|w| {
                let b = super::clauses::bare(w);
                !(matches!(
                    b.as_str(),
                    "just"
                        | "also"
                        | "finally"
                        | "recently"
                        | "already"
                        | "still"
                        | "now"
                        | "never"
                        | "always"
                        | "often"
                        | "actually"
                        | "really"
                        | "even"
                        | "then"
                ) || (b.len() > 4 && b.ends_with("ly")))
            })
            .map_or(1, |k| k + 1);
        let verb_follows = words.get(after_adverbs).is_some_and(|w| {
            let b = super::clauses::bare(w);
            matches!(
                super::lexicon::verb(&b),
                Some((
                    _,
                    super::lexicon::VerbForm::Third | super::lexicon::VerbForm::Past
                ))
            ) || matches!(
                b.as_str(),
                "is" | "was"
                    | "has"
                    | "had"
                    | "will"
                    | "would"
                    | "can"
                    | "could"
                    | "should"
                    | "must"
                    // ("Siobhan couldn't cope anymore")
                    | "couldn't"
                    | "can't"
                    | "wouldn't"
                    | "won't"
                    | "didn't"
                    | "doesn't"
                    | "isn't"
                    | "wasn't"
                    | "hasn't"
                    | "hadn't"
            )
        });
        // ("Carmen's baby is a girl": a name's, before what is theirs)
        let whose = words[0].trim_end_matches([',', '.']).ends_with("'s")
            && words
                .get(1)
                .is_some_and(|n| n.chars().all(|c| c.is_lowercase()))
            && words.get(2).is_some_and(|v| super::clauses::is_verbish(v))
            && super::dates::weekday(&name.to_lowercase()).is_none()
            && !super::dates::MONTHS
                .iter()
                .any(|m| m.eq_ignore_ascii_case(&name));
        if start == 0
            && end == 1
            && !people.contains(&name.as_str())
            && (!(verb_follows || affiliated(&words) || whose) || common_opener(&name))
        {
            continue;
        }
        let before = start
            .checked_sub(1)
            .map(|b| core(words[b]).to_ascii_lowercase());
        let kind = if people.contains(&name.as_str()) {
            EntityKind::Person
        } else if name.split(' ').any(|p| ORG_WORDS.contains(&p))
            || PLATFORMS.contains(&name.as_str())
        {
            EntityKind::Organisation
        } else if before.as_deref().is_some_and(|b| PLACE_CUES.contains(&b))
            && !to_someone(&words[..start])
        {
            EntityKind::Place
        } else if venue_named(&words[..start]) {
            // "a small agency called Pixelworks": a place one works or goes
            EntityKind::Place
        } else {
            EntityKind::Other
        };
        if !out.iter().any(|e| e.name == name) {
            out.push(Entity { name, kind });
        }
    }
    out
}

/// Places one works at or goes to, which "called" or "named" names.
const VENUES: &[&str] = &[
    "agency",
    "company",
    "startup",
    "firm",
    "studio",
    "school",
    "cafe",
    "café",
    "restaurant",
    "shop",
    "bakery",
    "gym",
    "clinic",
    "hospital",
    "bar",
    "hotel",
    "store",
    "daycare",
    "salon",
    "office",
    "nursery",
    "pub",
    "library",
    "centre",
    "center",
    "shelter",
    "hostel",
];

/// Whether the words before a name end with a venue and "called" or
/// "named" ("at a small agency called").
fn venue_named(before: &[&str]) -> bool {
    match before {
        [.., venue, called] => {
            matches!(
                core(called).to_ascii_lowercase().as_str(),
                "called" | "named"
            ) && VENUES.contains(&core(venue).to_lowercase().as_str())
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(sentence: &str, want: &[(&str, EntityKind)]) {
        let got = find(sentence, &["Caroline", "Melanie"]);
        let got: Vec<(&str, EntityKind)> = got.iter().map(|e| (e.name.as_str(), e.kind)).collect();
        assert_eq!(got, want, "{sentence}");
    }

    #[test]
    fn names_are_found_and_sorted() {
        use EntityKind::*;
        check(
            "Caroline went to New York with Melanie.",
            &[
                ("Caroline", Person),
                ("New York", Place),
                ("Melanie", Person),
            ],
        );
        check(
            "She studies at Stanford University",
            &[("Stanford University", Organisation)],
        );
        check(
            "I work for the Bank of America now",
            &[("Bank of America", Organisation)],
        );
        check("We watched Star Wars on Friday", &[("Star Wars", Other)]);
        check("Yesterday was great.", &[]);
        check("Melanie's painting sold", &[("Melanie", Person)]);
        // "to" after a word of speaking or parting is to someone
        check("We had to say goodbye to Max.", &[("Max", Other)]);
        check("I talked to Priya about it", &[("Priya", Other)]);
        check("We flew to Max", &[("Max", Place)]);
        check(
            "I'm at a small agency called Pixelworks",
            &[("Pixelworks", Place)],
        );
    }
}
