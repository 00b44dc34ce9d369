//! Couples: who someone's partner is, how far along a relationship a
//! fact says it is (dating, engaged, married) and whether it ended, for
//! [`super::relate`]: a break-up ends what said someone had a partner,
//! and an earlier stage with the same one is no news.

use super::slots::{normalise, same_subject, slots};

/// Who someone's partner is.
pub(super) const PARTNERS: &[&str] = &[
    "boyfriend",
    "girlfriend",
    "partner",
    "husband",
    "wife",
    "fiance",
    "fiancee",
];

/// Words besides [`PARTNERS`] of a fact that says someone has a partner.
pub(super) const PARTNERED: &[&str] = &[
    "dating", "married", "engaged", "together", "official", "couple",
];

/// How far along a relationship its slot value says it is: 1 dating or
/// a partner, 2 engaged, 3 married; `None` for an ending or no stage.
fn stage(value: &str) -> Option<u8> {
    let has = |ws: &[&str]| value.split_whitespace().any(|w| ws.contains(&w));
    if single_again_value(value) {
        None
    } else if has(&["married", "husband", "wife"]) {
        Some(3)
    } else if has(&["engaged", "fiance", "fiancee", "fiancé", "fiancée"]) {
        Some(2)
    } else if has(&[
        "dating",
        "seeing",
        "boyfriend",
        "girlfriend",
        "partner",
        "together",
        "official",
        "couple",
        "relationship",
        "going",
    ]) {
        Some(1)
    } else {
        None
    }
}

/// Whether the new relationship slot says an earlier stage than the old
/// one of the same subject, with someone the old fact names ("girlfriend
/// is aiko" after "... girlfriend aiko and kenji just got engaged").
pub(super) fn earlier_stage(
    new_slots: &[(String, String, String)],
    old_slots: &[(String, String, String)],
    old: &str,
) -> bool {
    let old_n = normalise(old);
    new_slots.iter().any(|(s1, who1, v1)| {
        s1 == "relationship"
            && old_slots.iter().any(|(s2, who2, v2)| {
                s2 == "relationship"
                    && same_subject(who1, who2)
                    && matches!((stage(v1), stage(v2)), (Some(a), Some(b)) if a < b)
                    // the one they are with, named in the old fact
                    && v1
                        .split_whitespace()
                        .last()
                        .is_some_and(|name| old_n.split_whitespace().any(|w| w == name))
            })
    })
}

/// Whether a relationship slot's value says it ended.
fn single_again_value(value: &str) -> bool {
    ENDED_RELATIONSHIP.iter().any(|p| value.starts_with(p))
}

/// How a relationship slot's value begins when it ended.
const ENDED_RELATIONSHIP: &[&str] = &[
    "broke up",
    "split up",
    "called off",
    "broke off",
    "ended the engagement",
    "ended their engagement",
    "cancelled the wedding",
    "canceled the wedding",
    "is single",
    "got divorced",
    "is divorced",
    "separated",
];

/// Who a fact says is without their partner now ("chris and zoe" for
/// "Chris and Zoe broke up", "zoe" for "Zoe is single now").
pub(super) fn single_again(fact: &str) -> Option<String> {
    slots(fact).into_iter().find_map(|(slot, who, value)| {
        (slot == "relationship" && single_again_value(&value)).then_some(who)
    })
}
