//! The cases of [`super::unframed`]: facts said inside a frame, and
//! frames that hold none.

use super::unframed;

fn check(clause: &str, turn: &str, expect: Option<&str>) {
    assert_eq!(unframed(clause, turn).as_deref(), expect, "{clause}");
}

#[test]
fn frames() {
    let t = "";
    check("That's why I love traveling", t, Some("I love traveling"));
    check(
        "That's when I decided to become a nurse.",
        t,
        Some("I decided to become a nurse."),
    );
    check("That's why you should go", t, None);
    check(
        "we're going for two weeks in October, me and my husband Kai",
        t,
        Some("my husband Kai and I are going for two weeks in October"),
    );
    check("we went out, me and my mates", t, None);
    check(
        "we're going for two weeks in October",
        "can you help me plan a trip to Japan? we're going for two weeks in October",
        Some("we're going to Japan for two weeks in October"),
    );
    check("I'm going for a run", "a trip to Japan", None);
    check(
        "we fly out Friday",
        "can you help me pack for Iceland? we fly out Friday",
        Some("we fly out to Iceland Friday"),
    );
    check(
        "no mushrooms please, can't stand them",
        t,
        Some("I can't stand mushrooms"),
    );
    check("no onions please", t, Some("I don't want onions"));
    check("no worries please, it's fine", t, None);
    check("That's what I said", t, None);
    check(
        "there's this little ramen place near my office that I love",
        t,
        Some("I love a little ramen place near my office"),
    );
    check(
        "There's a quote by J.K. Rowling that I really like: \"Turn on the light.",
        t,
        Some("I really like a quote by J.K. Rowling"),
    );
    check(
        "there's a bakery I go to every Sunday",
        t,
        Some("I go to a bakery every Sunday"),
    );
    check("There's something I love about it", t, None);
    check("There's a chance I hate it", t, None);
    check(
        "For me, adoption is a way of giving back and showing love.",
        t,
        Some("I think adoption is a way of giving back and showing love."),
    );
    check("For me, it's writing and reading.", t, None);
    check(
        "It reminds me of the film camera I had as a kid",
        t,
        Some("I had a film camera as a kid"),
    );
    check(
        "That reminds me of the time I broke my arm skiing",
        t,
        Some("I broke my arm skiing"),
    );
    check("It reminds me of my childhood", t, None);
    check(
        "just found out I'm allergic to penicillin",
        t,
        Some("I'm allergic to penicillin"),
    );
    check(
        "turns out my landlord is selling the flat",
        t,
        Some("my landlord is selling the flat"),
    );
    check("I found out about it yesterday", t, None);
    check("I learned a lot from her", t, None);
    check(
        "they've asked me to step up as team lead",
        t,
        Some("I've been asked to step up as team lead"),
    );
    check(
        "they offered me a permanent contract",
        t,
        Some("I've been offered a permanent contract"),
    );
    check("they asked me about it", t, None);
    let young =
        "That pic reminds me of when I was younger. I'd practice basketball outside for hours.";
    check(
        "I'd practice basketball outside for hours.",
        young,
        Some("I used to practice basketball outside for hours."),
    );
    check(
        "we'd spend every summer at my grandma's farm in Ohio",
        "growing up, we'd spend every summer at my grandma's farm in Ohio",
        Some("we used to spend every summer at my grandma's farm in Ohio"),
    );
    check("I'd practice more if I could", "I'm busy", None);
    check("I'd love to go back", young, None);
    check(
        "I'd go fishing with my grandad every Saturday",
        young,
        Some("I used to go fishing with my grandad every Saturday"),
    );
    check("I'd go for the blue one", young, None);
}
