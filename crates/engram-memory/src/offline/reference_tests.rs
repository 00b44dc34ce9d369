//! Who and what casual speech refers to, a third table beside
//! `tests.rs` and `casual_tests.rs` (same format): the speaker as their own
//! object, a picture of what one made, news inside a frame, whose "the
//! kids" are and who "they" still are, things a clause names itself, and
//! the place "there" is.

use super::casual_tests::check;

#[test]
fn the_speaker_is_never_their_own_object() {
    check(&[
        // "Really made me think": what made them think was the thing
        // before, not the speaker ("I made me" is no English)
        (
            "Ana: I ran a 10k for charity last Saturday. Really made me think about my health.",
            "Ana ran a 10k for charity on 6 May 2023.",
        ),
        (
            "Tom: Finished the book yesterday. Got me thinking about my own family.",
            "Tom finished the book on 7 May 2023.",
        ),
        // "it" left out before a judgement of what is to come
        (
            "Ana: I start the internship on Monday! Gonna be a big change.",
            "Ana starts the internship on 15 May 2023.",
        ),
        // a noun joined to another is no verb missing its "I"
        (
            "Mel: Love and acceptance really can be found everywhere.",
            "",
        ),
        // a capitalised imperative is no name
        (
            "Ana: I start the new job on Monday!|Tom: Yeah, Ana! Count on me for support.",
            "Ana starts the new job on 15 May 2023.",
        ),
        // "it" before "when" is what follows, not something said before
        (
            "Ben: Pancakes again!|Ana: I love it when you make pancakes on Sundays!",
            "Ana loves it when Ben makes pancakes on Sundays.",
        ),
    ]);
}

#[test]
fn a_picture_of_what_the_speaker_made() {
    check(&[
        // a picture of one's own thing, with what one did to it
        (
            "Ana: Here's a photo of my horse painting I did recently.",
            "Ana did a horse painting recently.",
        ),
        (
            "Ana: Check out this pic of the birdhouse we built last weekend!",
            "Ana built a birdhouse on the weekend of 6 May 2023.",
        ),
        // a picture of one's thing, no doing: nothing to say yet
        ("Ana: Here's a pic of my garden.", ""),
    ]);
}

#[test]
fn what_the_speaker_wanted_to_tell() {
    check(&[
        // the frame around news is talk; the news is the fact
        (
            "Tom: Hey Ana! Haven't talked to you in a bit but wanted to let you know I read this great book about lighthouses in Norway.",
            "Tom read a great book about lighthouses in Norway.",
        ),
        (
            "Tom: Just wanted to tell you that I passed my driving test!",
            "Tom passed their driving test.",
        ),
        // "X's" before a participle is "X has"
        (
            "Ana: Running's helped me sleep better this year.",
            "Running has helped Ana sleep better in 2023.",
        ),
    ]);
}

#[test]
fn they_asked_about_are_the_speakers_own() {
    check(&[(
        "Mel: Yesterday I took the kids to the aquarium - it was so cool!|Car: That must have been fun. What were they so excited about?|Mel: They were excited about the sharks!",
        "Mel took their kids to the aquarium on 7 May 2023.|Mel's kids were excited about the sharks.",
    )]);
}

#[test]
fn people_of_no_ones_spoken_of_since_are_who_they_are() {
    check(&[(
        "Mel: I took my kids to the zoo yesterday.|Car: I'm building a library for when I have kids. I'm looking forward to reading to them.",
        "Mel took their kids to the zoo on 7 May 2023.|Car is building a library for when Car has kids.",
    )]);
}

#[test]
fn a_reply_about_them_keeps_them_in_reach() {
    check(&[
        (
            "Jo: My parents helped me move last week. They really keep me grounded.|Ana: Their support sounds wonderful.|Jo: They're my rock and always cheer me on.",
            "Jo's parents helped Jo move in the week of 1 May 2023.|Jo's parents really keep Jo grounded.|Jo's parents are Jo's rock.|Jo's parents always cheer Jo on.",
        ),
        // the reply's own people are who its "they" are
        (
            "Jo: My parents helped me move last week.|Ana: Movers are pricey. They charge by the hour.|Jo: They were quick.",
            "Jo's parents helped Jo move in the week of 1 May 2023.",
        ),
    ]);
}

#[test]
fn things_named_in_their_own_clause() {
    check(&[
        // "it" after "as" or "because" is the clause's own subject
        (
            "Ana: The old lighthouse is special to me as it marks the spot where my grandfather fished.",
            "The old lighthouse is special to Ana as it marks the spot where their grandfather fished.",
        ),
        // a thing someone named in a relative clause is about them
        (
            "Ana: I went to a poetry reading on Friday.|Ben: Nice! What made it so special?|Ana: It was a reading where refugee poets read about leaving home.",
            "Ana went to a poetry reading on 5 May 2023.|The poetry reading that Ana went to was a reading where refugee poets read about leaving home.",
        ),
    ]);
}

#[test]
fn an_opening_it_or_they_carries_on_the_thing_just_spoken_of() {
    check(&[
        (
            "Gia: Honestly, contemporary dance is so expressive - it really speaks to me.",
            "Contemporary dance really speaks to Gia.",
        ),
        (
            "Mo: Honestly, flowers bring joy. They were an important part of my wedding decor.",
            "Flowers were an important part of Mo's wedding decor.",
        ),
        // a clause about something else in between breaks the chain
        (
            "Mo: Honestly, art can be a real mood-booster - I saw someone drawing on the ground and it made me so happy.",
            "Mo saw someone drawing on the ground.",
        ),
        // "it" of the situation, and "us" of people in general
        ("Mo: Honestly, the move was stressful. It was a lot of work.", ""),
        ("Mo: Honestly, art is so cool like that - it connects us.", ""),
        // a hedge after a comma is a clause of its own; what is spread
        // "on it" is on the thing before
        (
            "Nate: I made a chocolate cake with berries on it, maybe you would like that!",
            "Nate made a chocolate cake with berries on it.",
        ),
    ]);
}

#[test]
fn a_doing_put_first_and_a_reason_after_keep_the_fact() {
    check(&[
        (
            "Ana: How was your week?|Jo: Ana, after finishing my screenplay I got a rejection letter from a major studio.",
            "After finishing Jo's screenplay Jo got a rejection letter from a major studio.",
        ),
        (
            "Jo: I started on a book recently since my movie did well!",
            "Jo started on a book recently since their movie did well.",
        ),
        // a state newly reached, inside a clause that points elsewhere
        (
            "John: It feels like all the hard work has paid off now that I'm an assistant manager.",
            "John is an assistant manager.",
        ),
        // "their" of the one person or the body the clause itself names
        (
            "Maria: One of the shelter residents, Laura, wrote us a letter expressing their gratitude.",
            "One of the shelter residents, Laura, wrote Maria a letter expressing their gratitude.",
        ),
        (
            "Kim: The local bakery hired me to run their social media.",
            "The local bakery hired Kim to run their social media.",
        ),
    ]);
}

#[test]
fn there_is_the_place_just_named() {
    assert_eq!(
        super::tests::chat(&[
            "Amara: I went to Porto and loved the food there. The best out there, honestly."
        ]),
        ["Amara went to Porto.", "Amara loved the food in Porto."]
    );
    assert_eq!(
        super::tests::chat(&[
            "Amara: I went to Porto. There are great bakeries.",
            "Bo: Nice!",
            "Amara: I've been there three times now.",
        ]),
        [
            "Amara went to Porto.",
            "Amara has been to Porto three times now."
        ]
    );
    // a stay there, not a visit
    assert_eq!(
        super::tests::chat(&["Kwame: I work at Monzo, I've been there 2 years."]),
        [
            "Kwame works at Monzo.",
            "Kwame has been at Monzo for 2 years."
        ]
    );
    // a place said too long before is no longer what "there" means
    assert_eq!(
        super::tests::chat(&[
            "Amara: I went to Porto.",
            "Bo: Nice!",
            "Amara: Yes.",
            "Bo: And?",
            "Amara: I want to go back there someday.",
        ]),
        ["Amara went to Porto."]
    );
}

#[test]
fn a_name_before_an_adverb_and_a_verb_is_someone() {
    assert_eq!(
        super::tests::chat(&["Amara: Zara just started swimming lessons."]),
        ["Zara just started swimming lessons."]
    );
}

#[test]
fn he_keeps_meaning_who_the_talk_is_about() {
    // Theo is spoken of with "he" and "his"; Arjun is only brought in
    assert_eq!(
        super::tests::chat(&[
            "Claire: My son Theo is four and he starts school in September.",
            "Claire: His best friend is a boy called Arjun from nursery.",
            "Bot: That's exciting! Is he nervous?",
            "Claire: A bit, but he loves his new uniform.",
        ]),
        [
            "Claire's son Theo is four years old.",
            "Theo starts school in September 2023.",
            "Theo's best friend is a boy named Arjun from nursery.",
            "Theo loves his new uniform."
        ]
    );
    // a name given to who the talk is about is who it is about after
    assert_eq!(
        super::tests::chat(&[
            "Maria: I just adopted a pup from a shelter. She brings so much joy!",
            "John: How cute! What's her name?",
            "Maria: Her name is Shadow! She's full of energy.",
        ]),
        [
            "Maria just adopted a pup from a shelter.",
            "Maria's pup brings so much joy.",
            "Maria's pup is named Shadow.",
            "Shadow is full of energy."
        ]
    );
    // a clause about someone else, with no pronoun for the one before,
    // moves the talk on
    assert_eq!(
        super::tests::chat(&[
            "Ann: My son had an accident. He's fine now.",
            "Ann: My friend Tom visited and he brought flowers.",
        ]),
        [
            "Ann's son had an accident.",
            "Ann's friend Tom visited.",
            "Tom brought flowers."
        ]
    );
}
