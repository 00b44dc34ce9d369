//! A habit let lapse, said as not done for a long time ("Ben hasn't run
//! in months", "hasn't painted for ages"): the wording the retractions
//! know ("Ben no longer run"), so it ends "Ben is really into running".
//! Only a long time: "hasn't run this week" ends nothing. Works on
//! normalised text (lower case, spaces around).

/// How long a lapse must be to end a habit, as said after "in" or "for".
const LONG: &[&str] = &[
    "months",
    "ages",
    "years",
    "a year",
    "a while",
    "a long time",
    "forever",
];

/// `t` with "hasn't/haven't V in months" said as "no longer V"; other text
/// as it is.
pub(super) fn lapsed(t: &str) -> String {
    for neg in [" hasn't ", " haven't ", " has not ", " have not "] {
        let Some(i) = t.find(neg) else { continue };
        let after = &t[i + neg.len()..];
        let Some((doing, rest)) = after.split_once(' ') else {
            continue;
        };
        let long = ["in ", "for "].iter().any(|p| {
            rest.strip_prefix(p).is_some_and(|r| {
                LONG.iter()
                    .any(|l| r.starts_with(&format!("{l} ")) || r == *l)
            })
        });
        if long {
            return format!("{} no longer {doing} {rest}", &t[..i]);
        }
    }
    t.to_string()
}

#[cfg(test)]
mod tests {
    use super::lapsed;

    #[test]
    fn a_long_lapse_ends_a_habit() {
        assert_eq!(
            lapsed(" ben hasn't run in months "),
            " ben no longer run in months "
        );
        assert_eq!(
            lapsed(" ana hasn't painted for ages "),
            " ana no longer painted for ages "
        );
        assert_eq!(
            lapsed(" ben hasn't run this week "),
            " ben hasn't run this week "
        );
    }
}
