//! The data-driven cases of [`super::expanded`]: short answers said in
//! full, and answers or questions that are left alone.

use super::*;

#[test]
fn short_answers_said_in_full() {
    for (question, answer, expect) in [
        (
            "Wow, what a lovely photo! How long have you been married?",
            "6 years already! Time flies.",
            Some("I have been married for 6 years! Time flies."),
        ),
        (
            "Congratulations! How did you propose?",
            "On the beach in Brighton, at sunset.",
            Some("I proposed on the beach in Brighton, at sunset."),
        ),
        (
            "Congrats! What does your team work on?",
            "Payments infrastructure, mostly the card processing service.",
            Some("My team works on payments infrastructure, mostly the card processing service."),
        ),
        (
            "Noted! Any airline preference?",
            "British Airways, I'm Gold with them.",
            Some("My preferred airline is British Airways, I'm Gold with British Airways."),
        ),
        (
            "Ouch, sorry to hear that. How long is recovery?",
            "9 months apparently.",
            Some("My recovery is 9 months apparently."),
        ),
        (
            "Any plans?",
            "a small dinner at Dishoom with friends",
            Some("I'm planning a small dinner at Dishoom with friends"),
        ),
        (
            "Nice! Any plans for the weekend?",
            "A hike in the Peak District with my brother.",
            Some("I'm planning a hike in the Peak District with my brother for the weekend."),
        ),
        (
            "What are your plans for Easter?",
            "probably just family lunch at my mum's",
            Some("I'm probably planning family lunch at my mum's for Easter"),
        ),
        (
            "Got it. Any testing setup?",
            "vitest for unit tests, playwright for e2e",
            Some("I use vitest for unit tests, playwright for e2e."),
        ),
        (
            "Congratulations! When do you complete?",
            "hopefully end of September",
            Some("I hope to complete at the end of September"),
        ),
        (
            "Brilliant! When do you complete?",
            "hopefully end of April if the solicitors get a move on",
            Some("I hope to complete at the end of April if the solicitors get a move on"),
        ),
        (
            "What do your kids play?",
            "Football and chess.",
            Some("My kids play football and chess."),
        ),
        (
            "That sounds fascinating! Who's your supervisor?",
            "Dr. Patel, she's amazing.",
            Some("My supervisor is Dr. Patel, she's amazing."),
        ),
        (
            "Happy to help! Do you have a budget in mind?",
            "Around 150 euros a week.",
            Some("My budget is around 150 euros a week."),
        ),
        (
            "Do you have a favourite band?",
            "Definitely Radiohead!",
            Some("My favorite band is Radiohead!"),
        ),
        (
            "How many people are you cooking for?",
            "Four, including me.",
            Some("I'm cooking for four people, including me."),
        ),
        (
            "Sounds lovely! Where are you thinking of going?",
            "Lisbon for four days, then Porto.",
            Some("I'm going to Lisbon for four days, then Porto."),
        ),
        (
            "What's your goal time?",
            "Under two hours would be amazing.",
            Some("My goal time is under two hours"),
        ),
        (
            "Congrats! How's she settling in?",
            "Hiding under the bed mostly.",
            Some("She is hiding under the bed mostly."),
        ),
        (
            "Congratulations! When do you start?",
            "On September 1st.",
            Some("I start on September 1st."),
        ),
        (
            "When are you moving?",
            "In August, hopefully.",
            Some("I'm moving in August, hopefully."),
        ),
        (
            "When is your next check-up?",
            "On April 2nd.",
            Some("My next check-up is on April 2nd."),
        ),
        (
            "Oh nice, when's your flight?",
            "Tuesday morning, early.",
            Some("My flight is on Tuesday morning, early."),
        ),
        (
            "How many guests are you inviting?",
            "About 80.",
            Some("I'm inviting about 80 guests."),
        ),
        (
            "Exciting! How many guests?",
            "around 20, just close family and friends",
            Some("I'm having around 20 guests, just close family and friends"),
        ),
        (
            "Sure! Any foods you love?",
            "mushrooms, anything with chickpeas, and I hate olives",
            Some("I love mushrooms and anything with chickpeas, and I hate olives."),
        ),
        (
            "Any hobbies you want to keep up?",
            "climbing and I've been learning the cello",
            Some("I enjoy climbing, and I've been learning the cello."),
        ),
        (
            "Welcome! What's the job?",
            "data scientist at Skyscanner, started on Monday",
            Some("I'm a data scientist at Skyscanner, started on Monday"),
        ),
        (
            "What bands do you like?",
            "Radiohead, Blur, Pulp",
            Some("I like Radiohead, Blur and Pulp."),
        ),
        (
            "Amazing! Favourite part?",
            "honestly the food, and the temples in Kyoto were stunning",
            Some("My favourite part was the food, and the temples in Kyoto were stunning"),
        ),
        (
            "Congratulations! When does she start?",
            "September, she's moving into halls the week before",
            Some("She starts in September, she's moving into halls the week before"),
        ),
        (
            "Ouch! How long in the cast?",
            "6 weeks they reckon",
            Some("I'm in the cast for 6 weeks"),
        ),
        (
            "How many people?",
            "about 30",
            Some("I'm having about 30 people"),
        ),
        (
            "How many kids?",
            "Three.",
            Some("I have three kids."),
        ),
        (
            "Exciting! Where are you staying?",
            "A ryokan in Kyoto for the first three nights, then a hotel in Shinjuku.",
            Some("I'm staying at a ryokan in Kyoto for the first three nights, then a hotel in Shinjuku."),
        ),
        (
            "Where did you get married?",
            "Lisbon!",
            Some("I got married in Lisbon!"),
        ),
        (
            "How long have you been painting?",
            "Since I was 12 or so.",
            Some("I have been painting since I was 12 or so."),
        ),
        (
            "So, how long have you been into pottery?",
            "About four years now, and I love it.",
            Some("I have been into pottery for about four years, and I love it."),
        ),
        (
            "Wow! How long have you been playing the piano again?",
            "I've been playing for about four months now and I love it.",
            Some("I have been playing the piano for about four months now and I love it."),
        ),
        (
            "How long have you had your cat?",
            "A couple of years!",
            Some("I have had my cat for a couple of years!"),
        ),
        (
            "How long have you had Pixel?",
            "About three years.",
            Some("I have had Pixel for about three years."),
        ),
        (
            "Nice! How long have you been learning Japanese?",
            "Two years now.",
            Some("I have been learning Japanese for two years."),
        ),
        (
            "What's your budget for the trip?",
            "About $2000.",
            Some("My budget for the trip is about $2000."),
        ),
        (
            "What's your budget?",
            "Around 2000 dollars, maybe a bit more.",
            Some("My budget is around 2000 dollars, maybe a bit more."),
        ),
        (
            "What's your favorite color?",
            "Blue, definitely!",
            Some("My favorite color is Blue!"),
        ),
        (
            "Nice to meet you! Where are you from?",
            "Lisbon, originally.",
            Some("I'm from Lisbon, originally."),
        ),
        (
            "Where do you live now?",
            "Berlin.",
            Some("I live in Berlin."),
        ),
        ("How old are you?", "34.", Some("I'm 34 years old.")),
        // a thing in the place the question left for it
        (
            "Congrats! Which team did you sign with?",
            "The Harbor Hawks! Can't wait to play with them.",
            Some("I signed with the Harbor Hawks! Can't wait to play with them."),
        ),
        (
            "He's adorable! What's your dog's name?",
            "Biscuit! He's a total goofball.",
            Some("My dog's name is Biscuit! He's a total goofball."),
        ),
        (
            "What are their names?",
            "Luna and Oliver!",
            Some("Their names are Luna and Oliver!"),
        ),
        (
            "So, what are you reading these days?",
            "A thriller by Tana French.",
            Some("I'm reading a thriller by Tana French."),
        ),
        (
            "What causes have you been working on lately?",
            "Clean rivers and bike lanes, mostly.",
            Some("I have been working on clean rivers and bike lanes, mostly."),
        ),
        (
            "What policies have you been focusing on lately?",
            "Recently, school reform and public transport.",
            Some("I have been focusing on school reform and public transport."),
        ),
        // how often, how many, when: the habit, count or time asked for
        (
            "How often do you go running these days?",
            "Three times a week, usually before work.",
            Some("I go running three times a week, usually before work."),
        ),
        (
            "How often do you visit your parents?",
            "Every Sunday!",
            Some("I visit my parents every Sunday!"),
        ),
        (
            "How often do you usually swim?",
            "Twice a month.",
            Some("I usually swim twice a month."),
        ),
        (
            "How many kids do you have?",
            "Three, two boys and a girl.",
            Some("I have three kids, two boys and a girl."),
        ),
        (
            "How many languages do you speak?",
            "Four!",
            Some("I speak four languages!"),
        ),
        (
            "How many pets do you have?",
            "Just one.",
            Some("I have just one pet."),
        ),
        (
            "How many pets do you have?",
            "Two dogs and a cat.",
            Some("I have two dogs and a cat."),
        ),
        (
            "When did you start painting?",
            "Back in 2015.",
            Some("I started painting in 2015."),
        ),
        (
            "When did you move to Berlin?",
            "Last spring, right after graduating.",
            Some("I moved to Berlin last spring, right after graduating."),
        ),
        (
            "When did you get your dog?",
            "Two years ago!",
            Some("I got my dog two years ago!"),
        ),
        (
            "When did you start playing chess?",
            "When I was 12.",
            Some("I started playing chess when I was 12."),
        ),
        (
            "Nice! What instrument do you play?",
            "The clarinet.",
            Some("I play the clarinet."),
        ),
        (
            "What music do you like?",
            "Mostly jazz.",
            Some("I like mostly jazz."),
        ),
        (
            "Do you have any pets?",
            "Yes, a golden retriever called Max.",
            Some("I have a golden retriever called Max."),
        ),
        (
            "Cool! What do you do for fun?",
            "Mostly rock climbing and board games.",
            Some("For fun, I enjoy rock climbing and board games."),
        ),
        (
            "What are your hobbies?",
            "Hiking, reading and cooking.",
            Some("For fun, I enjoy hiking, reading and cooking."),
        ),
        (
            "How long have you lived in Denver?",
            "About three years.",
            Some("I have lived in Denver for about three years."),
        ),
        (
            "Oh nice! Are you married?",
            "Yes, for 6 years now.",
            Some("I have been married for 6 years."),
        ),
        (
            "Are you vegetarian?",
            "Yep, about ten years.",
            Some("I have been vegetarian for about ten years."),
        ),
        (
            "Where did you grow up?",
            "In a small town near Porto.",
            Some("I grew up in a small town near Porto."),
        ),
        (
            "Where did you grow up?",
            "Lisbon, mostly.",
            Some("I grew up in Lisbon, mostly."),
        ),
    ] {
        assert_eq!(
            expanded(question, answer).as_deref(),
            expect,
            "{question} | {answer}"
        );
    }
}

#[test]
fn full_answers_and_other_questions_are_left() {
    for (question, answer) in [
        // the answer says it itself
        (
            "How long have you had them?",
            "I've had them for 3 years now.",
        ),
        // not how long
        ("How long have you been surfing?", "5 years ago I started."),
        // a clause with its own subject and verb
        (
            "What type of movies do you like best?",
            "I love action and sci-fi movies, the effects are so cool!",
        ),
        // no such question
        ("What did you think of it?", "Super good!"),
        ("Where are you from?", "Oh, far away."),
        ("How old are you?", "Old enough!"),
        // "how" answered by no place; both met, not the speaker alone
        ("How did you propose?", "Brighton!"),
        ("How did you meet?", "At a party in Leeds."),
        ("How did you like the film?", "On the whole, good."),
        ("What does your wife do?", "Teacher."),
        // "do you have a ..." answered by a hedge, a clause or a date
        ("Do you have a budget in mind?", "Not really, I'm flexible."),
        ("Do you have a plan?", "We will see."),
        ("When is your flight?", "Not sure yet."),
        ("How are you doing?", "Doing great, thanks!"),
        ("How's she settling in?", "She loves it."),
        ("Where are you going?", "Somewhere warm!"),
        ("Where are you heading?", "I think we'll do Rome."),
        ("When is your birthday?", "I'd rather not say."),
        ("Do you have a date for the wedding?", "June 14th."),
        ("What inspires your passion?", "Nature."),
        ("Who's your favourite singer of all time?", "Adele."),
        ("Who is your supervisor?", "not sure yet."),
        ("What does your", "Nothing."),
        ("What does your dog think of it?", "Nothing!"),
        // a question that is not the last one
        ("How long have you been married? Any kids?", "Two!"),
        // no thing in the answer, or no thing asked for
        ("What's your plan?", "Not sure yet!"),
        ("What did you think of it?", "Pretty good, honestly."),
        ("What did you think of the film?", "Loved it!"),
        ("What are you up to?", "Nothing much."),
        ("What's the best part?", "The people."),
        ("Which team did you sign with?", "I signed with the Hawks."),
        (
            "What did you write on that whiteboard?",
            "On that whiteboard, I wrote down some quotes.",
        ),
        (
            "What support are you offering them?",
            "Besides the classes, I'm offering mentoring.",
        ),
        // no habit, count or time in the answer, or none asked about
        ("How often do you go running?", "Not very often."),
        ("How often do you go running?", "Whenever I can!"),
        ("How often do you think about it?", "All the time."),
        (
            "How often do you all work out together?",
            "Three times a week.",
        ),
        ("How many kids do you have?", "Too many!"),
        ("How many times have you been there?", "Three!"),
        ("How many kids does she have?", "Two."),
        ("When did you start it?", "Back in 2015."),
        ("When did you start painting?", "Ages ago, I think."),
        ("When did you start painting?", "I started in 2015."),
        ("What do you think?", "Great idea!"),
        ("What do you usually do on weekends?", "Hiking, mostly."),
        ("What time do you wake up?", "Around 6am."),
        ("Do you have any pets?", "Yes!"),
        ("Do you have any tips?", "Yes, be patient."),
        (
            "We're still deciding. Do you have any suggestions?",
            "Edinburgh, Scotland would be great.",
        ),
        ("Do you have any pets?", "Max!"),
        ("Where did you grow up?", "All over the place."),
        ("Are you married?", "Yes!"),
        ("What do you do for fun?", "Not much these days."),
        ("What do you do for fun?", "I like hiking."),
        ("What are your hobbies?", "Nothing exciting."),
        ("How long have you worked there?", "Five years."),
        ("How long have you known?", "Ages."),
        ("Are you excited?", "Yes, for weeks now."),
        ("Are you going?", "Yes, for two days."),
    ] {
        assert_eq!(expanded(question, answer), None, "{question} | {answer}");
    }
}
