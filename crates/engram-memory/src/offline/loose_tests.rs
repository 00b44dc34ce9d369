//! Chat said loosely, read whole: subjects left out ("just back from
//! Vietnam", "cancelled Netflix, mostly watch YouTube now"), whom a
//! question names ("a gift for my dad? he's into ..."), and whom a pronoun
//! opening a conversation means when the space's document before spoke of
//! one person, and a short answer led by thanks ("Thanks! Once or twice a
//! year.").

use super::casual_tests::check;
use super::*;

#[test]
fn news_said_loosely() {
    check(&[
        // back from somewhere (what the highlight was of is not said)
        (
            "Gia: just back from two weeks in Vietnam, Hoi An was the highlight",
            "Gia is just back from two weeks in Vietnam.",
        ),
        // an adverb of habit, then a verb whose "I" was left out
        (
            "Ro: cancelled Netflix, mostly watch YouTube now",
            "Ro cancelled Netflix.|Ro mostly watches YouTube now.",
        ),
        // a thing said to be the subject is not whose "her" is
        (
            "Ken: my daughter is applying to unis, Edinburgh is her first choice",
            "Ken's daughter is applying to unis.|Edinburgh is Ken's daughter's first choice.",
        ),
        // the "she" of the sentence before, before a verb that agrees
        (
            "Ana: my sister Eva called. she got the job! starts Monday",
            "Ana's sister Eva called.|Eva got the job.|Eva starts on 15 May 2023.",
        ),
        // the dad a question names is the "he" after it
        (
            "Max: what's a good gift for my dad? he's into fishing and jazz",
            "Max's dad is into fishing and jazz.",
        ),
    ]);
}

#[test]
fn a_pronoun_opening_a_conversation_means_the_one_person_spoken_of_before() {
    let after = |prior: &[&str], text: &str| -> Vec<String> {
        let prior: Vec<String> = prior.iter().map(|p| p.to_string()).collect();
        let turns = [Turn {
            role: Role::User,
            speaker: Some("Ken"),
            listener: None,
            text,
            date: chrono::NaiveDate::from_ymd_opt(2023, 5, 8),
            generic: true,
        }];
        extract_after(&turns, &prior)
            .into_iter()
            .map(|c| c.content)
            .collect()
    };
    assert_eq!(
        after(
            &["Ken's daughter is applying to unis."],
            "she got into Edinburgh!! starts in September"
        ),
        [
            "Ken's daughter got into Edinburgh.",
            "Ken's daughter starts in September 2023."
        ]
    );
    // two people before: whom "she" means is not said
    assert_eq!(
        after(
            &[
                "Ken's daughter is applying to unis.",
                "Ken's sister lives in Leeds."
            ],
            "she got into Edinburgh!!"
        ),
        Vec::<String>::new()
    );
    // someone else named before: whom "she" means is not said
    assert_eq!(
        after(
            &[
                "Ken's daughter is applying to unis.",
                "Ken met Sarah for coffee."
            ],
            "she got into Edinburgh!!"
        ),
        Vec::<String>::new()
    );
    // a place first in a fact is no one
    assert_eq!(
        after(
            &[
                "Edinburgh is Ken's daughter's first choice.",
                "Ken's daughter is applying to unis."
            ],
            "she got into Edinburgh!!"
        ),
        ["Ken's daughter got into Edinburgh."]
    );
    // nothing before: as ever
    assert_eq!(after(&[], "she got into Edinburgh!!"), Vec::<String>::new());
}

#[test]
fn thanks_before_a_short_answer_leave_it_the_answer() {
    check(&[
        (
            "Caroline: How long have you been married?|Melanie: Haha, thanks! 5 years already!",
            "Melanie has been married for 5 years.",
        ),
        (
            "Caroline: How often do you go to the beach?|Melanie: Thanks, Caroline! Once or twice a year.",
            "Melanie goes to the beach once or twice a year.",
        ),
        (
            "Caroline: Where are you from?|Melanie: Thanks! Sweden, originally.",
            "Melanie is from Sweden, originally.",
        ),
        // a reaction is not a place
        ("Caroline: Where are you from?|Melanie: Wow. I love that question.", ""),
    ]);
}
