//! Who someone works for, read from the shape of what they said rather
//! than from a list of whole wordings: a verb of taking up work ("start",
//! "begin", "take", "accept", "land", "get", "join"), a job said as a
//! noun phrase ("a postdoc", "a new role", "the head of department job",
//! at most five words whose last is a job word or an occupation), then
//! "at", "with" or "for" and a name written with a capital ("is starting
//! a postdoc at the Crick", "landed a role with Monzo", "took a contract
//! at the BBC"), or a start at a named place ("is starting at Monzo on
//! May 12th"). The phrase lists of [`super::slot_words`] come first;
//! this reads the wordings they do not list.
//!
//! A wish is no job: a verb after "to", a modal or "of" ("wants to start a
//! job at Google") is left alone.

use super::slots::{normalise, subject};
use super::{name_at, unpunctuated as bare, NOT_YET};
use crate::offline::lexicon::is_occupation;
use crate::offline::named_not_dated;

/// Verbs of taking up work, in their forms.
const TAKE_UP: &[&str] = &[
    "start",
    "starts",
    "starting",
    "started",
    "begin",
    "begins",
    "beginning",
    "began",
    "take",
    "takes",
    "taking",
    "took",
    "accept",
    "accepts",
    "accepting",
    "accepted",
    "land",
    "lands",
    "landed",
    "got",
    "get",
    "gets",
    "getting",
    "join",
    "joins",
    "joining",
    "joined",
];

/// Nouns that name a job without naming the occupation.
const JOB_WORDS: &[&str] = &[
    "job",
    "role",
    "position",
    "post",
    "placement",
    "internship",
    "contract",
    "postdoc",
    "residency",
    "apprenticeship",
    "fellowship",
    "traineeship",
];

/// `(subject, employer, occupation)` of the job `fact` says its subject
/// took up, normalised as slot values are (the occupation when the job
/// phrase names one), in the shape the module describes.
pub(super) fn employer(fact: &str) -> Option<(String, String, Option<String>)> {
    let words: Vec<&str> = fact.split_whitespace().collect();
    for (i, w) in words.iter().enumerate() {
        if !TAKE_UP.contains(&bare(w).to_lowercase().as_str()) {
            continue;
        }
        let before = i.checked_sub(1).map(|p| bare(words[p]).to_lowercase());
        if before.as_deref().is_some_and(|b| NOT_YET.contains(&b)) {
            continue;
        }
        let rest = &words[i + 1..];
        // "is starting at Monzo on May 12th": a start at a named place
        let start = bare(w).to_lowercase().starts_with("start");
        if start && rest.first().is_some_and(|a| bare(a) == "at") {
            let name = rest
                .get(1)
                .filter(|n| named_not_dated(n) && !n.ends_with("'s"));
            let who = subject(&normalise(&words[..i].join(" ")));
            // (someone starts at a workplace; "the course" at Easter)
            let someone = !who.is_empty()
                && who.split_whitespace().count() <= 5
                && !matches!(
                    who.split_whitespace().next(),
                    Some("the" | "a" | "an" | "this" | "that" | "it")
                );
            if let Some(n) = name.filter(|_| someone) {
                return Some((who, normalise(bare(n)), None));
            }
            continue;
        }
        // the job phrase: a determiner, then up to four words ending in a
        // job word or an occupation
        let opens = rest.first().is_some_and(|d| {
            matches!(
                bare(d).to_lowercase().as_str(),
                "a" | "an" | "the" | "my" | "their" | "his" | "her" | "our"
            )
        });
        if !opens {
            continue;
        }
        let Some(p) = (1..rest.len().min(6))
            .find(|&j| matches!(bare(rest[j]).to_lowercase().as_str(), "at" | "with" | "for"))
        else {
            continue;
        };
        let head = bare(rest[p - 1]).to_lowercase();
        let job = JOB_WORDS.contains(&head.as_str()) || is_occupation(&head);
        if !job || rest[1..p].iter().any(|w| w.ends_with([',', '.', ';', '!'])) {
            continue;
        }
        // the employer: "the Crick", "Monzo", "the BBC"
        let mut k = p + 1;
        if rest
            .get(k)
            .is_some_and(|w| bare(w).eq_ignore_ascii_case("the"))
        {
            k += 1;
        }
        let Some(org) = name_at(&rest[k.min(rest.len())..]) else {
            continue;
        };
        let who = subject(&normalise(&words[..i].join(" ")));
        if who.is_empty() || who.split_whitespace().count() > 5 {
            continue;
        }
        let occupation = (head != "job" && !matches!(head.as_str(), "role" | "position" | "post"))
            .then(|| normalise(&rest[1..p].join(" ")))
            .map(|o| {
                o.split_whitespace()
                    .filter(|w| !matches!(*w, "new" | "first" | "full" | "time" | "part"))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .filter(|o| !o.is_empty());
        return Some((who, normalise(&org), occupation));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::employer;

    fn check(fact: &str, want: Option<(&str, &str, Option<&str>)>) {
        let got = employer(fact);
        assert_eq!(
            got.as_ref()
                .map(|(a, b, c)| (a.as_str(), b.as_str(), c.as_deref())),
            want,
            "{fact}"
        );
    }

    #[test]
    fn jobs_taken_up_in_many_shapes() {
        check(
            "Priya is starting a postdoc at the Crick in London in September 2025.",
            Some(("priya", "crick", Some("postdoc"))),
        );
        check(
            "Dev landed a new role with Monzo.",
            Some(("dev", "monzo", None)),
        );
        check(
            "Sam got the head of department job at a school in Bath.",
            None,
        );
        check(
            "Lena took a contract at the BBC, three months.",
            Some(("lena", "bbc", Some("contract"))),
        );
        check("Omar started a new job as a nurse at St Mary's.", None);
        check(
            "Omar is starting at Monzo on May 12th.",
            Some(("omar", "monzo", None)),
        );
        check(
            "Kemi accepted a senior designer position at Figma.",
            Some(("kemi", "figma", None)),
        );
    }

    #[test]
    fn wishes_and_things_got_are_no_jobs() {
        check("Priya wants to start a job at Google.", None);
        check("Priya got a new bike at Halfords.", None);
        check("Priya took a photo at the Eiffel Tower.", None);
        check("Jo joined a band with Tom.", None);
        check("The course is starting at Easter.", None);
    }
}
