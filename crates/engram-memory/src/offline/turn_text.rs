//! A user's turn said again as plain sentences before it is cut into
//! clauses: a note's lists and labelled lines as sentences, casual typing
//! spelled out, emoticons as stops, and news said in note form or in
//! passing said in full. Each rewrite reads the text only and leaves what
//! it does not know as it was; their order matters (a note is prose
//! before anything reads its sentences).
//!
//! Before that, what the turns of a conversation say of each other:
//! [`as_meant`].

use super::{baby, corrected, notes, orgs, telegraphic, typed, weddings};
use crate::Turn;

/// The texts of `turns` as their speakers meant them, when that differs
/// from what they wrote: a correction applied to the turn it corrects
/// ("sorry, I meant Porto, not Lisbon"), and an engaged speaker's "the
/// wedding" read as theirs (engaged here or in the space's document
/// before, whose facts are `prior`).
pub(super) fn as_meant(turns: &[Turn], prior: &[String]) -> Option<Vec<String>> {
    let fixed = corrected::corrected(turns);
    weddings::own_wedding(turns, fixed.as_deref(), prior).or(fixed)
}

/// `text` (a turn's, attachments removed) with every rewrite applied;
/// `casual` when its speaker types without capitals and apostrophes.
pub(super) fn rewritten(text: String, casual: bool) -> String {
    // a note's lists and labelled lines, as sentences
    let text = notes::as_prose(&text).unwrap_or(text);
    // "im moving to berlin in june": "I'm", "June"
    let text = typed::spelled(&text, casual).unwrap_or(text);
    // ("the doctor upped my sertraline": "increased")
    let text = typed::plain_verbs(&text).unwrap_or(text);
    // ("official now :) 3 months today": a face ends a sentence)
    let text = typed::emoticons_as_stops(&text).unwrap_or(text);
    // ("offer accepted!! 400k for the Leyton flat": the speaker's news)
    let text = telegraphic::news(&text).unwrap_or(text);
    // ("just back from Vietnam, Hoi An was ...": "I'm" left out; "she got
    // in!! starts in September": "she")
    let text = super::subjects::left_out_openings(&text).unwrap_or(text);
    // ("found a place! a studio in Mokotów": the place is the studio)
    let text = telegraphic::described_news(&text).unwrap_or(text);
    // ("a new client, the Tate, doing a series for them": the Tate)
    let text = orgs::in_text(&text).unwrap_or(text);
    // ("joined a band, we're called The Late Commits": the band's name)
    let text = orgs::group_named(&text).unwrap_or(text);
    // ("found out it's a girl, they're naming her Lucía": the baby's)
    baby::baby_news(&text).unwrap_or(text)
}
