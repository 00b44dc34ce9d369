//! Casual speech that misled the extractor, a second table beside the one
//! in `tests.rs`: each line is what was said (`Speaker: text` lines, `|`
//! between turns), then the memories expected, `|` between them (nothing:
//! no memory).

use super::tests::chat;

pub(super) fn check(cases: &[(&str, &str)]) {
    for (said, want) in cases {
        let lines: Vec<&str> = said.split('|').collect();
        let got = chat(&lines);
        let want: Vec<&str> = want.split('|').filter(|w| !w.is_empty()).collect();
        assert_eq!(got, want, "{said}");
    }
}

#[test]
fn left_out_subjects_that_are_not_the_speaker() {
    check(&[
        // a state the speaker is in, "I'm" left out
        (
            "Ana: on crutches for 2 weeks",
            "Ana is on crutches for 2 weeks.",
        ),
        ("Ana: on the other hand it rained", ""),
        // an event moved, said bare
        (
            "Ana: Launch moved to June 10, the payments team needs more time.",
            "The launch moved to 10 June 2023.",
        ),
        // "it" left out before "took": what took the effort is unsaid
        (
            "Ana: Took a lot of patience but I finished the quilt.",
            "Ana finished the quilt.",
        ),
        ("Ana: Took ages, honestly.", ""),
        // an injury named: whose paw is said elsewhere, not the speaker's
        ("Omar: Sprained paw, unfortunately.", ""),
        (
            "Omar: Just got back from a road trip.",
            "Omar just got back from a road trip.",
        ),
        // an elided "I" before "took" with a real object stays
        (
            "Ana: Took my nephew to the aquarium on Saturday.",
            "Ana took their nephew to the aquarium on 6 May 2023.",
        ),
        // gerunds before an -s verb, with the speaker as its object, are
        // the subject (whether or not the lexicon knows the verb)
        (
            "Tom: Hiking in the mountains and camping under the stars relaxes me.",
            "Hiking in the mountains and camping under the stars relaxes Tom.",
        ),
        // a gerund pointing at what is shown
        (
            "Tom: This was my trip to the coast. Seeing those cliffs, the sea air - it makes you feel alive.",
            "",
        ),
    ]);
}

#[test]
fn lists_of_verbs_and_what_the_listener_is_shown() {
    check(&[
        // each verb of a list shares the subject; a bare pastime is no fact
        (
            "Ana: I usually cook dinner, hike, and play cards on Sundays.",
            "Ana usually cooks dinner.|Ana plays cards on Sundays.",
        ),
        (
            "Maria: We usually watch movies, hike, and have game nights at my place.",
            "Maria has game nights at their place.",
        ),
        // nouns and infinitives in a list are not verbs to split
        (
            "Ana: I bought apples, pears, and plums.",
            "Ana bought apples, pears, and plums.",
        ),
        ("Ana: I love to paint, bake, and swim.", "Ana loves to paint, bake, and swim."),
        // "look at ..." after a verb of another form is said to the listener
        (
            "Jon: I've put so much work into the shop, and look at my customers - they love it.",
            "Jon has put so much work into the shop.",
        ),
        // liking a definite thing while remarking on a picture: the thing
        // is in the picture
        (
            "Ben: Here's our garden this spring.|Ana: That photo is lovely! I love all the purple flowers.",
            "",
        ),
        (
            "Ana: I love the purple flowers in my garden.",
            "Ana loves the purple flowers in their garden.",
        ),
        ("Ben: I love the Beatles.", "Ben loves the Beatles."),
        // a pointer at a thing named only by a hollow noun
        ("Tim: I love escaping to this world.", ""),
        ("Ana: I had a dog in Ohio with that name.", ""),
        (
            "Ana: I loved this spot of the park by the lake.",
            "Ana loved a spot of the park by the lake.",
        ),
        ("Ben: I painted this bowl in class.", "Ben painted a bowl in class."),
        (
            "Ben: I finished that book about whales.",
            "Ben finished a book about whales.",
        ),

    ]);
}

#[test]
fn sequence_words_and_stories() {
    check(&[
        // "then" orders the fact after something unsaid: it goes
        (
            "Ana: I had a cat as a kid, but then I got allergic to fur.",
            "Ana had a cat as a kid.|Ana got allergic to fur.",
        ),
        // "I mean" is said in passing
        (
            "Ana: I mean, I love hiking in the Alps.",
            "Ana loves hiking in the Alps.",
        ),
        (
            "Ana: From a distance I mean, since I'm allergic to cats.",
            "",
        ),
        // nouns joined by "and" after a determiner or preposition
        (
            "Ana: I've had loads of love and support throughout my recovery.",
            "Ana has had loads of love and support throughout their recovery.",
        ),
        (
            "Ana: I quit tennis because of my wrist and took up golf.",
            "Ana quit tennis because of their wrist.|Ana took up golf.",
        ),
        (
            "Ana: I adopted a dog and walk him every morning.",
            "Ana adopted a dog.|Ana walks Ana's dog every morning.",
        ),
        // a chat tag at the end is no part of the fact
        (
            "Gina: I made a video on styling scarves, btw.",
            "Gina made a video on styling scarves.",
        ),
        // what a character does in a story is not a fact about anyone here
        (
            "Ana: My favorite character is Frodo, he changes so much over the course of the story.",
            "Ana's favorite character is Frodo.",
        ),
        ("Ben: Sam is brave throughout the book.", ""),
        (
            "Ben: I cried throughout the movie.",
            "Ben cried throughout the movie.",
        ),
        // a match the speaker played is no story
        (
            "Ben: I scored twice in the game against Leeds.",
            "Ben scored twice in the game against Leeds.",
        ),
    ]);
}

#[test]
fn titles_are_no_one_a_pronoun_means() {
    check(&[
        // "the '19 Playoffs" is an event: "he" is the player named before
        (
            "Ben: I just love watching Rivera. There was this Playoffs game with a great save.|Sam: Remember that save in Game 3 of the '19 Playoffs? He chased down Ortiz and pinned the ball against the glass.",
            "Ben just loves watching Rivera.|Rivera chased down Ortiz and pinned the ball against the glass.",
        ),
        // nobody named before: nothing to resolve "he" to
        (
            "Sam: Remember that save in Game 3 of the '19 Playoffs? He blocked the shot.",
            "",
        ),
    ]);
}

#[test]
fn things_said_of_nothing_in_particular() {
    check(&[
        // an imperative tag at the end goes; the fact stays
        (
            "Mel: I've done an abstract painting too, take a look.",
            "Mel has done an abstract painting too.",
        ),
        // "one" and "the other" of what was said before
        (
            "Nate: They have different personalities. One is more adventurous while the other is more reserved, which I find cute.",
            "",
        ),
        // a fact that ends where what it is about would be said
        ("John: I've been stumped about something.", ""),
        ("Tim: I'm figuring out ideas.", ""),
        ("John: Crazy things have been going on in my life.", ""),
        (
            "John: I've been thinking about things to paint for the fair.",
            "John has been thinking about things to paint for the fair.",
        ),
        // past verbs in a list share the subject (a pastime alone, with
        // nothing said of it, is no news)
        (
            "John: We hiked, swam, and had a picnic by the lake.",
            "John had a picnic by the lake.",
        ),
        (
            "John: We hiked the ridge, swam in the lake, and had a picnic.",
            "John hiked the ridge.|John swam in the lake.|John had a picnic.",
        ),
        // after a question word "this" is a pronoun, never "a"
        ("John: I know firsthand how this impacts neighborhoods.", ""),
        (
            "Maria: I wanted to bring that same magic to my home.",
            "Maria wanted to bring the same magic to their home.",
        ),
        // "this" before an -ing adjective and a noun is a determiner
        (
            "Lin: I've been reading this fascinating novel about sailors.",
            "Lin has been reading a fascinating novel about sailors.",
        ),
        // where a picture was taken is where the speaker was
        (
            "Lin: I snapped this pic at a little harbour called Port Isaac.",
            "Lin was at a little harbour named Port Isaac.",
        ),
        ("Lin: I took this photo at sunset.", ""),
        // "the" and a noun open a clause of their own
        (
            "Lin: I finished my thesis, and the relief has been huge.",
            "Lin finished their thesis.",
        ),
        // "their" after a kind of people in the same clause is theirs
        (
            "Lin: I run workshops, teaching students to trust their instincts.",
            "Lin runs workshops, teaching students to trust their instincts.",
        ),
        // no verb but an infinitive, or gerunds alone: fragments
        (
            "Lin: Yes, I sing in a choir! A release for me and a way to unwind.",
            "Lin sings in a choir.",
        ),
        ("Lin: Chasing our goals and cheering each other on.", ""),
        // a long gerund phrase that is something to someone named
        (
            "Lin: Cuddling up with a good novel is my favourite way to relax.",
            "Cuddling up with a good novel is Lin's favourite way to relax.",
        ),
        // an auxiliary after "to" is still the clause's verb
        (
            "Lin: A mural that I contributed to was unveiled in Leeds.",
            "A mural that Lin contributed to was unveiled in Leeds.",
        ),
        // gerunds and an -s verb the lexicon lacks, acting on the speaker
        (
            "Lin: Drawing old bridges and reading about engineers enthrals me.",
            "Drawing old bridges and reading about engineers enthrals Lin.",
        ),
        // an object "it" whose thing the fact itself names stands
        (
            "Lin: I framed my grandfather's map and hung it in the hall.",
            "Lin framed their grandfather's map and hung it in the hall.",
        ),
        (
            "Lin: I restored an old piano and sold it.",
            "Lin restored an old piano and sold it.",
        ),
        ("Lin: I bought a ukulele and I love it.", "Lin bought a ukulele."),
        // a lead with no verb before "but" is left behind
        (
            "Lin: Nothing too big, but my aunt invited me to a choir concert.",
            "Lin's aunt invited Lin to a choir concert.",
        ),
        // "I'd" before a past participle is "had", never "would felt"
        (
            "Lin: I'd never felt so welcome in a new city before.",
            "Lin had never felt so welcome in a new city before.",
        ),
        ("Lin: I'd read it again.", ""),
        // the left-out "I" before a verb the lexicon learned
        (
            "Lin: Just skyped with my cousin in Perth.",
            "Lin just skyped with their cousin in Perth.",
        ),
    ]);
}

#[test]
fn pairs_titles_and_spelled_out_copulas() {
    check(&[
        // a list's tail after an appositive is a clause of its own; the
        // "it" after it points back and goes
        (
            "Ravi: I scored 30 points in the final, my best ever, and it feels like the training paid off.",
            "Ravi scored 30 points in the final, their best ever.",
        ),
        // two gerunds, two adjectives, two plural nouns: one thing
        (
            "Lena: I'm cooking and cleaning all day for the party.",
            "Lena is cooking and cleaning all day for the party.",
        ),
        (
            "Lena: I'm a mix of excited and scared about the new job.",
            "Lena is a mix of excited and scared about the new job.",
        ),
        (
            "Omar: I found an old book with poems and sketches in the attic.",
            "Omar found an old book with poems and sketches in the attic.",
        ),
        // a bare verb after "and" goes on with the infinitive (also after
        // a verb and its particle)
        (
            "Omar: My cats remind me to slow down and enjoy quiet mornings.",
            "Omar's cats remind Omar to slow down and enjoy quiet mornings.",
        ),
        (
            "Omar: I'm keen to join the club and contribute to the newsletter.",
            "Omar is keen to join the club and contribute to the newsletter.",
        ),
        // what takes two needs the other one named
        ("Ines: We had so much in common and hit it off right away.", ""),
        (
            "Ines: I met Carla at the gym. We had a lot in common.",
            "Ines met Carla at the gym.|Ines and Carla had a lot in common.",
        ),
        (
            "Ines: I stumbled upon this really cute cafe near the river.",
            "Ines stumbled upon a really cute cafe near the river.",
        ),
        (
            "Ana: I gotta say, I really love the new library downtown.",
            "Ana really loves the new library downtown.",
        ),
        // "'s" as "is" and "has"
        (
            "Ana: Family's super important to me.",
            "Family is super important to Ana.",
        ),
        (
            "Ana: Gardening's always been my escape.",
            "Gardening has always been Ana's escape.",
        ),
        // a title, and the "it" that opens the next sentence
        (
            "Ana: \"Pride and Prejudice\" is special to me. It was the first novel I read in English.",
            "\"Pride and Prejudice\" is special to Ana.|\"Pride and Prejudice\" was the first novel Ana read in English.",
        ),
        (
            "Ana: Yeah, I watched \"Spirited Away\" last night. It's a film about a girl who works in a bathhouse.",
            "Ana watched \"Spirited Away\" on 7 May 2023.|\"Spirited Away\" is a film about a girl who works in a bathhouse.",
        ),
        // what a sign says is no title
        ("Ana: The poster says \"Follow Your Dreams\". It hangs in my office.", ""),
        // "her" is the woman's, said in the clause itself
        (
            "Ana: I met a woman and her dog at the park.",
            "Ana met a woman and her dog at the park.",
        ),
    ]);
}

#[test]
fn an_answer_says_it_of_what_was_asked() {
    check(&[
        // what the speaker did, asked about
        (
            "Ana: I finally finished my first novel!|Ben: Congrats! What's it about?|Ana: It's a mystery set in a lighthouse.",
            "Ana finally finished their first novel.|Ana's first novel is a mystery set in a lighthouse.",
        ),
        // what the question names
        (
            "Ben: That vase is lovely! Did you make it?|Ana: Yeah, I made it at the pottery studio.",
            "Ana made the vase at the pottery studio.",
        ),
        // what a picture showed, as what was made only
        (
            "Ana: Want to try some of this? [image: a photo of a bowl of lemon sorbet]|Ben: Yum! Is it vegan?|Ana: Yep, I made it with coconut water. It's totally vegan.",
            "Ana made a bowl of lemon sorbet with coconut water.",
        ),
        // the one thing the clause before did something with
        (
            "Ana: I got a new job - it's at a startup in Porto.",
            "Ana got a new job.|Ana's new job is at a startup in Porto.",
        ),
        ("Ana: I lost my phone - it was awful.", "Ana lost their phone."),
        // no "it" in the question: the answer's "it" stays unsaid
        (
            "Ana: I finally finished my first novel!|Ben: Congrats! What next?|Ana: It's a long story.",
            "Ana finally finished their first novel.",
        ),
    ]);
}

#[test]
fn whose_the_kids_are_and_who_a_question_means() {
    check(&[
        // the owner's own "the kids" are theirs
        (
            "Mel: My kids love the zoo. Yesterday I took the kids to the aquarium.",
            "Mel's kids love the zoo.|Mel took their kids to the aquarium on 7 May 2023.",
        ),
        // a question with "they" keeps who it means in reach
        (
            "Mel: I took my kids to the museum.|Caro: What did they like most?|Mel: They were stoked for the dinosaur exhibit.",
            "Mel took their kids to the museum.|Mel's kids were stoked for the dinosaur exhibit.",
        ),
        // "this pup" is the speaker's, and "her" later is the pup
        (
            "Ana: I just adopted this cute pup from a shelter.|Ben: How cute! What's her name?|Ana: Her name is Pepper.",
            "Ana just adopted a cute pup from a shelter.|Ana's pup is named Pepper.",
        ),
    ]);
}

#[test]
fn plural_nouns_and_fond_pointers_are_no_one() {
    check(&[
        // a plural noun opening a sentence is no one "he" means
        (
            "Ana: My dog Rex is silly. Treats are his fave! He hid a bone in my shoe once.",
            "Rex hid a bone in Ana's shoe once.",
        ),
        (
            "Ben: Pets have a way of cheering us up. I named her Daisy.",
            "",
        ),
        // "the needs and hopes of": two nouns, not "hopes" done
        (
            "Ben: I've been getting to know the needs and hopes of our street.",
            "Ben has been getting to know the needs and hopes of their street.",
        ),
        // "those little guys" name what was shown; "little guys" names nothing
        ("Ben: I'm already really invested in those little guys!", ""),
        // ... and with a picture of animals, they are the speaker's animals
        (
            "Ana: These little ones keep me calm. [image: a photo of two rabbits in a hutch]|Ben: Aww! How long have you had them?|Ana: I've had them for two years.",
            "Ana has had Ana's rabbits for two years.",
        ),
        // what someone loves is a thing an "It" after it can mean
        (
            "Ana: I love this podcast. It has interviews with marine biologists.",
            "The podcast that Ana loves has interviews with marine biologists.",
        ),
    ]);
}

#[test]
fn short_answers_fill_the_question() {
    check(&[
        (
            "Ben: Nice to meet you! Where are you from?|Ana: Porto, originally. I moved to Leeds for work.",
            "Ana is from Porto, originally.|Ana moved to Leeds for work.",
        ),
        (
            "assistant: Got it. How long have you been vegetarian?|user: About ten years now.",
            "User has been vegetarian for about ten years.",
        ),
        // a yes says the question
        (
            "Ben: Have you seen all the Paddington films?|Ana: Yeah, I have! They're so sweet.",
            "Ana has seen all the Paddington films.",
        ),
        (
            "Ben: Are you going to invite your old teammates?|Ana: Definitely! And a few neighbours.",
            "Ana is going to invite their old teammates.",
        ),
        // a thing in the place the question left for it
        (
            "Ben: Congrats! Which team did you sign with?|Ana: The Harbor Hawks! Can't wait to play with them.",
            "Ana signed with the Harbor Hawks.",
        ),
        (
            "Ben: He's adorable! What's your dog's name?|Ana: Biscuit! He's a total goofball.",
            "Ana's dog is named Biscuit.|Biscuit is a total goofball.",
        ),
        (
            "Ben: So what are you reading these days?|Ana: A thriller by Tana French.",
            "Ana is reading a thriller by Tana French.",
        ),
        (
            "Ben: Do you have any favorite fantasy movies as well?|Ana: Definitely Star Wars! It never gets old.",
            "Ana's favorite fantasy movies include Star Wars.",
        ),
        (
            "Ben: Do you have a favorite board game?|Ana: Catan!",
            "Ana's favorite board game is Catan.",
        ),
        // (an opinion is no thing in a place; its "it" is the film)
        (
            "Ben: What did you think of the film?|Ana: Loved it!",
            "Ana loved the film.",
        ),
        // a thing the question names is what the answer's object "it" is
        (
            "Ben: How long have you had your bike?|Ana: I've had it for two years.",
            "Ana has had Ana's bike for two years.",
        ),
        // ... but never an opening "It", which may be about anything
        ("Ben: How was your week?|Ana: It was a blast.", ""),
        // what one shows as one's own, one has; and it is what "It" means
        (
            "Ana: Here's my herb garden. It's got basil, mint and thyme.",
            "Ana has a herb garden.|Ana's herb garden has got basil, mint and thyme.",
        ),
        (
            "Ben: Here's one of my medals from the city marathon, a nice reminder.",
            "Ben has medals from the city marathon.",
        ),
        ("Ben: Here's my take.", ""),
        // "your dreams" in a story's theme are anyone's; "your studio" is
        // the listener's
        (
            "Ana: I just read \"Piranesi\". It's a story about following your heart.",
            "Ana just read \"Piranesi\".|\"Piranesi\" is a story about following one's heart.",
        ),
    ]);
}

#[test]
fn a_clause_about_them_leaves_the_fact_before_it() {
    check(&[
        (
            "John: The Nike and Gatorade deals have me stoked! I've always liked Under Armour, working with them would be really cool.",
            "John has always liked Under Armour.",
        ),
        (
            "Gina: Thanks! I'm passionate about dance and fashion so combining them lets me show my creativity.",
            "Gina is passionate about dance and fashion.",
        ),
        // "but" and a gerund subject: two facts; "feel free" is advice
        // only as "feel free to ..."
        (
            "Tim: I don't surf, but reading a great fantasy book helps me escape and feel free.",
            "Tim doesn't surf.|Reading a great fantasy book helps Tim escape and feel free.",
        ),
        ("Tim: Feel free to call me whenever you like.", ""),
        // a clause about "a few" and their unresolved "it" goes alone
        (
            "Caroline: Some close friends kept supporting me, but a few weren't able to handle it.",
            "Some close friends kept supporting Caroline.",
        ),
    ]);
}

#[test]
fn chat_typed_without_capitals_or_apostrophes() {
    check(&[(
        "Jay: im moving to berlin next month for a new job at zalando!! so hyped",
        "Jay is moving to berlin in June 2023 for a new job at zalando.",
    )]);
}

#[test]
fn a_maxim_said_to_the_listener_is_advice() {
    check(&[
        (
            "Gina: Yeah Jon, marketing is key for getting your dance studio noticed.|Jon: ok",
            "",
        ),
        (
            "Gina: Being organized is key to getting stuff done.|Jon: ok",
            "",
        ),
    ]);
}

#[test]
fn tastes_and_what_is_done_with_people_of_ones_own() {
    check(&[
        // "they" after things loved: those things
        (
            "Tim: I love non-fiction books about personal development. They help me know myself better.",
            "Tim loves non-fiction books about personal development.|Non-fiction books about personal development help Tim know themself better.",
        ),
        // the idiom of taste, said as one
        (
            "Tim: Epic adventures and magical worlds are my thing.",
            "Tim loves epic adventures and magical worlds.",
        ),
        // a full answer is no fragment to fill the question with
        (
            "Joanna: What type of movies do you like best?|Nate: I love action and sci-fi movies, the effects are so cool!",
            "Nate loves action and sci-fi movies.",
        ),
        // "their" right after people is theirs; "made it home" is arriving
        (
            "Ana: I spent Saturday helping my neighbours move their furniture.",
            "Ana spent Saturday helping their neighbours move their furniture.",
        ),
        (
            "Ana: We missed the last train but made it home by midnight.",
            "Ana missed the last train but made it home by midnight.",
        ),
    ]);
}
