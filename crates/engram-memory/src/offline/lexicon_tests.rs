//! The lexicon's cases: verb forms, numbers and occupations as read.

use super::*;

#[test]
fn verb_forms() {
    let v = verb;
    assert_eq!(v("teach"), Some(("teach", VerbForm::Base)));
    assert_eq!(v("teaches"), Some(("teach", VerbForm::Third)));
    assert_eq!(v("taught"), Some(("teach", VerbForm::Past)));
    assert_eq!(v("moved"), Some(("move", VerbForm::Past)));
    assert_eq!(v("studied"), Some(("study", VerbForm::Past)));
    assert_eq!(v("studies"), Some(("study", VerbForm::Third)));
    assert_eq!(v("planned"), Some(("plan", VerbForm::Past)));
    assert_eq!(v("running"), Some(("run", VerbForm::Gerund)));
    assert_eq!(v("dancing"), Some(("dance", VerbForm::Gerund)));
    assert_eq!(v("gone"), Some(("go", VerbForm::Past)));
    assert_eq!(v("cancelled"), Some(("cancel", VerbForm::Past)));
    assert_eq!(v("canceled"), Some(("cancel", VerbForm::Past)));
    assert_eq!(v("travelling"), Some(("travel", VerbForm::Gerund)));
    assert_eq!(v("chemistry"), None);
    assert_eq!(v("dogs"), None);
}

#[test]
fn occupations_by_head_noun() {
    assert!(is_occupation("biologist"));
    assert!(is_occupation("engineer"));
    assert!(!is_occupation("vegetarian"));
}

#[test]
fn verbs_of_arranging_are_verbs_only_in_the_past() {
    assert_eq!(verb("booked"), Some(("book", VerbForm::Past)));
    assert_eq!(verb("reserved"), Some(("reserve", VerbForm::Past)));
    assert_eq!(verb("book"), None);
}
