//! The cases of [`super`] (surface: a memory tidied).
use super::{strip_vocative, tidy};

#[test]
fn a_memory_is_tidied() {
    let check = |said: &str, want: &str| assert_eq!(tidy(said), want, "{said}");
    check("Luis also plays the cello", "Luis plays the cello.");
    check(
        "Gina's sister also lost her job!",
        "Gina's sister lost her job.",
    );
    check(
        "Omar finished the question haha",
        "Omar finished the question.",
    );
    check("Ana moved to Rome, btw", "Ana moved to Rome.");
    check(
        "Nate's turtles look like Nate's turtles really enjoy fruit",
        "Nate's turtles really enjoy fruit.",
    );
    check("Ana looks like her mother", "Ana looks like her mother.");
    check("Nadia lives in Porto not Lisbon", "Nadia lives in Porto.");
    // (a name corrected is left for relate::renamed)
    check(
        "Nadia's studio is called Sol & Sal, not Sol Yoga",
        "Nadia's studio is called Sol & Sal, not Sol Yoga.",
    );
    check("Ana eats fish, not meat", "Ana eats fish, not meat.");
    check(
        "Maya's rent went up to 1550 which sucks",
        "Maya's rent went up to 1550.",
    );
    check(
        "Maya moved to Leeds, which is so exciting!",
        "Maya moved to Leeds.",
    );
    check(
        "Aiko's final went ok btw, got a B+",
        "Aiko's final went ok, got a B+.",
    );
    check(
        "Jonas is a bit nervous about flying though!",
        "Jonas is a bit nervous about flying.",
    );
    // "also" not right after the subject stays
    check(
        "Ana plays chess and also paints",
        "Ana plays chess and also paints.",
    );
    check("the also-rans lost", "The also-rans lost.");
}

#[test]
fn vocatives_are_not_part_of_the_fact() {
    let people = ["Caroline", "Melanie"];
    assert_eq!(
        strip_vocative("Caroline, my family has been great.", &people),
        "my family has been great."
    );
    assert_eq!(
        strip_vocative("I'm getting there, Caroline.", &people),
        "I'm getting there"
    );
    assert_eq!(
        strip_vocative("Caroline moved to Sweden.", &people),
        "Caroline moved to Sweden."
    );
    // a relative clause says she is spoken of, not to
    assert_eq!(
        strip_vocative(
            "Caroline, who speaks Swedish, is doing the bookings.",
            &people
        ),
        "Caroline, who speaks Swedish, is doing the bookings."
    );
}
