//! The extractor end to end: chats and documents in, the facts a person
//! expects out.

use super::*;
use chrono::NaiveDate;

fn day() -> Option<NaiveDate> {
    NaiveDate::from_ymd_opt(2023, 5, 8)
}

fn turn<'a>(speaker: &'a str, listener: &'a str, text: &'a str) -> Turn<'a> {
    Turn {
        role: Role::User,
        speaker: Some(speaker),
        listener: Some(listener),
        text,
        date: day(),
        generic: false,
    }
}

/// The memories of a two-person chat (`Speaker: text` lines).
pub(super) fn chat(lines: &[&str]) -> Vec<String> {
    let parts: Vec<(&str, &str)> = lines
        .iter()
        .map(|l| l.split_once(": ").expect("speaker: text"))
        .collect();
    let mut people: Vec<&str> = parts.iter().map(|p| p.0).collect();
    people.sort_unstable();
    people.dedup();
    let turns: Vec<Turn> = parts
        .iter()
        .map(|(s, t)| {
            let other = people.iter().find(|p| *p != s).copied().unwrap_or("");
            turn(s, other, t)
        })
        .collect();
    extract(&turns).into_iter().map(|c| c.content).collect()
}

/// The memories of what the application's user said (`name` when the
/// space knows it).
fn user(name: Option<&str>, texts: &[&str]) -> Vec<String> {
    let turns: Vec<Turn> = texts
        .iter()
        .map(|t| Turn {
            role: Role::User,
            speaker: Some(name.unwrap_or(crate::UNNAMED_USER)),
            listener: None,
            text: t,
            date: day(),
            generic: true,
        })
        .collect();
    extract(&turns).into_iter().map(|c| c.content).collect()
}

#[test]
fn a_chat_becomes_attributed_dated_facts() {
    let turns = [
        turn("Ana", "Ben", "Hey Ben! How have you been?"),
        turn(
            "Ben",
            "Ana",
            "Good, thanks! Yeah, I ran my first half marathon last weekend.",
        ),
        turn(
            "Ana",
            "Ben",
            "Wow, congrats! I'm a nurse at Mercy Hospital, so I know how hard that is.",
        ),
        turn(
            "Ben",
            "Ana",
            "Haha. My sister lives in Denver and she convinced me.",
        ),
        Turn {
            role: Role::Assistant,
            speaker: Some("Bot"),
            listener: Some("Ana"),
            text: "I recommend stretching after long runs every day.",
            date: None,
            generic: false,
        },
    ];
    let got = extract(&turns);
    let facts: Vec<(&str, Option<&str>, bool)> = got
        .iter()
        .map(|c| (c.content.as_str(), c.subject.as_deref(), c.is_static))
        .collect();
    assert_eq!(
        facts,
        [
            (
                "Ben ran their first half marathon on the weekend of 6 May 2023.",
                Some("Ben"),
                false
            ),
            ("Ana is a nurse at Mercy Hospital.", Some("Ana"), true),
            ("Ben's sister lives in Denver.", Some("Ben"), true),
            ("Ben's sister convinced Ben.", Some("Ben"), false),
        ]
    );
    assert_eq!(got[0].event_dates, ["2023-05-06"]);
    assert_eq!(got[0].document_date, day());
    assert!(got[0]
        .context
        .contains("Ben: thanks! I ran my first half marathon"));
    assert!(got[0].context.contains("Ana: Hey Ben!"), "the turn before");
    let denver = &got[2].entities;
    assert!(denver
        .iter()
        .any(|e| e.name == "Denver" && e.kind == EntityKind::Place));
    assert!(got[1]
        .entities
        .iter()
        .any(|e| e.name == "Mercy Hospital" && e.kind == EntityKind::Organisation));
}

#[test]
fn one_memory_per_fact_with_the_speaker_named() {
    assert_eq!(
        user(
            None,
            &["Hi! I'm Maya, I live in Lisbon and I work as a marine biologist."]
        ),
        [
            "The user lives in Lisbon.",
            "The user works as a marine biologist."
        ],
        "without a known name the user stays the user"
    );
    assert_eq!(
        user(
            Some("Tom"),
            &["I'm Tom, I'm 34, I live in Leeds and I teach chemistry."]
        ),
        [
            "Tom is the user's name.",
            "Tom is 34 years old.",
            "Tom lives in Leeds.",
            "Tom teaches chemistry."
        ]
    );
    assert_eq!(
        user(Some("Ravi"), &["I live in Pune and work at Infosys."]),
        ["Ravi lives in Pune.", "Ravi works at Infosys."]
    );
}

#[test]
fn chatter_is_not_remembered() {
    let got = chat(&[
        "Piet: I'm still hunting for a flat where cats are allowed.",
        "Lotte: Hang in there, you'll find somewhere lovely for your cat soon!",
        "Lotte: Don't forget to look after yourself and have some fun too.",
        "Lotte: I remember you mentioning it last time.",
        "Lotte: Here's a photo of my rabbits in the garden.",
        "Lotte: So happy for you! That sounds amazing.",
        "Piet: Thanks! My neighbours adore them.",
        "Lotte: Check out my new bike.",
        "Lotte: That pic's from when my choir won the county festival last year.",
        "Lotte: You should totally try a cat-sitting app.",
        "Lotte: Whoa, your shop looks great! All your hard work really paid off - congrats!",
        "Piet: Thanks! Winning shows my hard work paid off.",
    ]);
    assert_eq!(
        got,
        [
            "Piet is still hunting for a flat where cats are allowed.",
            "Lotte's choir won the county festival in 2022."
        ]
    );
}

#[test]
fn praise_without_a_verb_is_not_remembered() {
    let got = chat(&[
        "Mara: I finally told my family I'm gay.",
        "Joel: Respect for being so open about what you've been through.",
        "Joel: Kudos for sticking with it all these years.",
        "Joel: My sister moved to Leeds for work in 2019.",
    ]);
    assert_eq!(
        got,
        [
            "Mara finally told their family Mara is gay.",
            "Joel's sister moved to Leeds for work in 2019.",
        ]
    );
}

#[test]
fn announced_news_is_the_fact_and_offers_are_not() {
    let got = chat(&[
        "Rui: Hey Ines! Wanted to let you know that I'm starting a pottery course.",
        "Rui: Haven't talked in a while, I adopted a greyhound named Bolt!",
        "Rui: I'm so excited to tell you I started a weekend yoga class.",
        "Ines: Haven't seen you since we last talked. I haven't talked to Rui in a while.",
        "Rui: You'll rock the dance floor!",
        "Ines: Wanted to tell you that I joined a writers group. I missed you!",
        "Ines: Since we last spoke I went to a jazz festival in Porto.",
        "Ines: If you need any help, let me know! I hope your knee heals soon.",
        "Rui: Sending you the recipe now! Love this map.",
        "Ines: Things have been hectic. I had a wild week.",
    ]);
    assert_eq!(
        got,
        [
            "Rui is starting a pottery course.",
            "Rui adopted a greyhound named Bolt.",
            "Rui started a weekend yoga class.",
            "Ines joined a writers group.",
            "Ines went to a jazz festival in Porto."
        ]
    );
}

#[test]
fn elided_subjects_and_commands() {
    let got = chat(&[
        "Bram: Lost my job as a plumber yesterday, so I'm gonna start my own business.",
        "Elif: Finishing my thesis this month. Love cycling with my dog.",
        "Elif: Just got some new boots! Having my family around helps a lot.",
        "Elif: Check my new studio. Sounds fun.",
        "Bram: Playing chess and baking bread are my main hobbies.",
        "Bram: I wanna open a bakery. I need a bigger oven.",
        // gerund subjects, not "Elif is teaching ... need hard work"; both
        // are then about no one in particular
        "Elif: Teaching and running my studio need hard work.",
        "Elif: Starting a studio isn't cheap.",
    ]);
    assert_eq!(
        got,
        [
            "Bram lost their job as a plumber on 7 May 2023.",
            "Bram is gonna start their own business.",
            "Elif is finishing their thesis in May 2023.",
            "Elif loves cycling with their dog.",
            "Elif just got some new boots.",
            "Playing chess and baking bread are Bram's main hobbies.",
            "Bram wants to open a bakery.",
            "Bram needs a bigger oven."
        ]
    );
}

#[test]
fn documents_without_speakers_keep_named_facts() {
    let turns = [Turn {
        role: Role::User,
        speaker: None,
        listener: None,
        text: "Ada prefers green tea and lives in Lisbon. It is nice. The meeting moved to 3 pm.",
        date: None,
        generic: false,
    }];
    let got: Vec<String> = extract(&turns).into_iter().map(|c| c.content).collect();
    assert_eq!(
        got,
        [
            "Ada prefers green tea.",
            "Ada lives in Lisbon.",
            "The meeting moved to 3 pm."
        ]
    );
}

#[test]
fn openers_are_dropped_and_duplicates_merged() {
    assert_eq!(strip_openers("Oh, yeah, I did that"), "I did that");
    assert_eq!(
        strip_openers("Small change: we're skipping Porto."),
        "we're skipping Porto."
    );
    assert_eq!(strip_openers("Big news: I got the job!"), "I got the job!");
    assert_eq!(
        strip_openers("Breakfast: oats and berries."),
        "Breakfast: oats and berries."
    );
    assert_eq!(strip_openers("Guess what: we're moving!"), "we're moving!");
    assert_eq!(strip_openers("Well"), "Well");
    assert_eq!(
        strip_openers("remind me, my mum's birthday is on the 12th"),
        "my mum's birthday is on the 12th"
    );
    assert_eq!(
        strip_openers("quick context for you: I'm a PM at Deliveroo"),
        "I'm a PM at Deliveroo"
    );
    // answers and news, before a comma or a colon only
    assert_eq!(
        strip_openers("Not really, I hate cycling in the rain."),
        "I hate cycling in the rain."
    );
    assert_eq!(
        strip_openers("Update: I moved to Bath."),
        "I moved to Bath."
    );
    assert_eq!(
        strip_openers("Not really sure about it."),
        "Not really sure about it."
    );
    assert_eq!(strip_openers("No, I live in Oslo."), "I live in Oslo.");
    // an order of telling, not a time
    assert_eq!(
        strip_openers("Next I'm starting on the pricing project."),
        "I'm starting on the pricing project."
    );
    assert_eq!(
        strip_openers("Next week I'm starting on it."),
        "Next week I'm starting on it."
    );
    assert_eq!(strip_openers("No more roommates!"), "No more roommates!");
    let turns = [
        turn("Ana", "Ben", "I adopted a puppy named Max."),
        turn("Ana", "Ben", "Oh, I adopted a puppy named Max!"),
    ];
    assert_eq!(extract(&turns).len(), 1);
}

#[test]
fn contractions_of_i_are_never_antecedents() {
    // "her" has no antecedent here: "I've" and "I'll" are the speaker,
    // not a person named I've ("reading I've's stuff")
    let got = chat(&[
        "Tim: I've been reading her stuff for a long time.",
        "Melanie: I'll never forget the day my youngest took her first steps.",
    ]);
    assert!(
        got.iter()
            .all(|m| !m.contains("I've") && !m.contains("will first")),
        "{got:?}"
    );
}

/// Each line: what was said (`Speaker: text` lines, `|` between turns),
/// then the memories expected, `|` between them (nothing: no memory).
#[test]
fn wording_that_misled_the_extractor() {
    let cases = [
        // a fronted adverb moves into the sentence in lower case
        (
            "Caroline: Now, I'm passionate about painting.",
            "Caroline is now passionate about painting.",
        ),
        // "so much" intensifies; it is no opener to drop
        ("Nate: So much adrenaline went into the match.", ""),
        // a participle coordinated with an adjective is an adjective
        (
            "Joanna: I'm feeling hopeful and inspired about the future!",
            "Joanna is feeling hopeful and inspired about the future.",
        ),
        // a gerund and a noun before "are" are the subject
        (
            "Joanna: Writing and creative projects are what get me through tough times.",
            "Writing and creative projects are what get Joanna through tough times.",
        ),
        // a comparison is not the speaker liking someone
        (
            "Nate: Well done!|Joanna: Just like you with your recent tournament.",
            "",
        ),
        // "we" as a group with no one named is not the speaker alone
        ("John: We were teammates for four years in high school.", ""),
        (
            "Tom: We are friends with the neighbors.",
            "Tom is friends with the neighbors.",
        ),
        // "in the meantime" opens the sentence and adds nothing
        (
            "Maria: In the meantime, I donated my old car to a homeless shelter.",
            "Maria donated their old car to a homeless shelter.",
        ),
        // compliments and encouragement for the listener are no facts,
        // what the speaker's own things do is
        (
            "Nate: Here is my new flavor.|Joanna: I love your creations! I believe in you.",
            "",
        ),
        (
            "Nate: Meet my cat.|Joanna: My dog loves your cat.",
            "Joanna's dog loves Nate's cat.",
        ),
        // a capitalised verb opening a sentence is no companion for "we";
        // with no one named, "together" goes and what is left must say
        // something
        (
            "John: Thanks, Maria.|Maria: Let me know if you need help. We work well together!",
            "",
        ),
        (
            "Melanie: We went camping together in the forest.",
            "Melanie went camping in the forest.",
        ),
        // quantities and comparisons whose noun was said elsewhere, and
        // how something went with the something unsaid
        (
            "Joanna: I sent my script to a studio. I actually just submitted a few more.",
            "Joanna sent their script to a studio.",
        ),
        ("Nate: I didn't do too great, even though I tried.", ""),
        ("Joanna: I have similar interests.", ""),
        (
            "Joanna: I did well in the exam.",
            "Joanna did well in the exam.",
        ),
        (
            "Melanie: I bought two more plants for the garden.",
            "Melanie bought two more plants for the garden.",
        ),
        // a capitalised common word opening a sentence is no person a
        // later "he" could mean; who one says goodbye to is someone, not
        // somewhere, and is who "he" means
        (
            "John: Life's been wild lately. We had to say goodbye to Max. He was a part of our family for 10 years.",
            "John had to say goodbye to Max.|Max was a part of John's family for 10 years.",
        ),
        // "we both" with no one named is not the speaker alone
        ("Maria: Blessed we both have this mindset in our lives.", ""),
        // a gerund after a dash goes on about the subject before it
        (
            "Maria: The little one is doing great - learning commands and house training.",
            "",
        ),
        // a word after "to" is an infinitive's verb, so "and be" shares it
        ("Tim: Cooking is a great way to chill and be creative.", ""),
        // "that" before a preposition is a pronoun, not "a"
        (
            "Tim: We're lucky to have places like that near our homes.",
            "",
        ),
        // an object of a kind, with nothing said of which
        ("Nate: I've had a few offers.", ""),
        ("Maria: I ate yummy food.", ""),
        (
            "Joanna: I heard of a series called Dune.",
            "Joanna heard of a series named Dune.",
        ),
        ("Nate: I love movies.", "Nate loves movies."),
        // "it" left out after a comma starts a clause of its own
        (
            "Tim: I'm adding NYC to my travel list, sounds like a great adventure.",
            "Tim is adding NYC to their travel list.",
        ),
        // "sounds" after a gerund phrase makes it the subject
        (
            "John: I want to try yoga.|Maria: Trying new classes sounds like fun.",
            "John wants to try yoga.",
        ),
        // a name before a comma and a pronoun repeating it
        (
            "Tim: Emma Watson, she's a big supporter of gender equality.",
            "Emma Watson is a big supporter of gender equality.",
        ),
        (
            "Ana: My sister, she lives in Oslo.",
            "Ana's sister lives in Oslo.",
        ),
        // a verb after "and" inside a relative clause stays in it
        (
            "Gina: I chose furniture that looks great and is comfy too.",
            "Gina chose furniture that looks great and is comfy too.",
        ),
        // a prefixed past is past; ", and I" after a comma is a new subject
        (
            "John: I retook the aptitude test with great results, and I feel drawn to serving my country.",
            "John retook the aptitude test with great results.|John feels drawn to serving their country.",
        ),
        // a particle alone is part of the verb
        ("Eva: Sam and I broke up.", "Sam and Eva broke up."),
        // "it" left out of "Been a long road" points elsewhere; "we
        // rock", "we're both ..." and "almost as ... as" are no facts
        ("Caroline: Thanks, Melanie! Been a long road.", ""),
        ("Tom: Been busy with work lately.", "Tom has been busy with work lately."),
        ("John: We rock!", ""),
        ("Gina: Yep! We're both on different paths.", ""),
        ("Melanie: Almost as silly as when I got to feed a horse a carrot.", ""),
        // a pointer used as a pronoun is not turned into "a"
        (
            "Caroline: I want to give kids a home who haven't had that before.",
            "",
        ),
        // a contraction opening a sentence is no one "us" could include
        (
            "Nate: Can't wait to try them. I think baking really brings us together!",
            "",
        ),
        // the speaker called by a nickname is not who "her" means
        (
            "Caroline: That's great, Mel!|Melanie: I'll never forget the day my youngest took her first steps.",
            "",
        ),
        // "it" left out before "for me"; a guess; what is done without
        // saying what
        ("Jon: Been hectic for me lately.", ""),
        ("Nate: I probably also have loads of books I haven't read.", ""),
        ("Tim: I've been playing for about four months now.", ""),
        ("Tim: I have been playing guitar for years.", "Tim has been playing guitar for years."),
        ("John: I learned a lot from watching LeBron.", "John learned a lot from watching LeBron."),
        // an object of a kind, had or not, used or not
        ("Tim: I've been using an app.", ""),
        ("John: I don't have a recipe.", ""),
        // a resolve on nothing, a forecast, a compliment on the
        // listener's doings, and verbs whose object was said before
        ("Gina: Hi!|Jon: Thanks, Gina! I won't quit.", ""),
        ("Jon: I will never give up.", ""),
        ("Jon: I won't quit my job.", "Jon won't quit their job."),
        ("Gina: Hi!|Jon: Your dance studio will be a huge success.", ""),
        ("Gina: Hi!|Jon: Combining your two interests into a store is super cool.", ""),
        ("John: Hi.|Tim: The Nike deal is amazing.", "Tim thinks the Nike deal is amazing."),
        ("Nate: I joined in.", ""),
        ("Melanie: I started when I was young.", ""),
        ("Melanie: I started a band in 2019.", "Melanie started a band in 2019."),
        // a reaction to what was told or shown; a resolve on something
        // not given up
        ("Nate: Hi Joanna! \"Finding Home\" sounds really special.", ""),
        ("Jon: I won't quit on my dreams.", ""),
        // a sentence's capital is no name when the same turns write the
        // word in lower case: a general truth, nobody's fact
        (
            "Jon: I've been low on confidence lately.|Gina: Confidence is important in business.",
            "Jon has been low on confidence lately.",
        ),
        // "the" thing had or got, named before: which one is elsewhere
        ("Gina: Got the tattoo a few years ago!", ""),
        ("John: I even have the whole collection!", ""),
        ("Gina: I got a tattoo a few years ago.", "Gina got a tattoo a few years ago."),
        ("Ana: I bought the house of my dreams.", "Ana bought the house of their dreams."),
        // a capitalised opener the same turns write in lower case is no name
        (
            "John: We had a great meal. Meal times are fun. Good food and chats help us stay close.",
            "John had a great meal.",
        ),
        // "one" or "any" where the object would be: which one is elsewhere
        ("Ana: I tried one for myself.", ""),
        ("Ana: I'm working on one with my group.", ""),
        ("Ben: I'll see if I can find any that can help.", ""),
        ("Ana: I bought one of the paintings.", "Ana bought one of the paintings."),
        ("Ana: I have one dog and two cats.", "Ana has one dog and two cats."),
        // going, with where said before; a copy of what
        ("Ben: I go a few times a week.", ""),
        ("Ben: I don't go often, usually once or twice a year.", ""),
        (
            "Ben: I go to the gym a few times a week.",
            "Ben goes to the gym a few times a week.",
        ),
        ("Ben: I got a physical copy.", ""),
        (
            "Ben: I got a signed copy of The Hobbit.",
            "Ben got a signed copy of The Hobbit.",
        ),
        // an activity going on with nothing said of it, verbs the
        // lexicon lacks too
        ("Ben: I have been decompressing.", ""),
        ("Ben: I'm plowing through.", ""),
        // a judgement of a place is the speaker's opinion
        (
            "Ben: Rome is a must-see city.",
            "Ben thinks Rome is a must-see city.",
        ),
        ("Ben: Lisbon is my favourite city.", "Lisbon is Ben's favourite city."),
        // liking how the listener did something is praise
        (
            "Ana: Here is my painting.|Ben: I love all the details and how you got the dog's joy.",
            "",
        ),
        // an adverb between the auxiliary and the verb; an idea of nothing
        ("Ben: I will just need the vegan recipe.", ""),
        ("Ben: I got the idea from a magazine.", ""),
        (
            "Ben: I got the idea for a novel from a dream.",
            "Ben got the idea for a novel from a dream.",
        ),
        // a misspelt adverb is no verb to agree
        ("Ana: I absolutley love board games.", "Ana absolutley loves board games."),
        // a bare "be" after "and" goes on with an infinitive: never "Ben bes"
        (
            "Ben: I asked my friends to visit and be judges.",
            "Ben asked their friends to visit and be judges.",
        ),
    ];
    for (said, want) in cases {
        let lines: Vec<&str> = said.split('|').collect();
        let got = chat(&lines);
        let want: Vec<&str> = want.split('|').filter(|w| !w.is_empty()).collect();
        assert_eq!(got, want, "{said}");
    }
}

#[test]
fn a_name_fact_answers_name_questions_only() {
    assert!(says_a_name("Sam is the user's name."));
    assert!(!says_a_name("Sam is a nurse."));
    assert!(!says_a_name(" is the user's name."));
    assert!(asks_for_a_name("What's my name?"));
    assert!(asks_for_a_name("who am I?"));
    assert!(!asks_for_a_name("what does Sam do for a living?"));
}
