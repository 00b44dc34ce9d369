//! The cases of `topic.rs`: what an answer's "it" is said as, and when
//! it is left alone.

use super::*;

fn check(before: Option<&str>, question: &str, answer: &str, expect: Option<&str>) {
    let thing = asked_about(question, before, "Ana");
    let got = thing.as_ref().and_then(|t| answered(answer, t));
    assert_eq!(got.as_deref(), expect, "{question} | {answer} ({thing:?})");
}

#[test]
fn the_thing_a_question_names() {
    check(
        None,
        "That vase is lovely! Did you make it?",
        "Yeah, I made it at the studio last week.",
        Some("Yeah, I made the vase at the studio last week."),
    );
    check(
        None,
        "Your new bike looks fast! Where did you get it?",
        "It was a gift from my uncle.",
        Some("Ana's new bike was a gift from my uncle."),
    );
}

#[test]
fn the_answer_does_what_the_question_did_to_it() {
    // the answer's "hold it" echoes the question's "hold that pose"
    check(
        None,
        "Impressive! How long do you usually hold that pose?",
        "I usually hold it for about a minute.",
        Some("I usually hold the pose for about a minute."),
    );
    // another verb's "it" is not the thing
    check(
        None,
        "How long do you usually hold that pose?",
        "Honestly I feel it in my core the next day.",
        None,
    );
}

#[test]
fn the_thing_the_speaker_did_before() {
    // a doing under way, done again
    let thing = asked_about("How long have you been doing it?", None, "Ana")
        .or_else(|| {
            Some(Asked {
                thing: super::doing_it::activity("I've been learning the guitar since March.")?,
                shown: false,
                object_only: true,
                verb: Some("do"),
            })
        })
        .unwrap();
    assert_eq!(thing.thing, "learning the guitar");
    assert_eq!(
        answered("been doing it for about 2 years now", &thing).as_deref(),
        Some("been learning the guitar for about 2 years now")
    );
    assert_eq!(
        super::doing_it::activity("I'm training for a marathon, and I've been swimming"),
        None
    );
    // a thing got by its make
    check(
        Some("I just bought a used Tesla Model 3"),
        "Oh nice! How do you like it?",
        "I love it, the range is great",
        Some("I love Ana's used Tesla Model 3, the range is great"),
    );
    check(
        Some("I finally finished my first novel last night!"),
        "Congrats! What's it about?",
        "It's a mystery set in a lighthouse.",
        Some("Ana's first novel is a mystery set in a lighthouse."),
    );
    check(
        Some("I went to a poetry reading on Friday - it was powerful."),
        "Never been to one. What was it about?",
        "It was a reading by refugee poets.",
        Some("The poetry reading that Ana went to was a reading by refugee poets."),
    );
}

#[test]
fn a_title_or_a_picture_before() {
    check(
        Some("By the way, I loved \"Piranesi\" by Susanna Clarke."),
        "Oh nice, what did you like about it?",
        "It has the strangest house I've ever read about.",
        Some("\"Piranesi\" has the strangest house I've ever read about."),
    );
    // a picture stands in for what was made, and for nothing else
    check(
        Some("Want to try some of this? [image: a photo of a bowl of lemon sorbet]"),
        "Yum! Is it vegan?",
        "Yep, I made it with coconut water.",
        Some("Yep, I made a bowl of lemon sorbet with coconut water."),
    );
    check(
        Some("Want to try some of this? [image: a photo of a bowl of lemon sorbet]"),
        "Yum! Is it vegan?",
        "It's totally vegan.",
        None,
    );
}

#[test]
fn it_after_the_clause_before() {
    let check = |clause: &str, before: &str, expect: Option<&str>| {
        assert_eq!(
            it_from_before(clause, before, "Ana").as_deref(),
            expect,
            "{before} | {clause}"
        );
    };
    check(
        "it's at a startup in Porto.",
        "I got a new job",
        Some("Ana's new job is at a startup in Porto."),
    );
    // a role "on it", in what the speaker (or their team) is doing
    check(
        "I'm the tech lead on it",
        "we're launching the new checkout on April 14",
        Some("I'm the tech lead on Ana's new checkout"),
    );
    check("I'm all over it", "we're launching the new checkout", None);
    // the thing someone's the clause before opens with
    check(
        "it's a wedding present for my cousin",
        "Ana's first quilt took me three months",
        Some("Ana's first quilt is a wedding present for my cousin"),
    );
    // not a person, nor a judgement
    check(
        "it's a long way from here",
        "Ana's mum lives in Leeds",
        None,
    );
    check(
        "it was frustrating because I couldn't play",
        "Ana's ankle got hurt in the game",
        None,
    );
    check(
        "it's been tough",
        "Ana's first quilt took me three months",
        None,
    );
    check(
        "It was a reading by refugee poets.",
        "I went to a poetry reading on Friday.",
        Some("The poetry reading that Ana went to was a reading by refugee poets."),
    );
    // a doing under way, its "I'm" left out or said
    check(
        "it's on October 12 in Valencia",
        "training for my first half marathon",
        Some("Ana's first half marathon is on October 12 in Valencia"),
    );
    check(
        "it's in May.",
        "I'm training for a marathon",
        Some("The marathon that Ana is training for is in May."),
    );
    // (a gerund that is the subject: the losing, not the job)
    check(
        "it pushed me to take the plunge",
        "Losing my job was a bummer",
        None,
    );
    // a judgement of what happened, not of the thing
    check("it was awful.", "I lost my phone", None);
    check("It's so cool!", "I bought a new bike.", None);
    check("It was a blast!", "I decorated a tree myself.", None);
}

#[test]
fn what_someone_loves_is_a_thing_too() {
    assert_eq!(
        it_from_before(
            "It has dragons, magic and great characters.",
            "I love this series.",
            "Ana"
        )
        .as_deref(),
        Some("The series that Ana loves has dragons, magic and great characters.")
    );
}

#[test]
fn a_question_that_names_one_thing() {
    check(
        None,
        "Nice! How long have you had your bike?",
        "I've had it for two years.",
        Some("I've had Ana's bike for two years."),
    );
    // two things named: which one is not said
    check(
        None,
        "Is your bike faster than your car?",
        "It's much faster.",
        None,
    );
}

#[test]
fn what_is_left_alone() {
    // the sentence before names two things
    check(
        None,
        "That skyline looks amazing - I've been wanting to visit Lima. How was it?",
        "It was a blast.",
        None,
    );
    // no "it" in the question
    check(
        Some("I finished my first novel."),
        "Congrats! What are you doing next?",
        "It's a long story.",
        None,
    );
    // an "it" that points at nothing
    check(
        Some("I finished my first novel."),
        "How did it feel?",
        "It was amazing to see it printed.",
        None,
    );
    check(
        Some("I finished my first novel."),
        "How did it feel?",
        "It felt great.",
        None,
    );
    check(
        None,
        "That vase is lovely! Did you make it?",
        "I wish I could take it easy.",
        None,
    );
    // two things done: which one is asked about is not said
    check(
        Some("I baked a cake and I painted a mural."),
        "Wow! How did it go?",
        "It was fun.",
        None,
    );
}

#[test]
fn a_reaction_asks_of_what_the_speaker_said() {
    // no question: the speaker's own thing, after a reaction to it
    check(
        Some("Here's a pic of a cake I made recently!"),
        "That looks really good! I love the frosting!",
        "It's dairy-free vanilla with strawberry filling.",
        Some("The cake Ana made is dairy-free vanilla with strawberry filling."),
    );
    check(
        Some("I bought a new bike"),
        "Nice!",
        "It's a Trek, second hand",
        Some("Ana's new bike is a Trek, second hand"),
    );
    check(
        Some("What's the name of it?"),
        "Books can be captivating! What's the name of it?",
        "It's a book by Patrick Rothfuss",
        None,
    );
    // a judgement of a doing says nothing of the thing
    check(
        Some("I baked a dairy-free chocolate cake"),
        "That looks amazing!",
        "It's always fun experimenting in the kitchen",
        None,
    );
    // no reaction, or two things made
    check(
        Some("I bought a new bike"),
        "I'm off to work.",
        "It's a Trek",
        None,
    );
    check(
        Some("a cake I made and a card I painted"),
        "That looks great!",
        "It's vanilla",
        None,
    );
}
