//! The tense of a fact as the dates in it need it: whether it tells of
//! what is ahead or of what is done. Reads words only.

/// Whether a fact tells of what is ahead (`Some(true)`: "will", "is
/// going to", "is visiting") or done (`Some(false)`: a verb in the past),
/// read from its first verb after the subject; `None` when it says neither.
pub(super) fn tense_of(words: &[&str]) -> Option<bool> {
    use crate::offline::lexicon::{verb, VerbForm};
    let lower: Vec<String> = words
        .iter()
        .map(|w| crate::offline::clauses::bare(w))
        .collect();
    let ahead = |w: &str| {
        matches!(
            w,
            "will"
                | "gonna"
                | "going"
                | "plans"
                | "planning"
                | "hopes"
                | "hoping"
                | "wants"
                | "scheduled"
                | "booked"
                | "due"
                | "upcoming"
        ) || w.ends_with("'ll")
    };
    // "got the job at a school in Bath, starting in September": when it
    // starts is ahead, whatever came before ("starting to feel better" is
    // no start)
    // ("starting a masters in September" too; "was starting" is past)
    let starting = lower.windows(3).any(|p| {
        matches!(p[1].as_str(), "starting" | "beginning")
            && !matches!(p[0].as_str(), "was" | "were")
            && p[2] != "to"
    });
    if starting {
        return Some(true);
    }
    for (i, w) in lower.iter().enumerate() {
        if ahead(w) {
            return Some(true);
        }
        // "signed up for the Berlin marathon in September": the date is
        // the event's, and an event one entered is ahead
        if matches!(w.as_str(), "signed" | "registered" | "enrolled" | "entered")
            && lower[i + 1..]
                .iter()
                .take(5)
                .any(|n| crate::offline::lexicon::is_event(n))
        {
            return Some(true);
        }
        // "launch is planned for May 15": a plan is ahead
        if w == "planned" && i > 0 && matches!(lower[i - 1].as_str(), "is" | "are") {
            return Some(true);
        }
        // "my goal is to pass N5 in July": an aim is ahead
        if crate::offline::lexicon::OWN_AIMS.contains(&w.as_str())
            && lower.get(i + 1).is_some_and(|b| b == "is")
            && lower.get(i + 2).is_some_and(|t| t == "to")
        {
            return Some(true);
        }
        // "starts school in September": a schedule, said in the present
        if matches!(
            w.as_str(),
            "starts"
                | "start"
                | "begins"
                | "begin"
                | "opens"
                | "launches"
                | "finishes"
                | "ends"
                | "graduates"
                | "retires"
                | "arrives"
                | "leaves"
                | "renews"
                | "expires"
                | "flies"
                | "fly"
                | "departs"
                | "lands"
        ) {
            return Some(true);
        }
        // "is visiting in June": the progressive of a plan
        let be = matches!(w.as_str(), "is" | "are" | "am" | "'s" | "'re")
            || ["'m", "'re", "'s"]
                .iter()
                .any(|c| w.ends_with(c) && w.len() > c.len());
        // "I have my chem final on ...": an event one has is ahead
        if matches!(w.as_str(), "have" | "has")
            && lower[i + 1..]
                .iter()
                .take(5)
                .any(|n| crate::offline::lexicon::is_event(n))
        {
            return Some(true);
        }
        // ("we're now flying", "is still going")
        let next = lower[i + 1..]
            .iter()
            .find(|n| !matches!(n.as_str(), "now" | "still" | "also" | "just" | "currently"));
        if be && next.is_some_and(|n| verb(n).is_some_and(|(_, f)| f == VerbForm::Gerund)) {
            return Some(true);
        }
        // "we were going to Rome in May": a plan, though given up
        if matches!(w.as_str(), "was" | "were")
            && lower
                .get(i + 1)
                .is_some_and(|n| matches!(n.as_str(), "going" | "planning"))
            && lower.get(i + 2).is_some_and(|t| t == "to")
        {
            return Some(true);
        }
        if matches!(w.as_str(), "was" | "were" | "did")
            || verb(w).is_some_and(|(_, f)| f == VerbForm::Past)
        {
            return Some(false);
        }
    }
    None
}
