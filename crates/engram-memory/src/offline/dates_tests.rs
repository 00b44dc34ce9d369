//! The cases of [`super`] (dates: relative dates resolved against the day said).
use super::*;

fn check(text: &str, want: &str, want_dates: &[&str]) {
    // Monday 8 May 2023
    let today = NaiveDate::from_ymd_opt(2023, 5, 8).unwrap();
    let (got, dates) = resolve(text, today);
    assert_eq!(got, want, "{text}");
    assert_eq!(dates, want_dates, "{text}");
}

#[test]
fn relative_dates_resolve_against_the_day_they_were_said() {
    check(
        "I went yesterday.",
        "I went on 7 May 2023.",
        &["2023-05-07"],
    );
    // setting off on a day, said bare (Monday 8 May 2023)
    check(
        "we fly out Friday",
        "we fly out on 12 May 2023",
        &["2023-05-12"],
    );
    check(
        "we flew out Friday",
        "we flew out on 5 May 2023",
        &["2023-05-05"],
    );
    check(
        "we fly out to Iceland Friday",
        "we fly out to Iceland on 12 May 2023",
        &["2023-05-12"],
    );
    // a day before "and" that is no list of days
    check(
        "we are doing a hike on Sunday and the museum on Tuesday",
        "we are doing a hike on 14 May 2023 and the museum on 9 May 2023",
        &["2023-05-14", "2023-05-09"],
    );
    // a capital inside a sentence is a title's
    check(
        "my club is reading Tomorrow, and Tomorrow, and Tomorrow",
        "my club is reading Tomorrow, and Tomorrow, and Tomorrow",
        &[],
    );
    check(
        "We met last week!",
        "We met in the week of 1 May 2023!",
        &["2023-05-01"],
    );
    check(
        "She moved last month",
        "She moved in April 2023",
        &["2023-04"],
    );
    check(
        "I started painting two years ago, and it helps",
        "I started painting in 2021, and it helps",
        &["2021"],
    );
    check(
        "a trip 3 weeks ago",
        "a trip in the week of 17 April 2023",
        &["2023-04-17"],
    );
    check(
        "camping last weekend",
        "camping on the weekend of 6 May 2023",
        &["2023-05-06"],
    );
    check("done last Friday.", "done on 5 May 2023.", &["2023-05-05"]);
    check(
        "a reading last Fri.",
        "a reading on 5 May 2023.",
        &["2023-05-05"],
    );
    check("on last Monday", "on 1 May 2023", &["2023-05-01"]);
    check(
        "an interview next Tuesday",
        "an interview on 16 May 2023",
        &["2023-05-16"],
    );
    check(
        "dinner this Friday",
        "dinner on 12 May 2023",
        &["2023-05-12"],
    );
    check("in January last year", "in January 2022", &["2022"]);
    check(
        "on June 14th next year, in Ghent",
        "on June 14th, 2024, in Ghent",
        &["2024"],
    );
    check(
        "Ben is moving in on the 20th.",
        "Ben is moving in on 20 May 2023.",
        &["2023-05-20"],
    );
    check(
        "Ben is moving in on the 2nd.",
        "Ben is moving in on 2 June 2023.",
        &["2023-06-02"],
    );
    check(
        "Tom is on holiday until the 20th.",
        "Tom is on holiday until 20 May 2023.",
        &["2023-05-20"],
    );
    check(
        "We moved in on the 20th.",
        "We moved in on 20 April 2023.",
        &["2023-04-20"],
    );
    check(
        "I love it on the 20th of July.",
        "I love it on the 20th of July.",
        &[],
    );
    check(
        "Tomorrow is my birthday!",
        "my birthday is on 9 May 2023!",
        &["2023-05-09"],
    );
    check(
        "Yesterday was the last day of school.",
        "the last day of school was on 7 May 2023.",
        &["2023-05-07"],
    );
    check("next month we fly", "in June 2023 we fly", &["2023-06"]);
    check(
        "the race is this weekend",
        "the race is on the weekend of 13 May 2023",
        &["2023-05-13"],
    );
    check("a few days ago", "a few days ago", &[]);
    check("the last time", "the last time", &[]);
    check(
        "postponed to next month",
        "postponed to June 2023",
        &["2023-06"],
    );
    check(
        "open until tomorrow",
        "open until 9 May 2023",
        &["2023-05-09"],
    );
}

#[test]
fn seasons_resolve_to_the_one_meant() {
    // said in May 2023, in spring
    check(
        "We went to Peru last summer.",
        "We went to Peru in the summer of 2022.",
        &["2022"],
    );
    check(
        "the trip got pushed to next spring",
        "the trip got pushed to the spring of 2024",
        &["2024"],
    );
    check("this summer", "in the summer of 2023", &["2023"]);
    check("next summer", "in the summer of 2023", &["2023"]);
    check("last winter", "in the winter of 2022-23", &["2022"]);
    check("this fall", "in the fall of 2023", &["2023"]);
    check("last autumn", "in the fall of 2022", &["2022"]);
    // said in January: this winter began last December
    let january = NaiveDate::from_ymd_opt(2024, 1, 15).unwrap();
    let (got, _) = resolve("this winter", january);
    assert_eq!(got, "in the winter of 2023-24");
    let (got, _) = resolve("last winter", january);
    assert_eq!(got, "in the winter of 2022-23");
    // a season with no "last", "this" or "next" stays as it is
    check("I love summer", "I love summer", &[]);
}

#[test]
fn months_resolve_to_the_one_meant() {
    // said on 8 May 2023
    check(
        "I graduate next June.",
        "I graduate in June 2023.",
        &["2023-06"],
    );
    check("next April", "in April 2024", &["2024-04"]);
    check("next May", "in May 2024", &["2024-05"]);
    check("last June", "in June 2022", &["2022-06"]);
    check("last March", "in March 2023", &["2023-03"]);
    check("this December", "in December 2023", &["2023-12"]);
    check("the last may be best", "the last may be best", &[]);
    // a month alone: the one the tense points to
    check(
        "My sister is visiting in June.",
        "My sister is visiting in June 2023.",
        &["2023-06"],
    );
    // (an event one signed up for is ahead)
    check(
        "I've signed up for the Berlin marathon in September.",
        "I've signed up for the Berlin marathon in September 2023.",
        &["2023-09"],
    );
    // (when a job starts is ahead, though it was got)
    check(
        "I got the job at a school in Bath, starting in September.",
        "I got the job at a school in Bath, starting in September 2023.",
        &["2023-09"],
    );
    check(
        "I've decided to leave nursing, starting a masters in September.",
        "I've decided to leave nursing, starting a masters in September 2023.",
        &["2023-09"],
    );
    check(
        "We were going to Rome in June.",
        "We were going to Rome in June 2023.",
        &["2023-06"],
    );
    check(
        "I was starting to feel better in March.",
        "I was starting to feel better in March 2023.",
        &["2023-03"],
    );
    check(
        "I signed up for the gym in March.",
        "I signed up for the gym in March 2023.",
        &["2023-03"],
    );
    check(
        "I will move in April.",
        "I will move in April 2024.",
        &["2024-04"],
    );
    check(
        "We went to Rome in June.",
        "We went to Rome in June 2022.",
        &["2022-06"],
    );
    check(
        "I started in March.",
        "I started in March 2023.",
        &["2023-03"],
    );
    // said already, or no tense to go by
    check("I'm moving in June 2024.", "I'm moving in June 2024.", &[]);
    check("I love Rome in June.", "I love Rome in June.", &[]);
    check(
        "Theo starts school in September.",
        "Theo starts school in September 2023.",
        &["2023-09"],
    );
    check(
        "Ada starts in March.",
        "Ada starts in March 2024.",
        &["2024-03"],
    );
    check(
        "We moved to York over the summer.",
        "We moved to York in the summer of 2022.",
        &["2022"],
    );
    check(
        "We're going to Rome in the summer.",
        "We're going to Rome in the summer of 2023.",
        &["2023"],
    );
    check(
        "I love Rome in the summer.",
        "I love Rome in the summer.",
        &[],
    );
    check(
        "We used to go to the lake in the summer.",
        "We used to go to the lake in the summer.",
        &[],
    );
    check(
        "We always went to Nice in June.",
        "We always went to Nice in June.",
        &[],
    );
    check(
        "We met during the summer of 2019.",
        "We met during the summer of 2019.",
        &[],
    );
    check(
        "Last year I went to Lisbon in November.",
        "in 2022 I went to Lisbon in November.",
        &["2022"],
    );
}

#[test]
fn days_named_without_a_year_take_the_one_meant() {
    // said on 8 May 2023
    for (text, want, dates) in [
        // ahead: the next one
        (
            "I'm flying to Oslo on March 3rd.",
            "I'm flying to Oslo on 3 March 2024.",
            &["2024-03-03"][..],
        ),
        (
            "My insurance renews on 1 September.",
            "My insurance renews on 1 September 2023.",
            &["2023-09-01"],
        ),
        // done: the last one
        (
            "We got married on June 3rd.",
            "We got married on 3 June 2022.",
            &["2022-06-03"],
        ),
        (
            "Jonas flies out of Hamburg on June 12th.",
            "Jonas flies out of Hamburg on 12 June 2023.",
            &["2023-06-12"],
        ),
        (
            "The flight is now on June 14th.",
            "The flight is now on 14 June 2023.",
            &["2023-06-14"],
        ),
        (
            "We're now flying on August 6th instead.",
            "We're now flying on 6 August 2023 instead.",
            &["2023-08-06"],
        ),
        // an event one has: ahead
        (
            "I have my organic chem final on December 12th.",
            "I have my organic chem final on 12 December 2023.",
            &["2023-12-12"],
        ),
        // moved to, a span, or a day an event is on: the nearest
        (
            "Tom is on holiday from March 24 to March 28.",
            "Tom is on holiday from 24 March 2023 to 28 March 2023.",
            &["2023-03-24", "2023-03-28"],
        ),
        // from one day to another of the same month
        (
            "I'm in Tokyo April 3 to 8, staying at Hotel Gracery.",
            "I'm in Tokyo from 3 to 8 April 2023, staying at Hotel Gracery.",
            &["2023-04-03"],
        ),
        (
            "The Osaka trip is booked, October 3 to 17.",
            "The Osaka trip is booked, from 3 to 17 October 2023.",
            &["2023-10-03"],
        ),
        (
            "My check-up got moved to April 9th.",
            "My check-up got moved to 9 April 2023.",
            &["2023-04-09"],
        ),
        (
            "The check-up is on the 2nd of June!",
            "The check-up is on 2 June 2023!",
            &["2023-06-02"],
        ),
        // a year said, every year, or no tense: as said
        (
            "We got married on June 3rd, 2019.",
            "We got married on June 3rd, 2019.",
            &["2019"][..0],
        ),
        (
            "My birthday is on June 3rd.",
            "My birthday is on June 3rd.",
            &[],
        ),
        (
            "I love it on the 20th of July.",
            "I love it on the 20th of July.",
            &[],
        ),
        (
            "We go there every July 4th.",
            "We go there every July 4th.",
            &[],
        ),
    ] {
        let today = NaiveDate::from_ymd_opt(2023, 5, 8).unwrap();
        let (got, got_dates) = resolve(text, today);
        assert_eq!(got, want, "{text}");
        assert_eq!(got_dates, dates, "{text}");
    }
}

#[test]
fn a_weekday_with_its_day_is_the_date_that_is_both() {
    // said on Monday 8 May 2023: Tuesday 16 May 2023 (May 9 is the 9th)
    check(
        "the appointment is on Tuesday the 16th",
        "the appointment is on 16 May 2023",
        &["2023-05-16"],
    );
    // no Friday the 12th near but in May: 12 May 2023 is a Friday
    check(
        "the party is on Friday 12th",
        "the party is on 12 May 2023",
        &["2023-05-12"],
    );
    // past: the last one
    check(
        "we met on Saturday the 1st",
        "we met on 1 April 2023",
        &["2023-04-01"],
    );
    // no such date near: said as it was
    check("it's on Monday the 30th", "it's on Monday the 30th", &[]);
}
