//! The cases of [`super`] (what a question's shape asks, and which
//! memories answer it).

use super::{asks_about_now, Asked};

#[test]
fn where_and_what_value() {
    let q = Asked::of("where is the user staying during the renovation?");
    assert!(q.placed("The user is staying with their in-laws in Delft."));
    assert!(!q.placed("The user is finally renovating the kitchen."));
    assert!(!q.placed("Sam moved there in May."));
    assert!(!Asked::of("what does Sam do?").placed("Sam lives in Leeds."));
    let q = Asked::of("where does Leo go to school?");
    assert!(q.unplaced_school("Leo has swimming on Thursdays after school."));
    assert!(!q.unplaced_school("Leo started year 1 at Greenfield Primary."));
    assert!(q.answered_by("Leo started year 1 at Greenfield Primary."));
    assert!(!Asked::of("where does Leo swim?").unplaced_school("Leo swims after school."));
    let q = Asked::of("what did Raj cook?");
    assert!(q.answered_by("Raj made a Thai green curry from scratch on 3 March 2025."));
    assert!(!q.answered_by("Raj is trying to get better at cooking."));
    assert!(!q.answered_by("Raj was tired."));
    assert!(!Asked::of("what does Raj cook?").answered_by("Raj made a curry."));
    assert!(Asked::of("what dish did Raj make?").answered_by("Raj made a curry."));
    let q = Asked::of("what's wrong with Rosa's back?");
    assert!(q.answered_by("Rosa has a slipped disc in Rosa's back."));
    assert!(!q.answered_by("Rosa's back has been hurting."));
    let q = Asked::of("what is Carmen's baby called?");
    assert!(q.answered_by("Carmen's baby will be named Lucía."));
    assert!(!q.answered_by("Carmen's baby is a girl."));
    let q = Asked::of("what band is Dev in?");
    assert!(q.answered_by("Dev's band is called The Late Commits."));
    assert!(!q.answered_by("Dev joined a band with some coworkers."));
    let q = Asked::of("what does Maeve's gran enjoy?");
    assert!(q.answered_by("Maeve's gran still loves her crosswords and Irish radio."));
    assert!(!q.answered_by("Maeve's gran is 87 years old."));
    assert!(Asked::of("what are Tom's hobbies?").answered_by("Tom enjoys sailing."));
    // a job taken up says what someone does; a gym near work is not
    // where they work
    let q = Asked::of("what does Kenji do?");
    assert!(q.no_job("Kenji's girlfriend is Aiko."));
    assert!(!q.no_job("Kenji got a job as a UX researcher at Spotify."));
    assert!(!Asked::of("where does Kenji live?").no_job("Kenji lives in Oslo."));
    let q = Asked::of("what does Priya do?");
    assert!(q.answered_by("Priya is starting a postdoc at the Crick in London in September 2025."));
    let q = Asked::of("where does Priya work?");
    assert!(q.unplaced_school("Priya has started climbing twice a week at a gym near work."));
    assert!(!q.unplaced_school("Priya is starting a postdoc at the Crick in London."));
    assert!(!q.unplaced_school("Ike teaches at Hillside Primary."));
    let q = Asked::of("where does Lucia like to eat near work?");
    assert!(!q.unplaced_school("Lucia loves a little ramen place near their office."));
    // a pastime asked "for fun" is one kept up or taken up
    let fun = Asked::of("what does Priya do for fun?");
    assert!(fun.answered_by("Priya has started climbing twice a week at a gym near work."));
    assert!(fun.answered_by("Priya took up pottery."));
    assert!(!fun.answered_by("Priya started a postdoc at the Crick."));
    assert!(!fun.answered_by("Priya lives in Camden."));
    assert!(Asked::of("what does Ana do in her spare time?")
        .answered_by("Ana plays chess twice a week."));
    assert!(!Asked::of("what does Tom do?").answered_by("Tom enjoys sailing."));
    let q = Asked::of("who is Sam dating?");
    assert!(q.answered_by("Elif and Sam broke up."));
    assert!(q.answered_by("Sam is dating Elif."));
    assert!(!q.answered_by("Sam's date went really well."));
    assert!(Asked::of("who's Ana's girlfriend?").answered_by("Ana's girlfriend is Mia."));
    assert!(!Asked::of("who is Sam meeting?").answered_by("Sam is dating Elif."));
    let q = Asked::of("what is the renovation budget?");
    assert!(q.answered_by("The user's budget went up to 28k because of plumbing issues."));
    assert!(!q.answered_by("The user is finally renovating the kitchen."));
    assert!(q.answered_by("Priya's budget for the kitchen is 25k."));
    let q = Asked::of("what is Lena's budget for the trip?");
    assert!(q.answered_by("Lena's budget is around 6000 euros for the two of them."));
    assert!(!q.answered_by("Lena is planning a trip to Japan."));
    assert!(Asked::of("how much is Maya's rent?").answered_by("Maya's rent is 1450."));
    assert!(!Asked::of("what is Ines's novel about?").answered_by("Ines's novel is 300 pages."));
    let q = Asked::of("what does Dev do for work?");
    assert!(q.answered_by("Dev is a nurse at St Mary's."));
    assert!(!q.answered_by("Dev went back to work."));
    assert!(Asked::of("what is Ana's job?").answered_by("Ana works as a pediatric nurse."));
    assert!(Asked::of("what does Ana do?").answered_by("Ana is an engineer."));
    // a role got or held names what one does
    let q = Asked::of("what does Ana do?");
    assert!(q.answered_by("Lena's sister Ana just got promoted to head of marketing at Monzo."));
    assert!(q.answered_by("Ana is head of design at Wise."));
    assert!(!q.answered_by("Ana lives in Camden."));
    assert!(!Asked::of("what does Ana do on weekends?").answered_by("Ana is an engineer."));
    // who holds a role: a memory that names them in it
    let q = Asked::of("who is Greta's tutor?");
    assert!(q.answered_by("Greta's new tutor is Aiko, Thursdays now."));
    assert!(!q.answered_by("Greta switched tutors."));
    assert!(Asked::of("who's Nadia's boss?").answered_by("Nadia reports to Gareth now."));
    // a race's time, clocked
    let q = Asked::of("what was Lucía's half marathon time?");
    assert!(q.answered_by("Lucía finished their first half marathon in Valencia in 1:56:40."));
    assert!(!q.answered_by("Lucía is training for their first half marathon."));
    assert!(!q.answered_by("Lucía runs 4 times a week."));
}

#[test]
fn work_one_is_on() {
    use super::states_work_on;
    let q = Asked::of("what is Priya working on?");
    assert!(q.answered_by("Priya is now moving on to the fraud detection project."));
    assert!(!q.answered_by("Aisha took over the database work."));
    assert!(!q.answered_by("Aisha is leading the database work."));
    assert!(!Asked::of("where does Priya work?").answered_by("Priya is leading the migration."));
    assert!(states_work_on(
        "Priya is now moving on to the fraud detection project."
    ));
    assert!(states_work_on(
        "Priya is leading the billing migration at Finlo."
    ));
    assert!(states_work_on("Tom owns the pricing page."));
    assert!(!states_work_on("Aisha took over the database work."));
    assert!(!states_work_on("Priya lives in Leeds."));
}

#[test]
fn a_description_of_what_is_asked_about() {
    let q = Asked::of("what is Ines's novel about?");
    assert!(q.answered_by("Ines's first novel is a mystery set in a lighthouse in Cornwall."));
    assert!(!q.answered_by("Ines finally finished their first novel."));
    assert!(Asked::of("What was the podcast about?")
        .answered_by("Sam's podcast was about urban gardening."));
    assert!(!Asked::of("where is Ines's novel set?")
        .answered_by("Ines's first novel is a mystery set in a lighthouse in Cornwall."));
}

#[test]
fn when_is_answered_by_a_time() {
    let q = Asked::of("When does Jonas fly out?");
    assert_eq!(
        q.timed("Jonas's flight is now on 14 June 2025."),
        Some(true)
    );
    assert_eq!(q.timed("Jonas is a bit nervous about flying."), Some(false));
    assert_eq!(q.timed("Ana moved in 2019."), Some(true));
    assert_eq!(q.timed("Ana's class is on Tuesday."), Some(true));
    assert_eq!(q.timed("Ana may visit."), Some(false));
    assert_eq!(
        Asked::of("what day is the party?").timed("The party is on Friday."),
        Some(true)
    );
    assert_eq!(
        Asked::of("where does Jonas fly from?").timed("Jonas flies."),
        None
    );
    assert_eq!(
        Asked::of("what is Jonas afraid of?").timed("Jonas flies."),
        None
    );
}

#[test]
fn questions_about_now() {
    for q in [
        "what car does Jo drive?",
        "Where does Ana work?",
        "what instrument does Luis play?",
        "who is Omar engaged to?",
        "how old is Theo?",
    ] {
        assert!(asks_about_now(q), "{q}");
    }
    for q in [
        "what did Jo sell?",
        "does Walter still work?",
        "why did Leo quit Google?",
        "Is Omar still with Lena?",
        "where did Maya live before?",
        "Jo's car",
    ] {
        assert!(!asks_about_now(q), "{q}");
    }
    let q = Asked::of("what car does Jo drive?");
    assert!(q.outdated("Jo sold their Civic."));
    assert!(!q.outdated("Jo bought a Tesla."));
    assert!(!Asked::of("what did Jo sell?").outdated("Jo sold their Civic."));
    // a switch ends one thing and names the one that holds now
    let q = Asked::of("what medication does Greta take?");
    assert!(!q.outdated("Dr. Okafor switched Greta from metformin to Ozempic."));
    assert!(!Asked::of("where does Maya live?").outdated("Maya moved from Lisbon to Oslo."));
    assert!(q.outdated("Greta stopped taking metformin."));
}

#[test]
fn what_is_going_on_is_answered_by_a_doing_under_way() {
    let q = Asked::of("what is the user reading now?");
    assert!(q.answered_by("The user is reading The Three-Body Problem."));
    assert!(!q.answered_by("The user plans to read Piranesi next."));
    assert!(!q.answered_by("The user finished reading Project Hail Mary."));
    assert!(!Asked::of("what is Ana doing?").answered_by("Ana is doing yoga."));
}

#[test]
fn what_medicine_someone_is_on() {
    let q = Asked::of("what medication is Biscuit on?");
    assert!(q.answered_by("Biscuit is on metacam once a day with his dinner."));
    assert!(q.answered_by("Grace's doctor put Grace on metformin, 500mg twice a day."));
    assert!(!q.answered_by("The vet thinks Biscuit has arthritis."));
    assert!(!Asked::of("what is Biscuit?").answered_by("Biscuit is on metacam."));
}

#[test]
fn a_question_for_a_work_is_answered_by_a_title() {
    let asked = Asked::of("what book is Tim reading?");
    assert!(asked.titled(
        "The fantasy book that Tim is reading is The Name of the Wind by Patrick Rothfuss."
    ));
    assert!(!asked.titled("Tim is reading a fantasy book that really captivates Tim."));
    assert!(!Asked::of("what is Tim reading?").titled("Tim is reading Dune."));
    assert!(Asked::of("which show did Ana binge?").titled("Ana binged Severance last week."));
    let bike = Asked::of("what bike does Sol have?");
    assert!(bike.titled("Sol's new bike is a Trek, second hand."));
    assert!(!bike.titled("Sol bought a new bike."));
}

#[test]
fn what_one_does_something_to_is_its_object() {
    let q = Asked::of("what does Sam teach?");
    assert!(q.answered_by("Sam teaches maths at a secondary school in Bristol."));
    assert!(!q.answered_by("Sam has been teaching for about 6 years."));
    assert!(!q.answered_by("Sam is moving to Bath in August 2025."));
    assert!(Asked::of("what instrument does Ana play?").answered_by("Ana plays the cello."));
    // a job is asked otherwise
    assert!(!Asked::of("what does Sam do?").answered_by("Sam does yoga."));
}
