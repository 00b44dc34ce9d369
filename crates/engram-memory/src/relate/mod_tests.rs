//! The cases of [`super`] (relate: how a new fact relates to an old one).
use super::*;

/// Every case of `cases.txt` (`new | old | cosine | relation`).
#[test]
fn relations() {
    let mut wrong = Vec::new();
    let mut n = 0;
    for line in include_str!("cases.txt").lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split(" | ").collect();
        assert_eq!(f.len(), 4, "{line}");
        let want = match f[3] {
            "Same" => Relation::Same,
            "Updates" => Relation::Updates,
            "Extends" => Relation::Extends,
            "Unrelated" => Relation::Unrelated,
            other => panic!("unknown relation {other}"),
        };
        let got = relate(f[0], f[1], f[2].parse().unwrap());
        if got != want {
            wrong.push(format!("{:?} vs {:?}: {got:?}, want {want:?}", f[0], f[1]));
        }
        n += 1;
    }
    assert!(n >= 40, "{n} cases");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn intolerances_are_recognised() {
    assert!(states_intolerance("Marco is lactose intolerant."));
    assert!(states_intolerance("Ana is allergic to penicillin."));
    assert!(!states_intolerance("Marco does the cooking on weekends."));
}

#[test]
fn a_retracted_name_keeps_its_description() {
    assert_eq!(
        described_subject(
            "Max passed away in the week of 29 April 2024.",
            "Tariq adopted a rescue dog named Max."
        )
        .as_deref(),
        Some("Tariq's dog Max passed away in the week of 29 April 2024.")
    );
    assert_eq!(
        described_subject("Max passed away.", "Max loves the beach."),
        None
    );
    assert_eq!(
        described_subject("Leo quit Google.", "Leo works at Google."),
        None
    );
}

#[test]
fn an_update_keeps_whose_thing_it_is() {
    let said = |new: &str, old: &str| described_subject(new, old);
    assert_eq!(
        said(
            "The deadline got pushed to April 30.",
            "The deadline for the billing migration is March 15."
        )
        .as_deref(),
        Some("The deadline for the billing migration got pushed to April 30.")
    );
    assert_eq!(
        said(
            "The wedding was moved to 17 June.",
            "Rosa's sister's wedding is on 3 June."
        )
        .as_deref(),
        Some("Rosa's sister's wedding was moved to 17 June.")
    );
    assert_eq!(
        said(
            "The budget went up to 28k because of plumbing issues.",
            "The user's budget is around 25k."
        )
        .as_deref(),
        Some("The user's budget went up to 28k because of plumbing issues.")
    );
    // a wedding moved, said of the old plan; a race told by its place
    assert_eq!(
        said(
            "The wedding got moved to September 2025 because the vineyard double booked.",
            "Hana's sister Lena is getting married to Tom in June 2025."
        )
        .as_deref(),
        Some("Hana's sister Lena is getting married to Tom in September 2025.")
    );
    assert_eq!(
        said(
            "Lucía finished Valencia in 1:56:40.",
            "Lucía's first half marathon is on 12 October 2025 in Valencia."
        )
        .as_deref(),
        Some("Lucía finished their first half marathon in Valencia in 1:56:40.")
    );
    assert_eq!(
        said(
            "Jess moved out.",
            "Jess is moving out in March 2025 to live with her boyfriend."
        )
        .as_deref(),
        Some("Jess moved out in March 2025 to live with her boyfriend.")
    );
    // already said whose, or another thing
    assert_eq!(
        said(
            "The deadline for the launch got pushed to May 2.",
            "The deadline for the billing migration is March 15."
        ),
        None
    );
    assert_eq!(
        said(
            "The budget got cut.",
            "The deadline for the launch is May 2."
        ),
        None
    );
}

#[test]
fn slots() {
    let s = |t: &str| slot(t).map(|(a, b, c)| format!("{a}|{b}|{c}"));
    assert_eq!(
        s("Caroline lives in Sweden").as_deref(),
        Some("home|caroline|sweden")
    );
    assert_eq!(
        s("My favorite book is Dune").as_deref(),
        Some("favourite book|i|dune")
    );
    assert_eq!(s("Jon is 40 years old").as_deref(), Some("age|jon|40"));
    assert_eq!(
        s("Maya moved from Lisbon to Oslo in May 2024").as_deref(),
        Some("home|maya|oslo in may 2024")
    );
    assert_eq!(
        s("Tom is a software engineer at Stripe").as_deref(),
        Some("occupation|tom|software engineer")
    );
    assert_eq!(s("Caroline went hiking"), None);
    assert_eq!(
        s("The meeting is on the agenda"),
        None,
        "no date: not a when"
    );
}

#[test]
fn the_workplace_stays_when_the_title_changes() {
    assert_eq!(
        residual(
            "Omar got promoted to senior accountant.",
            "Omar works as a junior accountant at Deloitte."
        )
        .as_deref(),
        Some("Omar works as a senior accountant at Deloitte.")
    );
    // the new fact names the workplace: nothing is left over
    assert_eq!(
        residual(
            "Kwame was promoted to senior engineer at Acme on 7 May 2024.",
            "Kwame is a junior engineer at Acme."
        ),
        None
    );
    // a new job elsewhere is no promotion: nothing of the old stays
    assert_eq!(
        residual(
            "Hana works at Stripe.",
            "Hana works as a nurse at the city hospital."
        ),
        None
    );
    assert_eq!(
        residual(
            "Hana works as a software engineer.",
            "Hana is a nurse at the city hospital."
        ),
        None
    );
}

#[test]
fn a_skipped_stop_leaves_the_rest_of_the_plan() {
    assert_eq!(
        residual(
            "Jonas is skipping Porto and going to the Algarve instead.",
            "Jonas is going to Lisbon for four days, then Porto."
        )
        .as_deref(),
        Some("Jonas is going to Lisbon for four days.")
    );
    // a plan of one stop leaves nothing
    assert_eq!(
        residual(
            "Jonas is skipping Porto.",
            "Jonas is going to Porto in June."
        ),
        None
    );
}
