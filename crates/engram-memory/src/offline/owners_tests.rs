//! Tests of [`super`]: whose "the kids" are, whose a subject makes a
//! thing, and the speaker's "here".

use super::*;

#[test]
fn kin_called_dad_and_exams_told_of_are_the_speakers() {
    let o = Owners::default();
    for (said, want) in [
        (
            "we moved Dad into a care home",
            "we moved my dad into a care home",
        ),
        (
            "Mum's neurologist is Dr. Patel",
            "My mum's neurologist is Dr. Patel",
        ),
        ("I called Dad.", "I called my dad."),
        (
            "we moved gran into Oakfield care home",
            "we moved my gran into Oakfield care home",
        ),
        (
            "gran still loves crosswords",
            "My gran still loves crosswords",
        ),
        ("every mum knows", "every mum knows"),
        ("the final went ok btw", "my final went ok btw"),
        ("The chem midterm was brutal", "My chem midterm was brutal"),
        ("Interview went well!", "My interview went well!"),
        (
            "first date is friday at a wine bar",
            "my first date is friday at a wine bar",
        ),
        ("date went really well!", "my date went really well!"),
        ("the date is set", "the date is set"),
        ("my interview is on the 3rd", "my interview is on the 3rd"),
        ("her exam went well", "her exam went well"),
        ("Test Drive was fun", "Test Drive was fun"),
        // someone's already, a name, not told of, or anyone's
        ("my Dad is 70", "my Dad is 70"),
        ("Grandma Rose turned 90", "Grandma Rose turned 90"),
        ("the test results", "the test results"),
        ("the party was fun", "the party was fun"),
        ("I passed the test", "I passed the test"),
        (
            "contractor is Bruno from BuildRight",
            "my contractor is Bruno from BuildRight",
        ),
        ("Budget is around 25k.", "My budget is around 25k."),
        ("nurse is a hard job", "nurse is a hard job"),
        ("budget is tight", "budget is tight"),
        ("life is good", "life is good"),
        ("Sam is a nurse", "Sam is a nurse"),
    ] {
        assert_eq!(o.rewrite(said, "Sofia"), want, "{said}");
    }
}

#[test]
fn the_kids_are_whoever_spoke_of_their_kids() {
    let mut o = Owners::default();
    o.note("I took my kids to the museum", Some("Mel"), Some("Caro"));
    o.note("Your turtles are cute!", Some("Jo"), Some("Nate"));
    assert_eq!(
        o.rewrite("The kids loved the dinosaurs", "Mel"),
        "My kids loved the dinosaurs"
    );
    assert_eq!(o.rewrite("I fed the turtles", "Nate"), "I fed my turtles");
    // the owner's own only: others' "the kids" may be any kids
    assert_eq!(
        o.rewrite("I put on a show for the kids", "Caro"),
        "I put on a show for the kids"
    );
    // not a kind anyone owns
    assert_eq!(o.rewrite("the museum was big", "Mel"), "the museum was big");
    // which of them said between
    assert_eq!(
        o.rewrite("The 2 younger kids love nature", "Mel"),
        "My 2 younger kids love nature"
    );
    assert_eq!(
        o.rewrite("the older kids play football", "Mel"),
        "my older kids play football"
    );
    assert_eq!(
        o.rewrite("the older, quieter kids", "Mel"),
        "the older, quieter kids"
    );
}

#[test]
fn whose_a_subject_makes_a_thing() {
    for (subject, want) in [
        ("I", Some("my")),
        ("we just", Some("my")),
        ("my sister", Some("my sister's")),
        ("our dog Churro", Some("our dog Churro's")),
        ("Priya", Some("Priya's")),
        ("She", None),
        ("the man next door", None),
    ] {
        let words: Vec<&str> = subject.split_whitespace().collect();
        assert_eq!(whose_subject(&words).as_deref(), want, "{subject}");
    }
}

#[test]
fn here_is_where_the_speaker_said_they_live() {
    let mut o = Owners::default();
    o.note("I live in Glasgow now.", Some("Marta"), Some("Bot"));
    assert_eq!(
        o.rewrite("Luis is moving here in April", "Marta"),
        "Luis is moving to Glasgow in April"
    );
    // another speaker's "here" is not hers
    assert_eq!(
        o.rewrite("Luis is moving here in April", "Bot"),
        "Luis is moving here in April"
    );
}

#[test]
fn what_the_speaker_does_with_the_kids_makes_them_theirs() {
    let mut o = Owners::default();
    o.note(
        "Yesterday I took the kids to the zoo",
        Some("Mel"),
        Some("Caro"),
    );
    assert_eq!(
        o.rewrite("I took the kids to the zoo", "Mel"),
        "I took my kids to the zoo"
    );
    // ... unless someone else's are spoken of
    let mut o = Owners::default();
    o.note("How are your kids?", Some("Mel"), Some("Caro"));
    o.note("We took the kids to the zoo", Some("Mel"), Some("Caro"));
    assert_eq!(o.rewrite("the kids played", "Mel"), "the kids played");
    // ("the kids I teach" are not taken by a verb of the speaker's)
    let mut o = Owners::default();
    o.note(
        "I love teaching the kids at school",
        Some("Mel"),
        Some("Caro"),
    );
    assert_eq!(o.rewrite("the kids played", "Mel"), "the kids played");
}

#[test]
fn two_owners_leave_it_unsaid() {
    let mut o = Owners::default();
    o.note("my kids love it", Some("Mel"), Some("Caro"));
    o.note("my kids do too", Some("Caro"), Some("Mel"));
    assert_eq!(o.rewrite("the kids played", "Mel"), "the kids played");
}
