//! Tests of [`super`]: self-introductions, what follows the name, and
//! names in a space's description.

use super::*;

#[test]
fn a_name_asked_for_is_a_persons() {
    assert!(asks_for_a_name("what's Tom's name?"));
    assert!(asks_for_a_name("who is Ravi?"));
    assert!(asks_for_a_name("what is the name of the user?"));
    assert!(!asks_for_a_name("what is the name of Tom's dog?"));
    assert!(!asks_for_a_name("what's her cat's name?"));
    assert!(!asks_for_a_name("where does Maya live?"));
}

#[test]
fn self_introductions() {
    let i = |s: &str| introduced(s).map(|(n, r)| format!("{n}|{r}"));
    assert_eq!(i("I'm Maya").as_deref(), Some("Maya|"));
    assert_eq!(
        i("Hi, I am Tom Baker.").as_deref(),
        None,
        "openers go first"
    );
    assert_eq!(i("I am Tom Baker.").as_deref(), Some("Tom Baker|"));
    assert_eq!(i("my name is Ravi").as_deref(), Some("Ravi|"));
    assert_eq!(i("My name's Li Wei!").as_deref(), Some("Li Wei|"));
    assert_eq!(i("call me Sam").as_deref(), Some("Sam|"));
    assert_eq!(
        i("I'm Maya from Lisbon").as_deref(),
        Some("Maya|from Lisbon")
    );
    assert_eq!(i("Maya here").as_deref(), Some("Maya|"));
    assert_eq!(i("I am Tariq by the way.").as_deref(), Some("Tariq|"));
    assert_eq!(i("I'm Tariq btw").as_deref(), Some("Tariq|"));
    assert_eq!(i("I'm British"), None);
    assert_eq!(i("I'm so happy"), None);
    assert_eq!(i("I'm Going to Paris"), None);
    assert_eq!(i("I'm tired"), None);
    assert_eq!(i("This is amazing"), None);
}

#[test]
fn what_an_introduction_goes_on_to_say() {
    let d = |s: &str| described(s);
    assert_eq!(d("a nurse from Leeds"), ["I'm a nurse from Leeds"]);
    assert_eq!(d("34"), ["I'm 34"]);
    assert_eq!(
        d("second year at McGill studying biology"),
        ["I'm in my second year at McGill studying biology"]
    );
    assert_eq!(
        d("third-year law student"),
        ["I'm a third-year law student"]
    );
    assert_eq!(
        d("41, divorced, two kids (Mia 12 and Sol 9)"),
        [
            "I'm 41",
            "I'm divorced",
            "I have two kids (Mia 12 and Sol 9)"
        ]
    );
    assert_eq!(d("from Leeds"), ["I'm from Leeds"]);
    assert_eq!(
        d("backend engineer at Deliveroo"),
        ["I'm a backend engineer at Deliveroo"]
    );
    assert_eq!(d("nurse"), ["I'm a nurse"]);
    assert!(d("engineer by day who loves climbing").is_empty());
    // (a part that says nothing: none of it)
    assert_eq!(d("41, nice to meet you"), Vec::<String>::new());
    assert!(d("a bit nervous").is_empty());
    assert!(d("nice to meet you").is_empty());
    assert!(d("how are you?").is_empty());
    assert!(d("2024").is_empty());
}

#[test]
fn names_in_a_space_description() {
    assert_eq!(
        from_context("Memories about Maya.").as_deref(),
        Some("Maya")
    );
    assert_eq!(
        from_context("The user is Tom Baker, a teacher").as_deref(),
        Some("Tom Baker")
    );
    assert_eq!(
        from_context("Maya, a 34-year-old nurse in Leeds").as_deref(),
        Some("Maya")
    );
    assert_eq!(from_context("Customer support chats for Acme Corp"), None);
    assert_eq!(from_context("A project about databases"), None);
}
