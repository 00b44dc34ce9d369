//! The data-driven cases of [`super::clauses::split`]: coordinated
//! clauses that split, and phrases that only look like a new clause.

use super::*;

fn check(sentence: &str, want: &[&str]) {
    assert_eq!(split(sentence), want, "{sentence}");
}

#[test]
fn a_request_after_a_comma_is_dropped() {
    check("I'm vegan, so no dairy please.", &["I'm vegan"]);
    // a name's relation after a comma opens a clause
    check(
        "Ms Park went on maternity leave, Leo's new teacher is Mr Ali",
        &[
            "Ms Park went on maternity leave",
            "Leo's new teacher is Mr Ali",
        ],
    );
    // a time that opens the next clause
    check(
        "I'm trying to get better at cooking, last night I made a curry",
        &[
            "I'm trying to get better at cooking",
            "last night I made a curry",
        ],
    );
    check(
        "I was tired, yesterday I slept all day",
        &["I was tired", "yesterday I slept all day"],
    );
    // a request after "so" with no comma
    check("I'm vegetarian so book veggie meals", &["I'm vegetarian"]);
    check(
        "Rome wasn't built in a day so keep pushing on!",
        &["Rome wasn't built in a day so keep pushing on!"],
    );
    check(
        "We were so close to winning the final",
        &["We were so close to winning the final"],
    );
    // an idea mused on
    check(
        "I need to plan the hen party, thinking Lisbon",
        &["I need to plan the hen party"],
    );
    // a bare noun and "is" after "and" or "but" opens a clause of its own,
    // when a clause came before
    check(
        "the flat is tiny and rent is 950 each",
        &["the flat is tiny", "rent is 950 each"],
    );
    check(
        "Jon loves all dances, but contemporary is their top pick.",
        &["Jon loves all dances", "contemporary is their top pick."],
    );
    check(
        "I'm leading the checkout redesign, launch is planned for May 15",
        &[
            "I'm leading the checkout redesign",
            "launch is planned for May 15",
        ],
    );
    check(
        "I adopted a cat, which is black.",
        &["I adopted a cat, which is black."],
    );
    check(
        "Tracking your plans and goals is key.",
        &["Tracking your plans and goals is key."],
    );
    // a past verb or "been" after the speaker's clause is the speaker's
    check(
        "I'm job hunting, got interviews lined up with Spotify",
        &["I'm job hunting", "I got interviews lined up with Spotify"],
    );
    check(
        "currently I'm at a small agency called Pixelworks, been there 3 years",
        &[
            "I'm currently at a small agency called Pixelworks",
            "I've been there 3 years",
        ],
    );
    check("I'm at home, exhausted.", &["I'm at home, exhausted."]);
    check(
        "I'm so tired, tired of work.",
        &["I'm so tired, tired of work."],
    );
    check(
        "I run 4 times a week, longest run so far is 16k.",
        &["I run 4 times a week", "longest run so far is 16k."],
    );
    check(
        "I'm gluten-free, so please keep that in mind.",
        &["I'm gluten-free"],
    );
    check(
        "I have a bad knee, so keep the hikes short.",
        &["I have a bad knee"],
    );
    check(
        "I'm fasting for Ramadan this month so no lunch meetings please",
        &["I'm fasting for Ramadan this month"],
    );
    check(
        "I live in Oslo, please use metric units.",
        &["I live in Oslo"],
    );
    check(
        "My passport expires next month, remind me to renew it.",
        &["My passport expires next month"],
    );
    check(
        "I'm moving to Lyon in May, let me know if you have tips.",
        &["I'm moving to Lyon in May"],
    );
    // a lead naming someone close is a clause of its own
    check(
        "Just me and my partner Dana, she is a nurse and works night shifts.",
        &[
            "Just me and my partner Dana",
            "she is a nurse",
            "she works night shifts.",
        ],
    );
    check(
        "Last year, I went to Paris.",
        &["Last year, I went to Paris."],
    );
    // an offer to the listener
    check(
        "My email is ana.silva@example.com if you need it.",
        &["My email is ana.silva@example.com"],
    );
    // or a phrase that leans on the talk
    check(
        "we're staying with my in-laws in Delft during the worst of it",
        &["we're staying with my in-laws in Delft"],
    );
    check(
        "we're moving to Stockholm in October for it",
        &["we're moving to Stockholm in October"],
    );
    check(
        "My number is 555 0192, just in case.",
        &["My number is 555 0192"],
    );
    check(
        "Also I'm allergic to ibuprofen, just so you know.",
        &["I'm allergic to ibuprofen"],
    );
    // a stock remark
    check("I'm 42 now, time flies.", &["I'm 42 now"]);
    check(
        "I really admire his work ethic, such an inspiration.",
        &["I really admire his work ethic"],
    );
    check("We won the final, what a game!", &["We won the final"]);
    check(
        "Miso is super shy but Udon already owns the sofa.",
        &["Miso is super shy", "Udon already owns the sofa."],
    );
    check(
        "So I went vegan last month, feeling great so far.",
        &["So I went vegan last month"],
    );
    check(
        "I'm allergic to penicillin, found out the hard way last year.",
        &["I'm allergic to penicillin"],
    );
    check("I got the job, finally!", &["I got the job"]);
    check(
        "Tariq moved back to London last week, so nice to have him close",
        &["Tariq moved back to London last week"],
    );
    check(
        "started my new job at the council today, so nervous",
        &["started my new job at the council today"],
    );
    check(
        "I used to love sushi, but these days I hate it.",
        &["I used to love sushi", "I hate it these days."],
    );
    // a comment on it
    check(
        "I'm allergic to cats, which is sad because I love them.",
        &["I'm allergic to cats"],
    );
    check(
        "I adopted a cat, which is black.",
        &["I adopted a cat, which is black."],
    );
    // not a statement before the request: its condition
    check(
        "If you know anyone who might be interested, let me know.",
        &["If you know anyone who might be interested, let me know."],
    );
    // not a request: the part after says something of its own
    check(
        "I lost my job yesterday, so I'm starting my own business.",
        &["I lost my job yesterday", "I'm starting my own business."],
    );
    check(
        "My mom asked me to please call her, so I did.",
        &["My mom asked me to please call her", "I did."],
    );
}

#[test]
fn coordinated_clauses_split() {
    check(
        "I'm Tom, I'm 34, I live in Leeds and I teach chemistry.",
        &["I'm Tom", "I'm 34", "I live in Leeds", "I teach chemistry."],
    );
    check(
        "I live in Leeds and teach chemistry.",
        &["I live in Leeds", "I teach chemistry."],
    );
    check(
        "My sister lives in Denver and she convinced me.",
        &["My sister lives in Denver", "she convinced me."],
    );
    check(
        "I lost my job yesterday, so I'm starting my own business.",
        &["I lost my job yesterday", "I'm starting my own business."],
    );
    check(
        "I'm learning French and taking piano lessons.",
        &["I'm learning French", "I'm taking piano lessons."],
    );
    check(
        "I'm currently reading a book and hoping it helps.",
        &["I'm currently reading a book", "I'm hoping it helps."],
    );
    // a hedge after a comma opens a clause of its own
    check(
        "I also made a chocolate cake with berries on it, maybe you would like that!",
        &[
            "I also made a chocolate cake with berries on it",
            "maybe you would like that!",
        ],
    );
    check(
        "Sam moved to Oslo and Kim stayed in Lisbon.",
        &["Sam moved to Oslo", "Kim stayed in Lisbon."],
    );
    check(
        "Family's love really helps us and gives us strength.",
        &[
            "Family's love really helps us",
            "Family's love gives us strength.",
        ],
    );
    check(
        "I saw how counseling and support groups improved my life.",
        &["I saw how counseling and support groups improved my life."],
    );
    check(
        "I found a charity that offers housing and support for refugees.",
        &["I found a charity that offers housing and support for refugees."],
    );
    check(
        "I asked my friends to join the club I run and be coaches there.",
        &["I asked my friends to join the club I run and be coaches there."],
    );
}

#[test]
fn a_gerund_phrase_that_is_a_subject_starts_a_clause() {
    check(
        "I've always liked Under Armour, working with them would be really cool.",
        &[
            "I've always liked Under Armour",
            "working with them would be really cool.",
        ],
    );
    check(
        "I'm passionate about dance and fashion so combining them lets me show my creativity.",
        &[
            "I'm passionate about dance and fashion",
            "combining them lets me show my creativity.",
        ],
    );
    // a coordinated gerund subject, a gerund that hopes a clause, and a
    // gerund going on with the clause stay whole
    check(
        "Hiking in the mountains and camping under the stars relaxes me.",
        &["Hiking in the mountains and camping under the stars relaxes me."],
    );
    check(
        "I'm reading a book, hoping it helps.",
        &["I'm reading a book, hoping it helps."],
    );
    check(
        "I spent the weekend painting, trying new colors.",
        &["I spent the weekend painting, trying new colors."],
    );
}

#[test]
fn quantifiers_that_are_subjects_start_a_clause() {
    check(
        "Some close friends kept supporting me, but a few weren't able to handle it.",
        &[
            "Some close friends kept supporting me",
            "a few weren't able to handle it.",
        ],
    );
    check(
        "Most of my team came, others didn't.",
        &["Most of my team came", "others didn't."],
    );
    // after "and" a quantifier goes on with a subject or an object
    check(
        "My studio and some other schools are putting on a show.",
        &["My studio and some other schools are putting on a show."],
    );
    check(
        "I'm working on my business and some new dance routines.",
        &["I'm working on my business and some new dance routines."],
    );
}

#[test]
fn a_noun_phrase_after_a_dash_stays_with_what_it_names() {
    check(
        "I had a bit of a setback recently - another rejection from a production company.",
        &["I had a bit of a setback recently - another rejection from a production company."],
    );
    check(
        "I'm working on a new project - a suspenseful thriller set in a small town.",
        &["I'm working on a new project - a suspenseful thriller set in a small town."],
    );
    check(
        "We adopted a puppy - a golden retriever named Max!",
        &["We adopted a puppy - a golden retriever named Max!"],
    );
    check(
        "Got a new job last month \u{2013} a software engineer at a startup.",
        &["Got a new job last month - a software engineer at a startup."],
    );
    // a clause after a dash is one of its own, and a reaction is not a name
    check(
        "I took my family camping - it was lovely.",
        &["I took my family camping", "it was lovely."],
    );
    for reaction in [
        "such a blast!",
        "a great experience.",
        "the best weekend in ages.",
        "a dream come true.",
        "a lot of fun.",
    ] {
        check(
            &format!("I ran my first marathon - {reaction}"),
            &["I ran my first marathon", reaction],
        );
    }
}

#[test]
fn possessive_subjects_named_things_and_relative_clauses_split() {
    check(
        "My sister Anika is a dentist and my brother Dev plays cricket.",
        &[
            "My sister Anika is a dentist",
            "my brother Dev plays cricket.",
        ],
    );
    check(
        "I run every morning, and my favourite book is Dune.",
        &["I run every morning", "my favourite book is Dune."],
    );
    check(
        "I quit nursing and now I work as a software engineer.",
        &["I quit nursing", "I now work as a software engineer."],
    );
    check(
        "He studied law in Paris and now runs a vineyard.",
        &["He studied law in Paris", "he now runs a vineyard."],
    );
    check(
        "We have two kids, Leo and Mia, and a golden retriever named Biscuit.",
        &[
            "We have two kids, Leo and Mia",
            "we have a golden retriever named Biscuit.",
        ],
    );
    check(
        "I wrapped up my second script, and the feels have been wild.",
        &["I wrapped up my second script", "the feels have been wild."],
    );
    check(
        "I took the kids to the zoo and the lions were asleep.",
        &["I took the kids to the zoo", "the lions were asleep."],
    );
    check(
        "Nothing planned yet, but my cousin invited me to a yoga class.",
        &[
            "Nothing planned yet",
            "my cousin invited me to a yoga class.",
        ],
    );
    check(
        "I have a brother named Ahmed who lives in Cairo.",
        &[
            "I have a brother named Ahmed",
            "my brother Ahmed lives in Cairo.",
        ],
    );
}

#[test]
fn lists_and_compound_subjects_stay_whole() {
    check("I love cats and dogs.", &["I love cats and dogs."]);
    check(
        "I bought the book and the poster.",
        &["I bought the book and the poster."],
    );
    check(
        "My wife and I went to Rome last year.",
        &["My wife and I went to Rome last year."],
    );
    check(
        "When I was a kid, I loved dancing.",
        &["When I was a kid, I loved dancing."],
    );
    check(
        "I like hiking and swimming in lakes.",
        &["I like hiking and swimming in lakes."],
    );
    check("Ada prefers green tea.", &["Ada prefers green tea."]);
    check(
        "I took my fam camping last week - it was a really nice time!",
        &[
            "I took my fam camping last week",
            "it was a really nice time!",
        ],
    );
    check(
        "I'm starting a dance studio and it'd be great to share it.",
        &["I'm starting a dance studio", "it'd be great to share it."],
    );
    check(
        "I want to travel and see the world.",
        &["I want to travel and see the world."],
    );
    check(
        "I find it helps me relax and increase my flexibility.",
        &["I find it helps me relax and increase my flexibility."],
    );
}

#[test]
fn an_object_after_and_is_no_subject() {
    check(
        "I used my contacts in the industry and my marketing skills to make connections.",
        &["I used my contacts in the industry and my marketing skills to make connections."],
    );
}

#[test]
fn a_short_lead_with_no_verb_before_but_is_left_out() {
    check(
        "no allergies but I hate coriander.",
        &["no allergies", "I hate coriander."],
    );
    check(
        "Nothing too soon, but my colleague invited me to a wedding.",
        &["Nothing too soon", "my colleague invited me to a wedding."],
    );
    check(
        "up to 30k long runs but my calf is tight",
        &["up to 30k long runs", "my calf is tight"],
    );
    check(
        "up to 30k long runs but my left calf is tight",
        &["up to 30k long runs", "my left calf is tight"],
    );
    check(
        "I'm just back from two weeks in Vietnam, Hoi An was the highlight",
        &[
            "I'm just back from two weeks in Vietnam",
            "Hoi An was the highlight",
        ],
    );
    // a verb before "but": one clause joined to the next as before
    check("I tried but I failed.", &["I tried", "I failed."]);
}

#[test]
fn a_consequence_after_so_is_its_own_clause() {
    check(
        "Kian has a peanut allergy so food matters a lot.",
        &["Kian has a peanut allergy", "food matters a lot."],
    );
    check(
        "I lost my job so money is tight.",
        &["I lost my job", "money is tight."],
    );
    check(
        "I'm starting a community project, so maybe we can work together on it.",
        &[
            "I'm starting a community project",
            "maybe we can work together on it.",
        ],
    );
    check(
        "I'll think about it and maybe get a cat soon.",
        &["I'll think about it and maybe get a cat soon."],
    );
    // an intensifier, not a consequence
    check(
        "I was so happy to see her.",
        &["I was so happy to see her."],
    );
}
