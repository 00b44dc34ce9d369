//! The data-driven cases of [`super::shape::problem`]: facts that keep
//! their shape, and chatter and broken sentences that do not.

use super::*;

#[test]
fn facts_keep_their_shape() {
    let people = ["Tim", "Caroline", "Melanie", "Joanna", "Maria", "John"];
    for fact in [
        "Tim went to a Harry Potter conference in the UK.",
        // the state of someone's event or work
        "Maria's surgery is done.",
        "Caroline's kitchen is delayed.",
        "In the week of 2 October 2023 Tim went to a Harry Potter conference.",
        "On 20 June 2023 Jon chose to go to networking events.",
        "Apart from meetings, Joanna is working on a project.",
        "While volunteering on 7 May 2023, Maria met an amazing woman, Jean.",
        "after finishing Joanna's screenplay Joanna got a rejection letter from a major company.",
        "Jon will open the studio later this year.",
        "Nate is organizing a gaming party two weekends later.",
        "Joanna went hiking.",
        "Caroline graduated.",
        // a doing judged, and what for
        "Painting is great for Caroline's self-expression.",
        "Jamal is nervous about his driving test next week.",
        "Maria is busy at the shelter getting ready for a fundraiser.",
        "The launch moved to 12 September.",
        "Rahul's sister Anika is a dentist.",
        "Maria's left knee hurts sometimes.",
        "Eva and Sam have known each other since school.",
        "Melanie has been running longer since their last chat.",
        "\"Brave\" by Sara Bareilles has a lot of significance for Caroline.",
        "Maya is the user's name.",
        "Melanie can play the violin.",
        "Rosa's sister's wedding was moved to 17 June.",
        "Dancing makes Jon so happy.",
        "Contemporary dance really speaks to Gina.",
        "Hiking has opened up a whole new world for Joanna.",
        "Maria is helping Maria's cousin find a new place.",
        "Ana's sisters are the ones who taught Ana to swim.",
        "Family is super important to Melanie.",
        // a relative "that" in the subject is not a pointer
        "Another movie script that Joanna wrote was shown on 5 May 2024.",
        // nor is a "that" that opens a clause, or a time
        "Nate discovered that turtles love lettuce.",
        "John believes that education matters.",
        "Caroline said that she will adopt a child.",
        "Tim knows that Nate won the tournament.",
        "Jon realised that dancing helps Jon relax.",
        "Joanna is writing a screenplay this summer.",
        "Ana's favourite colour is green these days.",
        "Maria volunteers at a shelter for those who need help.",
        "Tim bought the book that John recommended.",
        // a change of life, an activity with an object, a period with
        // what made it
        "Tim is retiring.",
        "John practices the violin every morning.",
        "Maria had a great time at the jazz festival.",
        "Ana graduated recently.",
        "Nate heard there's a nice trail near their home.",
        "Since Joanna is lactose intolerant Joanna is trying oat milk.",
        "Maria put together a plan for the fundraiser.",
        "Melanie is a fan of both classical and modern music.",
        "Caroline wants to make a family for kids who need one.",
        "Maria is now friends with one of their fellow volunteers.",
        "Nate knows all about Nate's turtles.",
        "Tim thinks John would love a novel by Patrick Rothfuss.",
        "Gina is over the moon because Gina can expand the store.",
        "Gina's boyfriend Sam eats everything.",
        "Kwame got the promotion.",
        "Joanna took Nate's advice and watched \"The Lord of the Rings\".",
        "Gina opened a new store in Berlin.",
        "Nate bought some turtles.",
        "The airline cancelled Gina's flight.",
    ] {
        assert_eq!(problem(fact, &people), None, "{fact}");
    }
}

#[test]
fn chatter_and_broken_sentences_do_not() {
    let people = ["Tim", "Caroline", "Melanie", "Nate", "Gina", "John"];
    for (fact, why) in [
        ("Family is everything.", "about no one"),
        ("Jon will rock the dance floor.", "a forecast, not a fact"),
        ("Joanna is on fire.", "an evaluation"),
        (
            "John is brainstorming some to help underserved communities.",
            "leans on something said elsewhere",
        ),
        (
            "John's favorite was when John was down 10 in the 4th.",
            "leans on something said elsewhere",
        ),
        (
            "Joanna took Nate's reccomendation.",
            "leans on something said elsewhere",
        ),
        (
            "Gina is gonna crush it at the show.",
            "a forecast, not a fact",
        ),
        (
            "John's family, exercise, and spending time with friends, for sure.",
            "a list, not a sentence",
        ),
        ("This was a great reminder for Tim.", "about no one"),
        ("Everyone had cool costumes.", "about no one"),
        (
            "Seeing Maria's family dancing and having fun was awesome.",
            "no subject",
        ),
        ("Tim felt so inspired.", "an evaluation"),
        ("Tariq is heartbroken.", "an evaluation"),
        ("Supporting Jon's dreams is awesome.", "about no one"),
        ("The movie made Jon's day.", "about no one"),
        ("Watching that game was a first for Tim.", "about no one"),
        (
            "There's something Caroline wants to tell Melanie.",
            "about no one",
        ),
        ("By sharing Caroline's stories.", "about no one"),
        ("After Maria moved in 2019.", "a subordinate clause alone"),
        (
            "Tim is watching some movies afterwards.",
            "leans on something said elsewhere",
        ),
        (
            "Nate is super proud of what Nate accomplished.",
            "an evaluation",
        ),
        ("\"The Santa Clause\" is a classic.", "an opinion"),
        ("J.K. Rowling is such an inspiring writer.", "an opinion"),
        (
            "Gina has got something to share.",
            "says nothing in particular",
        ),
        ("Nate is hoping for the best.", "says nothing in particular"),
        (
            "Jon is now stepping into the unknown.",
            "says nothing in particular",
        ),
        ("John has been a while.", "says nothing in particular"),
        ("Nate still had lots of fun.", "says nothing in particular"),
        ("John hiked.", "says nothing in particular"),
        (
            "Having friends who share John's hobbies can be really fun.",
            "an evaluation",
        ),
        (
            "John has different skills and talents.",
            "says nothing in particular",
        ),
        ("Jon uses different colors.", "says nothing in particular"),
        (
            "Joanna celebrated by making a delicious treat.",
            "says nothing in particular",
        ),
        ("Last time Nate saw eachother.", "no one to do it with"),
        (
            "Joanna should really try making a cake.",
            "a possibility, not a fact",
        ),
        ("Gina can reach more people.", "a possibility, not a fact"),
        ("Tim is sure John will succeed.", "a belief, not a fact"),
        (
            "Even though Maria's is small.",
            "a subordinate clause alone",
        ),
        ("Moments like that make Tim love sports.", "about no one"),
        ("One of those days made Tim laugh.", "about no one"),
        (
            "John had to share something cool with Melanie.",
            "says nothing in particular",
        ),
        ("Joanna is feeling hopeful.", "says nothing in particular"),
        // an activity or a period with nothing said of it
        ("Nate was competing.", "says nothing in particular"),
        ("John practices.", "says nothing in particular"),
        ("John had a wild week.", "says nothing in particular"),
        ("Tim had a great time.", "says nothing in particular"),
        ("John read a book.", "says nothing in particular"),
        // a kind of thing with nothing said of which
        ("Tim went on a tour.", "says nothing in particular"),
        (
            "John took a trip to a new place.",
            "says nothing in particular",
        ),
        (
            "John has different skills and talents.",
            "says nothing in particular",
        ),
        ("Jon worked hard.", "says nothing in particular"),
        ("Tim is part of something bigger.", "vague"),
        ("Tim is totally hooked.", "vague"),
        ("Maria is obsessed!", "vague"),
        (
            "Nate wants to try something new.",
            "says nothing in particular",
        ),
        (
            "John will make a list of the ones that suit what John believes in.",
            "refers back",
        ),
        // pieces of sentences
        ("Since Caroline was 17 or so.", "a subordinate clause alone"),
        (
            "Which refreshes Melanie and helps Melanie stay present.",
            "a subordinate clause alone",
        ),
        (
            "For Nate Nate just gets deep in thought.",
            "a broken sentence",
        ),
        ("Veggies are Veggies's fave.", "a broken sentence"),
        (
            "Tim likes Tim got a new lease of life.",
            "a broken sentence",
        ),
        (
            "Caroline saw some pretty cool stuff.",
            "says nothing in particular",
        ),
        ("Tim picked up new skills.", "says nothing in particular"),
        ("Joanna doesn't really want to get any.", "refers back"),
        ("John will have to check some out.", "refers back"),
        (
            "Maybe Nate will write a drama.",
            "a possibility, not a fact",
        ),
        // a place or a thing said elsewhere
        ("John hasn't been there yet.", "refers back"),
        ("Tim is planning a trip there in September.", "refers back"),
        ("Melanie is planning a few.", "refers back"),
        ("John read that book.", "refers back"),
        ("Melanie made this bowl in their class.", "refers back"),
        ("John wants the kids to learn that too.", "refers back"),
        (
            "Tim has some of their favorites on there, like these ones.",
            "refers back",
        ),
        (
            "John has read that other popular fantasy series too.",
            "refers back",
        ),
        (
            "Caroline painted this after visiting a center.",
            "refers back",
        ),
    ] {
        assert_eq!(problem(fact, &people), Some(why), "{fact}");
    }
}
