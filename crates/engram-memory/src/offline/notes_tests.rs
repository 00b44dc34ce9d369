//! The cases of [`super`] (notes: lists and labelled lines said as
//! sentences).
use super::as_prose;

fn check(note: &str, want: &[&str]) {
    let got = as_prose(note).expect("a note");
    let got: Vec<&str> = got.lines().collect();
    assert_eq!(got, want, "{note}");
}

#[test]
fn a_profile_note_is_said_as_sentences() {
    check(
        "Name: Ruth Okafor. I'm a product designer at Lumen Health.",
        &[
            "My name is Ruth Okafor.",
            "I'm a product designer at Lumen Health.",
        ],
    );
    check(
        "Name: Ruth Okafor. I'm a product designer at Lumen Health.\nCity: Toronto",
        &[
            "My name is Ruth Okafor.",
            "I'm a product designer at Lumen Health.",
            "My city is Toronto.",
        ],
    );
    check(
        "## Family\n- Partner: Sam (we got married in 2021)\n- Daughter: Ife, born March 2022\n- Dog: Biscuit, a beagle",
        &[
            "My partner is Sam.",
            "Sam and I got married in 2021.",
            "My daughter is Ife.",
            "Ife was born in March 2022.",
            "My dog is named Biscuit.",
            "Biscuit is a beagle.",
        ],
    );
    check(
        "## Preferences\n- Coffee: oat flat white, no sugar\n- Allergic to penicillin\n- Hates phone calls, prefers email",
        &[
            "My coffee preference is oat flat white, no sugar.",
            "I'm allergic to penicillin.",
            "I hate phone calls.",
            "I prefer email.",
        ],
    );
    check(
        "## Goals for 2025\n- Run a half marathon in the fall\n- Learn Portuguese before our trip to Brazil",
        &[
            "One of my goals is to run a half marathon in the fall.",
            "One of my goals is to learn Portuguese before our trip to Brazil.",
        ],
    );
    check(
        "## Plans\n- Visit Kyoto in spring",
        &["I plan to visit Kyoto in spring."],
    );
    check(
        "## Favourites\n- Book: Dune\n- Food: ramen",
        &["My favourite book is Dune.", "My favourite food is ramen."],
    );
    check(
        "Lives in: Montreal\nWorks as: UX designer at Shopify\n## Family\n- Partner: Luc, who is a chef\n## Preferences\n- Hates: cilantro",
        &[
            "I live in Montreal.",
            "I work as a UX designer at Shopify.",
            "My partner is Luc.",
            "Luc is a chef.",
            "I hate cilantro.",
        ],
    );
    check(
        "Meeting notes 12 March\n- Priya will own the roadmap\n- Next sync: 26 March",
        &[
            "Priya will own the roadmap.",
            "The next sync is on 26 March.",
        ],
    );
    check(
        "Lives: Bristol, with partner Lee\nWorks: Monzo",
        &["I live in Bristol, with partner Lee.", "I work at Monzo."],
    );
    check(
        "## Upcoming\n- Dentist on March 14th\n- Noor's recital on April 2nd\n- Party on Saturday",
        &[
            "My dentist appointment is on March 14th.",
            "Noor's recital is on April 2nd.",
            "The party is on Saturday.",
        ],
    );
}

#[test]
fn action_items_are_what_each_one_named_will_do() {
    check(
        "## Action items\n- Priya: send the migration plan to finance by Friday.\n- Tom: fix the refund bug before his holiday\n- Aisha: book the venue for the launch party\n- Owns: review the plan",
        &[
            "Priya will send the migration plan to finance by Friday.",
            "Tom will fix the refund bug before his holiday.",
            "Aisha will book the venue for the launch party.",
            "Owns: review the plan.",
        ],
    );
}

#[test]
fn a_health_record_titled_with_a_name_is_theirs() {
    check(
        "# Medical history - Zoe Clarke\n\n- DOB: 4 March 1990\n- Blood type: O negative\n- Allergies: penicillin, latex\n- Conditions: asthma (since childhood), hypothyroidism (diagnosed 2019)\n- Medications: levothyroxine 75mcg daily\n- GP: Dr. Amir Shah, Hillside Surgery",
        &[
            "Zoe Clarke was born on 4 March 1990.",
            "Zoe Clarke's blood type is O negative.",
            "Zoe Clarke is allergic to penicillin, latex.",
            "Zoe Clarke has asthma (since childhood).",
            "Zoe Clarke has hypothyroidism (diagnosed 2019).",
            "Zoe Clarke takes levothyroxine 75mcg daily.",
            "Zoe Clarke's GP is Dr. Amir Shah, Hillside Surgery.",
        ],
    );
}

#[test]
fn call_notes_are_said_of_whom_the_call_was_with() {
    check(
        "Call notes, 14 Feb 2025 - Acme Corp\nSpoke with Jane Doe (CTO) and Raj Patel (Head of IT).\n- They want SSO with Okta before rollout\n- Budget is around 50k for the first year\n- Decision expected by end of Q2\nNext step: send a security questionnaire to Raj.",
        &[
            "I had a call with Acme Corp on 14 Feb 2025.",
            "Spoke with Jane Doe and Raj Patel.",
            "Jane Doe is the CTO at Acme Corp.",
            "Raj Patel is the Head of IT at Acme Corp.",
            "Acme Corp wants SSO with Okta before rollout.",
            "Acme Corp's budget is around 50k for the first year.",
            "Acme Corp's decision is expected by end of Q2.",
            "I need to send a security questionnaire to Raj.",
        ],
    );
}

#[test]
fn text_that_is_no_note_or_labels_that_are_no_detail_are_left() {
    assert_eq!(
        as_prose("Update: we booked it! Flights on August 4th."),
        None
    );
    assert_eq!(as_prose("I moved to Oslo.\nIt is cold."), None);
    // a task's owner is no doing of the writer's
    assert!(!as_prose("## Action items\n- Owns: Priya\n- Leads: Sam")
        .unwrap_or_default()
        .contains("I own"));
    // meeting notes: labels that are not the writer's details stay
    check(
        "Date: May 3\nAgenda: launch plan\n- Ana owns the pricing page",
        &[
            "Date: May 3.",
            "Agenda: launch plan.",
            "Ana owns the pricing page.",
        ],
    );
}

#[test]
fn a_trip_note_is_where_the_writer_will_be() {
    check(
        "- Tokyo: April 3-8, staying at Hotel Gracery Shinjuku\n- Osaka: April 12-14",
        &[
            "I'm in Tokyo April 3 to 8, staying at Hotel Gracery Shinjuku.",
            "I'm in Osaka April 12 to 14.",
        ],
    );
    check(
        "Budget: about 4000 EUR for two.\nMust do: teamLab, a cooking class in Osaka.",
        &[
            "My budget is about 4000 EUR for two.",
            "I want to do teamLab and a cooking class in Osaka.",
        ],
    );
}

#[test]
fn a_reading_list_says_what_was_read_is_read_and_comes_next() {
    check(
        "Reading list 2025\n- Finished: Project Hail Mary (loved it)\n- Reading: The Three-Body Problem\n- Next: Piranesi\n- Circe",
        &[
            "I finished reading Project Hail Mary.",
            "I loved Project Hail Mary.",
            "I'm reading The Three-Body Problem.",
            "I plan to read Piranesi next.",
            "Circe is on my reading list.",
        ],
    );
}

#[test]
fn a_meeting_note_says_what_each_one_named_is_doing() {
    check(
        "Weekly sync 3 March\n- Priya: finishing the onboarding redesign\n- Tom: on holiday until the 10th\n- Decision: move standup to 9:30\n- Action: Ade to book the offsite venue by Friday\n- Hobbies: reading",
        &[
            "Priya is finishing the onboarding redesign.",
            "Tom is on holiday until the 10th.",
            "Decision: move standup to 9:30.",
            "Ade will book the offsite venue by Friday.",
            "Hobbies: reading.",
        ],
    );
}

#[test]
fn kids_and_a_partner_listed_with_ages_and_years() {
    check(
        "# About me\n\nPartner: Sam (married 2019)\nKids: Ada (6), Femi (3)",
        &[
            "My partner is Sam.",
            "I married Sam in 2019.",
            "My kid Ada is 6.",
            "My kid Femi is 3.",
        ],
    );
}

#[test]
fn a_to_do_list_under_a_heading_with_a_colon_says_when_things_are_due() {
    check(
        "To do this week:\n- book MOT for the Golf (due 20 March)\n- call mum about Easter\n- renew passport (expires June)",
        &[
            "I need to book MOT for the Golf.",
            "My MOT for the Golf is due on 20 March.",
            "I need to call mum about Easter.",
            "I need to renew passport.",
            "My passport expires in June.",
        ],
    );
}
